/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CPU lists in the kernel's cpulist format: "0-3,5,8-11", as in
 * /sys/devices/system/cpu/online and taskset -c. A set is a byte array
 * indexed by CPU number (set[cpu] != 0 when present); the caller owns it.
 */
#ifndef IFM_CPULIST_H
#define IFM_CPULIST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Parse @s into @set[0..@nbits-1] (cleared first). Surrounding white space
 * and a trailing newline are accepted. Returns the number of CPUs in the set,
 * -EINVAL for a malformed list or an empty one, -ERANGE if a CPU is >= @nbits.
 */
int cpulist_parse(const char *s, unsigned char *set, unsigned int nbits);

/*
 * The next range of @set at or after *@pos: [*@lo, *@hi], and *@pos moves
 * past it. Returns false when there is none left. Start with *@pos = 0.
 */
bool cpulist_next(const unsigned char *set, unsigned int nbits,
		  unsigned int *pos, unsigned int *lo, unsigned int *hi);

/*
 * Format @set as a cpulist ("0-1,4") into @buf. Returns the length written
 * (excluding the NUL); "" for an empty set. If @len is too small: -ENOSPC,
 * and @buf holds the whole ranges that fit (never a number cut short).
 */
int cpulist_format(const unsigned char *set, unsigned int nbits,
		   char *buf, size_t len);

/* The same in a malloc'd string of the right size (NULL: out of memory). */
char *cpulist_alloc(const unsigned char *set, unsigned int nbits);

/* Highest CPU in the set, or -1 if empty. */
int cpulist_last(const unsigned char *set, unsigned int nbits);

#endif
