// SPDX-License-Identifier: GPL-2.0
/*
 * counter-check: one reader thread pinned on each CPU reads the idle and
 * iowait counters of every CPU from /proc/stat and /proc/timer_list, over and
 * over, sleeping a random while between reads, and counts what correct
 * accounting never shows:
 *
 *   backward steps   a CPU's idle or iowait sum smaller than in the reader's
 *                    previous read of the same file;
 *   overshoots       idle + iowait grown by more than the time between the
 *                    two reads could hold.
 *
 * The time a read's values are exact for: timer_list's "now at" when it
 * prints current sums (a patched kernel adds .idle_active and .nr_iowait to
 * the CPU's block), else the earlier of "now at" and idle_entrytime (stock kernels print the sums as of the
 * last fold). A value can be ahead of "now at" by the time the kernel took
 * to reach that CPU's block, which the end of the read bounds, so the
 * allowance runs to the end of the later read. /proc/stat counts in clock
 * ticks (10 ms): the allowance runs from the start of the earlier read to
 * the end of the later one, plus one tick for each of the two counters.
 *
 * A workload helper of the guest tests; it reports, the test decides.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpulist.h"
#include "log.h"
#include "pin.h"
#include "timer_list.h"
#include "timeutil.h"

#define MAX_CPUS	64
#define READ_BUF	(256 * 1024)
#define MAX_REPORTS	5

enum source { SRC_STAT, SRC_TL, NR_SRC };

static const char *const src_name[NR_SRC] = { "stat", "tl" };

/* One CPU's counters in one read, in nanoseconds. */
struct cpu_sample {
	bool present;
	uint64_t idle, iowait;
	uint64_t base;		/* the values are at least those at this time */
};

struct snapshot {
	uint64_t t_before, t_after;	/* CLOCK_MONOTONIC around the read */
	uint64_t now;			/* timer_list's "now at" */
	bool current;			/* timer_list prints current sums */
	struct cpu_sample cpu[MAX_CPUS];
};

struct src_stats {
	uint64_t reads;
	uint64_t pairs[MAX_CPUS];	/* reads compared with an earlier one */
	uint64_t back_idle[MAX_CPUS], back_iowait[MAX_CPUS];
	uint64_t over[MAX_CPUS];
	uint64_t absent[MAX_CPUS];	/* reads without this CPU (offline) */
	uint64_t iowait_growth[MAX_CPUS];
	uint64_t max_back_ns, max_over_ns, max_slack_ns;
	struct cpu_sample last[MAX_CPUS];
};

struct config {
	uint64_t duration_ns;
	uint64_t sleep_min_ns, sleep_max_ns;
	unsigned int tl_every;
	unsigned int ncpus;		/* CPUs tracked: 0 .. ncpus-1 */
	uint64_t tick_ns;
};

/* The readers start together once all are set up, or not at all. */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state;			/* 0 wait, 1 go, -1 abort */
};

struct reader {
	pthread_t thread;
	int cpu;
	const struct config *cfg;
	struct gate *start;
	uint64_t rng;
	int fd[NR_SRC];
	char *buf;
	struct snapshot snap;
	struct tl_cpu tl_cpu[MAX_CPUS];	/* the timer_list parser's CPUs */
	struct src_stats src[NR_SRC];
	bool tl_current;
	uint64_t elapsed_ns, off_cpu, repins;
	unsigned int reports;
	int err;
};

static uint64_t next_rand(struct reader *r)
{
	r->rng ^= r->rng << 13;
	r->rng ^= r->rng >> 7;
	r->rng ^= r->rng << 17;
	return r->rng;
}

/*
 * A CPU that goes offline moves its pinned reader elsewhere and the kernel
 * widens the reader's affinity: pin it back once the CPU is online again.
 */
static void keep_pinned(struct reader *r)
{
	if (sched_getcpu() == r->cpu)
		return;
	r->off_cpu++;
	if (!pin_thread(r->cpu))
		r->repins++;
}

/* Read a whole proc file from offset 0 into r->buf. Returns its length or -errno. */
static ssize_t read_file(struct reader *r, int fd)
{
	size_t len = 0;

	for (;;) {
		ssize_t n = pread(fd, r->buf + len, READ_BUF - 1 - len, (off_t)len);

		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == READ_BUF - 1)
			return -EFBIG;
	}
	r->buf[len] = '\0';
	return (ssize_t)len;
}

/* Parse an unsigned decimal at *@p, moving *@p past it. Returns 0 or -EBADMSG. */
static int parse_u64(const char **p, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(*p, &end, 10);
	if (end == *p || errno)
		return -EBADMSG;
	*p = end;
	return 0;
}

/* /proc/stat: "cpuN user nice system idle iowait ..." in clock ticks. */
static int parse_stat(const char *text, const struct config *cfg,
		      struct snapshot *s)
{
	for (const char *line = text; line && *line; line = strchr(line, '\n')) {
		uint64_t cpu, v[5];
		const char *p;

		if (*line == '\n')
			line++;
		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		p = line + 3;
		if (parse_u64(&p, &cpu))
			return -EBADMSG;
		for (int i = 0; i < 5; i++)
			if (parse_u64(&p, &v[i]))
				return -EBADMSG;
		if (cpu >= cfg->ncpus)
			continue;
		s->cpu[cpu].present = true;
		s->cpu[cpu].idle = v[3] * cfg->tick_ns;
		s->cpu[cpu].iowait = v[4] * cfg->tick_ns;
		s->cpu[cpu].base = s->t_before;
	}
	return 0;
}

/*
 * /proc/timer_list through the sampler's parser: "now at", then per online
 * CPU its .idle_entrytime, .idle_sleeptime and .iowait_sleeptime. A CPU's
 * sums are current only when its block has both lines of the patched
 * kernel, .idle_active and .nr_iowait (as for iowait-freqmon's "live"):
 * .idle_active alone is not enough.
 */
static int parse_timer_list(const char *text, size_t len,
			    const struct config *cfg, struct reader *r)
{
	struct snapshot *s = &r->snap;
	struct tl_snapshot tl = { .ncpus = cfg->ncpus, .cpu = r->tl_cpu };
	unsigned int npresent = 0, nlive = 0;
	int ret;

	ret = tl_parse(text, len, &tl, (long)cfg->ncpus - 1);
	if (ret)
		return ret;
	if (!(tl.flags & TLS_NOW))
		return -EBADMSG;
	s->now = tl.now_ns;
	for (unsigned int c = 0; c < cfg->ncpus; c++) {
		const struct tl_cpu *t = &tl.cpu[c];
		const uint32_t need = TL_ENTRYTIME | TL_IDLE | TL_IOWAIT;
		bool live;

		if (!t->seen || t->bad || (t->have & need) != need)
			continue;
		live = tl_cpu_live(t);
		nlive += live;
		npresent++;
		s->cpu[c].present = true;
		s->cpu[c].idle = t->idle_sleeptime;
		s->cpu[c].iowait = t->iowait_sleeptime;
		s->cpu[c].base = live || t->idle_entrytime > s->now ?
				 s->now : t->idle_entrytime;
	}
	s->current = npresent && nlive == npresent;
	return 0;
}

static void report(struct reader *r, const char *fmt, ...) IFM_PRINTF(2, 3);
static void report(struct reader *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (r->reports++ >= MAX_REPORTS)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warn_msg("reader on cpu%d: %s", r->cpu, msg);
}

/* Compare one CPU's values with the reader's previous read of the same file. */
static void check_cpu(struct reader *r, enum source src, unsigned int cpu,
		      const struct cpu_sample *cur, uint64_t t_after)
{
	struct src_stats *st = &r->src[src];
	const struct cpu_sample *prev = &st->last[cpu];
	uint64_t slack = src == SRC_STAT ? 2 * r->cfg->tick_ns : 0;
	int64_t growth, allowed;

	if (!prev->present)
		return;
	st->pairs[cpu]++;
	if (cur->idle < prev->idle) {
		st->back_idle[cpu]++;
		if (prev->idle - cur->idle > st->max_back_ns)
			st->max_back_ns = prev->idle - cur->idle;
		report(r, "%s cpu%u idle went back %" PRIu64 " -> %" PRIu64 " ns",
		       src_name[src], cpu, prev->idle, cur->idle);
	}
	if (cur->iowait < prev->iowait) {
		st->back_iowait[cpu]++;
		if (prev->iowait - cur->iowait > st->max_back_ns)
			st->max_back_ns = prev->iowait - cur->iowait;
		report(r, "%s cpu%u iowait went back %" PRIu64 " -> %" PRIu64 " ns",
		       src_name[src], cpu, prev->iowait, cur->iowait);
	} else {
		st->iowait_growth[cpu] += cur->iowait - prev->iowait;
	}
	growth = (int64_t)(cur->idle + cur->iowait) - (int64_t)(prev->idle + prev->iowait);
	allowed = (int64_t)(t_after - prev->base + slack);
	if (growth > allowed) {
		st->over[cpu]++;
		if ((uint64_t)(growth - allowed) > st->max_over_ns)
			st->max_over_ns = (uint64_t)(growth - allowed);
		report(r, "%s cpu%u idle+iowait grew %" PRId64 " ns in at most %" PRId64 " ns",
		       src_name[src], cpu, growth, allowed);
	}
}

static int read_source(struct reader *r, enum source src)
{
	struct snapshot *s = &r->snap;
	struct src_stats *st = &r->src[src];
	ssize_t len;
	int ret;

	memset(s, 0, sizeof(*s));
	s->t_before = mono_ns();
	len = read_file(r, r->fd[src]);
	s->t_after = mono_ns();
	if (len < 0)
		return (int)len;
	ret = src == SRC_STAT ? parse_stat(r->buf, r->cfg, s) :
				parse_timer_list(r->buf, (size_t)len, r->cfg, r);
	if (ret)
		return ret;
	st->reads++;
	if (src == SRC_TL) {
		r->tl_current = s->current;
		if (s->t_after - s->now > st->max_slack_ns)
			st->max_slack_ns = s->t_after - s->now;
	}
	for (unsigned int c = 0; c < r->cfg->ncpus; c++) {
		if (!s->cpu[c].present) {
			st->absent[c]++;
			continue;
		}
		check_cpu(r, src, c, &s->cpu[c], s->t_after);
		st->last[c] = s->cpu[c];
	}
	return 0;
}

static int pause_between_reads(struct reader *r)
{
	const struct config *cfg = r->cfg;
	uint64_t span = cfg->sleep_max_ns - cfg->sleep_min_ns + 1;
	struct timespec ts = ns_to_ts(cfg->sleep_min_ns + next_rand(r) % span);

	return -clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
}

static int run_reader(struct reader *r)
{
	uint64_t start = mono_ns(), iter = 0;
	int ret;

	while (mono_ns() - start < r->cfg->duration_ns) {
		keep_pinned(r);
		ret = read_source(r, SRC_STAT);
		if (!ret && ++iter % r->cfg->tl_every == 0)
			ret = read_source(r, SRC_TL);
		if (!ret)
			ret = pause_between_reads(r);
		if (ret)
			return ret;
	}
	r->elapsed_ns = mono_ns() - start;
	return 0;
}

static int gate_wait(struct gate *g)
{
	int state;

	pthread_mutex_lock(&g->lock);
	while (!g->state)
		pthread_cond_wait(&g->cond, &g->lock);
	state = g->state;
	pthread_mutex_unlock(&g->lock);
	return state;
}

static void gate_open(struct gate *g, int state)
{
	pthread_mutex_lock(&g->lock);
	g->state = state;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;

	r->err = pin_thread(r->cpu);
	if (gate_wait(r->start) < 0)
		r->err = -ECANCELED;
	if (!r->err)
		r->err = run_reader(r);
	return NULL;
}

static int reader_open(struct reader *r)
{
	static const char *const path[NR_SRC] = { "/proc/stat", "/proc/timer_list" };

	r->fd[SRC_STAT] = r->fd[SRC_TL] = -1;
	for (int s = 0; s < NR_SRC; s++) {
		r->fd[s] = open(path[s], O_RDONLY | O_CLOEXEC);
		if (r->fd[s] < 0) {
			int err = -errno;

			err_errno(err, "open %s", path[s]);
			return err;
		}
	}
	r->buf = malloc(READ_BUF);
	return r->buf ? 0 : -ENOMEM;
}

static void reader_close(struct reader *r)
{
	for (int s = 0; s < NR_SRC; s++)
		if (r->fd[s] >= 0)
			close(r->fd[s]);
	free(r->buf);
}

/* Print "key=a,b,c" for CPUs 0 .. ncpus-1 of @v. */
static void print_list(const char *key, const uint64_t *v, unsigned int ncpus,
		       uint64_t div)
{
	printf(" %s=", key);
	for (unsigned int c = 0; c < ncpus; c++)
		printf("%s%" PRIu64, c ? "," : "", (uint64_t)(v[c] / div));
}

static uint64_t sum(const uint64_t *v, unsigned int ncpus)
{
	uint64_t s = 0;

	for (unsigned int c = 0; c < ncpus; c++)
		s += v[c];
	return s;
}

static void print_reader(const struct reader *r)
{
	const struct src_stats *st = &r->src[SRC_STAT], *tl = &r->src[SRC_TL];
	unsigned int n = r->cfg->ncpus;
	uint64_t back = 0, over = 0;

	for (int s = 0; s < NR_SRC; s++) {
		back += sum(r->src[s].back_idle, n) + sum(r->src[s].back_iowait, n);
		over += sum(r->src[s].over, n);
	}
	printf("reader=%d seconds=%.1f stat_reads=%" PRIu64 " tl_reads=%" PRIu64
	       " tl_current=%d back=%" PRIu64 " over=%" PRIu64,
	       r->cpu, r->elapsed_ns / 1e9, st->reads, tl->reads,
	       r->tl_current, back, over);
	print_list("stat_pairs", st->pairs, n, 1);
	print_list("stat_back_idle", st->back_idle, n, 1);
	print_list("stat_back_iowait", st->back_iowait, n, 1);
	print_list("stat_over", st->over, n, 1);
	print_list("tl_pairs", tl->pairs, n, 1);
	print_list("tl_back_idle", tl->back_idle, n, 1);
	print_list("tl_back_iowait", tl->back_iowait, n, 1);
	print_list("tl_over", tl->over, n, 1);
	print_list("tl_absent", tl->absent, n, 1);
	print_list("tl_iowait_ms", tl->iowait_growth, n, NSEC_PER_MSEC);
	printf(" max_back_ns=%" PRIu64 " max_over_ns=%" PRIu64
	       " tl_max_slack_us=%" PRIu64 " off_cpu=%" PRIu64 " repins=%" PRIu64 "\n",
	       st->max_back_ns > tl->max_back_ns ? st->max_back_ns : tl->max_back_ns,
	       st->max_over_ns > tl->max_over_ns ? st->max_over_ns : tl->max_over_ns,
	       (uint64_t)(tl->max_slack_ns / NSEC_PER_USEC), r->off_cpu, r->repins);
}

/* The CPUs of a sysfs cpulist file ("0-1"), or -errno. */
static int read_cpulist(const char *path, unsigned char *set)
{
	char text[256];
	FILE *f = fopen(path, "re");
	int ret;

	if (!f)
		return -errno;
	ret = fgets(text, sizeof(text), f) ? cpulist_parse(text, set, MAX_CPUS) : -EIO;
	fclose(f);
	return ret;
}

static int parse_sleep(const char *s, struct config *cfg)
{
	char lo[32], hi[32];
	const char *dash = strchr(s, '-');

	if (!dash || (size_t)(dash - s) >= sizeof(lo) || strlen(dash + 1) >= sizeof(hi))
		return -EINVAL;
	memcpy(lo, s, (size_t)(dash - s));
	lo[dash - s] = '\0';
	strcpy(hi, dash + 1);
	if (parse_duration_ns(lo, NSEC_PER_USEC, &cfg->sleep_min_ns) ||
	    parse_duration_ns(hi, NSEC_PER_USEC, &cfg->sleep_max_ns) ||
	    cfg->sleep_max_ns < cfg->sleep_min_ns)
		return -EINVAL;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: counter-check [-c CPUS] [-t SECONDS] [-s MIN_US-MAX_US] [-n N]\n"
		"\n"
		"Run one reader pinned to each CPU in CPUS (default: the online CPUs)\n"
		"for SECONDS (default 60). Each reads /proc/stat, and every Nth time\n"
		"(default 2) /proc/timer_list too, then sleeps a random MIN_US to MAX_US\n"
		"(default 200-1100), and checks every CPU's idle and iowait sums\n"
		"against its own previous read: backward steps, and idle+iowait growth\n"
		"beyond the time between the reads (timer_list: from its \"now at\",\n"
		"/proc/stat: one clock tick per counter). A CPU that goes offline is\n"
		"compared, when back, with its last values before.\n"
		"\n"
		"Output: one line per reader of key=value pairs; a comma list holds a\n"
		"value per CPU from cpu0 on. back and over are the totals; tl_current=1\n"
		"when timer_list prints current sums (.idle_active and .nr_iowait in\n"
		"every CPU's block). The first few\n"
		"anomalies of each reader are described on stderr.\n"
		"Exit status: 0 ran (whatever it found), 1 runtime error, 2 bad usage.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpus", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "timer-list-every", required_argument, NULL, 'n' },
		{ "sleep", required_argument, NULL, 's' },
		{ "seconds", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	struct config cfg = {
		.duration_ns = 60 * NSEC_PER_SEC,
		.sleep_min_ns = 200 * NSEC_PER_USEC,
		.sleep_max_ns = 1100 * NSEC_PER_USEC,
		.tl_every = 2,
	};
	unsigned char cpus[MAX_CPUS], possible[MAX_CPUS];
	const char *cpu_arg = NULL;
	struct gate start = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.cond = PTHREAD_COND_INITIALIZER,
	};
	struct reader *readers;
	int c, n, nr = 0, ret = 0;
	long hz = sysconf(_SC_CLK_TCK);
	char *end;

	while ((c = getopt_long(argc, argv, "c:hn:s:t:", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cpu_arg = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'n':
			cfg.tl_every = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || cfg.tl_every < 1 || cfg.tl_every > 1000000) {
				err_msg("bad timer_list interval '%s'", optarg);
				return 2;
			}
			break;
		case 's':
			if (parse_sleep(optarg, &cfg)) {
				err_msg("bad sleep range '%s', want MIN_US-MAX_US", optarg);
				return 2;
			}
			break;
		case 't':
			if (parse_duration_ns(optarg, NSEC_PER_SEC, &cfg.duration_ns) ||
			    !cfg.duration_ns) {
				err_msg("bad duration '%s'", optarg);
				return 2;
			}
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (hz <= 0) {
		err_msg("no clock tick rate");
		return 1;
	}
	cfg.tick_ns = NSEC_PER_SEC / (uint64_t)hz;

	n = read_cpulist("/sys/devices/system/cpu/possible", possible);
	if (n < 0) {
		err_errno(n, "/sys/devices/system/cpu/possible");
		return 1;
	}
	cfg.ncpus = (unsigned int)cpulist_last(possible, MAX_CPUS) + 1;
	n = cpu_arg ? cpulist_parse(cpu_arg, cpus, MAX_CPUS) :
		      read_cpulist("/sys/devices/system/cpu/online", cpus);
	if (n < 0) {
		err_errno(n, "CPU list '%s'", cpu_arg ? cpu_arg : "online");
		return cpu_arg ? 2 : 1;
	}

	readers = calloc((size_t)n, sizeof(*readers));
	if (!readers) {
		err_errno(-ENOMEM, "readers");
		return 1;
	}
	for (int cpu = 0; cpu < MAX_CPUS && !ret; cpu++) {
		struct reader *r = &readers[nr];

		if (!cpus[cpu])
			continue;
		r->cpu = cpu;
		r->cfg = &cfg;
		r->start = &start;
		r->rng = 0x9e3779b97f4a7c15ull * (uint64_t)(cpu + 1);
		ret = reader_open(r);
		if (!ret) {
			ret = -pthread_create(&r->thread, NULL, reader_main, r);
			if (ret)
				err_errno(ret, "pthread_create");
		}
		if (ret)
			reader_close(r);
		else
			nr++;
	}
	gate_open(&start, ret ? -1 : 1);
	for (int i = 0; i < nr; i++) {
		struct reader *r = &readers[i];

		pthread_join(r->thread, NULL);
		if (r->err == -ECANCELED) {
			/* set-up failed, already reported */
		} else if (r->err) {
			err_errno(r->err, "reader on cpu%d", r->cpu);
			ret = r->err;
		} else if (!ret) {
			print_reader(r);
		}
		reader_close(r);
	}
	free(readers);
	return ret ? 1 : 0;
}
