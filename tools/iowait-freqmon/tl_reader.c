// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl_reader.h"

#define TL_MAX_REQS 256

int tl_reader_init(struct tl_reader *r, size_t cap, long stop_cpu,
		   unsigned int maxcpus)
{
	memset(r, 0, sizeof(*r));
	r->cap = cap;
	r->chunk = TL_READER_CHUNK;
	r->adaptive = true;
	r->stop_cpu = stop_cpu < 0 ? LONG_MAX : stop_cpu;
	r->maxplan = maxcpus + 2;
	r->maxreqs = TL_MAX_REQS;
	r->buf = malloc(cap);
	r->plan = calloc(r->maxplan, sizeof(*r->plan));
	r->marks = calloc(r->maxplan, sizeof(*r->marks));
	r->reqs = calloc(r->maxreqs, sizeof(*r->reqs));
	if (!r->buf || !r->plan || !r->marks || !r->reqs) {
		tl_reader_free(r);
		return -ENOMEM;
	}
	return 0;
}

void tl_reader_free(struct tl_reader *r)
{
	free(r->buf);
	free(r->plan);
	free(r->marks);
	free(r->reqs);
	r->buf = NULL;
	r->plan = r->marks = r->reqs = NULL;
}

/* Size of the next request when @len bytes are in. */
static size_t next_request(const struct tl_reader *r, size_t len)
{
	size_t want = r->cap - len;

	if (r->adaptive) {
		for (unsigned int i = 0; i < r->nplan; i++)
			if (r->plan[i] > len)
				return r->plan[i] - len < want ?
					r->plan[i] - len : want;
	}
	if (r->chunk && want > r->chunk)
		want = r->chunk;
	return want;
}

int tl_reader_read(struct tl_reader *r, int fd, struct tl_snapshot *snap)
{
	struct tl_parser p;
	size_t len = 0;
	bool eof = false;
	int ret;

	r->nreads = 0;
	tl_parser_begin(&p, snap, r->stop_cpu);
	p.marks = r->marks;
	p.maxmarks = r->maxplan;
	while (len < r->cap) {
		size_t want = next_request(r, len);
		ssize_t n = pread(fd, r->buf + len, want, (off_t)len);

		if (r->nreads < r->maxreqs)
			r->reqs[r->nreads] = want;
		r->nreads++;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r->len = len;
			return -errno;
		}
		if (n == 0) {
			eof = true;
			break;
		}
		len += (size_t)n;
		if (tl_parser_feed(&p, r->buf, len))
			break;
	}
	r->len = len;
	ret = tl_parser_finish(&p, eof);
	/* learn the boundaries only from a read that found the stop CPU */
	if (!ret && (snap->flags & TLS_DONE) && p.nmarks) {
		memcpy(r->plan, r->marks, p.nmarks * sizeof(*r->plan));
		r->nplan = p.nmarks;
	}
	return ret;
}
