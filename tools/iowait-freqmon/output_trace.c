// SPDX-License-Identifier: GPL-2.0
/*
 * Trace Event Format (JSON object form) for Perfetto and chrome://tracing.
 * One process per CPU ("CPU N", pid N+1, sorted by CPU number) carrying two
 * counter tracks: "load" with series busy and iowait (fractions, stacked in
 * chrome://tracing), and "freq_khz" with series freq. Timestamps are
 * microseconds since the first snapshot. Invalid samples are left out.
 * Metadata and summary go to "otherData".
 */
#include "output.h"

static void event_head(struct output *o, const char *ph, const char *name,
		       unsigned int cpu)
{
	struct outbuf *ob = &o->ob;

	outbuf_puts(ob, o->nrecords++ ? ",\n{\"ph\":\"" : "\n{\"ph\":\"");
	outbuf_puts(ob, ph);
	outbuf_puts(ob, "\",\"name\":\"");
	outbuf_puts(ob, name);
	outbuf_puts(ob, "\",\"pid\":");
	outbuf_u64(ob, cpu + 1);
	outbuf_puts(ob, ",\"tid\":");
	outbuf_u64(ob, cpu + 1);
}

static void trace_begin(struct output *o)
{
	const struct run_meta *m = o->meta;
	struct outbuf *ob = &o->ob;

	outbuf_puts(ob, "{\"displayTimeUnit\":\"ms\",\n\"traceEvents\":[");
	for (unsigned int i = 0; i < m->ncpus; i++) {
		unsigned int cpu = m->cpu[i];

		event_head(o, "M", "process_name", cpu);
		outbuf_printf(ob, ",\"args\":{\"name\":\"CPU %u\"}}", cpu);
		event_head(o, "M", "process_sort_index", cpu);
		outbuf_printf(ob, ",\"args\":{\"sort_index\":%u}}", cpu);
		event_head(o, "M", "thread_name", cpu);
		outbuf_printf(ob, ",\"args\":{\"name\":\"iowait-freqmon cpu%u\"}}",
			      cpu);
	}
}

static void trace_sample(struct output *o, const struct sample *s)
{
	struct outbuf *ob = &o->ob;

	for (unsigned int i = 0; i < s->ncpus; i++) {
		const struct sample_cpu *c = &s->cpu[i];

		if (c->invalid)
			continue;
		event_head(o, "C", "load", c->cpu);
		outbuf_puts(ob, ",\"ts\":");
		outbuf_decimal(ob, s->t_ns, 3);
		outbuf_puts(ob, ",\"args\":{\"busy\":");
		outbuf_decimal(ob, frac_1e4(c->busy_ns, s->dt_ns), 4);
		outbuf_puts(ob, ",\"iowait\":");
		outbuf_decimal(ob, frac_1e4(c->iowait_ns, s->dt_ns), 4);
		outbuf_puts(ob, "}}");
		if (!c->freq_khz)
			continue;
		event_head(o, "C", "freq_khz", c->cpu);
		outbuf_puts(ob, ",\"ts\":");
		outbuf_decimal(ob, s->t_ns, 3);
		outbuf_puts(ob, ",\"args\":{\"freq\":");
		outbuf_u64(ob, c->freq_khz);
		outbuf_puts(ob, "}}");
	}
}

static void trace_end(struct output *o, const struct summary *sum)
{
	struct outbuf *ob = &o->ob;

	outbuf_puts(ob, "\n],\n\"otherData\":{\"meta\":");
	json_meta(ob, o->meta);
	outbuf_puts(ob, ",\n\"summary\":");
	json_summary(ob, sum);
	outbuf_puts(ob, "}}\n");
}

const struct output_ops output_trace = {
	.name = "trace",
	.row_max = 320,
	.begin = trace_begin,
	.sample = trace_sample,
	.end = trace_end,
};
