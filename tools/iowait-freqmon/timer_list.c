// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/timer_list parser. The format (kernel/time/timer_list.c):
 *
 *   Timer List Version: v0.9
 *   HRTIMER_MAX_CLOCK_BASES: 8
 *   now at 5707273147711 nsecs
 *
 *   cpu: 0
 *    clock 0:            <- hrtimer bases and their active timers
 *    ...
 *     .tick_stopped   : 0           <- tick_sched fields, "  .%-15s: %Lu"
 *     .idle_entrytime : 5706713226982 nsecs
 *     ...
 *     .iowait_sleeptime: 1254343811 nsecs
 *     .idle_active    : 1           <- patched kernel only
 *     .nr_iowait      : 0           <- patched kernel only
 *     ...
 *   jiffies: 4296319051             <- end of the CPU block
 *
 *   cpu: 1 ...
 *   Tick Device: mode:     1        <- per-CPU blocks are over
 *
 * v0.8 (4.x-5.13), v0.9 (5.14-6.x, adds "Wakeup Device" to the tick devices)
 * and v0.10 (drops ".get_time", splits ".nohz_mode") print the fields we use
 * identically, so one parser serves all three.
 */
#include <errno.h>
#include <string.h>

#include "num.h"
#include "timer_list.h"

#define HAS_PREFIX(l, n, lit) \
	((n) >= sizeof(lit) - 1 && !memcmp((l), (lit), sizeof(lit) - 1))

void tl_snapshot_reset(struct tl_snapshot *snap)
{
	snap->now_ns = 0;
	snap->jiffies = 0;
	snap->ver_major = snap->ver_minor = 0;
	snap->flags = 0;
	snap->nseen = snap->nextra = 0;
	memset(snap->cpu, 0, snap->ncpus * sizeof(*snap->cpu));
}

void tl_parser_begin(struct tl_parser *p, struct tl_snapshot *snap,
		     long stop_cpu)
{
	tl_snapshot_reset(snap);
	p->snap = snap;
	p->pos = 0;
	p->cur = -1;
	p->stop_cpu = stop_cpu;
	p->marks = NULL;
	p->nmarks = p->maxmarks = 0;
}

static void mark(struct tl_parser *p, size_t off)
{
	if (off >= TL_MARK_MIN && p->nmarks < p->maxmarks)
		p->marks[p->nmarks++] = off;
}

static struct tl_cpu *cur_cpu(struct tl_parser *p)
{
	if (p->cur < 0 || (unsigned long)p->cur >= p->snap->ncpus)
		return NULL;
	return &p->snap->cpu[p->cur];
}

static void store_field(struct tl_cpu *c, uint32_t bit, uint64_t v)
{
	switch (bit) {
	case TL_TICK_STOPPED:
		c->tick_stopped = v != 0;
		break;
	case TL_ENTRYTIME:
		c->idle_entrytime = v;
		break;
	case TL_EXITTIME:
		c->idle_exittime = v;
		break;
	case TL_IDLE:
		c->idle_sleeptime = v;
		break;
	case TL_IOWAIT:
		c->iowait_sleeptime = v;
		break;
	case TL_IDLE_ACTIVE:
		c->idle_active = v != 0;
		break;
	case TL_NR_IOWAIT:
		c->nr_iowait = v;
		break;
	}
}

/* The field a name stands for, 0 if not needed (constant-size compares). */
static uint32_t field_bit(const char *n, size_t len)
{
	switch (len) {
	case 9:
		return memcmp(n, "nr_iowait", 9) ? 0 : TL_NR_IOWAIT;
	case 11:
		return memcmp(n, "idle_active", 11) ? 0 : TL_IDLE_ACTIVE;
	case 12:
		return memcmp(n, "tick_stopped", 12) ? 0 : TL_TICK_STOPPED;
	case 13:
		return memcmp(n, "idle_exittime", 13) ? 0 : TL_EXITTIME;
	case 14:
		if (!memcmp(n, "idle_entrytime", 14))
			return TL_ENTRYTIME;
		return memcmp(n, "idle_sleeptime", 14) ? 0 : TL_IDLE;
	case 16:
		return memcmp(n, "iowait_sleeptime", 16) ? 0 : TL_IOWAIT;
	}
	return 0;
}

/* "  .name   : value ..." with l just past "  ." */
static void parse_field(struct tl_parser *p, const char *l, const char *e)
{
	struct tl_cpu *c;
	const char *q = l;
	uint32_t bit;
	uint64_t v;

	/* the fields we need start with i, n or t; most others do not */
	if (*l != 'i' && *l != 'n' && *l != 't')
		return;
	c = cur_cpu(p);
	if (!c)
		return;
	while (q < e && *q != ' ' && *q != ':')
		q++;
	bit = field_bit(l, (size_t)(q - l));
	if (!bit)
		return;
	q = skip_blanks(q, e);
	if (q >= e || *q != ':') {
		c->bad = 1;
		return;
	}
	q = skip_blanks(q + 1, e);
	/* a number, then the end of the line or " nsecs" */
	if (parse_u64(&q, e, &v) || (q < e && *q != ' ') || (c->have & bit)) {
		c->bad = 1;
		return;
	}
	c->have |= bit;
	store_field(c, bit, v);
}

static void parse_cpu_line(struct tl_parser *p, const char *l, const char *e)
{
	struct tl_snapshot *s = p->snap;
	const char *q = l + 5;
	uint64_t cpu;

	if (parse_u64(&q, e, &cpu) || cpu > TL_MAX_CPU) {
		p->cur = -1;
		return;
	}
	if ((long)cpu > p->stop_cpu) {
		s->flags |= TLS_DONE;
		return;
	}
	mark(p, p->pos);
	p->cur = (long)cpu;
	if (cpu >= s->ncpus) {
		s->nextra++;
		return;
	}
	if (s->cpu[cpu].seen) {
		s->cpu[cpu].bad = 1;	/* the same CPU twice */
		return;
	}
	s->cpu[cpu].seen = 1;
	s->nseen++;
}

static void parse_jiffies_line(struct tl_parser *p, const char *l,
			       const char *e)
{
	struct tl_snapshot *s = p->snap;
	struct tl_cpu *c = cur_cpu(p);
	const char *q = skip_blanks(l + 8, e);
	uint64_t v;

	if (!parse_u64(&q, e, &v) && !(s->flags & TLS_JIFFIES)) {
		s->jiffies = v;
		s->flags |= TLS_JIFFIES;
	}
	if (c)
		c->have |= TL_END;
	if (p->cur >= 0 && p->cur == p->stop_cpu) {
		/* the record ends with an empty line after this one */
		mark(p, p->pos + (size_t)(e - l) + 2);
		s->flags |= TLS_DONE;
	}
	p->cur = -1;
}

static void parse_version_line(struct tl_snapshot *s, const char *l,
			       const char *e)
{
	const char *q = l + sizeof("Timer List Version: v") - 1;
	uint64_t major, minor;

	if (parse_u64(&q, e, &major) || q >= e || *q != '.') {
		s->flags |= TLS_BAD_HEADER;
		return;
	}
	q++;
	if (parse_u64(&q, e, &minor) || major > 1000 || minor > 1000) {
		s->flags |= TLS_BAD_HEADER;
		return;
	}
	s->ver_major = (unsigned int)major;
	s->ver_minor = (unsigned int)minor;
	s->flags |= TLS_VERSION;
}

static void parse_now_line(struct tl_snapshot *s, const char *l,
			   const char *e)
{
	const char *q = l + 7;
	uint64_t v;

	if ((s->flags & TLS_NOW) || parse_u64(&q, e, &v)) {
		s->flags |= TLS_BAD_HEADER;
		return;
	}
	s->now_ns = v;
	s->flags |= TLS_NOW;
}

static void parse_line(struct tl_parser *p, const char *l, const char *e)
{
	size_t n = (size_t)(e - l);

	if (n < 4)
		return;
	switch (l[0]) {
	case ' ':
		if (l[1] == ' ' && l[2] == '.')
			parse_field(p, l + 3, e);
		break;
	case 'c':
		if (HAS_PREFIX(l, n, "cpu: "))
			parse_cpu_line(p, l, e);
		break;
	case 'j':
		if (HAS_PREFIX(l, n, "jiffies:"))
			parse_jiffies_line(p, l, e);
		break;
	case 'n':
		if (HAS_PREFIX(l, n, "now at "))
			parse_now_line(p->snap, l, e);
		break;
	case 'T':
		if (HAS_PREFIX(l, n, "Timer List Version: v"))
			parse_version_line(p->snap, l, e);
		else if (HAS_PREFIX(l, n, "Tick Device"))
			p->snap->flags |= TLS_DONE;
		break;
	}
}

/*
 * The next newline in [p, end), or NULL. Lines are short (20-70 bytes), so
 * an inlined word-at-a-time search beats a memchr() call per line.
 */
static inline const char *find_newline(const char *p, const char *end)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ULL;

	for (; end - p >= 8; p += 8) {
		uint64_t w, x;

		memcpy(&w, p, 8);
		x = w ^ (ones * '\n');
		/* the lowest set bit marks the first byte equal to '\n' */
		x = (x - ones) & ~x & (ones << 7);
		if (x)
			return p + (__builtin_ctzll(x) >> 3);
	}
#endif
	return memchr(p, '\n', (size_t)(end - p));
}

bool tl_parser_feed(struct tl_parser *p, const char *buf, size_t len)
{
	struct tl_snapshot *s = p->snap;

	while (!(s->flags & TLS_DONE) && p->pos < len) {
		const char *l = buf + p->pos;
		const char *e = find_newline(l, buf + len);

		if (!e)
			break;
		parse_line(p, l, e);
		p->pos = (size_t)(e - buf) + 1;
	}
	return s->flags & TLS_DONE;
}

int tl_parser_finish(struct tl_parser *p, bool eof)
{
	struct tl_snapshot *s = p->snap;

	if (!(s->flags & TLS_DONE))
		s->flags |= eof ? TLS_DONE : TLS_TRUNCATED;
	if (!(s->flags & TLS_NOW) || (s->flags & TLS_BAD_HEADER))
		return -EBADMSG;
	return 0;
}

int tl_parse(const char *buf, size_t len, struct tl_snapshot *snap,
	     long stop_cpu)
{
	struct tl_parser p;

	tl_parser_begin(&p, snap, stop_cpu);
	tl_parser_feed(&p, buf, len);
	return tl_parser_finish(&p, true);
}
