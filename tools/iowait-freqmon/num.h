/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocation-free decimal parsing for the hot path (no sscanf/strtoull:
 * those need a NUL terminator and a locale; these work on a bounded span).
 */
#ifndef IFM_NUM_H
#define IFM_NUM_H

#include <errno.h>
#include <stdint.h>

/*
 * Parse an unsigned decimal at *@pp, not past @end. *@pp advances past the
 * digits. Returns 0, -EINVAL if there is no digit, -ERANGE on overflow.
 */
static inline int parse_u64(const char **pp, const char *end, uint64_t *out)
{
	const char *p = *pp;
	uint64_t v = 0;

	if (p >= end || (unsigned char)(*p - '0') > 9)
		return -EINVAL;
	while (p < end && (unsigned char)(*p - '0') <= 9) {
		unsigned int d = (unsigned int)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
		p++;
	}
	*pp = p;
	*out = v;
	return 0;
}

static inline const char *skip_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

#endif
