// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "cpufreq_stats.h"
#include "num.h"

int tis_parse(const char *buf, size_t len, struct tis_table *t)
{
	const char *p = buf, *end = buf + len;

	t->n = 0;
	while (p < end && t->n < TIS_MAX) {
		const char *e = memchr(p, '\n', (size_t)(end - p));
		uint64_t khz, ticks;
		const char *q = p;

		if (!e)
			e = end;
		q = skip_blanks(q, e);
		if (!parse_u64(&q, e, &khz) && khz && khz <= UINT32_MAX) {
			q = skip_blanks(q, e);
			if (!parse_u64(&q, e, &ticks)) {
				t->khz[t->n] = (uint32_t)khz;
				t->ticks[t->n] = ticks;
				t->n++;
			}
		}
		p = e + 1;
	}
	return t->n ? 0 : -ENODATA;
}

int tis_read(struct srcfile *f, unsigned long seq, struct tis_table *t)
{
	char buf[4096];
	ssize_t n = srcfile_read(f, seq, buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return tis_parse(buf, (size_t)n, t);
}

bool tis_delta(const struct tis_table *a, const struct tis_table *b,
	       struct tis_table *d)
{
	if (a->n != b->n || !a->n)
		return false;
	d->n = a->n;
	for (unsigned int i = 0; i < a->n; i++) {
		if (a->khz[i] != b->khz[i] || b->ticks[i] < a->ticks[i])
			return false;
		d->khz[i] = a->khz[i];
		d->ticks[i] = b->ticks[i] - a->ticks[i];
	}
	return true;
}
