/* SPDX-License-Identifier: GPL-2.0 */
/* Time helpers: nanosecond clocks, timespec conversion, ISO 8601 stamps. */
#ifndef IFM_TIMEUTIL_H
#define IFM_TIMEUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

static inline uint64_t ts_to_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NSEC_PER_SEC + (uint64_t)ts->tv_nsec;
}

static inline struct timespec ns_to_ts(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};
	return ts;
}

/* Read @clock in nanoseconds (0 if the clock is unavailable). */
uint64_t clock_ns(clockid_t clock);

static inline uint64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/*
 * Format a CLOCK_REALTIME time as UTC ISO 8601 with milliseconds,
 * "2026-12-03T08:20:03.123Z". Returns @buf.
 */
char *time_iso8601(const struct timespec *t, char *buf, size_t len);

/*
 * Parse a non-negative decimal number of @unit nanoseconds ("1.5" with
 * unit NSEC_PER_SEC = 1.5 s) without floating point. Returns 0 or -EINVAL
 * / -ERANGE.
 */
int parse_duration_ns(const char *s, uint64_t unit, uint64_t *out);

#endif
