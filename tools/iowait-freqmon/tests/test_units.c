// SPDX-License-Identifier: GPL-2.0
/*
 * The small modules: CPU lists and time parsing (tools/lib), /proc/stat,
 * number formatting and JSON strings, the ring, command-line quoting,
 * replay file naming, cpufreq discovery from sysfs fixtures, the summary's
 * frequency bins, exit statuses.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "command.h"
#include "cpufreq_source.h"
#include "cpulist.h"
#include "discover.h"
#include "fixture.h"
#include "meta.h"
#include "outbuf.h"
#include "rate.h"
#include "ring.h"
#include "sampler.h"
#include "srcfile.h"
#include "stat.h"
#include "summary.h"
#include "timeutil.h"

static void test_cpulist(void)
{
	unsigned char set[16], big[1000];
	char buf[64], *list;

	CHECK(cpulist_parse("0-3,5", set, 16) == 5);
	CHECK(set[0] && set[3] && !set[4] && set[5] && !set[6]);
	CHECK(cpulist_format(set, 16, buf, sizeof(buf)) == 5);
	CHECK_STR(buf, "0-3,5");
	CHECK(cpulist_parse(" 7\n", set, 16) == 1);
	CHECK(cpulist_last(set, 16) == 7);
	CHECK(cpulist_parse("1,1,0-1", set, 16) == 2);
	CHECK(cpulist_parse("", set, 16) == -EINVAL);
	CHECK(cpulist_parse("3-1", set, 16) == -EINVAL);
	CHECK(cpulist_parse("1,", set, 16) == -EINVAL);
	CHECK(cpulist_parse("a", set, 16) == -EINVAL);
	CHECK(cpulist_parse("0-16", set, 16) == -ERANGE);
	CHECK(cpulist_parse("99999999999", set, 16) == -ERANGE);
	memset(set, 0, sizeof(set));
	CHECK(cpulist_format(set, 16, buf, sizeof(buf)) == 0);
	CHECK_STR(buf, "");
	CHECK(cpulist_last(set, 16) == -1);
	CHECK(cpulist_parse("0-15", set, 16) == 16);
	CHECK(cpulist_format(set, 16, buf, 4) == -ENOSPC);
	CHECK_STR(buf, "");
	/* too small: whole ranges only, never a number cut short */
	CHECK(cpulist_parse("0,2,4,6,8,10,12,14", set, 16) == 8);
	CHECK(cpulist_format(set, 16, buf, 12) == -ENOSPC);
	CHECK_STR(buf, "0,2,4,6,8");
	list = cpulist_alloc(set, 16);
	CHECK(list && !strcmp(list, "0,2,4,6,8,10,12,14"));
	free(list);
	memset(big, 1, sizeof(big));
	big[100] = 0;
	list = cpulist_alloc(big, sizeof(big));
	CHECK(list && !strcmp(list, "0-99,101-999"));
	free(list);
}

static void test_duration(void)
{
	uint64_t v;

	CHECK(parse_duration_ns("1.5", NSEC_PER_SEC, &v) == 0);
	CHECK_U64(v, 1500000000);
	CHECK(parse_duration_ns("0.1", NSEC_PER_MSEC, &v) == 0);
	CHECK_U64(v, 100000);
	CHECK(parse_duration_ns(".25", NSEC_PER_SEC, &v) == 0);
	CHECK_U64(v, 250000000);
	CHECK(parse_duration_ns("2", NSEC_PER_MSEC, &v) == 0);
	CHECK_U64(v, 2000000);
	CHECK(parse_duration_ns("1e3", NSEC_PER_SEC, &v) == -EINVAL);
	CHECK(parse_duration_ns("-1", NSEC_PER_SEC, &v) == -EINVAL);
	CHECK(parse_duration_ns(".", NSEC_PER_SEC, &v) == -EINVAL);
	CHECK(parse_duration_ns("", NSEC_PER_SEC, &v) == -EINVAL);
	CHECK(parse_duration_ns("99999999999999", NSEC_PER_SEC, &v) ==
	      -ERANGE);
}

static void test_stat(void)
{
	struct stat_cpu cpus[4];
	struct stat_snapshot s = { .ncpus = 4, .cpu = cpus };
	size_t len;
	char *buf = fixture_load("linux-6.1-v0.9/proc/stat", &len);

	CHECK(stat_parse(buf, len, &s) == 2);
	/* cpu0 3000 0 1000 6000 200 0 5 0: busy = user+nice+sys+irq+softirq+steal */
	CHECK_U64(cpus[0].busy, 3000 + 1000 + 5);
	CHECK_U64(cpus[0].idle, 6000);
	CHECK_U64(cpus[0].iowait, 200);
	CHECK(cpus[1].seen && !cpus[2].seen);
	free(buf);

	buf = fixture_load("host-v0.10/proc/stat", &len);
	CHECK(stat_parse(buf, len, &s) >= 1);
	CHECK(cpus[0].seen && cpus[0].idle > 0);
	free(buf);

	CHECK(stat_parse("cpu  1 2 3 4\n", 13, &s) == -ENODATA);
	CHECK(stat_parse("cpu0 1 2 3\n", 11, &s) == -ENODATA); /* too short */
	CHECK(stat_parse("cpu9 1 2 3 4 5\ncpu1 1 2 3 4 5", 29, &s) == 1);
	CHECK(cpus[1].seen && cpus[1].iowait == 5);
}

static void test_outbuf(void)
{
	int fds[2];
	struct outbuf o;
	unsigned char set[300];
	char buf[256];
	ssize_t n;

	CHECK(pipe(fds) == 0);
	CHECK(outbuf_init(&o, fds[1], 8) == 0);	/* tiny: forces flushes */
	outbuf_decimal(&o, 1234, 4);
	outbuf_putc(&o, ' ');
	outbuf_decimal(&o, 10000, 4);
	outbuf_putc(&o, ' ');
	outbuf_decimal(&o, 5, 6);
	outbuf_putc(&o, ' ');
	outbuf_decimal(&o, 123456789, 3);
	outbuf_putc(&o, ' ');
	outbuf_u64(&o, UINT64_MAX);
	outbuf_putc(&o, ' ');
	outbuf_json_str(&o, "a\"b\\c\n\x01");
	outbuf_printf(&o, " %s=%d", "x", 42);
	CHECK(outbuf_flush(&o) == 0);
	n = read(fds[0], buf, sizeof(buf) - 1);
	CHECK(n > 0);
	buf[n > 0 ? n : 0] = '\0';
	CHECK_STR(buf, "0.1234 1.0000 0.000005 123456.789 "
		       "18446744073709551615 \"a\\\"b\\\\c\\n\\u0001\" x=42");
	/* a closed reader: EPIPE is sticky, later writes are dropped */
	close(fds[0]);
	signal(SIGPIPE, SIG_IGN);
	outbuf_puts(&o, "lost");
	CHECK(outbuf_flush(&o) == -EPIPE);
	outbuf_puts(&o, "lost too");
	CHECK(outbuf_flush(&o) == -EPIPE);
	close(fds[1]);
	outbuf_free(&o);

	/* metadata on one line; CPU lists of any length */
	CHECK(pipe(fds) == 0);
	CHECK(outbuf_init(&o, fds[1], 64) == 0);
	outbuf_escaped(&o, "a\nb\\c\td\001");
	outbuf_putc(&o, ' ');
	memset(set, 0, sizeof(set));
	set[0] = set[1] = set[2] = set[5] = set[299] = 1;
	outbuf_cpulist(&o, set, sizeof(set));
	CHECK(outbuf_flush(&o) == 0);
	n = read(fds[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	CHECK_STR(buf, "a\\nb\\\\c\\td\\x01 0-2,5,299");
	/* close() is checked: a failure comes back as -errno */
	CHECK(outbuf_close(&o) == 0);
	CHECK(o.fd == -1);
	o.fd = fds[1];			/* closed already */
	CHECK(outbuf_close(&o) == -EBADF);
	close(fds[0]);
	outbuf_free(&o);

	CHECK_U64(frac_1e4(1, 3), 3333);
	CHECK_U64(frac_1e4(2, 3), 6667);
	CHECK_U64(frac_1e4(5, 5), 10000);
	CHECK_U64(frac_1e4(7, 5), 10000);
	CHECK_U64(frac_1e4(1, 0), 0);
	CHECK_U64(frac_1e4(UINT64_MAX / 2, UINT64_MAX), 5000);
}

static void test_ring(void)
{
	struct ring r;
	unsigned int *slot;

	CHECK(ring_init(&r, 3, sizeof(unsigned int)) == 0);
	CHECK(ring_peek(&r) == NULL);
	for (unsigned int i = 0; i < 3; i++) {
		slot = ring_reserve(&r);
		CHECK(slot != NULL);
		if (slot)
			*slot = i;
		ring_commit(&r);
	}
	CHECK(ring_reserve(&r) == NULL);	/* full */
	for (unsigned int i = 0; i < 10; i++) {	/* wrap around */
		slot = ring_peek(&r);
		CHECK(slot && *slot == i);
		ring_release(&r);
		slot = ring_reserve(&r);
		CHECK(slot != NULL);
		if (slot)
			*slot = i + 3;
		ring_commit(&r);
	}
	ring_free(&r);
	CHECK(ring_init(&r, 0, 8) == -EINVAL);
}

static void test_meta(void)
{
	char *argv[] = { "iowait-freqmon", "-o", "out file.tsv", "--", "sh",
			 "-c", "echo 'hi'", "" };
	char *ctl[] = { "sh", "a\nb\tc\001'd\\" };
	char *line = meta_command_line(8, argv);

	CHECK_STR(line, "iowait-freqmon -o 'out file.tsv' -- sh -c "
			"'echo '\\''hi'\\''' ''");
	free(line);
	/* control characters: bash's $'...' quoting, still one line */
	line = meta_command_line(2, ctl);
	CHECK_STR(line, "sh $'a\\nb\\tc\\x01\\'d\\\\'");
	free(line);
}

static void test_srcfile(void)
{
	struct srcfile f;
	char buf[64];
	char *p = root_path("/x//", "/proc/stat");

	CHECK_STR(p, "/x/proc/stat");
	free(p);
	p = root_path(NULL, "/proc/stat");
	CHECK_STR(p, "/proc/stat");
	free(p);

	/* replay: F.K when it exists, else F; F.K required for sequences */
	CHECK(srcfile_open(&f, FIXTURES "/replay-stale",
			   "/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq",
			   SRC_REPLAY) == 0);
	CHECK(srcfile_read(&f, 1, buf, sizeof(buf)) == 8);
	CHECK_STR(buf, "2400000\n");
	CHECK(srcfile_read(&f, 99, buf, sizeof(buf)) == 7);
	CHECK_STR(buf, "800000\n");
	srcfile_close(&f);
	CHECK(srcfile_open(&f, FIXTURES "/replay-stale", "/proc/timer_list",
			   SRC_REPLAY | SRC_SEQUENCE) == 0);
	CHECK(srcfile_get(&f, 7) == -ENODATA);
	srcfile_close(&f);
	CHECK(srcfile_open(&f, FIXTURES "/linux-6.1-v0.9", "/proc/timer_list",
			   SRC_REPLAY | SRC_SEQUENCE) == -ENOENT);
	CHECK(srcfile_open(&f, FIXTURES "/nonexistent", "/proc/stat", 0) ==
	      -ENOENT);
	CHECK(root_read_file(FIXTURES "/linux-6.1-v0.9",
			     "/proc/sys/kernel/osrelease", buf,
			     sizeof(buf)) == 18);
	CHECK_STR(buf, "6.1.0-lab-baseline");
}

static void test_cpufreq(void)
{
	unsigned char wanted[4] = { 1, 1, 0, 0 };
	struct freq_source fs;

	/* one policy for CPUs 0-1 */
	CHECK(freq_source_init(&fs, FIXTURES "/linux-6.1-v0.9", 0, wanted,
			       4) == 0);
	CHECK_STR(fs.backend->name, "sysfs");
	CHECK_U64(fs.npol, 1);
	CHECK(fs.policy_of[0] == 0 && fs.policy_of[1] == 0);
	CHECK_STR(fs.pol[0].driver, "emu-cpufreq");
	CHECK_STR(fs.pol[0].governor, "ondemand");
	CHECK_U64(fs.pol[0].min_khz, 800000);
	CHECK_U64(fs.pol[0].max_khz, 2400000);
	CHECK_U64(fs.pol[0].navail, 5);
	CHECK_U64(fs.pol[0].avail_khz[4], 800000);
	freq_source_read(&fs, 0);
	CHECK_U64(freq_source_khz(&fs, 0), 2400000);
	CHECK_U64(freq_source_khz(&fs, 1), 2400000);
	CHECK_U64(freq_source_khz(&fs, 2), 0);
	freq_source_free(&fs);

	/* cpu1 has a policy directory but no current frequency: left out */
	CHECK(freq_source_init(&fs, FIXTURES "/patched-v0.9", 0, wanted,
			       4) == 0);
	CHECK_U64(fs.npol, 1);
	CHECK(fs.policy_of[1] < 0);
	freq_source_read(&fs, 0);
	CHECK_U64(freq_source_khz(&fs, 0), 1600000);
	CHECK_U64(freq_source_khz(&fs, 1), 0);
	freq_source_free(&fs);

	/* no cpufreq at all */
	CHECK(freq_source_init(&fs, FIXTURES "/linux-4.19-v0.8", 0, wanted,
			       4) == 0);
	CHECK_U64(fs.npol, 0);
	freq_source_free(&fs);

	/* replay: scaling_cur_freq.K */
	CHECK(freq_source_init(&fs, FIXTURES "/replay-stale", SRC_REPLAY,
			       wanted, 4) == 0);
	CHECK_U64(fs.npol, 2);
	freq_source_read(&fs, 3);
	CHECK_U64(freq_source_khz(&fs, 0), 1600000);
	CHECK_U64(freq_source_khz(&fs, 1), 800000);
	freq_source_free(&fs);

	CHECK_U64(freq_parse_khz("1800000\n", 8), 1800000);
	CHECK_U64(freq_parse_khz("<unknown>\n", 10), 0);
	CHECK_U64(freq_parse_khz("99999999999\n", 12), 0);
}

static void test_summary(void)
{
	unsigned int cpus[1] = { 3 };
	struct summary s;
	struct sample *smp = calloc(1, sample_size(1));

	CHECK(summary_init(&s, cpus, 1) == 0);
	smp->ncpus = 1;
	smp->dt_ns = 10;
	smp->cpu[0].cpu = 3;
	/* 40 frequencies: the first 32 get bins, the rest go to "other" */
	for (unsigned int i = 0; i < 40; i++) {
		smp->cpu[0].freq_khz = 1000 * (40 - i);
		smp->cpu[0].busy_ns = 4;
		smp->cpu[0].idle_ns = 6;
		summary_add(&s, smp);
	}
	smp->cpu[0].freq_khz = 0;
	summary_add(&s, smp);
	smp->cpu[0].invalid = ACCT_ABSENT | ACCT_FIRST;
	summary_add(&s, smp);
	CHECK_U64(s.nsamples, 42);
	CHECK_U64(s.cpu[0].nvalid, 41);
	CHECK_U64(s.cpu[0].ninvalid, 1);
	CHECK_U64(s.cpu[0].why[0], 1);
	CHECK_U64(s.cpu[0].why[2], 1);
	CHECK_U64(s.cpu[0].nbins, SUMMARY_BINS);
	CHECK_U64(s.cpu[0].bins[0].khz, 9000);	/* sorted */
	CHECK_U64(s.cpu[0].bins[31].khz, 40000);
	CHECK_U64(s.cpu[0].other_ns, 80);
	CHECK_U64(s.cpu[0].nofreq_ns, 10);
	CHECK_U64(s.cpu[0].busy_ns, 41 * 4);
	/* mean of 1000..40000 kHz, equal busy time each */
	CHECK(summary_mean_busy_khz(&s.cpu[0]) > 20499.9 &&
	      summary_mean_busy_khz(&s.cpu[0]) < 20500.1);
	summary_free(&s);
	free(smp);
}

static void test_rate(void)
{
	struct ifm_rate r3k = { NSEC_PER_SEC / 3000, 3000 };
	struct ifm_rate i300 = { 300000, 0 };
	char buf[32];

	/* exact: no truncated interval accumulating (333333 ns x 3000) */
	CHECK_U64(rate_deadline(&r3k, 1), 333333);
	CHECK_U64(rate_deadline(&r3k, 2), 666666);
	CHECK_U64(rate_deadline(&r3k, 3000), NSEC_PER_SEC);
	CHECK_U64(rate_deadline(&r3k, 3000ULL * 86400 * 365),
		  86400ULL * 365 * NSEC_PER_SEC);
	CHECK_U64(rate_deadline(&i300, 7), 2100000);
	/* the next deadline strictly after any offset */
	for (uint64_t off = 0; off < 5000000; off += 77777) {
		uint64_t k = rate_next_index(&r3k, off);

		CHECK(rate_deadline(&r3k, k) > off);
		CHECK(k == 1 || rate_deadline(&r3k, k - 1) <= off);
		k = rate_next_index(&i300, off);
		CHECK(rate_deadline(&i300, k) > off);
		CHECK(k == 1 || rate_deadline(&i300, k - 1) <= off);
	}
	CHECK_U64(rate_next_index(&r3k, 333333), 2);
	CHECK_U64(rate_next_index(&r3k, 333332), 1);
	CHECK_STR(rate_format_hz(&r3k, buf, sizeof(buf)), "3000");
	CHECK_STR(rate_format_interval_ns(&r3k, buf, sizeof(buf)),
		  "333333.333");
	CHECK_STR(rate_format_hz(&i300, buf, sizeof(buf)), "3333.333333");
	CHECK_STR(rate_format_interval_ns(&i300, buf, sizeof(buf)),
		  "300000.000");
	i300.interval_ns = 500000;
	CHECK_STR(rate_format_hz(&i300, buf, sizeof(buf)), "2000");
}

/* Busy time goes to the frequency in force: split when the ends differ. */
static void test_summary_split(void)
{
	unsigned int cpus[1] = { 0 };
	struct summary s;
	struct sample *smp = calloc(1, sample_size(1));

	CHECK(summary_init(&s, cpus, 1) == 0);
	smp->ncpus = 1;
	smp->dt_ns = 10000000;
	smp->cpu[0].busy_ns = 10000000;
	smp->cpu[0].freq0_khz = 800000;		/* ramp: 800 -> 2400 MHz */
	smp->cpu[0].freq_khz = 2400000;
	summary_add(&s, smp);
	smp->cpu[0].freq0_khz = 2400000;
	summary_add(&s, smp);
	/* 5 ms at 800, 15 ms at 2400 MHz: 2000 MHz (the end alone: 2400) */
	CHECK(summary_mean_busy_khz(&s.cpu[0]) > 1999999.9 &&
	      summary_mean_busy_khz(&s.cpu[0]) < 2000000.1);
	CHECK_U64(s.cpu[0].nbins, 2);
	CHECK_U64(s.cpu[0].bins[0].time_ns, 5000000);
	CHECK_U64(s.cpu[0].bins[1].time_ns, 15000000);
	CHECK_U64(s.cpu[0].nsplit, 1);
	/* start unknown: the end's reading */
	smp->cpu[0].freq0_khz = 0;
	smp->cpu[0].freq_khz = 800000;
	summary_add(&s, smp);
	CHECK_U64(s.cpu[0].bins[0].time_ns, 15000000);
	summary_free(&s);
	free(smp);
}

/*
 * seq tells a dropped sample (ring full: a gap) from a missed deadline (no
 * gap, a longer interval): the sampler on the ramp replay, nobody draining
 * its ring of 16 slots at first.
 */
static void test_sampler_seq(void)
{
	struct discovery d = { .root = FIXTURES "/replay-ramp",
			       .replay = true };
	struct summary sum;
	struct ring ring;
	struct sampler s;
	uint64_t expect = 1, got = 0;
	struct sample *smp;

	CHECK(discover(&d) == 0);
	CHECK(summary_init(&sum, d.cpu, d.ncpus) == 0);
	CHECK(ring_init(&ring, 16, sample_size(d.ncpus)) == 0);
	s = (struct sampler){
		.interval_ns = 10000000, .tl_file = &d.tl_file,
		.reader = &d.reader, .cpu = d.cpu, .ncpus = d.ncpus,
		.ring = &ring, .sum = &sum, .notify_fd = -1,
	};
	CHECK(sampler_init(&s) == 0);
	CHECK(sampler_prime(&s) == 0);
	for (int k = 0; k < 20; k++)
		CHECK(sampler_take(&s) == 0);
	CHECK_U64(sum.ndropped, 4);
	while ((smp = ring_peek(&ring))) {
		CHECK_U64(smp->seq, expect);
		CHECK_U64(smp->t_ns - smp->dt_ns, (expect - 1) * 10000000);
		expect++;
		got++;
		ring_release(&ring);
	}
	CHECK_U64(got, 16);
	/* the next sample after the 4 dropped: seq 21, a gap of 4 */
	CHECK(sampler_take(&s) == 0);
	smp = ring_peek(&ring);
	CHECK(smp && smp->seq == 21 && smp->t_ns == 210000000 &&
	      smp->dt_ns == 10000000);
	sampler_free(&s);
	ring_free(&ring);
	summary_free(&sum);
	discovery_free(&d);
}

static void test_command(void)
{
	char *ok[] = { "sh", "-c", "exit 7", NULL };
	char *missing[] = { "/nonexistent/command", NULL };
	char *noexec[] = { FIXTURES "/replay-stale/expected.tsv", NULL };
	struct sigaction ign = { .sa_handler = SIG_IGN };
	struct command c;
	int ws, ret;

	/* SIGCHLD ignored, as a parent may leave it: the status comes back */
	sigemptyset(&ign.sa_mask);
	sigaction(SIGCHLD, &ign, NULL);
	CHECK(command_start(&c, ok, false) == 0);
	while ((ret = command_reap(&c)) == 1)
		usleep(1000);
	CHECK(ret == 0);
	CHECK(c.status == 7 && c.pid == 0);
	CHECK(command_reap(&c) == 0);
	/* reaped behind its back: gone, status unknown, not "running" */
	CHECK(command_start(&c, ok, false) == 0);
	CHECK(waitpid(c.pid, &ws, 0) == c.pid);
	CHECK(command_exit_status(ws) == 7);
	CHECK(command_reap(&c) == -ECHILD);
	CHECK(c.pid == 0 && c.status == -1);
	CHECK(command_start(&c, missing, false) == -ENOENT);
	CHECK(c.status == 127 && c.pid == 0);
	CHECK(command_start(&c, noexec, false) < 0);
	CHECK(c.status == 126);
	CHECK(command_spawn_status(-ENOENT) == 127);
	CHECK(command_spawn_status(-EACCES) == 126);
	CHECK(command_exit_status(9) == 128 + 9);	/* killed by SIGKILL */
}

int main(void)
{
	test_cpulist();
	test_duration();
	test_stat();
	test_outbuf();
	test_ring();
	test_meta();
	test_srcfile();
	test_cpufreq();
	test_summary();
	test_command();
	test_rate();
	test_summary_split();
	test_sampler_seq();
	return check_report("test_units");
}
