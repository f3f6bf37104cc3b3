// SPDX-License-Identifier: GPL-2.0
/*
 * Idle accounting arithmetic: the pending-idle rule, invalid samples, live
 * (patched) sums, and a simulation of the 6.1 kernel's tick_sched
 * bookkeeping over random busy/idle/iowait timelines that checks every
 * interval's split and the cumulative error of the stale correction.
 */
#include <stdlib.h>

#include "account.h"
#include "check.h"

#define US 1000ULL
#define MS 1000000ULL
#define SEC 1000000000ULL
#define TICK (4 * MS)
#define T0 (20 * SEC)		/* simulated uptime at the start */

static struct tl_cpu stale(uint64_t entry, uint64_t idle, uint64_t iowait,
			   int tick_stopped)
{
	struct tl_cpu c = {
		.idle_entrytime = entry,
		.idle_exittime = entry,
		.idle_sleeptime = idle,
		.iowait_sleeptime = iowait,
		.tick_stopped = (uint8_t)tick_stopped,
		.have = TL_NEED_STALE | TL_EXITTIME | TL_END,
		.seen = 1,
	};
	return c;
}

static struct tl_cpu live(uint64_t idle, uint64_t iowait)
{
	struct tl_cpu c = stale(0, idle, iowait, 1);

	c.have |= TL_LIVE;
	c.idle_active = 1;
	return c;
}

static void test_pending(void)
{
	uint64_t now = 10 * SEC;
	struct tl_cpu c = stale(now - 3 * MS, 0, 0, 0);

	CHECK_U64(acct_pending_ns(&c, now, TICK), 3 * MS);	/* <= 1 tick */
	c.idle_entrytime = now - TICK;
	CHECK_U64(acct_pending_ns(&c, now, TICK), TICK);
	c.idle_entrytime = now - TICK - 1;			/* busy */
	CHECK_U64(acct_pending_ns(&c, now, TICK), 0);
	c.tick_stopped = 1;					/* idle */
	CHECK_U64(acct_pending_ns(&c, now, TICK), TICK + 1);
	c.idle_entrytime = now + 5;		/* entered after "now at" */
	CHECK_U64(acct_pending_ns(&c, now, TICK), 0);
	/* the brief's rule (entry > exit) is not used: exit is irrelevant */
	c = stale(now - 20 * MS, 0, 0, 0);
	c.idle_exittime = now - 30 * MS;
	CHECK_U64(acct_pending_ns(&c, now, TICK), 0);
}

static void step(struct acct_cpu *st, const struct tl_cpu *c, uint64_t now,
		 uint64_t dt, struct acct_interval *iv)
{
	acct_step(st, c, now, dt, TICK, iv);
	if (!iv->invalid)
		CHECK_U64(iv->busy_ns + iv->idle_ns + iv->iowait_ns, dt);
	else
		CHECK_U64(iv->busy_ns + iv->idle_ns + iv->iowait_ns, 0);
}

static void test_basic(void)
{
	struct acct_cpu st = { 0 };
	struct acct_interval iv;
	uint64_t t = 100 * SEC;
	struct tl_cpu c = stale(t - 20 * MS, 50 * SEC, SEC, 0);

	step(&st, &c, t, 0, &iv);
	CHECK_U64(iv.invalid, ACCT_FIRST);
	/* +3 ms idle, +2 ms iowait folded in, busy since 5 ms */
	c = stale(t + 5 * MS, 50 * SEC + 3 * MS, SEC + 2 * MS, 0);
	step(&st, &c, t + 10 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, 0);
	CHECK_U64(iv.idle_ns, 3 * MS);
	CHECK_U64(iv.iowait_ns, 2 * MS);
	CHECK_U64(iv.busy_ns, 5 * MS);
	CHECK(!iv.live);
	/* idle with the tick stopped since 7 ms: pending counted as idle */
	c = stale(t + 13 * MS, 50 * SEC + 3 * MS, SEC + 2 * MS, 1);
	step(&st, &c, t + 20 * MS, 10 * MS, &iv);
	CHECK_U64(iv.idle_ns, 7 * MS);
	CHECK_U64(iv.busy_ns, 3 * MS);
	/* same snapshot again one interval later: the pending period grows */
	step(&st, &c, t + 30 * MS, 10 * MS, &iv);
	CHECK_U64(iv.idle_ns, 10 * MS);
	/* "now at" did not advance */
	step(&st, &c, t + 30 * MS, 0, &iv);
	CHECK_U64(iv.invalid, ACCT_CLOCK);
	step(&st, &c, t + 31 * MS, 1 * MS, &iv);
	CHECK_U64(iv.invalid, 0);
	CHECK_U64(iv.idle_ns, 1 * MS);
}

static void test_invalid(void)
{
	struct acct_cpu st = { 0 };
	struct acct_interval iv;
	uint64_t t = 100 * SEC;
	struct tl_cpu c = stale(t - 20 * MS, 50 * SEC, SEC, 0), bad;

	step(&st, &c, t, 0, &iv);
	/* absent (offline), then back: first, then valid */
	step(&st, NULL, t + 10 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, ACCT_ABSENT);
	bad = c;
	bad.seen = 0;
	step(&st, &bad, t + 20 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, ACCT_ABSENT);
	step(&st, &c, t + 30 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, ACCT_FIRST);
	step(&st, &c, t + 40 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, 0);
	CHECK_U64(iv.busy_ns, 10 * MS);

	/* a field missing, a malformed one, impossible values */
	bad = c;
	bad.have &= ~TL_TICK_STOPPED;
	step(&st, &bad, t + 50 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, ACCT_FIELDS);
	step(&st, &c, t + 60 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, ACCT_FIRST);
	bad = c;
	bad.bad = 1;
	step(&st, &bad, t + 70 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, ACCT_FIELDS);
	bad = c;
	bad.idle_sleeptime = UINT64_MAX;
	step(&st, &bad, t + 80 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, ACCT_FIELDS);
	bad = c;
	bad.idle_sleeptime = t / 2 + 50 * MS;
	bad.iowait_sleeptime = t / 2 + 50 * MS;	/* sum > now + slack */
	step(&st, &bad, t + 90 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, ACCT_FIELDS);
	step(&st, &c, UINT64_MAX - 1, 10 * MS, &iv);	/* absurd clock */
	CHECK_U64(iv.invalid, ACCT_FIELDS);

	/* counters going backwards */
	step(&st, &c, t + 100 * MS, 10 * MS, &iv);
	step(&st, &c, t + 110 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, 0);
	bad = c;
	bad.iowait_sleeptime -= 1;
	step(&st, &bad, t + 120 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, ACCT_BACKWARDS);
	step(&st, &bad, t + 130 * MS, 10 * MS, &iv);	/* new baseline */
	CHECK_U64(iv.invalid, 0);

	/* more idle than elapsed, beyond one tick and the slack */
	bad.idle_sleeptime += 10 * MS + TICK + ACCT_SLACK_NS + 1;
	step(&st, &bad, t + 140 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, ACCT_EXCESS);
	/* within the tolerance: clamped to the interval, not invalid */
	bad.idle_sleeptime += 10 * MS + TICK;
	step(&st, &bad, t + 150 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, 0);
	CHECK_U64(iv.idle_ns, 10 * MS);
}

static void test_live(void)
{
	struct acct_cpu st = { 0 };
	struct acct_interval iv;
	uint64_t t = 100 * SEC;
	/* tick stopped and an old entry time: a correction would add 100 s */
	struct tl_cpu c = live(50 * SEC, SEC);

	step(&st, &c, t, 0, &iv);
	CHECK_U64(iv.invalid, ACCT_FIRST);
	CHECK(iv.live);
	c = live(50 * SEC + 4 * MS, SEC + 3 * MS);
	step(&st, &c, t + 10 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, 0);
	CHECK(iv.live);
	CHECK_U64(iv.idle_ns, 4 * MS);
	CHECK_U64(iv.iowait_ns, 3 * MS);
	CHECK_U64(iv.busy_ns, 3 * MS);
	/* live sums get no tick of tolerance */
	c = live(50 * SEC + 4 * MS + 10 * MS + ACCT_SLACK_NS + 1, SEC + 3 * MS);
	step(&st, &c, t + 20 * MS, 10 * MS, &iv);
	CHECK_U64(iv.invalid, ACCT_EXCESS);
}

/*
 * Pending iowait is shown as idle; when the kernel books it as iowait,
 * the idle column holds still until the iowait column has caught up.
 */
static void test_iowait_repayment(void)
{
	struct acct_cpu st = { 0 };
	struct acct_interval iv;
	uint64_t t = 100 * SEC, idle = 50 * SEC, iow = SEC;
	struct tl_cpu c = stale(t - 50 * MS, idle, iow, 0);

	step(&st, &c, t, 0, &iv);
	c = stale(t + 2 * MS, idle, iow, 1);	/* idle since t+2 */
	step(&st, &c, t + 10 * MS, 10 * MS, &iv);
	CHECK_U64(iv.idle_ns, 8 * MS);
	/* woke at t+12; the kernel books 10 ms of iowait */
	c = stale(t + 12 * MS, idle, iow + 10 * MS, 0);
	c.idle_entrytime = t + 12 * MS;
	step(&st, &c, t + 20 * MS, 10 * MS, &iv);
	CHECK_U64(iv.iowait_ns, 2 * MS);
	CHECK_U64(iv.idle_ns, 0);
	/* 5 ms of plain idle: shown as iowait, repaying 5 of the 8 ms */
	c = stale(t + 27 * MS, idle + 5 * MS, iow + 10 * MS, 0);
	step(&st, &c, t + 32 * MS, 12 * MS, &iv);
	CHECK_U64(iv.iowait_ns, 5 * MS);
	CHECK_U64(iv.idle_ns, 0);
	/* 6 ms more idle: 3 ms repay the rest, 3 ms are idle */
	c = stale(t + 38 * MS, idle + 11 * MS, iow + 10 * MS, 0);
	step(&st, &c, t + 44 * MS, 12 * MS, &iv);
	CHECK_U64(iv.iowait_ns, 3 * MS);
	CHECK_U64(iv.idle_ns, 3 * MS);
	CHECK_U64(st.rep_idle, idle + 11 * MS);
	CHECK_U64(st.rep_iowait, iow + 10 * MS);
}

/* ---- simulation of tick_sched (Linux 6.1) ------------------------------ */

enum kind { BUSY, IDLE, IOWAIT };

struct seg {
	uint64_t start, end;
	enum kind kind;
};

struct kernel {
	bool idle_active, tick_stopped;
	enum kind kind;
	uint64_t entry, exittime, sum[3];
};

static unsigned int rnd_state = 12345;

static unsigned int rnd(unsigned int n)
{
	rnd_state = rnd_state * 1103515245 + 12345;
	return (rnd_state >> 8) % n;
}

static void fold(struct kernel *k, uint64_t t)
{
	if (k->idle_active && t > k->entry) {
		k->sum[k->kind] += t - k->entry;
		k->entry = t;
	}
}

/* Advance the kernel model through segment @s up to time @t. */
static void kernel_run(struct kernel *k, const struct seg *s, uint64_t from,
		       uint64_t t)
{
	if (s->kind == BUSY)
		return;
	if (from == s->start) {			/* idle entry */
		k->idle_active = true;
		k->kind = s->kind;
		k->entry = s->start;
		/* the governor stops the tick for idles longer than a tick */
		k->tick_stopped = s->end - s->start > TICK;
	}
	if (!k->tick_stopped) {			/* a tick interrupt folds */
		uint64_t tick = (from / TICK + 1) * TICK;

		for (; tick <= t && tick < s->end; tick += TICK)
			fold(k, tick);
	}
	if (t == s->end) {			/* idle exit */
		fold(k, t);
		k->entry = t;
		k->idle_active = false;
		if (k->tick_stopped)
			k->exittime = t;
		k->tick_stopped = false;
	}
}

static void simulate(uint64_t interval, bool livemode, unsigned int seed)
{
	enum { NSEG = 4000 };
	struct seg *seg = calloc(NSEG, sizeof(*seg));
	struct kernel k = { .entry = T0, .exittime = T0 };
	struct acct_cpu st = { 0 };
	uint64_t t = T0, truth[3] = { 0 }, end, now, max_err = 0;
	uint64_t max_split_err = 0;
	unsigned int si = 0, nvalid = 0;

	rnd_state = seed;
	for (unsigned int i = 0; i < NSEG; i++) {
		seg[i].start = t;
		seg[i].kind = i % 2 ? (rnd(3) ? IOWAIT : IDLE) : BUSY;
		t += (i % 2 ? 100 * US + rnd(30000) * US
			    : 100 * US + rnd(20000) * US);
		seg[i].end = t;
	}
	end = t;
	k.sum[IDLE] = 10 * SEC;
	k.sum[IOWAIT] = SEC;
	truth[IDLE] = 10 * SEC;
	truth[IOWAIT] = SEC;

	for (now = T0 + interval; now < end; now += interval) {
		struct acct_interval iv;
		struct tl_cpu c;
		uint64_t prev = now - interval, rep_tot, true_tot, err;

		/* kernel events and truth up to now */
		while (si < NSEG && seg[si].start < now) {
			uint64_t from = seg[si].start > prev ? seg[si].start : prev;
			uint64_t to = seg[si].end < now ? seg[si].end : now;

			kernel_run(&k, &seg[si], from, to);
			truth[seg[si].kind] += to - from;
			if (seg[si].end > now)
				break;
			si++;
		}
		c = stale(k.entry, k.sum[IDLE], k.sum[IOWAIT], k.tick_stopped);
		c.idle_exittime = k.exittime;
		if (livemode) {
			c.have |= TL_LIVE;
			if (k.idle_active) {
				if (k.kind == IDLE)
					c.idle_sleeptime += now - k.entry;
				else
					c.iowait_sleeptime += now - k.entry;
			}
		}
		acct_step(&st, &c, now, now == T0 + interval ? 0 : interval,
			  TICK, &iv);
		if (now == T0 + interval)
			continue;	/* the baseline */
		CHECK_U64(iv.invalid, 0);
		if (iv.invalid)
			break;
		nvalid++;
		CHECK_U64(iv.busy_ns + iv.idle_ns + iv.iowait_ns, interval);
		rep_tot = st.rep_idle + st.rep_iowait;
		true_tot = truth[IDLE] + truth[IOWAIT];
		err = rep_tot > true_tot ? rep_tot - true_tot : true_tot - rep_tot;
		if (err > max_err)
			max_err = err;
		err = st.rep_iowait > truth[IOWAIT] ?
			      st.rep_iowait - truth[IOWAIT] :
			      truth[IOWAIT] - st.rep_iowait;
		if (err > max_split_err)
			max_split_err = err;
		if (livemode) {
			CHECK_U64(st.rep_idle, truth[IDLE]);
			CHECK_U64(st.rep_iowait, truth[IOWAIT]);
		}
	}
	printf("simulation interval %llu us %s: %u intervals, max error "
	       "idle+iowait %llu us, iowait %llu us\n",
	       (unsigned long long)(interval / US), livemode ? "live" : "stale",
	       nvalid, (unsigned long long)(max_err / US),
	       (unsigned long long)(max_split_err / US));
	CHECK(nvalid > 1000);
	/* one tick of ambiguity, plus one tick of clamping lag */
	CHECK(max_err <= 2 * TICK);
	/* pending iowait shown as idle: at most one idle period and a tick */
	CHECK(max_split_err <= 30 * MS + 2 * TICK);
	if (livemode)
		CHECK_U64(max_err, 0);
	free(seg);
}

/*
 * /proc/stat's USER_HZ sums (timer_list v0.11): a tick more than the
 * interval lasted is tolerated and carried over; fractions stay in [0, 1]
 * and the totals come right.
 */
static void test_coarse(void)
{
	const uint64_t res = 10 * MS, t0 = 400 * SEC;
	struct acct_cpu st = { 0 };
	struct acct_interval iv;
	uint64_t idle = 100 * res, tot_idle = 0, tot_busy = 0;
	/* ticks counted per 10 ms interval: unevenly, 10 in 10 intervals */
	const unsigned int ticks[10] = { 0, 2, 0, 2, 1, 1, 0, 2, 1, 1 };

	acct_step_coarse(&st, true, idle, 0, t0, 0, res, &iv);
	CHECK(iv.invalid == ACCT_FIRST);
	for (unsigned int k = 0; k < 10; k++) {
		idle += ticks[k] * res;
		acct_step_coarse(&st, true, idle, 0, t0 + (k + 1) * 10 * MS,
				 10 * MS, res, &iv);
		CHECK(iv.invalid == 0);
		CHECK(iv.idle_ns <= 10 * MS);
		CHECK_U64(iv.busy_ns + iv.idle_ns + iv.iowait_ns, 10 * MS);
		tot_idle += iv.idle_ns;
		tot_busy += iv.busy_ns;
	}
	/* the first interval saw no tick: 10 ms busy, the rest idle */
	CHECK_U64(tot_busy, 10 * MS);
	CHECK_U64(tot_idle, 90 * MS);
	/* two ticks more than the interval: beyond the resolution, excess */
	idle += 3 * res;
	acct_step_coarse(&st, true, idle, 0, t0 + 110 * MS, 10 * MS, res, &iv);
	CHECK(iv.invalid == ACCT_EXCESS);
	/* absent from /proc/stat (offline) */
	acct_step_coarse(&st, false, 0, 0, t0 + 120 * MS, 10 * MS, res, &iv);
	CHECK(iv.invalid == ACCT_ABSENT);
}

int main(void)
{
	test_coarse();
	test_pending();
	test_basic();
	test_invalid();
	test_live();
	test_iowait_repayment();
	simulate(1 * MS, false, 1);
	simulate(500 * US, false, 2);
	simulate(10 * MS, false, 3);
	simulate(1 * MS, true, 4);
	simulate(10 * MS, true, 5);
	return check_report("test_account");
}
