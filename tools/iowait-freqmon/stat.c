// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "num.h"
#include "srcfile.h"
#include "stat.h"

/* "cpuN user nice system idle iowait irq softirq steal ..." */
static bool parse_cpu_line(const char *l, const char *e, struct stat_cpu *c,
			   uint64_t *cpu)
{
	uint64_t v[8] = { 0 };
	const char *q = l + 3;
	int n;

	if (parse_u64(&q, e, cpu))
		return false;
	for (n = 0; n < 8; n++) {
		q = skip_blanks(q, e);
		if (parse_u64(&q, e, &v[n]))
			break;
	}
	if (n < 5)	/* iowait appeared in 2.5.41 */
		return false;
	c->idle = v[3];
	c->iowait = v[4];
	c->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	c->seen = true;
	return true;
}

int stat_parse(const char *buf, size_t len, struct stat_snapshot *s)
{
	const char *p = buf, *end = buf + len;
	int count = 0;

	memset(s->cpu, 0, s->ncpus * sizeof(*s->cpu));
	while (p < end) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		struct stat_cpu c;
		uint64_t cpu;

		if (!e)
			e = end;
		if (e - p > 3 && !memcmp(p, "cpu", 3) &&
		    (unsigned char)(p[3] - '0') <= 9 &&
		    parse_cpu_line(p, e, &c, &cpu) && cpu < s->ncpus) {
			s->cpu[cpu] = c;
			count++;
		}
		p = e + 1;
	}
	return count ? count : -ENODATA;
}

int stat_read(struct srcfile *f, unsigned long seq, struct stat_snapshot *s)
{
	char buf[STAT_READ_MAX];
	ssize_t n = srcfile_read(f, seq, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	if (n == 0)
		return -ENODATA;
	n = stat_parse(buf, (size_t)n, s);
	return n < 0 ? (int)n : 0;
}

bool stat_delta_ok(const struct stat_cpu *a, const struct stat_cpu *b)
{
	return a->seen && b->seen && b->busy >= a->busy &&
	       b->idle >= a->idle && b->iowait >= a->iowait &&
	       b->busy + b->idle + b->iowait > a->busy + a->idle + a->iowait;
}
