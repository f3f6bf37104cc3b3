/* SPDX-License-Identifier: GPL-2.0 */
/*
 * End-of-run summary, accumulated by the sampler thread as it goes (so
 * samples dropped from the output still count): per CPU busy/idle/iowait
 * time, time in each frequency, busy-weighted mean frequency, invalid
 * samples by reason, the /proc/stat cross-check, and the sampler's own cost.
 */
#ifndef IFM_SUMMARY_H
#define IFM_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "account.h"
#include "cpufreq_stats.h"
#include "sample.h"
#include "rate.h"
#include "stat.h"

#define SUMMARY_BINS 32

struct freq_bin {
	uint32_t khz;
	uint64_t time_ns, busy_ns;
};

struct summary_cpu {
	unsigned int cpu;
	uint64_t busy_ns, idle_ns, iowait_ns;	/* valid intervals only */
	uint64_t nvalid, ninvalid;
	uint64_t why[ACCT_NREASONS];		/* invalid, by ACCT_* bit */
	double busy_khz_ns;			/* sum of busy_ns * kHz */
	uint64_t busy_known_ns;			/* busy with a known freq */
	uint64_t nofreq_ns;			/* valid time, freq unknown */
	uint64_t nsplit;			/* intervals split between two */
	uint64_t other_ns, other_busy_ns;	/* beyond SUMMARY_BINS */
	struct freq_bin bins[SUMMARY_BINS];
	unsigned int nbins;
	bool have_stat;				/* stat0 and stat1 valid */
	struct stat_cpu stat0, stat1;
};

/* A policy's stats/time_in_state over the run, against the sampler's. */
struct summary_tis {
	unsigned int policy_cpu;	/* the CPU whose file was read */
	unsigned int sidx;		/* cpu[] index of a sampled CPU of it */
	struct tis_table delta;		/* end - start, USER_HZ units */
};

struct summary {
	unsigned int ncpus;
	struct summary_cpu *cpu;
	struct summary_tis *tis;	/* usable time_in_state deltas */
	unsigned int ntis;
	uint64_t nsamples;	/* intervals sampled */
	uint64_t ndropped;	/* not written out: the ring was full */
	uint64_t nmissed;	/* deadlines skipped */
	uint64_t ntruncated;	/* timer_list reads that filled the buffer */
	uint64_t nreaderr;	/* timer_list reads that failed */
	uint64_t max_late_ns;	/* worst wake-up after a deadline */
	uint64_t interval_ns;
	struct ifm_rate rate;	/* the exact rate */
	uint64_t span_ns;	/* kernel time, first to last snapshot */
	uint64_t wall_ns;	/* sampler thread run time */
	uint64_t thread_cpu_ns;	/* sampler thread CPU time */
	uint64_t proc_cpu_ns;	/* whole process CPU time, main() to the end */
	uint64_t proc_wall_ns;	/* whole process run time, main() to the end */
	uint64_t tick_ns;	/* tick period used for the stale correction */
	long user_hz;		/* /proc/stat unit */
	bool stat_idle;		/* idle/iowait from /proc/stat (no timer_list
				 * sleep times) */
	uint64_t idle_res_ns;	/* their resolution: 1, or 10^9 / user_hz */
	int command_status;	/* exit status of the command, -1 if none */
	bool have_cmd_times;	/* the command was reaped by wait4() */
	uint64_t cmd_elapsed_ns, cmd_user_ns, cmd_sys_ns;
	char end[40];		/* ISO 8601 end time */
};

/* @cpus: the sampled CPUs, in sample order. Returns 0 or -ENOMEM. */
int summary_init(struct summary *s, const unsigned int *cpus,
		 unsigned int ncpus);
void summary_free(struct summary *s);
/* Zero the figures (the CPUs stay). */
void summary_reset(struct summary *s);

void summary_add(struct summary *s, const struct sample *smp);

/* The /proc/stat figures of the run, for the CPUs where the delta is usable. */
void summary_add_stat(struct summary *s, const struct stat_snapshot *s0,
		      const struct stat_snapshot *s1);

/*
 * The time_in_state of the policy read through @policy_cpu at the start
 * (@t0) and end (@t1), for the sampled CPU at cpu[] index @sidx. Kept only
 * when the delta is usable. Returns 0 or -ENOMEM.
 */
int summary_add_tis(struct summary *s, unsigned int policy_cpu,
		    unsigned int sidx, const struct tis_table *t0,
		    const struct tis_table *t1);

/* The all-CPU row: sums of every CPU's figures (no frequency bins). */
void summary_all(const struct summary *s, struct summary_cpu *all);

/*
 * At the end of the run: the process's CPU time and run time since
 * @start_cpu_ns (CLOCK_PROCESS_CPUTIME_ID) and @start_ns (CLOCK_MONOTONIC),
 * taken at the start of main(); and the end time.
 */
void summary_end(struct summary *s, uint64_t start_ns, uint64_t start_cpu_ns);

/*
 * Share of one CPU used by the sampler thread (over its own run time) and
 * by the whole process (over the process's run time), in 0..1+.
 */
double summary_thread_share(const struct summary *s);
double summary_process_share(const struct summary *s);
/* Busy-time-weighted mean frequency in kHz, 0 if unknown. */
double summary_mean_busy_khz(const struct summary_cpu *c);
/* Time with a known frequency (the bins and "other"). */
uint64_t summary_freq_time_ns(const struct summary_cpu *c);
/* Ticks of a policy's time_in_state delta, all frequencies together. */
uint64_t summary_tis_ticks(const struct summary_tis *t);
/* Time of @c at @khz (0 if no bin). */
uint64_t summary_bin_ns(const struct summary_cpu *c, uint32_t khz);

/* Names of the ACCT_* bits, for reports. */
const char *summary_reason_name(unsigned int bit);

/*
 * Print the summary as text lines, each prefixed with @prefix ("" or "# "),
 * through @emit (one call per line, without the newline).
 */
typedef void (*summary_emit_fn)(void *ctx, const char *line);
void summary_print(const struct summary *s, const char *prefix,
		   summary_emit_fn emit, void *ctx);

#endif
