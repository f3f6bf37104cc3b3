// SPDX-License-Identifier: GPL-2.0
/*
 * cpuloop: a calibrated CPU-bound loop and a timer wake-up probe, one thread
 * per CPU, all started together. The lab uses it to check that emulated
 * P-states slow CPU-bound work by f/fmax and leave idle CPUs alone.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpulist.h"
#include "pin.h"
#include "spin.h"

#define MAX_CPUS	64
#define MAX_WAKEUPS	100000

enum mode { MODE_SPIN, MODE_WAKEUP };

struct job {
	pthread_t thread;
	int cpu;
	enum mode mode;
	double seconds;
	unsigned int wakeups;
	long period_ns;
	pthread_barrier_t *start;
	/* results */
	uint64_t loops;
	double elapsed;
	double *latency_us;
	unsigned int nr_latency;
	int err;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void run_spin(struct job *j)
{
	volatile uint64_t sink;
	uint64_t x = 88172645463325252ull;
	double t0 = now_s(), t = t0;

	while (t - t0 < j->seconds) {
		x = spin_chunk(x);
		j->loops++;
		t = now_s();
	}
	sink = x;
	(void)sink;
	j->elapsed = t - t0;
}

static void run_wakeup(struct job *j)
{
	struct timespec next;
	double t0 = now_s();

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (unsigned int i = 0; i < j->wakeups; i++) {
		struct timespec woke;
		int ret;

		next.tv_nsec += j->period_ns;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		if (ret) {
			j->err = -ret;
			return;
		}
		clock_gettime(CLOCK_MONOTONIC, &woke);
		j->latency_us[j->nr_latency++] =
			(woke.tv_sec - next.tv_sec) * 1e6 +
			(woke.tv_nsec - next.tv_nsec) / 1e3;
	}
	j->elapsed = now_s() - t0;
}

static void *job_main(void *arg)
{
	struct job *j = arg;

	j->err = pin_thread(j->cpu);
	pthread_barrier_wait(j->start);
	if (j->err)
		return NULL;
	if (j->mode == MODE_SPIN)
		run_spin(j);
	else
		run_wakeup(j);
	return NULL;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Fill @cpus from a cpulist ("0-1,3"); returns how many, or -errno. */
static int parse_cpus(const char *s, int *cpus)
{
	unsigned char set[CPU_SETSIZE];
	int n = cpulist_parse(s, set, CPU_SETSIZE), k = 0;

	if (n < 0)
		return n;
	if (n > MAX_CPUS)
		return -E2BIG;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (set[c])
			cpus[k++] = c;
	return k;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: cpuloop [-c CPUS] [-t SECONDS]\n"
		"       cpuloop --wakeup [-c CPUS] [-n COUNT] [-p PERIOD_US]\n"
		"\n"
		"Run one thread pinned to each CPU in CPUS (default 0), all started\n"
		"together. Default mode: a CPU-bound loop for SECONDS (default 5);\n"
		"prints per CPU the loops per second. --wakeup: sleep to COUNT\n"
		"absolute deadlines PERIOD_US apart (default 2000 x 1000 us) and\n"
		"print per CPU the median, 90th percentile and mean wake-up latency.\n"
		"\n"
		"Output: one line per CPU, 'cpu=N loops_per_s=X' or\n"
		"'cpu=N wakeups=K p50_us=X p90_us=Y mean_us=Z'.\n"
		"Exit status: 0 ok, 1 runtime error, 2 bad usage.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "seconds", required_argument, NULL, 't' },
		{ "wakeup", no_argument, NULL, 'w' },
		{ "count", required_argument, NULL, 'n' },
		{ "period", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int cpus[MAX_CPUS] = { 0 }, ncpus = 1, c, ret = 0;
	double seconds = 5;
	long count = 2000, period_us = 1000;
	enum mode mode = MODE_SPIN;
	pthread_barrier_t start;
	struct job *jobs;
	char *end;

	while ((c = getopt_long(argc, argv, "c:t:wn:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			ncpus = parse_cpus(optarg, cpus);
			if (ncpus < 0) {
				fprintf(stderr, "cpuloop: bad CPU list '%s'\n", optarg);
				return 2;
			}
			break;
		case 't':
			seconds = strtod(optarg, &end);
			if (*end || !(seconds > 0 && seconds < 86400)) {
				fprintf(stderr, "cpuloop: bad duration '%s'\n", optarg);
				return 2;
			}
			break;
		case 'w':
			mode = MODE_WAKEUP;
			break;
		case 'n':
			count = strtol(optarg, &end, 10);
			if (*end || count < 1 || count > MAX_WAKEUPS) {
				fprintf(stderr, "cpuloop: count must be 1..%d\n", MAX_WAKEUPS);
				return 2;
			}
			break;
		case 'p':
			period_us = strtol(optarg, &end, 10);
			if (*end || period_us < 1 || period_us > 1000000) {
				fprintf(stderr, "cpuloop: period must be 1..1000000 us\n");
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}

	jobs = calloc(ncpus, sizeof(*jobs));
	if (!jobs) {
		perror("cpuloop");
		return 1;
	}
	pthread_barrier_init(&start, NULL, ncpus);
	for (int i = 0; i < ncpus; i++) {
		struct job *j = &jobs[i];

		j->cpu = cpus[i];
		j->mode = mode;
		j->seconds = seconds;
		j->wakeups = count;
		j->period_ns = period_us * 1000;
		j->start = &start;
		if (mode == MODE_WAKEUP) {
			j->latency_us = calloc(count, sizeof(double));
			if (!j->latency_us) {
				perror("cpuloop");
				return 1;
			}
		}
		ret = pthread_create(&j->thread, NULL, job_main, j);
		if (ret) {
			fprintf(stderr, "cpuloop: pthread_create: %s\n", strerror(ret));
			return 1;
		}
	}
	for (int i = 0; i < ncpus; i++)
		pthread_join(jobs[i].thread, NULL);

	for (int i = 0; i < ncpus; i++) {
		struct job *j = &jobs[i];

		if (j->err) {
			fprintf(stderr, "cpuloop: cpu %d: %s\n", j->cpu, strerror(-j->err));
			ret = 1;
			continue;
		}
		if (mode == MODE_SPIN) {
			printf("cpu=%d loops_per_s=%.1f\n", j->cpu, j->loops / j->elapsed);
		} else {
			double sum = 0;

			for (unsigned int k = 0; k < j->nr_latency; k++)
				sum += j->latency_us[k];
			qsort(j->latency_us, j->nr_latency, sizeof(double), cmp_double);
			printf("cpu=%d wakeups=%u p50_us=%.1f p90_us=%.1f mean_us=%.1f\n",
			       j->cpu, j->nr_latency,
			       j->latency_us[j->nr_latency / 2],
			       j->latency_us[j->nr_latency * 9 / 10],
			       sum / j->nr_latency);
		}
		free(j->latency_us);
	}
	pthread_barrier_destroy(&start);
	free(jobs);
	return ret;
}
