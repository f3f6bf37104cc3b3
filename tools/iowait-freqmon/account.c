// SPDX-License-Identifier: GPL-2.0
#include "account.h"

void acct_tick_init(struct acct_tick *t)
{
	t->have_first = false;
	t->first_now = t->first_jiffies = 0;
	t->tick_ns = ACCT_DEFAULT_TICK_NS;
}

void acct_tick_update(struct acct_tick *t, const struct tl_snapshot *s)
{
	uint64_t dj, dn, tick;

	if (!(s->flags & TLS_JIFFIES) || !(s->flags & TLS_NOW))
		return;
	if (!t->have_first || s->jiffies < t->first_jiffies ||
	    s->now_ns < t->first_now) {
		t->have_first = true;
		t->first_now = s->now_ns;
		t->first_jiffies = s->jiffies;
		return;
	}
	dj = s->jiffies - t->first_jiffies;
	dn = s->now_ns - t->first_now;
	if (dj < 16)
		return;
	tick = dn / dj;
	/* HZ is between 24 and 1200 on every architecture */
	if (tick >= 800000 && tick <= 42000000)
		t->tick_ns = tick;
}

uint64_t acct_pending_ns(const struct tl_cpu *c, uint64_t now,
			 uint64_t tick_ns)
{
	uint64_t pending;

	if (c->idle_entrytime >= now)
		return 0;
	pending = now - c->idle_entrytime;
	if (c->tick_stopped || pending <= tick_ns)
		return pending;
	return 0;
}

static void baseline(struct acct_cpu *st, const struct tl_cpu *c,
		     uint64_t est_idle)
{
	st->have_prev = true;
	st->raw_idle = c->idle_sleeptime;
	st->raw_iowait = c->iowait_sleeptime;
	st->rep_idle = est_idle;
	st->rep_iowait = c->iowait_sleeptime;
	st->est_total = est_idle + c->iowait_sleeptime;
}

static void invalid(struct acct_interval *out, unsigned int why)
{
	out->busy_ns = out->idle_ns = out->iowait_ns = 0;
	out->invalid = why;
}

static uint64_t clamp_u64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static void step(struct acct_cpu *st, const struct tl_cpu *c, uint64_t now,
		 uint64_t dt, uint64_t tick_ns, uint64_t res_ns,
		 struct acct_interval *out);

void acct_step(struct acct_cpu *st, const struct tl_cpu *c, uint64_t now,
	       uint64_t dt, uint64_t tick_ns, struct acct_interval *out)
{
	step(st, c, now, dt, tick_ns, 0, out);
}

void acct_step_coarse(struct acct_cpu *st, bool present, uint64_t idle_ns,
		      uint64_t iowait_ns, uint64_t now, uint64_t dt,
		      uint64_t res_ns, struct acct_interval *out)
{
	/* up-to-date sums, as a patched kernel's: no pending estimate */
	struct tl_cpu c = {
		.idle_sleeptime = idle_ns,
		.iowait_sleeptime = iowait_ns,
		.have = TL_NEED_STALE | TL_LIVE,
		.seen = present,
	};

	step(st, &c, now, dt, 0, res_ns, out);
}

/*
 * @res_ns: the sums' resolution beyond ns (a /proc/stat tick): an interval
 * may see one more unit than it lasted.
 */
static void step(struct acct_cpu *st, const struct tl_cpu *c, uint64_t now,
		 uint64_t dt, uint64_t tick_ns, uint64_t res_ns,
		 struct acct_interval *out)
{
	uint64_t est_idle, est_total, tol, prev_total, rep_total, rep_iowait;
	uint64_t limit;

	out->live = false;
	if (!c || !c->seen) {
		st->have_prev = false;
		invalid(out, ACCT_ABSENT);
		return;
	}
	out->live = tl_cpu_live(c);
	/*
	 * Neither sum can exceed the time since boot; this also keeps every
	 * addition below far from overflow.
	 */
	if (c->bad || (c->have & TL_NEED_STALE) != TL_NEED_STALE ||
	    now > UINT64_MAX / 4 ||
	    c->idle_sleeptime > now + ACCT_SLACK_NS + res_ns ||
	    c->iowait_sleeptime > now + ACCT_SLACK_NS + res_ns ||
	    c->idle_sleeptime + c->iowait_sleeptime >
		    now + ACCT_SLACK_NS + res_ns) {
		st->have_prev = false;
		invalid(out, ACCT_FIELDS);
		return;
	}

	est_idle = c->idle_sleeptime;
	if (!out->live) {
		/* attribute the pending period to idle; it may be iowait */
		uint64_t room = now + ACCT_SLACK_NS - c->idle_sleeptime -
				c->iowait_sleeptime;
		uint64_t pending = acct_pending_ns(c, now, tick_ns);

		est_idle += pending < room ? pending : room;
	}
	est_total = est_idle + c->iowait_sleeptime;

	if (!st->have_prev) {
		baseline(st, c, est_idle);
		invalid(out, ACCT_FIRST);
		return;
	}
	if (!dt) {
		baseline(st, c, est_idle);
		invalid(out, ACCT_CLOCK);
		return;
	}
	if (c->idle_sleeptime < st->raw_idle ||
	    c->iowait_sleeptime < st->raw_iowait) {
		baseline(st, c, est_idle);
		invalid(out, ACCT_BACKWARDS);
		return;
	}
	tol = ACCT_SLACK_NS + res_ns + (out->live ? 0 : tick_ns);
	if (dt > UINT64_MAX / 4 ||
	    (est_total > st->est_total && est_total - st->est_total > dt + tol)) {
		baseline(st, c, est_idle);
		invalid(out, ACCT_EXCESS);
		return;
	}

	/*
	 * Reported sums follow the estimates but never decrease and never
	 * grow faster than the clock: what an estimate got wrong shows up in
	 * the next intervals instead of as a negative fraction.
	 */
	prev_total = st->rep_idle + st->rep_iowait;
	rep_total = clamp_u64(est_total, prev_total, prev_total + dt);
	limit = rep_total - st->rep_idle;	/* >= st->rep_iowait */
	rep_iowait = clamp_u64(c->iowait_sleeptime, st->rep_iowait, limit);

	out->iowait_ns = rep_iowait - st->rep_iowait;
	out->idle_ns = (rep_total - rep_iowait) - st->rep_idle;
	out->busy_ns = dt - out->idle_ns - out->iowait_ns;
	out->invalid = 0;

	st->rep_iowait = rep_iowait;
	st->rep_idle = rep_total - rep_iowait;
	st->raw_idle = c->idle_sleeptime;
	st->raw_iowait = c->iowait_sleeptime;
	st->est_total = est_total;
}
