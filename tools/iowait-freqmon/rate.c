// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "rate.h"

uint64_t rate_next_index(const struct ifm_rate *r, uint64_t off)
{
	uint64_t k;

	if (!r->hz)
		return r->interval_ns ? off / r->interval_ns + 1 : 1;
	/* floor(off * hz / 10^9) + 1, then fix any rounding */
	k = off / 1000000000ULL * r->hz +
	    off % 1000000000ULL * r->hz / 1000000000ULL + 1;
	while (k > 1 && rate_deadline(r, k - 1) > off)
		k--;
	while (rate_deadline(r, k) <= off)
		k++;
	return k;
}

char *rate_format_hz(const struct ifm_rate *r, char *buf, size_t len)
{
	uint64_t ns = r->interval_ns, q, rem, frac;

	if (r->hz || !ns) {
		snprintf(buf, len, "%lu", r->hz);
		return buf;
	}
	q = 1000000000ULL / ns;
	rem = 1000000000ULL % ns;
	if (!rem) {
		snprintf(buf, len, "%llu", (unsigned long long)q);
		return buf;
	}
	/* rem < ns <= 3.6e12: rem * 10^6 fits in 64 bits */
	frac = (rem * 1000000ULL + ns / 2) / ns;
	if (frac == 1000000) {
		q++;
		frac = 0;
	}
	snprintf(buf, len, "%llu.%06llu", (unsigned long long)q,
		 (unsigned long long)frac);
	return buf;
}

char *rate_format_interval_ns(const struct ifm_rate *r, char *buf, size_t len)
{
	uint64_t ps;

	if (!r->hz) {
		snprintf(buf, len, "%llu.000",
			 (unsigned long long)r->interval_ns);
		return buf;
	}
	/* 10^12 / hz, rounded, in ps */
	ps = (1000000000000ULL + r->hz / 2) / r->hz;
	snprintf(buf, len, "%llu.%03llu", (unsigned long long)(ps / 1000),
		 (unsigned long long)(ps % 1000));
	return buf;
}
