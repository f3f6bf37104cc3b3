// SPDX-License-Identifier: GPL-2.0
/*
 * bench-sampler: what one iowait-freqmon sample costs, measured side by
 * side in one run (this machine is noisy: only ratios of interleaved
 * measurements mean something).
 *
 *  1. the tool's timer_list read+parse vs the floor: bare pread()s of
 *     exactly the same requests, without parsing (goal: <= 1.10x);
 *  2. the whole file vs the tool's stop-early read, and the alternatives
 *     (fixed request sizes);
 *  3. a frequency read: libcpupower's cpufreq_get_freq_kernel() vs pread()
 *     on a kept-open scaling_cur_freq;
 *  4. the real sampler and writer at 2 kHz for a few seconds: missed
 *     deadlines (goal: < 1%).
 *
 * Costs are thread CPU time (CLOCK_THREAD_CPUTIME_ID), medians over many
 * iterations. A missed goal prints "GOAL MISSED" but does not fail: the
 * exit status is 0 unless something could not be measured at all (1), or
 * 77 when /proc/timer_list is not readable (not root: skipped).
 *
 * Usage: bench-sampler [--quick]
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef IFM_HAVE_CPUPOWER
#include <cpufreq.h>
#endif

#include "output.h"
#include "sampler.h"
#include "timeutil.h"
#include "tl_reader.h"
#include "writer.h"

#define TIMER_LIST "/proc/timer_list"
#define MAXCPUS 1024

struct series {
	const char *name;
	uint64_t *ns;
	unsigned int n;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double median_us(struct series *s)
{
	qsort(s->ns, s->n, sizeof(*s->ns), cmp_u64);
	return s->n ? (double)s->ns[s->n / 2] / 1000.0 : 0;
}

static double p90_us(const struct series *s)
{
	return s->n ? (double)s->ns[s->n * 9 / 10] / 1000.0 : 0;
}

static uint64_t cpu_ns(void)
{
	return clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

static bool alloc_series(struct series *s, const char *name, unsigned int n)
{
	s->name = name;
	s->n = 0;
	s->ns = calloc(n, sizeof(*s->ns));
	return s->ns != NULL;
}

static void goal(bool met, const char *what)
{
	printf("  goal %s: %s\n", what, met ? "met" : "GOAL MISSED");
}

/* Bare pread()s with the given request sizes, stopping at EOF. */
static size_t floor_read(int fd, char *buf, const size_t *reqs,
			 unsigned int nreqs)
{
	size_t len = 0;

	for (unsigned int i = 0; i < nreqs; i++) {
		ssize_t n = pread(fd, buf + len, reqs[i], (off_t)len);

		if (n <= 0)
			break;
		len += (size_t)n;
	}
	return len;
}

/* The whole file with big requests, as a naive reader does. */
static size_t full_read(int fd, char *buf, size_t cap)
{
	size_t len = 0;
	ssize_t n;

	while ((n = pread(fd, buf + len, cap - len, (off_t)len)) > 0)
		len += (size_t)n;
	return len;
}

static long last_online_cpu(int fd, struct tl_snapshot *snap)
{
	struct tl_reader r;
	long last = -1;

	if (tl_reader_init(&r, 8u << 20, -1, snap->ncpus) ||
	    tl_reader_read(&r, fd, snap)) {
		tl_reader_free(&r);
		return -1;
	}
	for (unsigned int c = 0; c < snap->ncpus; c++)
		if (snap->cpu[c].seen)
			last = (long)c;
	tl_reader_free(&r);
	return last;
}

/* 1. read+parse vs the bare reads of the same requests */
static int bench_parse(int fd, long last, struct tl_snapshot *snap,
		       unsigned int iters)
{
	struct series tool, bare, parse;
	struct tl_reader r;
	char *buf = malloc(1 << 20);
	size_t reqs[256];
	unsigned int nreqs = 0;
	double mt, mb, mp;

	if (!buf || tl_reader_init(&r, 1 << 20, last, MAXCPUS) ||
	    !alloc_series(&tool, "read+parse", iters) ||
	    !alloc_series(&bare, "bare pread", iters) ||
	    !alloc_series(&parse, "parse only", iters))
		return 1;
	for (unsigned int i = 0; i < iters + 20; i++) {
		bool tool_first = i & 1;

		for (int k = 0; k < 2; k++) {
			uint64_t t0 = cpu_ns(), t;

			if ((k == 0) == tool_first) {
				tl_reader_read(&r, fd, snap);
				t = cpu_ns() - t0;
				nreqs = r.nreads < 256 ? r.nreads : 256;
				memcpy(reqs, r.reqs, nreqs * sizeof(*reqs));
				if (i >= 20)
					tool.ns[tool.n++] = t;
			} else if (nreqs) {
				floor_read(fd, buf, reqs, nreqs);
				t = cpu_ns() - t0;
				if (i >= 20)
					bare.ns[bare.n++] = t;
			}
		}
		if (i >= 20) {
			/* the parse alone, on the bytes just read */
			uint64_t t0 = cpu_ns();

			tl_parse(r.buf, r.len, snap, last);
			parse.ns[parse.n++] = cpu_ns() - t0;
		}
	}
	mt = median_us(&tool);
	mb = median_us(&bare);
	mp = median_us(&parse);
	printf("1. timer_list per sample (CPUs 0-%ld, %zu bytes in %u "
	       "requests), %u interleaved iterations:\n", last, r.len,
	       r.nreads, tool.n);
	printf("  %-28s median %7.2f us  p90 %7.2f us\n", tool.name, mt,
	       p90_us(&tool));
	printf("  %-28s median %7.2f us  p90 %7.2f us\n", bare.name, mb,
	       p90_us(&bare));
	printf("  %-28s median %7.2f us\n", parse.name, mp);
	printf("  ratio read+parse / bare pread: %.3f\n", mb > 0 ? mt / mb : 0);
	goal(mb > 0 && mt / mb <= 1.10, "read+parse <= 1.10 x bare pread");
	tl_reader_free(&r);
	free(tool.ns);
	free(bare.ns);
	free(parse.ns);
	free(buf);
	return 0;
}

/* 2. the whole file vs stopping early, with different request sizes */
static int bench_stop_early(int fd, long last, struct tl_snapshot *snap,
			    unsigned int iters)
{
	static const struct {
		const char *name;
		size_t chunk;
		bool adaptive;
	} v[] = {
		{ "stop-early, 64 KiB requests", 0, false },
		{ "stop-early, 4096 B requests", 4096, false },
		{ "stop-early, 512 B requests", 512, false },
		{ "stop-early, learned records", TL_READER_CHUNK, true },
	};
	enum { NV = sizeof(v) / sizeof(v[0]) };
	struct series full, s[NV];
	struct tl_reader r[NV];
	char *buf = malloc(1 << 20);
	size_t full_len = 0;
	double mf;

	if (!buf || !alloc_series(&full, "whole file, 64 KiB requests", iters))
		return 1;
	for (unsigned int k = 0; k < NV; k++) {
		if (tl_reader_init(&r[k], 1 << 20, last, MAXCPUS) ||
		    !alloc_series(&s[k], v[k].name, iters))
			return 1;
		r[k].chunk = v[k].chunk ? v[k].chunk : 64 << 10;
		r[k].adaptive = v[k].adaptive;
	}
	for (unsigned int i = 0; i < iters + 10; i++) {
		for (unsigned int k = 0; k <= NV; k++) {
			unsigned int j = (k + i) % (NV + 1);	/* rotate */
			uint64_t t0 = cpu_ns(), t;

			if (j == NV) {
				full_len = full_read(fd, buf, 1 << 20);
				t = cpu_ns() - t0;
				if (i >= 10)
					full.ns[full.n++] = t;
			} else {
				tl_reader_read(&r[j], fd, snap);
				t = cpu_ns() - t0;
				if (i >= 10)
					s[j].ns[s[j].n++] = t;
			}
		}
	}
	mf = median_us(&full);
	printf("2. whole file (%zu bytes) vs stop-early reads, %u iterations "
	       "(ratio to the whole file):\n", full_len, full.n);
	printf("  %-28s median %7.2f us  p90 %7.2f us\n", full.name, mf,
	       p90_us(&full));
	for (unsigned int k = 0; k < NV; k++) {
		double m = median_us(&s[k]);

		printf("  %-28s median %7.2f us  p90 %7.2f us  %.2fx  "
		       "(%zu bytes, %u reads)\n", s[k].name, m, p90_us(&s[k]),
		       mf > 0 ? m / mf : 0, r[k].len, r[k].nreads);
		tl_reader_free(&r[k]);
		free(s[k].ns);
	}
	free(full.ns);
	free(buf);
	return 0;
}

/* 3. frequency: libcpupower vs a kept-open fd */
static int bench_freq(unsigned int iters)
{
	char path[128], buf[64];
	struct series lib, fdread, reopen;
	bool have_cpufreq;
	int fd;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq");
	have_cpufreq = access(path, R_OK) == 0;
	if (!have_cpufreq)
		/* same kind of sysfs attribute, to compare the access patterns */
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu0/topology/core_id");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !alloc_series(&lib, "cpufreq_get_freq_kernel()", iters) ||
	    !alloc_series(&fdread, "pread() on a kept fd", iters) ||
	    !alloc_series(&reopen, "open+read+close", iters)) {
		fprintf(stderr, "bench-sampler: cannot open %s\n", path);
		return 1;
	}
	for (unsigned int i = 0; i < iters; i++) {
		uint64_t t0 = cpu_ns();
		int f;

#ifdef IFM_HAVE_CPUPOWER
		(void)cpufreq_get_freq_kernel(0);
		lib.ns[lib.n++] = cpu_ns() - t0;
		t0 = cpu_ns();
#endif
		if (pread(fd, buf, sizeof(buf), 0) < 0)
			return 1;
		fdread.ns[fdread.n++] = cpu_ns() - t0;
		t0 = cpu_ns();
		f = open(path, O_RDONLY | O_CLOEXEC);
		if (f >= 0) {
			if (read(f, buf, sizeof(buf)) < 0)
				buf[0] = 0;
			close(f);
		}
		reopen.ns[reopen.n++] = cpu_ns() - t0;
	}
	printf("3. frequency read, %u interleaved iterations, on %s%s:\n",
	       iters, path, have_cpufreq ? "" :
	       "\n   (no cpufreq on this host: the same sysfs access patterns"
	       " on another attribute;\n   libcpupower then fails at open(),"
	       " which still costs a path lookup)");
	if (lib.n)
		printf("  %-28s median %7.2f us\n", lib.name, median_us(&lib));
	printf("  %-28s median %7.2f us   (what libcpupower does per call)\n",
	       reopen.name, median_us(&reopen));
	printf("  %-28s median %7.2f us\n", fdread.name, median_us(&fdread));
	printf("  ratio kept fd / %s: %.3f\n",
	       lib.n && have_cpufreq ? "libcpupower" : "open+read+close",
	       median_us(&fdread) /
		       (lib.n && have_cpufreq ? median_us(&lib)
					      : median_us(&reopen)));
	close(fd);
	free(lib.ns);
	free(fdread.ns);
	free(reopen.ns);
	return 0;
}

static void noop(int sig)
{
	(void)sig;
}

/* 4. the sampler and the writer for real, at 2 kHz */
static int bench_sustained(long last, double seconds, int prio)
{
	struct srcfile tl;
	struct tl_reader reader;
	struct freq_source freq;
	struct summary sum;
	struct ring ring;
	struct sampler smp;
	struct output out = { 0 };
	struct writer wr;
	unsigned int *cpus;
	unsigned int ncpus = (unsigned int)last + 1;
	unsigned char *wanted = calloc(ncpus, 1);
	struct sigaction sa = { .sa_handler = noop };
	struct run_meta meta = { .version = "bench", .command = "bench",
				 .start = "" };
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	double missed;
	int ret;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	cpus = calloc(ncpus, sizeof(*cpus));
	if (!wanted || !cpus || devnull < 0)
		return 1;
	for (unsigned int c = 0; c < ncpus; c++) {
		cpus[c] = c;
		wanted[c] = 1;
	}
	meta.cpu = cpus;
	meta.ncpus = ncpus;
	if (srcfile_open(&tl, NULL, TIMER_LIST, 0) ||
	    tl_reader_init(&reader, 1 << 20, last, ncpus) ||
	    freq_source_init(&freq, NULL, 0, wanted, ncpus) ||
	    summary_init(&sum, cpus, ncpus) ||
	    ring_init(&ring, 4096, sample_size(ncpus)) ||
	    outbuf_init(&out.ob, devnull, 256 << 10))
		return 1;
	out.ops = &output_tsv;
	out.meta = &meta;
	smp = (struct sampler){
		.interval_ns = 500 * NSEC_PER_USEC,
		.duration_ns = (uint64_t)(seconds * 1e9),
		.tl_file = &tl, .reader = &reader,
		.freq = freq.npol ? &freq : NULL,
		.cpu = cpus, .ncpus = ncpus, .ring = &ring, .sum = &sum,
		.notify_fd = -1,
	};
	wr = (struct writer){ .ring = &ring, .out = &out, .ncpus = ncpus };
	if (sampler_init(&smp) || sampler_prime(&smp))
		return 1;
	out.ops->begin(&out);
	ret = sampler_start(&smp, -1, prio);
	if (ret) {
		printf("4. at 2000 Hz, SCHED_FIFO %d: cannot start (%s): "
		       "skipped\n", prio, strerror(-ret));
		return ret == -EPERM ? 0 : 1;
	}
	/* this thread writes out, as iowait-freqmon's main thread does */
	for (uint64_t end = mono_ns() + smp.duration_ns; mono_ns() < end;) {
		struct timespec poll = ns_to_ts(WRITER_POLL_NS);

		nanosleep(&poll, NULL);
		writer_drain(&wr);
	}
	pthread_join(smp.thread, NULL);
	smp.started = false;
	writer_drain(&wr);
	missed = 100.0 * (double)sum.nmissed /
		 (double)(sum.nmissed + sum.nsamples);
	printf("4. sampler + main-thread writer at 2000 Hz for %.1f s, %s (CPUs 0-%ld, "
	       "TSV to /dev/null):\n", seconds,
	       prio ? "SCHED_FIFO 50 (--priority 50)" : "SCHED_OTHER", last);
	printf("  samples %llu, missed deadlines %llu (%.2f%%), dropped %llu, "
	       "max wake-up latency %llu us\n",
	       (unsigned long long)sum.nsamples,
	       (unsigned long long)sum.nmissed, missed,
	       (unsigned long long)sum.ndropped,
	       (unsigned long long)(sum.max_late_ns / 1000));
	printf("  sampler thread CPU: %.1f%% of one CPU (%.1f us per sample)\n",
	       100.0 * summary_thread_share(&sum),
	       sum.nsamples ? (double)sum.thread_cpu_ns / 1000.0 /
				      (double)sum.nsamples : 0);
	goal(missed < 1.0, "missed deadlines < 1%");
	sampler_free(&smp);
	freq_source_free(&freq);
	tl_reader_free(&reader);
	srcfile_close(&tl);
	summary_free(&sum);
	ring_free(&ring);
	outbuf_free(&out.ob);
	close(devnull);
	free(cpus);
	free(wanted);
	return 0;
}

int main(int argc, char **argv)
{
	bool quick = argc > 1 && !strcmp(argv[1], "--quick");
	struct tl_snapshot snap = { .ncpus = MAXCPUS };
	long last;
	int fd, ret = 0;

	fd = open(TIMER_LIST, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		printf("bench-sampler: cannot read %s (%s): skipped\n",
		       TIMER_LIST, strerror(errno));
		return 77;
	}
	snap.cpu = calloc(MAXCPUS, sizeof(*snap.cpu));
	last = snap.cpu ? last_online_cpu(fd, &snap) : -1;
	if (last < 0) {
		fprintf(stderr, "bench-sampler: cannot parse %s\n", TIMER_LIST);
		return 1;
	}
	/* as in the tool: a snapshot only as large as the CPUs sampled */
	snap.ncpus = (unsigned int)last + 1;
	ret |= bench_parse(fd, last, &snap, quick ? 300 : 3000);
	ret |= bench_stop_early(fd, last, &snap, quick ? 100 : 1000);
	ret |= bench_freq(quick ? 2000 : 20000);
	ret |= bench_sustained(last, quick ? 1.0 : 3.0, 0);
	ret |= bench_sustained(last, quick ? 1.0 : 3.0, 50);
	free(snap.cpu);
	close(fd);
	return ret ? 1 : 0;
}
