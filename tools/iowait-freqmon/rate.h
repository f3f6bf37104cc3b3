/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling period, exact: "-r HZ" gives deadlines at k * 10^9 / HZ ns
 * (no truncated interval accumulating an error), "-i MS" at k * interval.
 */
#ifndef IFM_RATE_H
#define IFM_RATE_H

#include <stddef.h>
#include <stdint.h>

struct ifm_rate {
	uint64_t interval_ns;	/* the period, rounded down to a ns */
	unsigned long hz;	/* exact rate in Hz, or 0: interval_ns is exact */
};

/* Offset of deadline @k from the start, in ns. */
static inline uint64_t rate_deadline(const struct ifm_rate *r, uint64_t k)
{
	if (!r->hz)
		return k * r->interval_ns;
	/* k * 10^9 / hz without overflowing 64 bits */
	return k / r->hz * 1000000000ULL +
	       k % r->hz * 1000000000ULL / r->hz;
}

/* The first deadline index whose deadline is after @off ns. */
uint64_t rate_next_index(const struct ifm_rate *r, uint64_t off);

/*
 * "1000" or "3333.333333": the rate in Hz, exact for -r, to 6 decimals
 * (rounded) for an interval that does not divide a second. Returns @buf.
 */
char *rate_format_hz(const struct ifm_rate *r, char *buf, size_t len);

/* The period in ns with 3 decimals: "333333.333". Returns @buf. */
char *rate_format_interval_ns(const struct ifm_rate *r, char *buf, size_t len);

#endif
