/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Single-producer single-consumer ring of fixed-size slots, allocated once:
 * the sampler thread fills slots, the main thread drains them (writer.c).
 * Memory stays bounded on long runs; when the output falls behind, the producer
 * finds the ring full and the caller counts a dropped sample.
 */
#ifndef IFM_RING_H
#define IFM_RING_H

#include <stdatomic.h>
#include <stddef.h>

struct ring {
	unsigned char *mem;
	size_t slot_size, nslots;
	atomic_size_t head;	/* slots produced (written by the producer) */
	atomic_size_t tail;	/* slots consumed (written by the consumer) */
};

/* Returns 0 or -ENOMEM / -EINVAL. */
int ring_init(struct ring *r, size_t nslots, size_t slot_size);
void ring_free(struct ring *r);

/* Producer: a free slot, or NULL if the ring is full; then commit it. */
void *ring_reserve(struct ring *r);
void ring_commit(struct ring *r);

/* Consumer: the oldest filled slot, or NULL if empty; then release it. */
void *ring_peek(struct ring *r);
void ring_release(struct ring *r);

#endif
