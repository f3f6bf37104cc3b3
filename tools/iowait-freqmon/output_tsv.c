// SPDX-License-Identifier: GPL-2.0
/*
 * TSV for gnuplot and scripts: '#' metadata lines, exactly one column
 * header line, one row per sample and CPU, '#' summary lines at the end.
 */
#include "output.h"

/* "# key: value\n" with the value escaped onto one line */
static void meta_line(struct outbuf *ob, const char *key, const char *value)
{
	outbuf_printf(ob, "# %s: ", key);
	outbuf_escaped(ob, value);
	outbuf_putc(ob, '\n');
}

/*
 * "# governor: cpus=0 governor=ondemand tunables=DIR name=value ...": the
 * governor's tunables (tunables=- when it has no folder).
 */
static void governor_line(struct outbuf *ob, const struct freq_source *fs,
			  const struct freq_policy *p)
{
	outbuf_puts(ob, "# governor: cpus=");
	outbuf_cpulist(ob, p->related, fs->ncpus);
	outbuf_puts(ob, " governor=");
	outbuf_escaped(ob, p->governor);
	outbuf_puts(ob, " tunables=");
	if (!p->tun || !p->tun->dir[0]) {
		outbuf_puts(ob, "-\n");
		return;
	}
	outbuf_escaped(ob, p->tun->dir);
	for (unsigned int t = 0; t < p->tun->n; t++) {
		outbuf_putc(ob, ' ');
		outbuf_escaped(ob, p->tun->t[t].name);
		outbuf_putc(ob, '=');
		outbuf_escaped(ob, p->tun->t[t].value);
	}
	outbuf_putc(ob, '\n');
}

static void tsv_begin(struct output *o)
{
	const struct run_meta *m = o->meta;
	struct outbuf *ob = &o->ob;
	char num[32];

	outbuf_printf(ob, "# iowait-freqmon %s\n", m->version);
	/* already shell-quoted onto one line */
	outbuf_printf(ob, "# command: %s\n", m->command);
	meta_line(ob, "kernel", m->kernel);
	outbuf_printf(ob, "# timer_list: v%u.%u %s\n", m->tl_major,
		      m->tl_minor, meta_mode(m));
	outbuf_printf(ob, "# idle_source: %s resolution_ns=%llu", meta_source(m),
		      (unsigned long long)meta_resolution_ns(m));
	if (m->stat_idle)
		outbuf_printf(ob, " user_hz=%ld", m->user_hz);
	outbuf_putc(ob, '\n');
	outbuf_puts(ob, "# cpus: ");
	outbuf_cpulist(ob, m->cpuset, m->ncap);
	outbuf_printf(ob, "\n# interval_us: %llu\n",
		      (unsigned long long)(m->interval_ns / 1000));
	outbuf_printf(ob, "# rate_hz: %s\n",
		      rate_format_hz(&m->rate, num, sizeof(num)));
	outbuf_printf(ob, "# interval_ns: %s\n",
		      rate_format_interval_ns(&m->rate, num, sizeof(num)));
	outbuf_printf(ob, "# clock: %s\n", meta_clock(m));
	outbuf_printf(ob, "# start: %s\n", m->start);
	outbuf_printf(ob, "# start_monotonic_ns: %llu\n",
		      (unsigned long long)m->start_mono_ns);
	if (m->root) {
		outbuf_puts(ob, "# root: ");
		outbuf_escaped(ob, m->root);
		outbuf_puts(ob, m->replay ? " (replay)\n" : "\n");
	}
	if (!m->freq || !m->freq->npol) {
		outbuf_puts(ob, "# cpufreq: none\n");
	} else {
		for (unsigned int i = 0; i < m->freq->npol; i++) {
			const struct freq_policy *p = &m->freq->pol[i];

			outbuf_puts(ob, "# cpufreq: cpus=");
			outbuf_cpulist(ob, p->related, m->freq->ncpus);
			outbuf_puts(ob, " driver=");
			outbuf_escaped(ob, p->driver);
			outbuf_puts(ob, " governor=");
			outbuf_escaped(ob, p->governor);
			outbuf_printf(ob, " min_khz=%lu max_khz=%lu "
				      "source=%s\n", p->min_khz, p->max_khz,
				      m->freq->backend->name);
		}
		for (unsigned int i = 0; i < m->freq->npol; i++)
			governor_line(ob, m->freq, &m->freq->pol[i]);
	}
	outbuf_puts(ob, TSV_COLUMNS "\n");
}

static void tsv_sample(struct output *o, const struct sample *s)
{
	struct outbuf *ob = &o->ob;
	uint64_t t_us = (output_time_ns(o, s->t_ns) + 500) / 1000;
	uint64_t t0_us = (output_time_ns(o, s->t_ns - s->dt_ns) + 500) / 1000;

	for (unsigned int i = 0; i < s->ncpus; i++) {
		const struct sample_cpu *c = &s->cpu[i];

		outbuf_decimal(ob, t_us, 6);
		outbuf_putc(ob, '\t');
		outbuf_u64(ob, c->cpu);
		outbuf_putc(ob, '\t');
		outbuf_decimal(ob, frac_1e4(c->busy_ns, s->dt_ns), 4);
		outbuf_putc(ob, '\t');
		outbuf_decimal(ob, frac_1e4(c->idle_ns, s->dt_ns), 4);
		outbuf_putc(ob, '\t');
		outbuf_decimal(ob, frac_1e4(c->iowait_ns, s->dt_ns), 4);
		outbuf_putc(ob, '\t');
		if (c->freq_khz)
			outbuf_u64(ob, c->freq_khz);
		outbuf_putc(ob, '\t');
		outbuf_putc(ob, c->invalid ? '0' : '1');
		outbuf_putc(ob, '\t');
		outbuf_u64(ob, s->seq);
		outbuf_putc(ob, '\t');
		if (c->freq0_khz)
			outbuf_u64(ob, c->freq0_khz);
		outbuf_putc(ob, '\t');
		outbuf_decimal(ob, t0_us, 6);
		outbuf_putc(ob, '\n');
	}
	o->nrecords += s->ncpus;
}

static void emit_line(void *ctx, const char *line)
{
	struct outbuf *ob = ctx;

	outbuf_puts(ob, line);
	outbuf_putc(ob, '\n');
}

static void tsv_end(struct output *o, const struct summary *sum)
{
	outbuf_printf(&o->ob, "# end: %s\n", sum->end);
	summary_print(sum, "# ", emit_line, &o->ob);
}

const struct output_ops output_tsv = {
	.name = "tsv",
	.row_max = 192,
	.begin = tsv_begin,
	.sample = tsv_sample,
	.end = tsv_end,
};
