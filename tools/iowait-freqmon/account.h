/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Idle accounting arithmetic: from two timer_list snapshots of one CPU to
 * the busy/idle/iowait split of the interval between them.
 *
 * Stock kernels print idle_sleeptime/iowait_sleeptime as last folded in
 * (on idle exit, on an interrupt in idle, or by a remote reader), so they
 * are stale while a CPU sits idle. acct_pending_ns() estimates the idle
 * time not yet folded in; see the ACCURACY section of iowait-freqmon(8).
 * A patched kernel that prints .idle_active and .nr_iowait prints live
 * sums: no estimate is added.
 *
 * Reported values are cumulative per CPU and never decrease, so every
 * interval's fractions are within [0, 1]; estimation errors are carried
 * into the following intervals instead of producing negative deltas.
 */
#ifndef IFM_ACCOUNT_H
#define IFM_ACCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "timer_list.h"

/* Why an interval is invalid (acct_interval.invalid bits) */
enum {
	ACCT_ABSENT = 1 << 0,	 /* CPU missing from the snapshot (offline) */
	ACCT_FIELDS = 1 << 1,	 /* fields missing, malformed or impossible */
	ACCT_FIRST = 1 << 2,	 /* no previous sample of this CPU */
	ACCT_BACKWARDS = 1 << 3, /* a kernel counter went backwards */
	ACCT_EXCESS = 1 << 4,	 /* more idle than elapsed time */
	ACCT_CLOCK = 1 << 5,	 /* "now at" did not advance */
	ACCT_NREASONS = 6,
};

/* Tolerance for the delay between "now at" and a CPU's block being printed. */
#define ACCT_SLACK_NS 2000000ULL
/* Tick period assumed until it is measured from the jiffies lines (HZ=250). */
#define ACCT_DEFAULT_TICK_NS 4000000ULL

struct acct_cpu {
	bool have_prev;
	uint64_t raw_idle, raw_iowait;	/* previous kernel counters */
	uint64_t est_total;		/* previous estimate of idle + iowait */
	uint64_t rep_idle, rep_iowait;	/* reported so far (monotonic) */
};

struct acct_interval {
	uint64_t busy_ns, idle_ns, iowait_ns;	/* sum to dt when valid */
	unsigned int invalid;			/* ACCT_* bits, 0 = valid */
	bool live;				/* kernel printed live sums */
};

/* Tick period estimate from the "jiffies:" and "now at" lines. */
struct acct_tick {
	bool have_first;
	uint64_t first_now, first_jiffies;
	uint64_t tick_ns;
};

void acct_tick_init(struct acct_tick *t);
void acct_tick_update(struct acct_tick *t, const struct tl_snapshot *s);

/* Forget the previous sample (the next step only sets a baseline). */
static inline void acct_cpu_reset(struct acct_cpu *st)
{
	st->have_prev = false;
}

/*
 * Idle time of @c that the kernel has not folded into idle_sleeptime yet at
 * @now, on a stock kernel: since idle_entrytime (the last update of the sums)
 * the CPU has been either idle all along or busy all along. It is idle if the
 * tick is stopped; with the tick running an idle CPU is updated every tick,
 * so a gap longer than one tick means busy.
 */
uint64_t acct_pending_ns(const struct tl_cpu *c, uint64_t now,
			 uint64_t tick_ns);

/*
 * Account one CPU for the interval ending at @now, @dt ns after the previous
 * snapshot (@dt = 0: the clock did not advance). @c is NULL or unseen if the
 * CPU is absent from this snapshot.
 */
void acct_step(struct acct_cpu *st, const struct tl_cpu *c, uint64_t now,
	       uint64_t dt, uint64_t tick_ns, struct acct_interval *out);

/*
 * The same for sums of a coarse, always up-to-date source (/proc/stat's
 * idle and iowait when timer_list has no sleep times), converted to ns, of
 * resolution @res_ns (one USER_HZ tick): tolerated as excess, and carried
 * into the following intervals like any estimation error. @present: the
 * CPU is in the source.
 */
void acct_step_coarse(struct acct_cpu *st, bool present, uint64_t idle_ns,
		      uint64_t iowait_ns, uint64_t now, uint64_t dt,
		      uint64_t res_ns, struct acct_interval *out);

/* Fixed-point fraction part/whole in 1/10000 (0..10000), rounded. */
static inline unsigned int frac_1e4(uint64_t part, uint64_t whole)
{
	if (!whole)
		return 0;
	if (part >= whole)
		return 10000;
	/* part < whole, and whole < 2^64 / 10000 for any realistic interval */
	if (whole > UINT64_MAX / 10000)
		return (unsigned int)(part / (whole / 10000));
	return (unsigned int)((part * 10000 + whole / 2) / whole);
}

#endif
