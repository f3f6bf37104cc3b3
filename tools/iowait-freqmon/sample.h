/* SPDX-License-Identifier: GPL-2.0 */
/* One sample: the interval between two timer_list snapshots, per CPU. */
#ifndef IFM_SAMPLE_H
#define IFM_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

struct sample_cpu {
	uint64_t busy_ns, idle_ns, iowait_ns;	/* 0 when invalid */
	uint32_t freq_khz;			/* read at the end; 0: unknown */
	uint32_t freq0_khz;			/* read at the start; 0: unknown */
	uint16_t cpu;
	uint8_t invalid;			/* ACCT_* bits, 0 = valid */
	uint8_t live;				/* kernel printed live sums */
};

struct sample {
	uint64_t seq;		/* 1 for the first interval; a gap: dropped */
	uint64_t t_ns;		/* interval end, since the first snapshot
				 * (the start is t_ns - dt_ns) */
	uint64_t dt_ns;		/* interval length ("now at" difference) */
	unsigned int ncpus;
	struct sample_cpu cpu[];
};

static inline size_t sample_size(unsigned int ncpus)
{
	return sizeof(struct sample) + ncpus * sizeof(struct sample_cpu);
}

#endif
