/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reads /proc/timer_list into a preallocated buffer with pread() from
 * offset 0, parsing as the chunks arrive, and stops as soon as the last
 * wanted CPU's block is in: the "Tick Device" blocks after it cost kernel
 * time to generate and are not needed.
 *
 * How the requests are sized matters as much as stopping early. seq_file
 * generates whole records (the header, then one per CPU) into its own
 * buffer; a read request that still has room after a record makes it
 * generate the next record, and if that does not fit the buffer it is
 * thrown away and generated again by the next read. So the reader learns
 * the record boundaries of the previous read and asks for exactly one
 * record per pread(): every record is generated once. The first read, and
 * whatever lies beyond the learned plan, is read in TL_READER_CHUNK pieces.
 * bench-sampler measures the alternatives side by side.
 */
#ifndef IFM_TL_READER_H
#define IFM_TL_READER_H

#include <stdbool.h>
#include <stddef.h>

#include "timer_list.h"

#define TL_READER_CHUNK 512

struct tl_reader {
	char *buf;
	size_t cap;
	size_t chunk;		/* request size outside the plan; 0: all room */
	bool adaptive;		/* learn and use record boundaries */
	long stop_cpu;		/* last CPU whose block is needed */
	size_t *plan;		/* request end offsets learned last time */
	size_t *marks;		/* boundaries seen by the current read */
	unsigned int nplan, maxplan;
	size_t len;		/* bytes read by the last call */
	unsigned int nreads;	/* pread() calls by the last call */
	size_t *reqs;		/* request sizes of the last call (bench) */
	unsigned int maxreqs;
};

/*
 * @cap: buffer size; @stop_cpu: last CPU needed (< 0: up to the tick
 * devices); @maxcpus: number of CPU blocks that can appear (plan size).
 * Returns 0 or -ENOMEM.
 */
int tl_reader_init(struct tl_reader *r, size_t cap, long stop_cpu,
		   unsigned int maxcpus);
void tl_reader_free(struct tl_reader *r);

/*
 * Read and parse one snapshot from @fd. Returns 0 (the snapshot may still
 * be TLS_TRUNCATED if the buffer filled up), -EBADMSG if the header is
 * missing, or -errno from pread().
 */
int tl_reader_read(struct tl_reader *r, int fd, struct tl_snapshot *snap);

#endif
