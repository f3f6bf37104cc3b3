// SPDX-License-Identifier: GPL-2.0
/*
 * options.h - iowait-freqmon's command line: the options, their defaults
 * and limits, and the tool's exit statuses. Front-end code: it prints.
 */
#ifndef IFM_OPTIONS_H
#define IFM_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "log.h"
#include "timeutil.h"

struct output_ops;

/* the build sets it (CMake: the project's version) */
#ifndef IFM_VERSION
#define IFM_VERSION "unknown"
#endif

/* Exit statuses (documented in iowait-freqmon(8) and --help) */
enum {
	EXIT_RUNTIME = 1,	/* runtime error, e.g. output write failed */
	EXIT_USAGE = 2,		/* invalid command line */
	EXIT_SOURCE = 3,	/* a required source cannot be read or used */
};

#define DEFAULT_RATE_HZ 100
#define MAX_RATE_HZ 10000
#define MIN_INTERVAL_NS (NSEC_PER_SEC / MAX_RATE_HZ)
#define MAX_INTERVAL_NS (3600 * NSEC_PER_SEC)
#define MIN_RING_SLOTS 1024

struct options {
	uint64_t interval_ns;
	unsigned long rate_hz;		/* -r: the exact rate; 0 with -i */
	uint64_t duration_ns;
	bool rate_set, interval_set;
	bool clock_mono;		/* --clock monotonic */
	bool format_set;		/* -f given */
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

/*
 * Parse the command line into @o. Returns -1 to go on, or the exit status
 * to end with: --help and --version print and return 0 (1 when stdout
 * cannot be written), a bad command line prints why and the usage and
 * returns EXIT_USAGE. @o->command points into @argv.
 */
int parse_options(struct options *o, int argc, char **argv);

/* Print "iowait-freqmon: MESSAGE" and the usage to stderr; EXIT_USAGE. */
int usage_error(const char *fmt, ...) IFM_PRINTF(1, 2);

#endif
