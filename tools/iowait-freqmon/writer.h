/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The writer thread: drains the sample ring into an output format every
 * few milliseconds, so the sampler never formats or writes. It counts the
 * samples that reached the file, so that after a write error (disk full,
 * EPIPE) the run can say exactly how many were lost.
 */
#ifndef IFM_WRITER_H
#define IFM_WRITER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "output.h"
#include "ring.h"

#define WRITER_POLL_NS 10000000ULL	/* 10 ms */

struct writer {
	struct ring *ring;
	struct output *out;
	unsigned int ncpus;
	int notify_fd;		/* eventfd bumped on the first write error */
	atomic_bool closing;
	uint64_t committed;	/* samples whose rows were written out */
	uint64_t pending;	/* samples formatted, not yet written */
	pthread_t thread;
	bool started;
};

int writer_start(struct writer *w);
/* Drain what is left, stop the thread. Returns 0 or the output's -errno. */
int writer_finish(struct writer *w);

#endif
