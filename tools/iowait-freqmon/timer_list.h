/* SPDX-License-Identifier: GPL-2.0 */
/*
 * /proc/timer_list parser: the header ("Timer List Version", "now at") and,
 * per "cpu: N" block, the tick_sched idle accounting fields. Incremental:
 * feed it the bytes read so far and it parses the complete lines it has not
 * seen yet, so the reader can stop as soon as the last wanted CPU's block is
 * in. No allocation, no sscanf; unknown lines are skipped after a glance at
 * their first bytes.
 */
#ifndef IFM_TIMER_LIST_H
#define IFM_TIMER_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* tl_cpu.have bits: which fields were present in the CPU's block */
enum {
	TL_ENTRYTIME = 1 << 0,		/* .idle_entrytime */
	TL_EXITTIME = 1 << 1,		/* .idle_exittime */
	TL_IDLE = 1 << 2,		/* .idle_sleeptime */
	TL_IOWAIT = 1 << 3,		/* .iowait_sleeptime */
	TL_TICK_STOPPED = 1 << 4,	/* .tick_stopped */
	TL_IDLE_ACTIVE = 1 << 5,	/* .idle_active (patched kernel) */
	TL_NR_IOWAIT = 1 << 6,		/* .nr_iowait (patched kernel) */
	TL_END = 1 << 7,		/* the block's closing "jiffies:" line */
};

/* Fields without which no stock-kernel sample can be computed. */
#define TL_NEED_STALE (TL_ENTRYTIME | TL_IDLE | TL_IOWAIT | TL_TICK_STOPPED)
/* Both lines present: the kernel prints live (up to date) sums. */
#define TL_LIVE (TL_IDLE_ACTIVE | TL_NR_IOWAIT)

/* Highest CPU number accepted from a "cpu: N" line. */
#define TL_MAX_CPU 65535

struct tl_cpu {
	uint64_t idle_entrytime;	/* ns */
	uint64_t idle_exittime;		/* ns */
	uint64_t idle_sleeptime;	/* ns */
	uint64_t iowait_sleeptime;	/* ns */
	uint64_t nr_iowait;
	uint32_t have;			/* TL_* bits */
	uint8_t tick_stopped;
	uint8_t idle_active;
	uint8_t seen;			/* a "cpu: N" block for this CPU */
	uint8_t bad;			/* malformed/overflowing/duplicate */
};

/*
 * Does the CPU's block print live (up to date) sums? Only with both lines
 * of the patched kernel: .idle_active alone says nothing of .nr_iowait.
 * The one rule for the sampler and counter-check.
 */
static inline bool tl_cpu_live(const struct tl_cpu *c)
{
	return (c->have & TL_LIVE) == TL_LIVE;
}

/* tl_snapshot.flags */
enum {
	TLS_VERSION = 1 << 0,	/* "Timer List Version: vX.Y" parsed */
	TLS_NOW = 1 << 1,	/* "now at N nsecs" parsed */
	TLS_JIFFIES = 1 << 2,	/* a "jiffies: N" line parsed */
	TLS_DONE = 1 << 3,	/* stop condition met (or EOF) */
	TLS_TRUNCATED = 1 << 4,	/* ended before the stop condition */
	TLS_BAD_HEADER = 1 << 5,/* malformed version/now line */
};

struct tl_snapshot {
	uint64_t now_ns;
	uint64_t jiffies;	/* from the first CPU block's jiffies line */
	unsigned int ver_major, ver_minor;
	unsigned int flags;	/* TLS_* */
	unsigned int ncpus;	/* capacity of cpu[] (CPUs 0..ncpus-1) */
	unsigned int nseen;	/* CPU blocks seen with an index < ncpus */
	unsigned int nextra;	/* CPU blocks seen with an index >= ncpus */
	struct tl_cpu *cpu;	/* caller-provided, ncpus entries */
};

struct tl_parser {
	struct tl_snapshot *snap;
	size_t pos;		/* offset of the first unparsed byte */
	long cur;		/* CPU of the current block, -1 if none */
	long stop_cpu;		/* stop after this CPU's block */
	/*
	 * Optional record boundaries for the reader: the offsets where CPU
	 * blocks start and where the @stop_cpu block ends (set marks to
	 * NULL to skip).
	 */
	size_t *marks;
	unsigned int nmarks, maxmarks;
};

/* Clear @snap (keeps its cpu array and capacity). */
void tl_snapshot_reset(struct tl_snapshot *snap);

/*
 * Start parsing a new read into @snap. Parsing is complete (TLS_DONE) once
 * the block of @stop_cpu has ended, a block of a higher CPU or the
 * "Tick Device" section starts, or at EOF.
 */
void tl_parser_begin(struct tl_parser *p, struct tl_snapshot *snap,
		     long stop_cpu);

/* Offsets below this are not marked: the header record is small. */
#define TL_MARK_MIN 256

/*
 * Parse the complete lines of @buf[p->pos .. @len) (@buf holds everything
 * read so far, from offset 0). Returns true once the stop condition is met.
 */
bool tl_parser_feed(struct tl_parser *p, const char *buf, size_t len);

/*
 * No more data will come (@eof: the file ended; otherwise the buffer was
 * full). An unterminated last line is ignored. Sets TLS_DONE or
 * TLS_TRUNCATED. Returns 0, or -EBADMSG if the header ("now at")
 * line is missing or malformed.
 */
int tl_parser_finish(struct tl_parser *p, bool eof);

/* Convenience for tests and tools: parse a whole buffer at once. */
int tl_parse(const char *buf, size_t len, struct tl_snapshot *snap,
	     long stop_cpu);

#endif
