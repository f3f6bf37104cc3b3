/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU frequency source. Discovery (which CPUs have cpufreq, which share
 * a policy, driver, governor, limits, available frequencies) runs once at
 * start through one of two back ends:
 *
 *   cpufreq_cpupower  libcpupower (live system: it hard-codes /sys)
 *   cpufreq_sysfs     reads the sysfs files itself, under --root DIR
 *
 * Per sample, both read scaling_cur_freq of one CPU per policy with pread()
 * on an fd opened at start: bench-sampler shows that is several times cheaper
 * than libcpupower's cpufreq_get_freq_kernel(), which opens, reads and closes
 * the file on every call.
 */
#ifndef IFM_CPUFREQ_SOURCE_H
#define IFM_CPUFREQ_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "governor.h"
#include "srcfile.h"

#define FREQ_NAME_LEN 32

struct freq_policy {
	unsigned int cpu;		/* CPU whose scaling_cur_freq is read */
	unsigned char *related;		/* CPUs of the policy (ncpus bytes) */
	char driver[FREQ_NAME_LEN];
	char governor[FREQ_NAME_LEN];
	unsigned long min_khz, max_khz;	/* policy limits, 0 if unknown */
	unsigned long *avail_khz;	/* available frequencies, or NULL */
	unsigned int navail;
	struct gov_tunables *tun;	/* the governor's tunables, or NULL */
	struct srcfile cur;		/* scaling_cur_freq, kept open */
	bool open;			/* cur is set up */
	bool dead;			/* cur's file went away */
	uint32_t khz;			/* last reading, 0 if unknown */
	uint32_t prev_khz;		/* the reading before it */
	unsigned long retry;		/* samples until the next reopen */
};

/* What a back end fills in for one CPU's policy (not the fd). */
struct freq_backend {
	const char *name;
	/*
	 * Describe the policy of @cpu into @pol (related[] is zeroed,
	 * ncpus bytes). Returns 0, -ENOENT if @cpu has no cpufreq, or -errno.
	 */
	int (*probe)(const char *root, unsigned int cpu, unsigned int ncpus,
		     struct freq_policy *pol);
};

extern const struct freq_backend cpufreq_sysfs;
#ifdef IFM_HAVE_CPUPOWER
extern const struct freq_backend cpufreq_cpupower;
#endif

struct freq_source {
	const struct freq_backend *backend;
	unsigned int ncpus;		/* CPUs 0..ncpus-1 */
	int *policy_of;			/* per CPU: index in pol[] or -1 */
	struct freq_policy *pol;
	unsigned int npol;
	unsigned long retry_every;	/* samples between reopen attempts */
};

/*
 * Discover the policies of the CPUs set in @wanted[0..@ncpus-1] and open
 * their scaling_cur_freq files. @root NULL means the live system (the
 * libcpupower back end when built with it). @srcflags: SRC_REPLAY.
 * CPUs without cpufreq are simply left out. Returns 0 or -ENOMEM.
 */
int freq_source_init(struct freq_source *fs, const char *root,
		     unsigned int srcflags, const unsigned char *wanted,
		     unsigned int ncpus);
void freq_source_free(struct freq_source *fs);

/* Read every policy's current frequency (sample @seq for replay). */
void freq_source_read(struct freq_source *fs, unsigned long seq);

static inline uint32_t freq_source_khz(const struct freq_source *fs,
				       unsigned int cpu)
{
	if (cpu >= fs->ncpus || fs->policy_of[cpu] < 0)
		return 0;
	return fs->pol[fs->policy_of[cpu]].khz;
}

/* The reading before the last one: the frequency at an interval's start. */
static inline uint32_t freq_source_khz_start(const struct freq_source *fs,
					     unsigned int cpu)
{
	if (cpu >= fs->ncpus || fs->policy_of[cpu] < 0)
		return 0;
	return fs->pol[fs->policy_of[cpu]].prev_khz;
}

/* Parse a frequency file's content ("1800000\n"); 0 if malformed. */
uint32_t freq_parse_khz(const char *buf, size_t len);

#endif
