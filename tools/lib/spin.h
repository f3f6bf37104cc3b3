/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CPU-bound work chunk of cpuloop and io-alternate: io-alternate sizes
 * its bursts in chunks from cpuloop's loops per second, so both must run
 * this very loop. Inline, as it was in each tool.
 */
#ifndef IFM_SPIN_H
#define IFM_SPIN_H

#include <stdint.h>

#define SPIN_CHUNK 4096		/* xorshift steps per chunk */

/* A fixed amount of integer work the compiler cannot drop. */
static inline uint64_t spin_chunk(uint64_t x)
{
	for (int i = 0; i < SPIN_CHUNK; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return x;
}

#endif
