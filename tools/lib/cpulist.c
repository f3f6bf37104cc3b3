// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
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

int cpulist_format(const unsigned char *set, unsigned int nbits,
		   char *buf, size_t len)
{
	size_t pos = 0;
	unsigned int c = 0;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	while (c < nbits) {
		unsigned int lo, hi;
		int n;

		if (!set[c]) {
			c++;
			continue;
		}
		lo = hi = c;
		while (hi + 1 < nbits && set[hi + 1])
			hi++;
		if (hi == lo)
			n = snprintf(buf + pos, len - pos, "%s%u",
				     pos ? "," : "", lo);
		else
			n = snprintf(buf + pos, len - pos, "%s%u-%u",
				     pos ? "," : "", lo, hi);
		if (n < 0 || (size_t)n >= len - pos)
			return -ENOSPC;
		pos += (size_t)n;
		c = hi + 1;
	}
	return (int)pos;
}

int cpulist_last(const unsigned char *set, unsigned int nbits)
{
	for (unsigned int c = nbits; c > 0; c--)
		if (set[c - 1])
			return (int)c - 1;
	return -1;
}
