// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"

/* Parse a decimal CPU number; *s advances past it. */
static int parse_cpu(const char **s, unsigned long *out)
{
	const char *p = *s;
	unsigned long v = 0;

	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	while (isdigit((unsigned char)*p)) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > 0xffffffUL)
			return -ERANGE;
		p++;
	}
	*s = p;
	*out = v;
	return 0;
}

int cpulist_parse(const char *s, unsigned char *set, unsigned int nbits)
{
	int count = 0;

	memset(set, 0, nbits);
	while (isspace((unsigned char)*s))
		s++;
	for (;;) {
		unsigned long lo, hi;
		int ret = parse_cpu(&s, &lo);

		if (ret)
			return ret;
		hi = lo;
		if (*s == '-') {
			s++;
			ret = parse_cpu(&s, &hi);
			if (ret)
				return ret;
			if (hi < lo)
				return -EINVAL;
		}
		if (hi >= nbits)
			return -ERANGE;
		for (unsigned long c = lo; c <= hi; c++) {
			count += !set[c];
			set[c] = 1;
		}
		if (*s != ',')
			break;
		s++;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s)
		return -EINVAL;
	return count;
}

bool cpulist_next(const unsigned char *set, unsigned int nbits,
		  unsigned int *pos, unsigned int *lo, unsigned int *hi)
{
	unsigned int c = *pos;

	while (c < nbits && !set[c])
		c++;
	if (c >= nbits)
		return false;
	*lo = *hi = c;
	while (*hi + 1 < nbits && set[*hi + 1])
		(*hi)++;
	*pos = *hi + 1;
	return true;
}

int cpulist_format(const unsigned char *set, unsigned int nbits,
		   char *buf, size_t len)
{
	unsigned int pos = 0, lo, hi;
	size_t n = 0;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	while (cpulist_next(set, nbits, &pos, &lo, &hi)) {
		int w;

		if (hi == lo)
			w = snprintf(buf + n, len - n, "%s%u", n ? "," : "",
				     lo);
		else
			w = snprintf(buf + n, len - n, "%s%u-%u", n ? "," : "",
				     lo, hi);
		if (w < 0 || (size_t)w >= len - n) {
			buf[n] = '\0';	/* whole ranges only */
			return -ENOSPC;
		}
		n += (size_t)w;
	}
	return (int)n;
}

char *cpulist_alloc(const unsigned char *set, unsigned int nbits)
{
	size_t len = 64;

	for (;;) {
		char *buf = malloc(len);

		if (!buf)
			return NULL;
		if (cpulist_format(set, nbits, buf, len) >= 0)
			return buf;
		free(buf);
		len *= 2;
	}
}

int cpulist_last(const unsigned char *set, unsigned int nbits)
{
	for (unsigned int c = nbits; c > 0; c--)
		if (set[c - 1])
			return (int)c - 1;
	return -1;
}
