// SPDX-License-Identifier: GPL-2.0
/*
 * iowait-freqmon - per-CPU busy/idle/iowait and CPU frequency sampler
 *
 * main.c: the command line, the setup of sources and sinks, and the run:
 * a sampler thread, a writer thread, and this thread waiting for signals
 * (signalfd), for the threads (eventfd) and for the command.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"
#include "cpulist.h"
#include "log.h"
#include "meta.h"
#include "output.h"
#include "sampler.h"
#include "stat.h"
#include "timeutil.h"
#include "writer.h"

#ifndef IFM_VERSION
#define IFM_VERSION "unknown"
#endif

/* Exit statuses (documented in iowait-freqmon(8) and --help) */
enum {
	EXIT_RUNTIME = 1,	/* runtime error, e.g. output write failed */
	EXIT_USAGE = 2,		/* invalid command line */
	EXIT_SOURCE = 3,	/* a required source cannot be read */
};

#define DEFAULT_RATE_HZ 100
#define MAX_RATE_HZ 10000
#define MIN_INTERVAL_NS (NSEC_PER_SEC / MAX_RATE_HZ)
#define MAX_INTERVAL_NS (3600 * NSEC_PER_SEC)
#define DISCOVERY_CPUS 8192		/* CPUs looked for at start */
#define DISCOVERY_BUF (8u << 20)	/* timer_list read at start */
#define MIN_TL_BUF (256u << 10)
#define MIN_RING_SLOTS 1024
#define OUTBUF_SIZE (256u << 10)

enum {
	OPT_NO_FREQ = 256,
	OPT_NO_STAT,
	OPT_REPLAY,
	OPT_ROOT,
};

struct options {
	uint64_t interval_ns;
	uint64_t duration_ns;
	bool rate_set, interval_set;
	const char *output;		/* NULL or "-": stdout */
	const char *summary;		/* NULL: stderr; "-": stdout */
	const struct output_ops *format;
	const char *cpus;
	const char *root;
	bool replay, quiet, mlock, no_stat, no_freq;
	int pin;			/* -1: not pinned */
	int priority;			/* SCHED_FIFO priority, 0: none */
	unsigned long ring_slots;	/* 0: automatic */
	char **command;			/* NULL: none */
};

struct run {
	struct options opt;
	struct run_meta meta;
	struct srcfile tl_file, stat_file;
	bool have_tl_file, have_stat_file;
	struct tl_reader reader;
	struct freq_source freq;
	bool have_freq;
	unsigned char *wanted;		/* by CPU number, ncap bytes */
	unsigned int ncap;		/* last sampled CPU + 1 */
	unsigned int *cpu;		/* sampled CPUs, ascending */
	unsigned int ncpus;
	struct stat_snapshot stat0, stat1;
	bool have_stat0;
	struct summary sum;
	struct ring ring;
	bool have_ring;
	struct sampler smp;
	bool have_smp;
	struct output out;
	bool have_out;
	const char *out_name;
	struct writer wr;
	FILE *sumf;
	int sig_fd, smp_fd, wr_fd;
	pid_t child;
	int child_status;		/* exit status to return, -1 if none */
	int status;			/* exit status of the tool itself */
};

static const struct option long_options[] = {
	{ "buffer", required_argument, NULL, 'b' },
	{ "cpus", required_argument, NULL, 'c' },
	{ "duration", required_argument, NULL, 'd' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ "interval", required_argument, NULL, 'i' },
	{ "mlock", no_argument, NULL, 'm' },
	{ "no-freq", no_argument, NULL, OPT_NO_FREQ },
	{ "no-stat", no_argument, NULL, OPT_NO_STAT },
	{ "output", required_argument, NULL, 'o' },
	{ "pin", required_argument, NULL, 'p' },
	{ "priority", required_argument, NULL, 'P' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "rate", required_argument, NULL, 'r' },
	{ "replay", no_argument, NULL, OPT_REPLAY },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "summary", required_argument, NULL, 's' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

static void print_usage(FILE *f)
{
	fprintf(f,
"Usage: iowait-freqmon [options] [--] [command [args...]]\n"
"Sample per-CPU busy, idle and iowait fractions (from /proc/timer_list) and\n"
"CPU frequencies (cpufreq) at a fixed rate. With a command: sample while it\n"
"runs and exit with its status. Without: until SIGINT/SIGTERM or --duration.\n"
"\n"
"Sampling:\n"
"  -r, --rate HZ         samples per second (default %d, at most %d)\n"
"  -i, --interval MS     time between samples in ms, e.g. 0.5 (instead of -r)\n"
"  -d, --duration SEC    stop sampling after SEC seconds, e.g. 2.5\n"
"  -c, --cpus LIST       CPUs to sample, e.g. 0-3,5 (default: all online)\n"
"  -p, --pin CPU         run the sampler thread on CPU (default: not pinned)\n"
"  -P, --priority PRIO   run the sampler thread SCHED_FIFO at PRIO (1-99;\n"
"                        default: SCHED_OTHER)\n"
"  -m, --mlock           lock the tool's memory (mlockall)\n"
"  -b, --buffer N        ring buffer size in samples (default: 2 s worth,\n"
"                        at least %d)\n"
"      --no-freq         do not read cpufreq frequencies\n"
"      --no-stat         do not read /proc/stat for the cross-check\n"
"      --root DIR        read every /proc and /sys file under DIR instead of /\n"
"      --replay          with --root: read DIR/proc/timer_list.K for sample K\n"
"                        (and F.K for any other file F if present); the run\n"
"                        ends when timer_list.K is missing\n"
"Output:\n"
"  -o, --output FILE     per-sample output to FILE (default: stdout)\n"
"  -f, --format FMT      tsv (default), json, or trace (Trace Event Format\n"
"                        for Perfetto and chrome://tracing)\n"
"  -q, --quiet           no per-sample output, only the summary\n"
"  -s, --summary FILE    write the end summary to FILE (default: stderr;\n"
"                        '-' for stdout)\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version and exit\n"
"\n"
"TSV columns: " "time_s cpu busy idle iowait freq_khz valid" "\n"
"\n"
"Exit status: 0 success; 1 runtime error (e.g. writing the output failed);\n"
"2 invalid command line; 3 a required source cannot be read (/proc/timer_list\n"
"needs root or CAP_DAC_READ_SEARCH, or use --root); with a command, its exit\n"
"status (128+N if killed by signal N), 127 if it was not found, 126 if it\n"
"could not be executed. See iowait-freqmon(8).\n",
		DEFAULT_RATE_HZ, MAX_RATE_HZ, MIN_RING_SLOTS);
}

static int usage_error(const char *fmt, ...) IFM_PRINTF(1, 2);

static int usage_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err_msg("%s", msg);
	print_usage(stderr);
	return EXIT_USAGE;
}

/* Strict unsigned decimal in [min, max]. */
static int parse_ulong(const char *s, unsigned long min, unsigned long max,
		       unsigned long *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* Returns -1 to go on, or an exit status. */
static int parse_options(struct options *o, int argc, char **argv)
{
	unsigned long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->pin = -1;
	o->format = &output_tsv;
	o->interval_ns = NSEC_PER_SEC / DEFAULT_RATE_HZ;
	opterr = 0;
	/* '+': options end at the command's name; ':': report missing args */
	while ((c = getopt_long(argc, argv, "+:b:c:d:f:hi:mo:p:P:qr:s:V",
				long_options, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (parse_ulong(optarg, 16, 1UL << 24, &v))
				return usage_error("invalid --buffer '%s' "
						   "(16 to 16777216 samples)",
						   optarg);
			o->ring_slots = v;
			break;
		case 'c':
			o->cpus = optarg;
			break;
		case 'd':
			if (parse_duration_ns(optarg, NSEC_PER_SEC,
					      &o->duration_ns) ||
			    !o->duration_ns)
				return usage_error("invalid --duration '%s' "
						   "(seconds, > 0)", optarg);
			break;
		case 'f':
			o->format = output_find(optarg);
			if (!o->format)
				return usage_error("unknown --format '%s' "
						   "(tsv, json or trace)",
						   optarg);
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		case 'i':
			if (parse_duration_ns(optarg, NSEC_PER_MSEC,
					      &o->interval_ns) ||
			    o->interval_ns < MIN_INTERVAL_NS ||
			    o->interval_ns > MAX_INTERVAL_NS)
				return usage_error("invalid --interval '%s' "
						   "(0.1 to 3600000 ms)",
						   optarg);
			o->interval_set = true;
			break;
		case 'm':
			o->mlock = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'p':
			if (parse_ulong(optarg, 0, CPU_SETSIZE - 1, &v))
				return usage_error("invalid --pin '%s'",
						   optarg);
			o->pin = (int)v;
			break;
		case 'P':
			if (parse_ulong(optarg, 1, 99, &v))
				return usage_error("invalid --priority '%s' "
						   "(1 to 99)", optarg);
			o->priority = (int)v;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'r':
			if (parse_ulong(optarg, 1, MAX_RATE_HZ, &v))
				return usage_error("invalid --rate '%s' "
						   "(1 to %d Hz)", optarg,
						   MAX_RATE_HZ);
			o->interval_ns = NSEC_PER_SEC / v;
			o->rate_set = true;
			break;
		case 's':
			o->summary = optarg;
			break;
		case 'V':
			printf("iowait-freqmon %s\n", IFM_VERSION);
			return 0;
		case OPT_NO_FREQ:
			o->no_freq = true;
			break;
		case OPT_NO_STAT:
			o->no_stat = true;
			break;
		case OPT_REPLAY:
			o->replay = true;
			break;
		case OPT_ROOT:
			o->root = optarg;
			break;
		case ':':
			return usage_error("option '%s' needs an argument",
					   argv[optind - 1]);
		default:
			if (optopt)
				return usage_error("unknown option '-%c'",
						   optopt);
			return usage_error("unknown option '%s'",
					   argv[optind - 1]);
		}
	}
	if (o->rate_set && o->interval_set)
		return usage_error("give either --rate or --interval");
	if (o->replay && !o->root)
		return usage_error("--replay needs --root DIR");
	if (optind < argc)
		o->command = argv + optind;
	return -1;
}

/* ---- setup ------------------------------------------------------------ */

static int open_timer_list(struct run *r)
{
	unsigned int flags = r->opt.replay ? SRC_REPLAY | SRC_SEQUENCE : 0;
	int ret = srcfile_open(&r->tl_file, r->opt.root, "/proc/timer_list",
			       flags);

	if (!ret) {
		r->have_tl_file = true;
		return -1;
	}
	if (r->opt.root) {
		char *path = root_path(r->opt.root, "/proc/timer_list");

		err_errno(ret, "cannot read %s%s", path ? path : r->opt.root,
			  r->opt.replay ? ".0" : "");
		free(path);
	}
	else if (ret == -EACCES || ret == -EPERM)
		err_msg("cannot read /proc/timer_list: it needs root "
			"(or CAP_DAC_READ_SEARCH); or use --root DIR");
	else
		err_errno(ret, "cannot read /proc/timer_list");
	return EXIT_SOURCE;
}

static int check_possible(struct run *r, const unsigned char *set,
			  unsigned int nbits)
{
	unsigned char *possible = calloc(nbits, 1);
	char buf[4096];
	int ret = -1;

	if (!possible)
		return EXIT_RUNTIME;
	if (root_read_file(r->opt.root, "/sys/devices/system/cpu/possible",
			   buf, sizeof(buf)) > 0 &&
	    cpulist_parse(buf, possible, nbits) > 0) {
		for (unsigned int c = 0; c < nbits; c++) {
			if (set[c] && !possible[c]) {
				ret = usage_error("CPU %u does not exist "
						  "(possible CPUs: %s)", c,
						  buf);
				break;
			}
		}
	}
	free(possible);
	return ret;
}

/* Pick the CPUs: --cpus, or those online in the first snapshot. */
static int select_cpus(struct run *r, const struct tl_snapshot *snap,
		       const unsigned char *want, unsigned int nbits)
{
	int last = -1;

	for (unsigned int c = 0; c < nbits; c++) {
		bool online = c < snap->ncpus && snap->cpu[c].seen;

		if (want ? !want[c] : !online)
			continue;
		if (want && !online)
			warn_msg("CPU %u is not in timer_list now (offline?); "
				 "its samples are invalid until it is", c);
		last = (int)c;
		r->ncpus++;
	}
	if (last < 0) {
		err_msg("no CPU to sample in timer_list");
		return EXIT_SOURCE;
	}
	r->ncap = (unsigned int)last + 1;
	r->wanted = calloc(r->ncap, 1);
	r->cpu = calloc(r->ncpus, sizeof(*r->cpu));
	if (!r->wanted || !r->cpu)
		return EXIT_RUNTIME;
	r->ncpus = 0;
	for (unsigned int c = 0; c < r->ncap; c++) {
		bool online = c < snap->ncpus && snap->cpu[c].seen;

		if (want ? !want[c] : !online)
			continue;
		r->wanted[c] = 1;
		r->cpu[r->ncpus++] = c;
	}
	cpulist_format(r->wanted, r->ncap, r->meta.cpus, sizeof(r->meta.cpus));
	return -1;
}

/*
 * Read the whole timer_list once: version, mode, online CPUs, and a
 * buffer size for the sampling reads.
 */
static int discover(struct run *r)
{
	unsigned int nbits = DISCOVERY_CPUS;
	unsigned char *want = NULL;
	struct tl_snapshot snap = { 0 };
	struct tl_reader rd;
	bool live = true, fields = false;
	int ret, fd, status = -1;

	if (r->opt.cpus) {
		nbits = TL_MAX_CPU + 1;
		want = calloc(nbits, 1);
		if (!want)
			return EXIT_RUNTIME;
		ret = cpulist_parse(r->opt.cpus, want, nbits);
		if (ret <= 0) {
			free(want);
			return usage_error("invalid --cpus '%s' (a CPU list "
					   "like 0-3,5)", r->opt.cpus);
		}
		status = check_possible(r, want, nbits);
		if (status >= 0) {
			free(want);
			return status;
		}
	}
	snap.ncpus = nbits;
	snap.cpu = calloc(nbits, sizeof(*snap.cpu));
	if (!snap.cpu || tl_reader_init(&rd, DISCOVERY_BUF, -1, nbits)) {
		free(snap.cpu);
		free(want);
		return EXIT_RUNTIME;
	}
	fd = srcfile_get(&r->tl_file, 0);
	ret = fd < 0 ? fd : tl_reader_read(&rd, fd, &snap);
	srcfile_put(&r->tl_file, fd);
	if (ret || !(snap.flags & TLS_VERSION)) {
		err_errno(ret ? ret : -EBADMSG, "cannot parse %s%s",
			  r->tl_file.path, r->opt.replay ? ".0" : "");
		status = EXIT_SOURCE;
		goto out;
	}
	for (unsigned int c = 0; c < snap.ncpus; c++) {
		if (!snap.cpu[c].seen)
			continue;
		fields |= (snap.cpu[c].have & TL_NEED_STALE) == TL_NEED_STALE;
		live &= (snap.cpu[c].have & TL_LIVE) == TL_LIVE;
	}
	if (!fields) {
		err_msg("%s: no CPU block has the idle accounting fields "
			"(malformed, or a kernel without CONFIG_TICK_ONESHOT)",
			r->tl_file.path);
		status = EXIT_SOURCE;
		goto out;
	}
	if (snap.ver_major != 0 || snap.ver_minor < 8 || snap.ver_minor > 10)
		warn_msg("Timer List Version v%u.%u is untested (v0.8-v0.10 "
			 "are known)", snap.ver_major, snap.ver_minor);
	if (snap.nextra)
		warn_msg("CPUs above %u are ignored", nbits - 1);
	r->meta.tl_major = snap.ver_major;
	r->meta.tl_minor = snap.ver_minor;
	r->meta.live = live;

	status = select_cpus(r, &snap, want, nbits);
	if (status >= 0)
		goto out;
	if (tl_reader_init(&r->reader,
			   rd.len * 4 > MIN_TL_BUF ? rd.len * 4 : MIN_TL_BUF,
			   (long)r->cpu[r->ncpus - 1], r->ncap)) {
		status = EXIT_RUNTIME;
		goto out;
	}
out:
	tl_reader_free(&rd);
	free(snap.cpu);
	free(want);
	return status;
}

static void setup_freq(struct run *r)
{
	unsigned int flags = r->opt.replay ? SRC_REPLAY : 0;

	if (r->opt.no_freq)
		return;
	if (freq_source_init(&r->freq, r->opt.root, flags, r->wanted,
			     r->ncap)) {
		warn_msg("cannot set up the frequency source: out of memory");
		return;
	}
	r->freq.retry_every = NSEC_PER_SEC / r->opt.interval_ns + 1;
	r->have_freq = true;
	r->meta.freq = &r->freq;
}

static bool read_stat(struct run *r, struct stat_snapshot *st,
		      unsigned long seq)
{
	char buf[64 << 10];
	ssize_t n = srcfile_read(&r->stat_file, seq, buf, sizeof(buf));

	return n > 0 && stat_parse(buf, (size_t)n, st) > 0;
}

static void setup_stat(struct run *r)
{
	unsigned int flags = r->opt.replay ? SRC_REPLAY : 0;
	int ret;

	if (r->opt.no_stat)
		return;
	r->stat0.ncpus = r->stat1.ncpus = r->ncap;
	r->stat0.cpu = calloc(r->ncap, sizeof(*r->stat0.cpu));
	r->stat1.cpu = calloc(r->ncap, sizeof(*r->stat1.cpu));
	if (!r->stat0.cpu || !r->stat1.cpu)
		return;
	ret = srcfile_open(&r->stat_file, r->opt.root, "/proc/stat", flags);
	if (ret) {
		warn_msg("no /proc/stat cross-check: cannot read %s/proc/stat: "
			 "%s", r->opt.root ? r->opt.root : "", strerror(-ret));
		return;
	}
	r->have_stat_file = true;
	r->have_stat0 = read_stat(r, &r->stat0, 0);
}

static int open_out_file(const char *path, int *fd)
{
	if (!path || !strcmp(path, "-")) {
		*fd = STDOUT_FILENO;
		return 0;
	}
	*fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	return *fd < 0 ? -errno : 0;
}

static int setup_output(struct run *r)
{
	int fd, ret;

	r->sumf = stderr;
	if (r->opt.summary) {
		if (!strcmp(r->opt.summary, "-")) {
			r->sumf = stdout;
		} else {
			r->sumf = fopen(r->opt.summary, "we");
			if (!r->sumf) {
				err_errno(errno, "cannot open %s",
					  r->opt.summary);
				return EXIT_RUNTIME;
			}
		}
	}
	/* --quiet without --output: no output stream at all */
	if (r->opt.quiet && !r->opt.output)
		return -1;
	ret = open_out_file(r->opt.output, &fd);
	if (ret) {
		err_errno(ret, "cannot open %s", r->opt.output);
		return EXIT_RUNTIME;
	}
	r->out_name = fd == STDOUT_FILENO ? "standard output" : r->opt.output;
	if (outbuf_init(&r->out.ob, fd, OUTBUF_SIZE))
		return EXIT_RUNTIME;
	r->out.ops = r->opt.format;
	r->out.meta = &r->meta;
	r->have_out = true;
	return -1;
}

/* Is the output the same file as stderr? Then the summary is in it. */
static bool output_is_stderr(const struct run *r)
{
	struct stat a, b;

	if (!r->have_out || fstat(r->out.ob.fd, &a) || fstat(STDERR_FILENO, &b))
		return false;
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static void noop_handler(int sig)
{
	(void)sig;
}

static int setup_signals(struct run *r)
{
	struct sigaction sa = { .sa_handler = noop_handler };
	sigset_t set;

	/* the sampler thread unblocks SIGUSR1 to be woken from its sleep */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* EPIPE is an output error */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);	/* threads inherit it */
	sigdelset(&set, SIGUSR1);
	r->sig_fd = signalfd(-1, &set, SFD_CLOEXEC);
	r->smp_fd = eventfd(0, EFD_CLOEXEC);
	r->wr_fd = eventfd(0, EFD_CLOEXEC);
	if (r->sig_fd < 0 || r->smp_fd < 0 || r->wr_fd < 0) {
		err_errno(errno, "cannot set up signal handling");
		return EXIT_RUNTIME;
	}
	return -1;
}

static int setup_sampling(struct run *r, int argc, char **argv)
{
	struct timespec now;
	unsigned long slots = r->opt.ring_slots;
	int ret;

	if (summary_init(&r->sum, r->cpu, r->ncpus))
		return EXIT_RUNTIME;
	r->sum.interval_ns = r->opt.interval_ns;
	r->sum.user_hz = sysconf(_SC_CLK_TCK);
	if (r->have_out && !r->opt.quiet) {
		if (!slots)
			slots = 2 * NSEC_PER_SEC / r->opt.interval_ns;
		if (slots < MIN_RING_SLOTS && !r->opt.ring_slots)
			slots = MIN_RING_SLOTS;
		if (ring_init(&r->ring, slots, sample_size(r->ncpus)))
			return EXIT_RUNTIME;
		r->have_ring = true;
	}
	r->smp = (struct sampler){
		.interval_ns = r->opt.interval_ns,
		.duration_ns = r->opt.duration_ns,
		.final_sample = !r->opt.replay,
		.tl_file = &r->tl_file,
		.reader = &r->reader,
		.freq = r->have_freq ? &r->freq : NULL,
		.cpu = r->cpu,
		.ncpus = r->ncpus,
		.ring = r->have_ring ? &r->ring : NULL,
		.sum = &r->sum,
		.notify_fd = r->smp_fd,
	};
	if (sampler_init(&r->smp))
		return EXIT_RUNTIME;
	r->have_smp = true;

	clock_gettime(CLOCK_REALTIME, &now);
	time_iso8601(&now, r->meta.start, sizeof(r->meta.start));
	ret = sampler_prime(&r->smp);
	if (ret) {
		err_errno(ret, "cannot read %s", r->tl_file.path);
		return EXIT_SOURCE;
	}
	r->meta.version = IFM_VERSION;
	r->meta.argc = argc;
	r->meta.argv = argv;
	r->meta.command = meta_command_line(argc, argv);
	if (!r->meta.command)
		return EXIT_RUNTIME;
	meta_kernel(r->opt.root, r->meta.kernel, sizeof(r->meta.kernel));
	r->meta.cpu = r->cpu;
	r->meta.ncpus = r->ncpus;
	r->meta.interval_ns = r->opt.interval_ns;
	r->meta.start_mono_ns = r->smp.first_now;
	r->meta.root = r->opt.root;
	r->meta.replay = r->opt.replay;
	return -1;
}

/* ---- the run ---------------------------------------------------------- */

static void drain_fd(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) < 0)
		return;
}

/* Returns true while the command runs. */
static bool reap_child(struct run *r)
{
	int ws;
	pid_t p = waitpid(r->child, &ws, WNOHANG);

	if (p != r->child)
		return true;
	r->child_status = command_exit_status(ws);
	r->sum.command_status = r->child_status;
	r->child = 0;
	return false;
}

static int start_threads(struct run *r)
{
	int ret;

	if (r->have_ring) {
		r->wr = (struct writer){
			.ring = &r->ring,
			.out = &r->out,
			.ncpus = r->ncpus,
			.notify_fd = r->wr_fd,
		};
		ret = writer_start(&r->wr);
		if (ret) {
			err_errno(ret, "cannot start the writer thread");
			return EXIT_RUNTIME;
		}
	}
	ret = sampler_start(&r->smp, r->opt.pin, r->opt.priority);
	if (ret) {
		if (ret == -EPERM && r->opt.priority)
			err_errno(ret, "cannot run the sampler SCHED_FIFO at "
				  "priority %d", r->opt.priority);
		else if (r->opt.pin >= 0)
			err_errno(ret, "cannot pin the sampler to CPU %d",
				  r->opt.pin);
		else
			err_errno(ret, "cannot start the sampler thread");
		return EXIT_RUNTIME;
	}
	return -1;
}

static void wait_loop(struct run *r)
{
	bool sampling = true, running = r->child > 0;

	while (sampling || running) {
		struct pollfd p[3] = {
			{ .fd = r->sig_fd, .events = POLLIN },
			{ .fd = r->smp_fd, .events = POLLIN },
			{ .fd = r->wr_fd, .events = POLLIN },
		};
		struct signalfd_siginfo si;

		if (poll(p, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			err_errno(errno, "poll");
			r->status = EXIT_RUNTIME;
			break;
		}
		if (p[1].revents) {		/* sampler ended by itself */
			drain_fd(r->smp_fd);
			sampling = false;
		}
		if (p[2].revents) {		/* output error: stop */
			drain_fd(r->wr_fd);
			sampling = false;
		}
		if (!p[0].revents ||
		    read(r->sig_fd, &si, sizeof(si)) != sizeof(si))
			goto next;
		if (si.ssi_signo == SIGCHLD) {
			if (running)
				running = reap_child(r);
			if (!running)
				sampling = false;
		} else if (running) {
			/*
			 * A terminal's signal reached the command already;
			 * pass on what was sent to us with kill().
			 */
			if (si.ssi_code == SI_USER || si.ssi_code == SI_QUEUE)
				kill(r->child, (int)si.ssi_signo);
		} else {
			sampling = false;
		}
next:
		if (!sampling)
			sampler_stop(&r->smp);
	}
	sampler_stop(&r->smp);
}

static void emit_summary_line(void *ctx, const char *line)
{
	fprintf(ctx, "%s\n", line);
}

static void finish(struct run *r)
{
	struct rusage ru;
	struct timespec now;
	int err = 0;

	if (r->have_stat_file && r->have_stat0 &&
	    read_stat(r, &r->stat1, r->smp.seq ? r->smp.seq - 1 : 0)) {
		for (unsigned int i = 0; i < r->ncpus; i++) {
			struct summary_cpu *c = &r->sum.cpu[i];
			unsigned int cpu = r->cpu[i];

			c->stat0 = r->stat0.cpu[cpu];
			c->stat1 = r->stat1.cpu[cpu];
			c->have_stat = c->stat0.seen && c->stat1.seen &&
				       c->stat1.busy >= c->stat0.busy &&
				       c->stat1.idle >= c->stat0.idle &&
				       c->stat1.iowait >= c->stat0.iowait &&
				       c->stat1.busy + c->stat1.idle +
				       c->stat1.iowait > c->stat0.busy +
				       c->stat0.idle + c->stat0.iowait;
		}
	}
	if (!getrusage(RUSAGE_SELF, &ru))
		r->sum.proc_cpu_ns =
			(uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) *
				NSEC_PER_SEC +
			(uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) *
				NSEC_PER_USEC;
	clock_gettime(CLOCK_REALTIME, &now);
	time_iso8601(&now, r->sum.end, sizeof(r->sum.end));

	if (r->have_out) {
		if (r->have_ring)
			err = writer_finish(&r->wr);
		if (!err) {
			r->out.ops->end(&r->out, &r->sum);
			err = outbuf_flush(&r->out.ob);
		}
		if (err) {
			uint64_t lost = r->smp.produced - r->wr.committed;

			err_msg("cannot write to %s: %s (%llu of %llu samples "
				"lost%s)", r->out_name, strerror(-err),
				(unsigned long long)lost,
				(unsigned long long)r->smp.produced,
				lost ? "" : ", and the summary");
			r->status = EXIT_RUNTIME;
		}
	}
	if (r->smp.end == SAMPLER_ERROR) {
		err_errno(r->smp.err, "sampling failed");
		r->status = EXIT_RUNTIME;
	}
	if (r->sumf != stderr || !output_is_stderr(r)) {
		summary_print(&r->sum, "", emit_summary_line, r->sumf);
		if (fflush(r->sumf) && !r->status) {
			err_errno(errno, "cannot write the summary");
			r->status = EXIT_RUNTIME;
		}
	}
	if (r->sum.ndropped)
		warn_msg("%llu samples were dropped: the output could not keep "
			 "up (see --buffer)",
			 (unsigned long long)r->sum.ndropped);
}

static void cleanup(struct run *r)
{
	if (r->have_smp)
		sampler_free(&r->smp);
	if (r->have_ring)
		ring_free(&r->ring);
	if (r->have_out) {
		if (r->out.ob.fd != STDOUT_FILENO)
			close(r->out.ob.fd);
		outbuf_free(&r->out.ob);
	}
	if (r->sumf && r->sumf != stderr && r->sumf != stdout)
		fclose(r->sumf);
	if (r->have_freq)
		freq_source_free(&r->freq);
	if (r->have_stat_file)
		srcfile_close(&r->stat_file);
	if (r->have_tl_file)
		srcfile_close(&r->tl_file);
	tl_reader_free(&r->reader);
	summary_free(&r->sum);
	free(r->stat0.cpu);
	free(r->stat1.cpu);
	free(r->meta.command);
	free(r->wanted);
	free(r->cpu);
	if (r->sig_fd >= 0)
		close(r->sig_fd);
	if (r->smp_fd >= 0)
		close(r->smp_fd);
	if (r->wr_fd >= 0)
		close(r->wr_fd);
}

static int run(struct run *r, int argc, char **argv)
{
	int status, ret;

	status = open_timer_list(r);
	if (status < 0)
		status = discover(r);
	if (status >= 0)
		return status;
	setup_freq(r);
	setup_stat(r);
	status = setup_output(r);
	if (status < 0)
		status = setup_signals(r);
	if (status < 0)
		status = setup_sampling(r, argc, argv);
	if (status >= 0)
		return status;
	if (r->opt.mlock && mlockall(MCL_CURRENT | MCL_FUTURE))
		warn_msg("mlockall: %s", strerror(errno));
	if (r->have_out)
		r->out.ops->begin(&r->out);
	status = start_threads(r);
	if (status >= 0) {
		sampler_stop(&r->smp);
		return status;
	}
	if (r->opt.command) {
		ret = command_spawn(r->opt.command, &r->child);
		if (ret) {
			err_errno(ret, "cannot run '%s'", r->opt.command[0]);
			r->child = 0;
			r->child_status = command_spawn_status(ret);
			r->sum.command_status = r->child_status;
			sampler_stop(&r->smp);
		}
	}
	if (r->child > 0 || r->child_status < 0)
		wait_loop(r);
	finish(r);
	if (r->status)
		return r->status;
	return r->child_status >= 0 ? r->child_status : 0;
}

int main(int argc, char **argv)
{
	struct run r;
	int status;

	memset(&r, 0, sizeof(r));
	r.sig_fd = r.smp_fd = r.wr_fd = -1;
	r.child_status = -1;
	status = parse_options(&r.opt, argc, argv);
	if (status >= 0)
		return status;
	status = run(&r, argc, argv);
	cleanup(&r);
	return status;
}
