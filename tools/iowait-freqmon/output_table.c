// SPDX-License-Identifier: GPL-2.0
/*
 * The terminal's format (the default on a terminal without --output, or
 * -f table): instead of a row per sample and CPU, one block per second in
 * turbostat's way: a header line, the all-CPU row ("-") and one row per
 * CPU, with Busy%, IOwait%, Idle%, Bzy_MHz (busy-time-weighted mean
 * frequency, each interval split between the frequencies read at its two
 * ends when they differ) and Avg_MHz (Bzy_MHz x Busy%), over the valid
 * intervals of that second. First lines: the CPUs, rate, idle source, the
 * start, and each policy's governor and tunables; the end summary follows
 * the last block.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "output.h"

#define TABLE_PERIOD_NS 1000000000ULL

struct table {
	struct summary acc;	/* this block's figures */
	uint64_t block_start;	/* time of the block's start */
	uint64_t nsamples;	/* samples in this block */
};

static int table_init(struct output *o)
{
	struct table *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	o->priv = t;	/* the CPUs are known at begin */
	return 0;
}

static void table_fini(struct output *o)
{
	struct table *t = o->priv;

	if (!t)
		return;
	summary_free(&t->acc);
	free(t);
	o->priv = NULL;
}

static void mhz(struct outbuf *ob, const struct summary_cpu *c, bool avg)
{
	uint64_t tot = c->busy_ns + c->idle_ns + c->iowait_ns;
	double m;

	if (!c->busy_known_ns || !tot) {
		outbuf_printf(ob, " %7s", "-");
		return;
	}
	m = summary_mean_busy_khz(c) / 1000;
	if (avg)
		m = m * (double)c->busy_ns / (double)tot;
	outbuf_printf(ob, " %7.0f", m);
}

static void row(struct outbuf *ob, double t, const char *cpu,
		const struct summary_cpu *c)
{
	uint64_t tot = c->busy_ns + c->idle_ns + c->iowait_ns;

	outbuf_printf(ob, "%12.3f %4s", t, cpu);
	if (!tot) {
		outbuf_printf(ob, " %7s %7s %7s %7s %7s\n", "-", "-", "-", "-",
			      "-");
		return;
	}
	outbuf_printf(ob, " %7.2f %7.2f %7.2f",
		      100.0 * (double)c->busy_ns / (double)tot,
		      100.0 * (double)c->iowait_ns / (double)tot,
		      100.0 * (double)c->idle_ns / (double)tot);
	mhz(ob, c, false);
	mhz(ob, c, true);
	outbuf_putc(ob, '\n');
}

static void flush_block(struct output *o, uint64_t end_ns)
{
	struct table *t = o->priv;
	struct outbuf *ob = &o->ob;
	struct summary_cpu all;
	double at = (double)output_time_ns(o, end_ns) / 1e9;

	if (!t->nsamples || !t->acc.cpu)
		return;
	outbuf_printf(ob, "%12s %4s %7s %7s %7s %7s %7s\n", "time_s", "CPU",
		      "Busy%", "IOwait%", "Idle%", "Bzy_MHz", "Avg_MHz");
	if (t->acc.ncpus > 1) {
		summary_all(&t->acc, &all);
		row(ob, at, "-", &all);
	}
	for (unsigned int i = 0; i < t->acc.ncpus; i++) {
		char name[16];

		snprintf(name, sizeof(name), "%u", t->acc.cpu[i].cpu);
		row(ob, at, name, &t->acc.cpu[i]);
	}
	summary_reset(&t->acc);
	t->nsamples = 0;
	t->block_start = end_ns;
}

/* "governor of CPUs 0-1: ondemand io_is_busy=1 ..." */
static void governor_line(struct outbuf *ob, const struct freq_source *fs,
			  const struct freq_policy *p)
{
	outbuf_puts(ob, "governor of CPUs ");
	outbuf_cpulist(ob, p->related, fs->ncpus);
	outbuf_puts(ob, ": ");
	outbuf_escaped(ob, p->governor);
	for (unsigned int t = 0; p->tun && t < p->tun->n; t++) {
		outbuf_putc(ob, ' ');
		outbuf_escaped(ob, p->tun->t[t].name);
		outbuf_putc(ob, '=');
		outbuf_escaped(ob, p->tun->t[t].value);
	}
	outbuf_putc(ob, '\n');
}

static void table_begin(struct output *o)
{
	const struct run_meta *m = o->meta;
	struct table *t = o->priv;
	char num[32];

	/* out of memory: a sticky output error, like a failed write */
	if (summary_init(&t->acc, m->cpu, m->ncpus) && !o->ob.err)
		o->ob.err = -ENOMEM;
	outbuf_printf(&o->ob, "iowait-freqmon %s: CPUs ", m->version);
	outbuf_cpulist(&o->ob, m->cpuset, m->ncap);
	outbuf_printf(&o->ob, " at %s Hz, one block per second; idle and "
		      "iowait from %s (resolution %llu ns)\n",
		      rate_format_hz(&m->rate, num, sizeof(num)),
		      meta_source(m),
		      (unsigned long long)meta_resolution_ns(m));
	outbuf_printf(&o->ob, "start %s, CLOCK_MONOTONIC %llu ns; times: %s\n",
		      m->start, (unsigned long long)m->start_mono_ns,
		      meta_clock(m));
	for (unsigned int i = 0; m->freq && i < m->freq->npol; i++)
		governor_line(&o->ob, m->freq, &m->freq->pol[i]);
}

static void table_sample(struct output *o, const struct sample *s)
{
	struct table *t = o->priv;

	if (!t->acc.cpu)
		return;
	summary_add(&t->acc, s);
	t->nsamples++;
	o->nrecords += s->ncpus;
	if (s->t_ns - t->block_start >= TABLE_PERIOD_NS)
		flush_block(o, s->t_ns);
	o->last_end_ns = s->t_ns;
	o->any_sample = true;
}

static void emit_line(void *ctx, const char *line)
{
	struct outbuf *ob = ctx;

	outbuf_puts(ob, line);
	outbuf_putc(ob, '\n');
}

static void table_end(struct output *o, const struct summary *sum)
{
	flush_block(o, o->last_end_ns);
	summary_print(sum, "", emit_line, &o->ob);
}

const struct output_ops output_table = {
	.name = "table",
	.row_max = 256,
	.init = table_init,
	.fini = table_fini,
	.begin = table_begin,
	.sample = table_sample,
	.end = table_end,
};
