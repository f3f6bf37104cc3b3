// SPDX-License-Identifier: GPL-2.0
/*
 * JSON: {"meta": {...}, "samples": [{...}, ...], "summary": {...}},
 * streamed: samples are written as they come, nothing is kept in memory.
 */
#include "output.h"

static void json_begin(struct output *o)
{
	outbuf_puts(&o->ob, "{\"meta\": ");
	json_meta(&o->ob, o->meta);
	outbuf_puts(&o->ob, ",\n\"samples\": [");
}

static void json_sample(struct output *o, const struct sample *s)
{
	struct outbuf *ob = &o->ob;
	uint64_t t_us = (output_time_ns(o, s->t_ns) + 500) / 1000;
	uint64_t t0_us = (output_time_ns(o, s->t_ns - s->dt_ns) + 500) / 1000;

	for (unsigned int i = 0; i < s->ncpus; i++) {
		const struct sample_cpu *c = &s->cpu[i];

		outbuf_puts(ob, o->nrecords++ ? ",\n{\"t\":" : "\n{\"t\":");
		outbuf_decimal(ob, t_us, 6);
		outbuf_puts(ob, ",\"cpu\":");
		outbuf_u64(ob, c->cpu);
		outbuf_puts(ob, ",\"busy\":");
		outbuf_decimal(ob, frac_1e4(c->busy_ns, s->dt_ns), 4);
		outbuf_puts(ob, ",\"idle\":");
		outbuf_decimal(ob, frac_1e4(c->idle_ns, s->dt_ns), 4);
		outbuf_puts(ob, ",\"iowait\":");
		outbuf_decimal(ob, frac_1e4(c->iowait_ns, s->dt_ns), 4);
		outbuf_puts(ob, ",\"freq_khz\":");
		if (c->freq_khz)
			outbuf_u64(ob, c->freq_khz);
		else
			outbuf_puts(ob, "null");
		outbuf_puts(ob, c->invalid ? ",\"valid\":false"
					   : ",\"valid\":true");
		outbuf_puts(ob, ",\"seq\":");
		outbuf_u64(ob, s->seq);
		outbuf_puts(ob, ",\"t_start\":");
		outbuf_decimal(ob, t0_us, 6);
		outbuf_puts(ob, ",\"freq_start_khz\":");
		if (c->freq0_khz)
			outbuf_u64(ob, c->freq0_khz);
		else
			outbuf_puts(ob, "null");
		outbuf_putc(ob, '}');
	}
}

static void json_end(struct output *o, const struct summary *sum)
{
	outbuf_puts(&o->ob, "\n],\n\"summary\": ");
	json_summary(&o->ob, sum);
	outbuf_puts(&o->ob, "}\n");
}

const struct output_ops output_json = {
	.name = "json",
	.row_max = 288,
	.begin = json_begin,
	.sample = json_sample,
	.end = json_end,
};
