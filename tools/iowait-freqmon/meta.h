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

/* "stale-corrected" or "live" */
static inline const char *meta_mode(const struct run_meta *m)
{
	return m->live ? "live" : "stale-corrected";
}

#endif
