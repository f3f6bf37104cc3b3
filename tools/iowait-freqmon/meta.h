/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run records about itself (rt-tests' rt_write_json() header idea):
 * tool version, original command line, kernel, timer_list version and mode,
 * CPUs, interval, start time, cpufreq policies.
 */
#ifndef IFM_META_H
#define IFM_META_H

#include <stdbool.h>
#include <stdint.h>

#include "cpufreq_source.h"
#include "rate.h"

struct run_meta {
	const char *version;
	char *command;		/* original argv, shell-quoted */
	char **argv;		/* original argv (argc entries) */
	int argc;
	char kernel[128];	/* uname -r, or the root's osrelease */
	unsigned int tl_major, tl_minor;
	bool live;		/* patched kernel: live idle sums */
	bool stat_idle;		/* idle/iowait from /proc/stat: timer_list
				 * has no sleep times (v0.11) */
	long user_hz;		/* /proc/stat's unit */
	const unsigned char *cpuset;	/* the sampled CPUs, by number */
	unsigned int ncap;		/* size of cpuset */
	const unsigned int *cpu;	/* the sampled CPUs, in order */
	unsigned int ncpus;
	uint64_t interval_ns;
	struct ifm_rate rate;	/* the exact rate */
	bool clock_mono;	/* --clock monotonic: absolute timestamps */
	char start[40];		/* ISO 8601 UTC */
	uint64_t start_mono_ns;	/* "now at" of the first snapshot */
	const char *root;	/* --root, or NULL */
	bool replay;
	const struct freq_source *freq;	/* NULL if cpufreq is off */
};

/*
 * Shell-quote argv into one malloc'd line (NULL on ENOMEM). An argument
 * with a control character (a newline...) is quoted as bash's $'...', so
 * that the line stays one line.
 */
char *meta_command_line(int argc, char *const argv[]);

/* Kernel release: @root's /proc/sys/kernel/osrelease, else uname -r. */
void meta_kernel(const char *root, char *buf, size_t len);

/* "relative" or "monotonic" */
static inline const char *meta_clock(const struct run_meta *m)
{
	return m->clock_mono ? "monotonic" : "relative";
}

/* "stale-corrected", "live" or "proc-stat" */
static inline const char *meta_mode(const struct run_meta *m)
{
	if (m->stat_idle)
		return "proc-stat";
	return m->live ? "live" : "stale-corrected";
}

/* Where the idle and iowait times come from: "timer_list" or "/proc/stat" */
static inline const char *meta_source(const struct run_meta *m)
{
	return m->stat_idle ? "/proc/stat" : "timer_list";
}

/* Resolution of the idle and iowait times in ns: 1, or one USER_HZ tick. */
static inline uint64_t meta_resolution_ns(const struct run_meta *m)
{
	return m->stat_idle && m->user_hz > 0 ?
	       1000000000ULL / (uint64_t)m->user_hz : 1;
}

#endif
