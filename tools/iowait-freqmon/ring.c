// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "ring.h"

int ring_init(struct ring *r, size_t nslots, size_t slot_size)
{
	if (!nslots || !slot_size || nslots > SIZE_MAX / slot_size)
		return -EINVAL;
	/* keep 8-byte alignment of every slot */
	slot_size = (slot_size + 7) & ~(size_t)7;
	r->mem = calloc(nslots, slot_size);
	if (!r->mem)
		return -ENOMEM;
	r->slot_size = slot_size;
	r->nslots = nslots;
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
	return 0;
}

void ring_free(struct ring *r)
{
	free(r->mem);
	r->mem = NULL;
}

void *ring_reserve(struct ring *r)
{
	size_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	size_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head - tail >= r->nslots)
		return NULL;
	return r->mem + (head % r->nslots) * r->slot_size;
}

void ring_commit(struct ring *r)
{
	size_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	atomic_store_explicit(&r->head, head + 1, memory_order_release);
}

void *ring_peek(struct ring *r)
{
	size_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	size_t head = atomic_load_explicit(&r->head, memory_order_acquire);

	if (tail == head)
		return NULL;
	return r->mem + (tail % r->nslots) * r->slot_size;
}

void ring_release(struct ring *r)
{
	size_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);

	atomic_store_explicit(&r->tail, tail + 1, memory_order_release);
}
