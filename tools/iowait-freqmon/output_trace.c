// SPDX-License-Identifier: GPL-2.0
/*
 * Trace Event Format (JSON object form) for Perfetto and chrome://tracing.
 * One process per CPU ("CPU N", pid N+1, sorted by CPU number) carrying two
 * counter tracks. A counter holds its value until the next event, so each
 * event is stamped where its value starts to hold:
 *
 *   "load" (series busy, iowait and invalid) at the START of the interval
 *   it describes; an invalid interval has busy and iowait 0 and invalid 1,
 *   so no valid value is held over it; after the last interval, one more
 *   event at its end (all 0) closes it.
 *   "freq_khz" (series freq) at the time the frequency was read: the
 *   interval's end, and for the first interval also its start.
 *
 * Timestamps are microseconds since the first snapshot, or CLOCK_MONOTONIC
 * with --clock monotonic (perf's "-k CLOCK_MONOTONIC"). Metadata and
 * summary go to "otherData".
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

static void ts(struct output *o, uint64_t rel_ns)
{
	outbuf_puts(&o->ob, ",\"ts\":");
	outbuf_decimal(&o->ob, output_time_ns(o, rel_ns), 3);
}

static void load_event(struct output *o, unsigned int cpu, uint64_t at,
		       unsigned int busy, unsigned int iowait, bool invalid)
{
	struct outbuf *ob = &o->ob;

	event_head(o, "C", "load", cpu);
	ts(o, at);
	outbuf_puts(ob, ",\"args\":{\"busy\":");
	outbuf_decimal(ob, busy, 4);
	outbuf_puts(ob, ",\"iowait\":");
	outbuf_decimal(ob, iowait, 4);
	outbuf_puts(ob, invalid ? ",\"invalid\":1}}" : ",\"invalid\":0}}");
}

static void freq_event(struct output *o, unsigned int cpu, uint64_t at,
		       uint32_t khz)
{
	event_head(o, "C", "freq_khz", cpu);
	ts(o, at);
	outbuf_puts(&o->ob, ",\"args\":{\"freq\":");
	outbuf_u64(&o->ob, khz);
	outbuf_puts(&o->ob, "}}");
}

static void trace_sample(struct output *o, const struct sample *s)
{
	uint64_t start = s->t_ns - s->dt_ns;

	for (unsigned int i = 0; i < s->ncpus; i++) {
		const struct sample_cpu *c = &s->cpu[i];

		if (c->invalid)
			load_event(o, c->cpu, start, 0, 0, true);
		else
			load_event(o, c->cpu, start,
				   frac_1e4(c->busy_ns, s->dt_ns),
				   frac_1e4(c->iowait_ns, s->dt_ns), false);
		if (!o->any_sample && c->freq0_khz)
			freq_event(o, c->cpu, start, c->freq0_khz);
		if (c->freq_khz)
			freq_event(o, c->cpu, s->t_ns, c->freq_khz);
	}
	o->any_sample = true;
	o->last_end_ns = s->t_ns;
}

static void trace_end(struct output *o, const struct summary *sum)
{
	struct outbuf *ob = &o->ob;

	/* the last interval ends: its value must not hold beyond it */
	for (unsigned int i = 0; o->any_sample && i < o->meta->ncpus; i++)
		load_event(o, o->meta->cpu[i], o->last_end_ns, 0, 0, false);
	outbuf_puts(ob, "\n],\n\"otherData\":{\"meta\":");
	json_meta(ob, o->meta);
	outbuf_puts(ob, ",\n\"summary\":");
	json_summary(ob, sum);
	outbuf_puts(ob, "}}\n");
}

const struct output_ops output_trace = {
	.name = "trace",
	.row_max = 640,
	.begin = trace_begin,
	.sample = trace_sample,
	.end = trace_end,
};
