/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpufreq statistics: a policy's stats/time_in_state ("<kHz> <time>" lines,
 * the time in USER_HZ units, 10 ms), read at the start and the end of a run
 * to cross-check the sampler's own time in each frequency.
 */
#ifndef IFM_CPUFREQ_STATS_H
#define IFM_CPUFREQ_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "srcfile.h"

#define TIS_MAX 64	/* frequencies kept (more are ignored) */

struct tis_table {
	unsigned int n;
	uint32_t khz[TIS_MAX];
	uint64_t ticks[TIS_MAX];	/* USER_HZ units */
};

/* Parse a time_in_state file. Returns 0 or -ENODATA (no line). */
int tis_parse(const char *buf, size_t len, struct tis_table *t);

/* Read snapshot @seq of @f into @t. Returns 0 or -errno. */
int tis_read(struct srcfile *f, unsigned long seq, struct tis_table *t);

/*
 * @d = @b - @a, frequency by frequency. Returns false when the tables do
 * not match (other frequencies, a counter gone back: stats reset).
 */
bool tis_delta(const struct tis_table *a, const struct tis_table *b,
	       struct tis_table *d);

/* "/sys/devices/system/cpu/cpuN/cpufreq/stats/time_in_state" */
#define TIS_PATH_FMT "/sys/devices/system/cpu/cpu%u/cpufreq/stats/time_in_state"

#endif
