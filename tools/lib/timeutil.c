// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>

#include "timeutil.h"

uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	if (clock_gettime(clock, &ts))
		return 0;
	return ts_to_ns(&ts);
}

char *time_iso8601(const struct timespec *t, char *buf, size_t len)
{
	struct tm tm;
	char base[32];

	if (!gmtime_r(&t->tv_sec, &tm) ||
	    !strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm)) {
		snprintf(buf, len, "unknown");
		return buf;
	}
	snprintf(buf, len, "%s.%03ldZ", base, t->tv_nsec / 1000000L);
	return buf;
}

int parse_duration_ns(const char *s, uint64_t unit, uint64_t *out)
{
	uint64_t whole = 0, frac = 0, scale = unit;
	const char *p = s;

	if (!isdigit((unsigned char)*p) && *p != '.')
		return -EINVAL;
	while (isdigit((unsigned char)*p)) {
		if (whole > (UINT64_MAX / 10) / unit)
			return -ERANGE;
		whole = whole * 10 + (uint64_t)(*p++ - '0');
	}
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p) && p - 1 == s)
			return -EINVAL;
		while (isdigit((unsigned char)*p)) {
			scale /= 10;
			frac += (uint64_t)(*p++ - '0') * scale;
		}
	}
	if (*p)
		return -EINVAL;
	if (whole * unit > UINT64_MAX - frac)
		return -ERANGE;
	*out = whole * unit + frac;
	return 0;
}
