/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling thread: absolute CLOCK_MONOTONIC deadlines with
 * clock_nanosleep(TIMER_ABSTIME), missed deadlines skipped and counted.
 * Per sample: read timer_list (stop-early pread into a preallocated
 * buffer), read the frequencies (kept-open fds), account each CPU, add to
 * the summary and put the sample into the ring. No allocation, no
 * formatting, no file opening in the loop (replay excepted).
 */
#ifndef IFM_SAMPLER_H
#define IFM_SAMPLER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "account.h"
#include "cpufreq_source.h"
#include "ring.h"
#include "sample.h"
#include "srcfile.h"
#include "stat.h"
#include "summary.h"
#include "tl_reader.h"

enum sampler_end {
	SAMPLER_RUNNING,
	SAMPLER_STOPPED,	/* sampler_stop() */
	SAMPLER_DURATION,	/* the duration is over */
	SAMPLER_REPLAY_END,	/* no timer_list.K for the next sample */
	SAMPLER_ERROR,		/* err holds -errno */
};

/* Consecutive failed timer_list reads that end a run. */
#define SAMPLER_MAX_READ_ERRORS 100

struct sampler {
	/* configuration */
	uint64_t interval_ns;
	unsigned long rate_hz;		/* exact rate (-r), or 0: interval_ns */
	uint64_t duration_ns;		/* 0: until stopped */
	bool final_sample;		/* take one more sample when stopped */
	/* sources, owned by the caller */
	struct srcfile *tl_file;
	struct tl_reader *reader;
	struct freq_source *freq;	/* NULL: no frequencies */
	/*
	 * Not NULL: idle and iowait from /proc/stat (timer_list has no
	 * sleep times), in USER_HZ ticks of @user_hz; timer_list still
	 * gives the time ("now at") and the CPUs present.
	 */
	struct srcfile *stat_file;
	long user_hz;
	const unsigned int *cpu;	/* sampled CPUs, ascending */
	unsigned int ncpus;
	/* sinks, owned by the caller */
	struct ring *ring;		/* NULL: no per-sample output */
	struct summary *sum;
	int notify_fd;			/* eventfd bumped when the thread ends */

	/* state */
	struct tl_snapshot snap;
	struct stat_snapshot stat;	/* with stat_file */
	struct acct_cpu *acct;
	struct acct_tick tick;
	struct sample *scratch;		/* used when the ring is full */
	bool have_prev;
	uint64_t first_now, prev_now;
	unsigned long seq;		/* snapshots read (replay index) */
	unsigned int read_errors;	/* consecutive */
	uint64_t produced;		/* samples produced */
	atomic_bool stop;
	pthread_t thread;
	bool started;
	enum sampler_end end;
	int err;
};

/* Returns 0 or -ENOMEM. */
int sampler_init(struct sampler *s);
void sampler_free(struct sampler *s);

/*
 * Take the baseline snapshot (no sample comes out of it). Returns 0 or
 * -errno (-EBADMSG: not a timer_list).
 */
int sampler_prime(struct sampler *s);

/*
 * Start the thread, pinned to @pin_cpu if >= 0, with SCHED_FIFO priority
 * @fifo_prio if > 0. Returns 0 or -errno (-EPERM: no right to SCHED_FIFO).
 */
int sampler_start(struct sampler *s, int pin_cpu, int fifo_prio);

/* Ask the thread to stop (it takes a final sample), and wait for it. */
void sampler_stop(struct sampler *s);

/* Take one sample now (used by the thread, and by tests). */
int sampler_take(struct sampler *s);

#endif
