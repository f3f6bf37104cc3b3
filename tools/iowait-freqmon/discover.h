/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Discovery and CPU selection, before a run: open /proc/timer_list (or its
 * replay sequence), read it whole once (version, live or stale sums, online
 * CPUs, the size of its records), check a --cpus list against the possible
 * CPUs, and pick the CPUs to sample. Returns 0 or -errno and never prints:
 * where it stopped, and what deserves a warning, is left in the struct for
 * the caller to report.
 */
#ifndef IFM_DISCOVER_H
#define IFM_DISCOVER_H

#include <stdbool.h>

#include "srcfile.h"
#include "tl_reader.h"

#define DISCOVERY_CPUS 8192		/* CPUs looked for without --cpus */
#define DISCOVERY_BUF (8u << 20)	/* timer_list read at start */
#define DISCOVERY_MIN_TL_BUF (256u << 10)	/* sampling read buffer */

/* Where discover() stopped (on error) */
enum disc_stage {
	DISC_OPEN,	/* timer_list cannot be opened */
	DISC_CPUS,	/* --cpus is not a CPU list (-EINVAL, -ERANGE) */
	DISC_POSSIBLE,	/* --cpus names a CPU that does not exist (-ENODEV) */
	DISC_PARSE,	/* timer_list cannot be read or has no header */
	DISC_FIELDS,	/* no CPU block has the idle fields (-ENODATA) */
	DISC_SELECT,	/* no CPU to sample (-ENODATA) */
	DISC_DONE,
};

struct discovery {
	/* input */
	const char *root;	/* NULL: / */
	bool replay;
	const char *cpus;	/* --cpus, NULL: those online at the start */

	/* result */
	struct srcfile tl_file;	/* timer_list, open after DISC_OPEN */
	bool have_tl_file;
	struct tl_reader reader;	/* sized for the sampling reads */
	bool have_reader;
	unsigned char *wanted;	/* by CPU number, ncap bytes */
	unsigned int ncap;	/* last sampled CPU + 1 */
	unsigned int *cpu;	/* sampled CPUs, ascending */
	unsigned int ncpus;
	unsigned int tl_major, tl_minor;
	bool live;		/* every CPU block has the patched lines */
	bool stat_idle;		/* no CPU block has the sleep times (v0.11):
				 * idle and iowait from /proc/stat */

	/* for the caller's messages */
	enum disc_stage stage;
	unsigned int bad_cpu;	/* DISC_POSSIBLE: the CPU */
	char possible[4096];	/* DISC_POSSIBLE: the possible CPUs */
	unsigned int nbits;	/* CPUs looked for: above, ignored */
	unsigned int nextra;	/* CPU blocks ignored (above nbits - 1) */
	bool untested;		/* version other than v0.8-v0.11 */
	unsigned int *offline;	/* wanted CPUs not online at the start */
	unsigned int noffline;
};

/* Fill in @d (its input set, the rest zero). Returns 0 or -errno. */
int discover(struct discovery *d);

/* Free what discover() allocated and close timer_list. */
void discovery_free(struct discovery *d);

#endif
