// SPDX-License-Identifier: GPL-2.0
/*
 * options.c - iowait-freqmon's command line: --help, the options' parsing
 * and checks, the usage errors. See options.h.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "output.h"

enum {
	OPT_CLOCK = 256,
	OPT_NO_FREQ,
	OPT_NO_STAT,
	OPT_REPLAY,
	OPT_ROOT,
};

static const struct option long_options[] = {
	{ "buffer", required_argument, NULL, 'b' },
	{ "clock", required_argument, NULL, OPT_CLOCK },
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
"  -f, --format FMT      tsv (default), json, trace (Trace Event Format\n"
"                        for Perfetto and chrome://tracing) or table (one\n"
"                        block per second; the default on a terminal)\n"
"  -q, --quiet           no per-sample output, only the summary\n"
"      --clock CLOCK     timestamps: relative (default; seconds since the\n"
"                        first snapshot) or monotonic (CLOCK_MONOTONIC, as\n"
"                        perf record -k CLOCK_MONOTONIC)\n"
"  -s, --summary FILE    write the end summary to FILE (default: stderr;\n"
"                        '-' for stdout)\n"
"  -h, --help            show this help and exit\n"
"  -V, --version         show the version and exit\n"
"\n"
"TSV columns: time_s cpu busy idle iowait freq_khz valid seq freq_start_khz\n"
"start_s (time_s: the interval's end, start_s its start; freq_khz read at its\n"
"end, freq_start_khz at its start; seq: the sample's number, a gap means\n"
"samples were dropped, a longer interval that deadlines were missed)\n"
"\n"
"With a command and the samples on stdout, the command's stdout goes to\n"
"stderr.\n"
"\n"
"Exit status: 0 success; 1 runtime error (e.g. writing the output failed);\n"
"2 invalid command line; 3 a required source cannot be read (/proc/timer_list\n"
"needs root or CAP_DAC_READ_SEARCH, or use --root), or no sample was valid;\n"
"with a command, its exit status (128+N if killed by signal N),\n"
"127 if it was not found, 126 if it could not be executed.\n"
"See iowait-freqmon(8).\n",
		DEFAULT_RATE_HZ, MAX_RATE_HZ, MIN_RING_SLOTS);
}

int usage_error(const char *fmt, ...)
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

/* --help and --version: their output must reach stdout, or status 1. */
static int stdout_status(void)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	err_errno(errno, "cannot write to standard output");
	return EXIT_RUNTIME;
}

/*
 * getopt_long() stopped at @arg (the element it was parsing): the option
 * as the user wrote it, for a long one without its "=value".
 */
static int option_error(int c, const char *arg)
{
	bool is_long = !strncmp(arg, "--", 2);
	int len = (int)strcspn(arg, "=");

	if (c == ':') {
		if (is_long)
			return usage_error("option '%.*s' needs an argument",
					   len, arg);
		return usage_error("option '-%c' needs an argument", optopt);
	}
	/* a known long option given "=value" sets optopt to its value */
	if (is_long && optopt && arg[len] == '=')
		return usage_error("option '%.*s' takes no argument", len, arg);
	if (is_long)
		return usage_error("unknown option '%s'", arg);
	return usage_error("unknown option '-%c'", optopt);
}

int parse_options(struct options *o, int argc, char **argv)
{
	unsigned long v;
	int c, at;

	memset(o, 0, sizeof(*o));
	o->pin = -1;
	o->format = &output_tsv;
	o->interval_ns = NSEC_PER_SEC / DEFAULT_RATE_HZ;
	o->rate_hz = DEFAULT_RATE_HZ;
	opterr = 0;
	/* '+': options end at the command's name; ':': report missing args */
	for (;;) {
		at = optind;	/* the element getopt is in */
		c = getopt_long(argc, argv, "+:b:c:d:f:hi:mo:p:P:qr:s:V",
				long_options, NULL);
		if (c == -1)
			break;
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
			o->format_set = true;
			o->format = output_find(optarg);
			if (!o->format)
				return usage_error("unknown --format '%s' "
						   "(tsv, json, trace or table)",
						   optarg);
			break;
		case 'h':
			print_usage(stdout);
			return stdout_status();
		case 'i':
			if (parse_duration_ns(optarg, NSEC_PER_MSEC,
					      &o->interval_ns) ||
			    o->interval_ns < MIN_INTERVAL_NS ||
			    o->interval_ns > MAX_INTERVAL_NS)
				return usage_error("invalid --interval '%s' "
						   "(0.1 to 3600000 ms)",
						   optarg);
			o->interval_set = true;
			o->rate_hz = 0;
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
			o->rate_hz = v;
			o->rate_set = true;
			break;
		case 's':
			o->summary = optarg;
			break;
		case 'V':
			printf("iowait-freqmon %s\n", IFM_VERSION);
			return stdout_status();
		case OPT_CLOCK:
			if (!strcmp(optarg, "monotonic"))
				o->clock_mono = true;
			else if (!strcmp(optarg, "relative"))
				o->clock_mono = false;
			else
				return usage_error("unknown --clock '%s' "
						   "(relative or monotonic)",
						   optarg);
			break;
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
		default:	/* ':' or '?' */
			return option_error(c, argv[at]);
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
