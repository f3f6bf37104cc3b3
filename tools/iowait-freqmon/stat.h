/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/stat per-CPU times (USER_HZ ticks): the low-resolution cross-check
 * of the timer_list figures, read at the start and the end of a run.
 */
#ifndef IFM_STAT_H
#define IFM_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "srcfile.h"

struct stat_cpu {
	uint64_t busy;		/* user+nice+system+irq+softirq+steal */
	uint64_t idle;
	uint64_t iowait;
	bool seen;
};

struct stat_snapshot {
	unsigned int ncpus;	/* capacity of cpu[] */
	struct stat_cpu *cpu;
};

/*
 * Parse the "cpuN ..." lines of @buf into @s (CPUs >= ncpus ignored).
 * Returns the number of CPUs parsed, or -ENODATA if there is none.
 */
int stat_parse(const char *buf, size_t len, struct stat_snapshot *s);

#define STAT_READ_MAX (64u << 10)	/* /proc/stat read at most */

/* Read snapshot @seq of @f (see srcfile.h) into @s. Returns 0 or -errno. */
int stat_read(struct srcfile *f, unsigned long seq, struct stat_snapshot *s);

/*
 * Is @b - @a a usable delta of one CPU: both seen, no counter gone back,
 * some time passed?
 */
bool stat_delta_ok(const struct stat_cpu *a, const struct stat_cpu *b);

#endif
