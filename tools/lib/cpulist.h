/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU lists in the kernel's cpulist format: "0-3,5,8-11", as in
 * /sys/devices/system/cpu/online and taskset -c. A set is a byte array
 * indexed by CPU number (set[cpu] != 0 when present); the caller owns it.
 */
#ifndef IFM_CPULIST_H
#define IFM_CPULIST_H

#include <stddef.h>

/*
 * Parse @s into @set[0..@nbits-1] (cleared first). Surrounding white space
 * and a trailing newline are accepted. Returns the number of CPUs in the set,
 * -EINVAL for a malformed list or an empty one, -ERANGE if a CPU is >= @nbits.
 */
int cpulist_parse(const char *s, unsigned char *set, unsigned int nbits);

/*
 * Format @set as a cpulist ("0-1,4") into @buf. Returns the length written
 * (excluding the NUL), or -ENOSPC if @len is too small; "" for an empty set.
 */
int cpulist_format(const unsigned char *set, unsigned int nbits,
		   char *buf, size_t len);

/* Highest CPU in the set, or -1 if empty. */
int cpulist_last(const unsigned char *set, unsigned int nbits);

#endif
