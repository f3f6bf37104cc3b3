// SPDX-License-Identifier: GPL-2.0
/*
 * timer_list parser and reader: exact values from the synthetic v0.8/v0.9
 * and patched fixtures, agreement with a slow sscanf-based oracle on every
 * well-formed fixture (the host's own v0.10 capture included), chunked
 * feeding, stop-early, the learned read plan, and the broken fixtures.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "fixture.h"
#include "timer_list.h"
#include "tl_reader.h"

#define NCPUS 16
#define MS 1000000ULL
#define SEC 1000000000ULL

/* Values of gen-fixtures.py's CPUS at NOW */
#define NOW (100 * SEC + 123456)
#define JIFFIES (4294892296ULL + NOW / (4 * MS))

static struct tl_cpu cpus[NCPUS];
static struct tl_snapshot snap = { .ncpus = NCPUS, .cpu = cpus };

/* The slow, obviously-correct reference: sscanf on every line. */
static void oracle(const char *buf, struct tl_snapshot *o)
{
	char *copy = strdup(buf), *save = NULL, *line;
	long cur = -1;

	tl_snapshot_reset(o);
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		uint64_t v;
		int cpu;

		if (!strncmp(line, "Tick Device", 11))
			break;
		if (sscanf(line, "now at %" SCNu64 " nsecs", &v) == 1) {
			o->now_ns = v;
			o->flags |= TLS_NOW;
		} else if (sscanf(line, "Timer List Version: v%u.%u",
				  &o->ver_major, &o->ver_minor) == 2) {
			o->flags |= TLS_VERSION;
		} else if (sscanf(line, "cpu: %d", &cpu) == 1) {
			cur = cpu;
			if (cpu < (int)o->ncpus) {
				o->cpu[cpu].seen = 1;
				o->nseen++;
			}
		} else if (sscanf(line, "jiffies: %" SCNu64, &v) == 1) {
			if (!(o->flags & TLS_JIFFIES))
				o->jiffies = v;
			o->flags |= TLS_JIFFIES;
			if (cur >= 0 && cur < (long)o->ncpus)
				o->cpu[cur].have |= TL_END;
		} else if (cur >= 0 && cur < (long)o->ncpus &&
			   sscanf(line, "  .%63[a-z_] : %" SCNu64, name, &v) == 2) {
			struct tl_cpu *c = &o->cpu[cur];

			if (!strcmp(name, "idle_entrytime")) {
				c->idle_entrytime = v;
				c->have |= TL_ENTRYTIME;
			} else if (!strcmp(name, "idle_exittime")) {
				c->idle_exittime = v;
				c->have |= TL_EXITTIME;
			} else if (!strcmp(name, "idle_sleeptime")) {
				c->idle_sleeptime = v;
				c->have |= TL_IDLE;
			} else if (!strcmp(name, "iowait_sleeptime")) {
				c->iowait_sleeptime = v;
				c->have |= TL_IOWAIT;
			} else if (!strcmp(name, "tick_stopped")) {
				c->tick_stopped = v != 0;
				c->have |= TL_TICK_STOPPED;
			} else if (!strcmp(name, "idle_active")) {
				c->idle_active = v != 0;
				c->have |= TL_IDLE_ACTIVE;
			} else if (!strcmp(name, "nr_iowait")) {
				c->nr_iowait = v;
				c->have |= TL_NR_IOWAIT;
			}
		}
	}
	free(copy);
}

static void check_same(const struct tl_snapshot *a, const struct tl_snapshot *b)
{
	CHECK_U64(a->now_ns, b->now_ns);
	CHECK_U64(a->ver_major, b->ver_major);
	CHECK_U64(a->ver_minor, b->ver_minor);
	CHECK_U64(a->jiffies, b->jiffies);
	CHECK_U64(a->nseen, b->nseen);
	for (unsigned int i = 0; i < a->ncpus; i++) {
		const struct tl_cpu *x = &a->cpu[i], *y = &b->cpu[i];

		CHECK_U64(x->seen, y->seen);
		CHECK_U64(x->have, y->have);
		CHECK_U64(x->idle_entrytime, y->idle_entrytime);
		CHECK_U64(x->idle_exittime, y->idle_exittime);
		CHECK_U64(x->idle_sleeptime, y->idle_sleeptime);
		CHECK_U64(x->iowait_sleeptime, y->iowait_sleeptime);
		CHECK_U64(x->tick_stopped, y->tick_stopped);
		CHECK_U64(x->idle_active, y->idle_active);
		CHECK_U64(x->nr_iowait, y->nr_iowait);
		CHECK_U64(x->bad, 0);
	}
}

static const char *const good_fixtures[] = {
	"linux-4.19-v0.8/proc/timer_list",
	"linux-6.1-v0.9/proc/timer_list",
	"patched-v0.9/proc/timer_list",
	"host-v0.10/proc/timer_list",
	"host-v0.10-replay/proc/timer_list.3",
	"replay-stale/proc/timer_list.4",
	"broken-absent-cpu/proc/timer_list",
};

static void test_against_oracle(void)
{
	struct tl_cpu ocpus[NCPUS];
	struct tl_snapshot o = { .ncpus = NCPUS, .cpu = ocpus };

	for (size_t i = 0; i < sizeof(good_fixtures) / sizeof(*good_fixtures);
	     i++) {
		size_t len;
		char *buf = fixture_load(good_fixtures[i], &len);

		CHECK(tl_parse(buf, len, &snap, LONG_MAX) == 0);
		oracle(buf, &o);
		check_same(&snap, &o);
		CHECK(snap.flags & TLS_DONE);
		CHECK(!(snap.flags & TLS_TRUNCATED));
		free(buf);
	}
}

/* The static synthetic fixtures: the exact values gen-fixtures.py wrote. */
static void check_synthetic(bool patched)
{
	const struct tl_cpu *c0 = &cpus[0], *c1 = &cpus[1];

	CHECK_U64(snap.now_ns, NOW);
	CHECK_U64(snap.jiffies, JIFFIES);
	CHECK_U64(snap.nseen, 2);
	CHECK(c0->seen && c1->seen && !cpus[2].seen);
	CHECK_U64(c0->tick_stopped, 0);
	CHECK_U64(c0->idle_entrytime, NOW - 30 * MS);
	CHECK_U64(c0->idle_exittime, NOW - 30 * MS);
	CHECK_U64(c0->idle_sleeptime, 60 * SEC + 111);
	CHECK_U64(c0->iowait_sleeptime, 2 * SEC + 222);
	CHECK_U64(c1->tick_stopped, 1);
	CHECK_U64(c1->idle_entrytime, NOW - 2 * SEC);
	CHECK_U64(c1->idle_exittime, NOW - 2 * SEC - 5 * MS);
	CHECK_U64(c1->idle_sleeptime, 70 * SEC + 333);
	CHECK_U64(c1->iowait_sleeptime, 1 * SEC + 444);
	if (patched) {
		CHECK_U64(c0->have, TL_NEED_STALE | TL_EXITTIME | TL_LIVE | TL_END);
		CHECK_U64(c1->idle_active, 1);
		CHECK_U64(c1->nr_iowait, 2);
		CHECK(tl_cpu_live(c0) && tl_cpu_live(c1));
	} else {
		CHECK_U64(c0->have, TL_NEED_STALE | TL_EXITTIME | TL_END);
		CHECK_U64(c1->have & TL_LIVE, 0);
		CHECK(!tl_cpu_live(c0) && !tl_cpu_live(c1));
	}
}

/* .idle_active without .nr_iowait (or the reverse) is not "live" */
static void test_live_rule(void)
{
	static const char text[] =
		"Timer List Version: v0.9\n"
		"now at 1000000000 nsecs\n\n"
		"cpu: 0\n"
		"  .tick_stopped   : 0\n"
		"  .idle_entrytime : 900000000 nsecs\n"
		"  .idle_sleeptime : 500000000 nsecs\n"
		"  .iowait_sleeptime: 0 nsecs\n"
		"  .idle_active    : 1\n"
		"jiffies: 4294917296\n\n"
		"cpu: 1\n"
		"  .tick_stopped   : 0\n"
		"  .idle_entrytime : 900000000 nsecs\n"
		"  .idle_sleeptime : 500000000 nsecs\n"
		"  .iowait_sleeptime: 0 nsecs\n"
		"  .nr_iowait      : 0\n"
		"jiffies: 4294917296\n";
	struct tl_cpu cpus[2];
	struct tl_snapshot snap = { .ncpus = 2, .cpu = cpus };

	CHECK(tl_parse(text, sizeof(text) - 1, &snap, 1) == 0);
	CHECK(cpus[0].seen && cpus[1].seen);
	CHECK(cpus[0].have & TL_IDLE_ACTIVE);
	CHECK(cpus[1].have & TL_NR_IOWAIT);
	CHECK(!tl_cpu_live(&cpus[0]));
	CHECK(!tl_cpu_live(&cpus[1]));
}

static void test_versions(void)
{
	static const struct {
		const char *file;
		unsigned int minor;
		bool patched;
	} v[] = {
		{ "linux-4.19-v0.8/proc/timer_list", 8, false },
		{ "linux-6.1-v0.9/proc/timer_list", 9, false },
		{ "patched-v0.9/proc/timer_list", 9, true },
	};

	for (size_t i = 0; i < sizeof(v) / sizeof(*v); i++) {
		size_t len;
		char *buf = fixture_load(v[i].file, &len);

		CHECK(tl_parse(buf, len, &snap, LONG_MAX) == 0);
		CHECK_U64(snap.ver_major, 0);
		CHECK_U64(snap.ver_minor, v[i].minor);
		check_synthetic(v[i].patched);
		free(buf);
	}
}

static void test_host(void)
{
	size_t len;
	char *buf = fixture_load("host-v0.10/proc/timer_list", &len);

	CHECK(tl_parse(buf, len, &snap, LONG_MAX) == 0);
	CHECK_U64(snap.ver_minor, 10);
	CHECK(snap.nseen >= 1);
	for (unsigned int c = 0; c < snap.nseen; c++) {
		CHECK(cpus[c].seen);
		CHECK_U64(cpus[c].have & TL_NEED_STALE, TL_NEED_STALE);
		CHECK_U64(cpus[c].have & TL_LIVE, 0);
		CHECK(cpus[c].idle_sleeptime + cpus[c].iowait_sleeptime <=
		      snap.now_ns);
	}
	free(buf);
}

/* Any split of the input into chunks gives the same snapshot. */
static void test_chunks(void)
{
	struct tl_cpu ocpus[NCPUS];
	struct tl_snapshot whole = { .ncpus = NCPUS, .cpu = ocpus };
	size_t len;
	char *buf = fixture_load("host-v0.10/proc/timer_list", &len);
	unsigned int seed = 1;

	CHECK(tl_parse(buf, len, &whole, LONG_MAX) == 0);
	for (int round = 0; round < 50; round++) {
		struct tl_parser p;
		size_t got = 0;

		tl_parser_begin(&p, &snap, LONG_MAX);
		while (got < len) {
			seed = seed * 1103515245 + 12345;
			got += 1 + (seed >> 16) % (round < 10 ? 3 : 700);
			if (got > len)
				got = len;
			if (tl_parser_feed(&p, buf, got))
				break;
		}
		CHECK(tl_parser_finish(&p, got == len) == 0);
		check_same(&snap, &whole);
	}
	free(buf);
}

/* Stop after the last wanted CPU: no byte of the tick devices is parsed. */
static void test_stop_early(void)
{
	size_t len, end1;
	char *buf = fixture_load("linux-6.1-v0.9/proc/timer_list", &len);
	size_t marks[8];
	struct tl_parser p;

	tl_parser_begin(&p, &snap, 0);
	p.marks = marks;
	p.maxmarks = 8;
	CHECK(tl_parser_feed(&p, buf, len));
	CHECK(tl_parser_finish(&p, false) == 0);
	CHECK(cpus[0].seen && !cpus[1].seen);
	CHECK_U64(cpus[0].iowait_sleeptime, 2 * SEC + 222);
	/* stopped right after cpu0's "jiffies:" line */
	end1 = (size_t)(strstr(buf, "\ncpu: 1\n") - buf) + 1;
	CHECK_U64(p.pos, end1 - 1);
	/* marks: cpu0's block start (below TL_MARK_MIN: skipped), its end */
	CHECK_U64(p.nmarks, 1);
	CHECK_U64(marks[0], end1);

	tl_parser_begin(&p, &snap, 1);
	CHECK(tl_parser_feed(&p, buf, len));
	CHECK_U64(p.pos, (size_t)(strstr(buf, "Tick Device") - buf) - 1);

	/* the last wanted CPU is absent: stop at the next higher CPU */
	free(buf);
	buf = fixture_load("broken-extra-cpu/proc/timer_list", &len);
	tl_parser_begin(&p, &snap, 5);
	CHECK(tl_parser_feed(&p, buf, len));
	CHECK(!cpus[7].seen && cpus[1].seen);
	CHECK(p.pos < (size_t)(strstr(buf, "Tick Device") - buf));
	free(buf);
}

static void test_broken(void)
{
	size_t len;
	char *buf;

	buf = fixture_load("broken-missing-field/proc/timer_list", &len);
	CHECK(tl_parse(buf, len, &snap, LONG_MAX) == 0);
	CHECK_U64(cpus[0].have & TL_NEED_STALE, TL_NEED_STALE);
	CHECK_U64(cpus[1].have & TL_IOWAIT, 0);
	CHECK(!cpus[1].bad);
	free(buf);

	buf = fixture_load("broken-extra-cpu/proc/timer_list", &len);
	CHECK(tl_parse(buf, len, &snap, LONG_MAX) == 0);
	CHECK(cpus[7].seen);
	CHECK_U64(snap.nseen, 3);
	free(buf);

	buf = fixture_load("broken-duplicate-cpu/proc/timer_list", &len);
	CHECK(tl_parse(buf, len, &snap, LONG_MAX) == 0);
	CHECK(cpus[0].bad);
	CHECK(!cpus[1].bad);
	free(buf);

	buf = fixture_load("broken-absent-cpu/proc/timer_list", &len);
	CHECK(tl_parse(buf, len, &snap, LONG_MAX) == 0);
	CHECK(cpus[0].seen && !cpus[1].seen);
	free(buf);

	buf = fixture_load("broken-non-numeric/proc/timer_list", &len);
	CHECK(tl_parse(buf, len, &snap, LONG_MAX) == 0);
	CHECK(cpus[0].bad && !(cpus[0].have & TL_IDLE));
	CHECK(cpus[1].bad && !(cpus[1].have & TL_IOWAIT));
	free(buf);

	buf = fixture_load("broken-huge/proc/timer_list", &len);
	CHECK(tl_parse(buf, len, &snap, LONG_MAX) == 0);
	CHECK(cpus[0].bad);			/* > UINT64_MAX */
	CHECK(!cpus[1].bad);			/* fits; account.c rejects it */
	CHECK_U64(cpus[1].idle_sleeptime, UINT64_MAX);
	free(buf);

	buf = fixture_load("broken-truncated/proc/timer_list", &len);
	CHECK(tl_parse(buf, len, &snap, LONG_MAX) == 0);
	/* the cut number is ignored, not read as a smaller one */
	CHECK(cpus[1].seen && !(cpus[1].have & TL_IDLE));
	CHECK_U64(cpus[1].idle_sleeptime, 0);
	free(buf);

	buf = fixture_load("broken-no-header/proc/timer_list", &len);
	CHECK(tl_parse(buf, len, &snap, LONG_MAX) == -EBADMSG);
	free(buf);

	CHECK(tl_parse("", 0, &snap, LONG_MAX) == -EBADMSG);
	CHECK(tl_parse("now at 12 nsecs\nnow at 13 nsecs\n", 32, &snap,
		       LONG_MAX) == -EBADMSG);
	CHECK(tl_parse("now at x nsecs\n", 15, &snap, LONG_MAX) == -EBADMSG);
	CHECK(tl_parse("now at 12 nsecs\ncpu: 99999999999\n  .idle_sleeptime"
		       " : 5 nsecs\n", 58, &snap, LONG_MAX) == 0);
	CHECK_U64(snap.nseen, 0);
}

static int open_fixture(const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	return open(path, O_RDONLY);
}

/* The reader: stop-early, the learned plan, small buffers. */
static void test_reader(void)
{
	struct tl_reader r;
	size_t len;
	char *buf = fixture_load("host-v0.10/proc/timer_list", &len);
	int fd = open_fixture("host-v0.10/proc/timer_list");
	size_t tick = (size_t)(strstr(buf, "Tick Device") - buf);

	CHECK(fd >= 0);
	CHECK(tl_reader_init(&r, 1 << 20, 1, NCPUS) == 0);
	CHECK(tl_reader_read(&r, fd, &snap) == 0);
	CHECK(cpus[1].have & TL_END);
	CHECK(r.len < len);			/* stopped early */
	CHECK(r.len >= tick - 1);
	CHECK_U64(r.nplan, 2);			/* cpu1 start, cpu1 end */
	CHECK_U64(r.plan[1], tick);
	/* the second read follows the plan: one request per record */
	CHECK(tl_reader_read(&r, fd, &snap) == 0);
	CHECK_U64(r.nreads, 2);
	CHECK_U64(r.reqs[1], tick - r.plan[0]);
	CHECK_U64(r.len, tick);
	tl_reader_free(&r);

	/* a buffer too small: truncated, never an overflow */
	CHECK(tl_reader_init(&r, 1000, 1, NCPUS) == 0);
	CHECK(tl_reader_read(&r, fd, &snap) == 0);
	CHECK(snap.flags & TLS_TRUNCATED);
	CHECK(!cpus[1].seen);
	tl_reader_free(&r);

	/* whole file: stop_cpu < 0 reads up to the tick devices */
	CHECK(tl_reader_init(&r, 1 << 20, -1, NCPUS) == 0);
	r.adaptive = false;
	r.chunk = 1;				/* byte by byte */
	CHECK(tl_reader_read(&r, fd, &snap) == 0);
	CHECK(cpus[0].seen && cpus[1].seen);
	CHECK(r.nreads > 1000);
	tl_reader_free(&r);
	close(fd);

	CHECK(tl_reader_init(&r, 4096, 1, NCPUS) == 0);
	CHECK(tl_reader_read(&r, -1, &snap) == -EBADF);
	tl_reader_free(&r);
	free(buf);
}

int main(void)
{
	test_versions();
	test_live_rule();
	test_host();
	test_against_oracle();
	test_chunks();
	test_stop_early();
	test_broken();
	test_reader();
	return check_report("test_timer_list");
}
