/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The writer: drains the sample ring into an output format. The main
 * thread calls it every WRITER_POLL_NS from the loop that also waits for
 * signals and the command (as cyclictest's main thread prints what its
 * measuring threads record), so the sampler never formats or writes. It
 * counts the samples that reached the file, so that after a write error
 * (disk full, EPIPE) the run can say exactly how many were lost.
 */
#ifndef IFM_WRITER_H
#define IFM_WRITER_H

#include <stdint.h>

#include "output.h"
#include "ring.h"

#define WRITER_POLL_NS 10000000ULL	/* 10 ms */

struct writer {
	struct ring *ring;
	struct output *out;
	unsigned int ncpus;
	uint64_t committed;	/* samples whose rows were written out */
	uint64_t pending;	/* samples formatted, not yet written */
};

/*
 * Write out every sample in the ring and flush. Returns 0, or the output's
 * -errno once a write failed (sticky; the ring is still emptied).
 */
int writer_drain(struct writer *w);

#endif
