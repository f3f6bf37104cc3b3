// SPDX-License-Identifier: GPL-2.0
#include "writer.h"

static void flush(struct writer *w)
{
	if (!outbuf_flush(&w->out->ob))
		w->committed += w->pending;
	w->pending = 0;
}

int writer_drain(struct writer *w)
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
	return w->out->ob.err;
}
