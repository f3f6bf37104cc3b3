// SPDX-License-Identifier: GPL-2.0
/*
 * Bounded randomised test of the parsers and the accounting: mutations of
 * the fixtures (byte flips, digit changes, huge numbers, lines deleted,
 * duplicated or swapped, stray "cpu:" lines, truncation) fed in random
 * chunks, through the reader with small buffers, and accounted against the
 * previous snapshot. Fixed seed and count: the same inputs on every run.
 * Asserts no crash (run it under ASan/UBSan), fractions within [0, 1] and
 * valid intervals that add up to the elapsed time.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "account.h"
#include "check.h"
#include "fixture.h"
#include "stat.h"
#include "timer_list.h"
#include "tl_reader.h"

#define NCPUS 8
#define ITERATIONS 30000
#define SEED 20261203u

static uint64_t rng = SEED;

static uint32_t rnd(uint32_t n)
{
	/* xorshift64* */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (uint32_t)((rng * 2685821657736338717ULL) >> 32) % (n ? n : 1);
}

struct text {
	char *s;
	size_t len, cap;
};

static void text_set(struct text *t, const char *s, size_t len)
{
	if (len + 64 > t->cap) {
		t->cap = 2 * len + 64;
		t->s = realloc(t->s, t->cap);
	}
	memcpy(t->s, s, len);
	t->len = len;
}

/* Replace [at, at+n) by @ins. */
static void text_splice(struct text *t, size_t at, size_t n, const char *ins,
			size_t m)
{
	if (t->len - n + m + 1 > t->cap) {
		t->cap = 2 * (t->len + m) + 64;
		t->s = realloc(t->s, t->cap);
	}
	memmove(t->s + at + m, t->s + at + n, t->len - at - n);
	memcpy(t->s + at, ins, m);
	t->len = t->len - n + m;
}

static size_t line_start(const struct text *t, size_t at)
{
	while (at > 0 && t->s[at - 1] != '\n')
		at--;
	return at;
}

static size_t line_end(const struct text *t, size_t at)
{
	while (at < t->len && t->s[at] != '\n')
		at++;
	return at < t->len ? at + 1 : at;
}

static void mutate(struct text *t)
{
	static const char *const junk[] = {
		"99999999999999999999999", "18446744073709551615", "-1", "0",
		"(null)", "cpu: 3\n", "cpu: 0\n", "jiffies: 1\n", "\n",
		"  .idle_sleeptime : 1 nsecs\n", "  .iowait_sleeptime: ",
		"now at 5 nsecs\n", "Tick Device: mode: 1\n", ":", " ",
		"  .tick_stopped   : 1\n", "  .idle_active    : 1\n",
	};
	size_t at, end, at2;
	char c[24];
	int n;

	if (!t->len)
		return;
	at = rnd((uint32_t)t->len);
	switch (rnd(8)) {
	case 0:		/* flip a byte */
		t->s[at] = (char)rnd(256);
		break;
	case 1:		/* change a digit, or glue one to a number */
		while (at < t->len && (t->s[at] < '0' || t->s[at] > '9'))
			at++;
		if (at < t->len)
			t->s[at] = (char)('0' + rnd(10));
		break;
	case 2:		/* insert junk */
		n = (int)rnd(sizeof(junk) / sizeof(*junk));
		text_splice(t, at, 0, junk[n], strlen(junk[n]));
		break;
	case 3:		/* delete a line */
		at = line_start(t, at);
		text_splice(t, at, line_end(t, at) - at, "", 0);
		break;
	case 4:		/* duplicate a line */
		at = line_start(t, at);
		end = line_end(t, at);
		if (end - at < 200) {
			char line[200];

			memcpy(line, t->s + at, end - at);
			text_splice(t, end, 0, line, end - at);
		}
		break;
	case 5:		/* truncate */
		t->len = at;
		break;
	case 6:		/* a big number somewhere */
		n = snprintf(c, sizeof(c), "%u%u", rnd(~0u), rnd(~0u));
		text_splice(t, at, 0, c, (size_t)n);
		break;
	case 7:		/* swap two lines' first bytes */
		at2 = rnd((uint32_t)t->len);
		at = line_start(t, at);
		at2 = line_start(t, at2);
		if (at < t->len && at2 < t->len) {
			char x = t->s[at];

			t->s[at] = t->s[at2];
			t->s[at2] = x;
		}
		break;
	}
}

static void parse_chunked(const struct text *t, struct tl_snapshot *snap,
			  long stop)
{
	struct tl_parser p;
	size_t got = 0;

	tl_parser_begin(&p, snap, stop);
	while (got < t->len) {
		got += 1 + rnd(1500);
		if (got > t->len)
			got = t->len;
		if (tl_parser_feed(&p, t->s, got))
			break;
	}
	tl_parser_finish(&p, true);
}

static void check_interval(const struct acct_interval *iv, uint64_t dt)
{
	if (iv->invalid) {
		CHECK_U64(iv->busy_ns | iv->idle_ns | iv->iowait_ns, 0);
		return;
	}
	CHECK(iv->busy_ns <= dt && iv->idle_ns <= dt && iv->iowait_ns <= dt);
	CHECK_U64(iv->busy_ns + iv->idle_ns + iv->iowait_ns, dt);
	CHECK(frac_1e4(iv->busy_ns, dt) <= 10000);
	CHECK(frac_1e4(iv->idle_ns, dt) + frac_1e4(iv->iowait_ns, dt) <=
	      10001);
}

static const char *const sources[] = {
	"linux-4.19-v0.8/proc/timer_list",
	"linux-6.1-v0.9/proc/timer_list",
	"patched-v0.9/proc/timer_list",
	"host-v0.10/proc/timer_list",
	"replay-stale/proc/timer_list.3",
	"replay-live/proc/timer_list.2",
	"host-v0.10-replay/proc/timer_list.5",
};

int main(void)
{
	struct tl_cpu cpus_a[NCPUS], cpus_b[NCPUS];
	struct tl_snapshot a = { .ncpus = NCPUS, .cpu = cpus_a };
	struct tl_snapshot b = { .ncpus = NCPUS, .cpu = cpus_b };
	struct stat_cpu scpu[NCPUS];
	struct stat_snapshot st = { .ncpus = NCPUS, .cpu = scpu };
	struct text t = { 0 };
	size_t nsrc = sizeof(sources) / sizeof(*sources);
	char *src[sizeof(sources) / sizeof(*sources)];
	size_t srclen[sizeof(sources) / sizeof(*sources)];
	unsigned long valid = 0, invalid = 0;
	int memfd = memfd_create("fuzz", 0);
	size_t slen;
	char *stat = fixture_load("host-v0.10/proc/stat", &slen);

	CHECK(memfd >= 0);
	for (size_t i = 0; i < nsrc; i++)
		src[i] = fixture_load(sources[i], &srclen[i]);

	for (int it = 0; it < ITERATIONS; it++) {
		size_t k = rnd((uint32_t)nsrc);
		struct acct_cpu st_cpu[NCPUS] = { { 0 } };
		long stop = rnd(4) ? (long)rnd(NCPUS) : LONG_MAX;
		uint64_t tick = rnd(2) ? ACCT_DEFAULT_TICK_NS : 1000000;
		int nmut = 1 + (int)rnd(6);

		/* previous snapshot: the fixture, maybe mutated a little */
		text_set(&t, src[k], srclen[k]);
		if (rnd(3) == 0)
			mutate(&t);
		parse_chunked(&t, &a, stop);
		for (unsigned int c = 0; c < NCPUS; c++) {
			struct acct_interval iv;

			acct_step(&st_cpu[c], &cpus_a[c], a.now_ns, 0, tick, &iv);
			check_interval(&iv, 0);
		}

		/* next snapshot: more mutations, read through the reader */
		for (int m = 0; m < nmut; m++)
			mutate(&t);
		if (rnd(2)) {
			struct tl_reader r;

			CHECK(ftruncate(memfd, 0) == 0);
			CHECK(pwrite(memfd, t.s, t.len, 0) == (ssize_t)t.len);
			CHECK(tl_reader_init(&r, 256 + rnd(20000), stop,
					     NCPUS) == 0);
			r.adaptive = rnd(2);
			r.chunk = rnd(3) ? 1 + rnd(3000) : 0;
			tl_reader_read(&r, memfd, &b);
			tl_reader_read(&r, memfd, &b);	/* with a plan */
			CHECK(r.len <= r.cap);
			tl_reader_free(&r);
		} else {
			parse_chunked(&t, &b, stop);
		}
		for (unsigned int c = 0; c < NCPUS; c++) {
			struct acct_interval iv;
			uint64_t dt = b.now_ns > a.now_ns ? b.now_ns - a.now_ns
							  : rnd(2) * 1000000;

			acct_step(&st_cpu[c], &cpus_b[c], b.now_ns, dt, tick,
				  &iv);
			check_interval(&iv, dt);
			valid += !iv.invalid;
			invalid += !!iv.invalid;
			/* and again, as if the next sample were identical */
			acct_step(&st_cpu[c], &cpus_b[c], b.now_ns + 1000, 1000,
				  tick, &iv);
			check_interval(&iv, 1000);
		}

		/* /proc/stat too */
		text_set(&t, stat, slen);
		for (int m = 0; m < nmut; m++)
			mutate(&t);
		stat_parse(t.s, t.len, &st);
	}
	printf("fuzz: %d iterations, %lu valid and %lu invalid intervals\n",
	       ITERATIONS, valid, invalid);
	/* the mutations must leave enough intact to exercise both paths */
	CHECK(valid > 1000);
	CHECK(invalid > 1000);
	for (size_t i = 0; i < nsrc; i++)
		free(src[i]);
	free(stat);
	free(t.s);
	close(memfd);
	return check_report("test_fuzz");
}
