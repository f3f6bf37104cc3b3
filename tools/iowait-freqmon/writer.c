// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <time.h>
#include <unistd.h>

#include "timeutil.h"
#include "writer.h"

static void flush(struct writer *w)
{
	bool had_err = w->out->ob.err != 0;

	if (!outbuf_flush(&w->out->ob))
		w->committed += w->pending;
	w->pending = 0;
	if (!had_err && w->out->ob.err && w->notify_fd >= 0) {
		uint64_t one = 1;

		if (write(w->notify_fd, &one, sizeof(one)) < 0)
			return;
	}
}

static void drain(struct writer *w)
{
	size_t need = w->out->ops->row_max * (w->ncpus + 1);
	struct sample *s;

	while ((s = ring_peek(w->ring))) {
		/* a sample never straddles two writes: exact loss counts */
		if (outbuf_room(&w->out->ob) < need)
			flush(w);
		if (!w->out->ob.err) {
			w->out->ops->sample(w->out, s);
			w->pending++;
		}
		ring_release(w->ring);
	}
	flush(w);
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	struct timespec poll = ns_to_ts(WRITER_POLL_NS);

	while (!atomic_load(&w->closing)) {
		drain(w);
		nanosleep(&poll, NULL);
	}
	drain(w);
	return NULL;
}

int writer_start(struct writer *w)
{
	int ret;

	atomic_init(&w->closing, false);
	w->committed = w->pending = 0;
	ret = pthread_create(&w->thread, NULL, writer_main, w);
	w->started = ret == 0;
	return -ret;
}

int writer_finish(struct writer *w)
{
	if (w->started) {
		atomic_store(&w->closing, true);
		pthread_join(w->thread, NULL);
		w->started = false;
	} else {
		drain(w);
	}
	return w->out->ob.err;
}
