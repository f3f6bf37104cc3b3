// SPDX-License-Identifier: GPL-2.0
/* The "meta" and "summary" JSON objects of the json and trace formats. */
#include <stdbool.h>
#include <stdio.h>

#include "output.h"

static void key(struct outbuf *ob, const char *k, int first)
{
	if (!first)
		outbuf_putc(ob, ',');
	outbuf_json_str(ob, k);
	outbuf_putc(ob, ':');
}

static void key_str(struct outbuf *ob, const char *k, const char *v)
{
	key(ob, k, 0);
	outbuf_json_str(ob, v);
}

static void key_u64(struct outbuf *ob, const char *k, uint64_t v)
{
	key(ob, k, 0);
	outbuf_u64(ob, v);
}

/* nanoseconds as seconds with 9 decimals */
static void key_secs(struct outbuf *ob, const char *k, uint64_t ns)
{
	key(ob, k, 0);
	outbuf_decimal(ob, ns, 9);
}

static void key_ratio(struct outbuf *ob, const char *k, uint64_t part,
		      uint64_t whole)
{
	key(ob, k, 0);
	outbuf_decimal(ob, frac_1e4(part, whole), 4);
}

static void json_policy(struct outbuf *ob, const struct freq_source *fs,
			const struct freq_policy *p)
{
	outbuf_putc(ob, '{');
	key(ob, "cpus", 1);
	outbuf_putc(ob, '"');
	outbuf_cpulist(ob, p->related, fs->ncpus);	/* digits , - only */
	outbuf_putc(ob, '"');
	key_str(ob, "driver", p->driver);
	key_str(ob, "governor", p->governor);
	key_u64(ob, "min_khz", p->min_khz);
	key_u64(ob, "max_khz", p->max_khz);
	key(ob, "available_khz", 0);
	outbuf_putc(ob, '[');
	for (unsigned int i = 0; i < p->navail; i++) {
		if (i)
			outbuf_putc(ob, ',');
		outbuf_u64(ob, p->avail_khz[i]);
	}
	outbuf_putc(ob, ']');
	key(ob, "tunables_dir", 0);
	if (p->tun && p->tun->dir[0])
		outbuf_json_str(ob, p->tun->dir);
	else
		outbuf_puts(ob, "null");
	key(ob, "tunables", 0);
	outbuf_putc(ob, '{');
	for (unsigned int t = 0; p->tun && t < p->tun->n; t++) {
		key(ob, p->tun->t[t].name, t == 0);
		outbuf_json_str(ob, p->tun->t[t].value);
	}
	outbuf_puts(ob, "}}");
}

void json_meta(struct outbuf *ob, const struct run_meta *m)
{
	char ver[32], num[32];

	outbuf_putc(ob, '{');
	key(ob, "tool", 1);
	outbuf_json_str(ob, "iowait-freqmon");
	key_str(ob, "version", m->version);
	key_str(ob, "command", m->command);
	key(ob, "argv", 0);
	outbuf_putc(ob, '[');
	for (int i = 0; i < m->argc; i++) {
		if (i)
			outbuf_putc(ob, ',');
		outbuf_json_str(ob, m->argv[i]);
	}
	outbuf_putc(ob, ']');
	key_str(ob, "kernel", m->kernel);
	snprintf(ver, sizeof(ver), "v%u.%u", m->tl_major, m->tl_minor);
	key_str(ob, "timer_list", ver);
	key_str(ob, "timer_list_mode", meta_mode(m));
	key_str(ob, "idle_source", meta_source(m));
	key_u64(ob, "idle_resolution_ns", meta_resolution_ns(m));
	key(ob, "cpus", 0);
	outbuf_putc(ob, '"');
	outbuf_cpulist(ob, m->cpuset, m->ncap);
	outbuf_putc(ob, '"');
	key(ob, "cpu_list", 0);
	outbuf_putc(ob, '[');
	for (unsigned int i = 0; i < m->ncpus; i++) {
		if (i)
			outbuf_putc(ob, ',');
		outbuf_u64(ob, m->cpu[i]);
	}
	outbuf_putc(ob, ']');
	key_u64(ob, "interval_us", m->interval_ns / 1000);
	key(ob, "rate_hz", 0);
	outbuf_puts(ob, rate_format_hz(&m->rate, num, sizeof(num)));
	key(ob, "interval_ns", 0);
	outbuf_puts(ob, rate_format_interval_ns(&m->rate, num, sizeof(num)));
	key_str(ob, "clock", meta_clock(m));
	key_str(ob, "start", m->start);
	key_u64(ob, "start_monotonic_ns", m->start_mono_ns);
	key(ob, "root", 0);
	if (m->root)
		outbuf_json_str(ob, m->root);
	else
		outbuf_puts(ob, "null");
	key(ob, "replay", 0);
	outbuf_puts(ob, m->replay ? "true" : "false");
	key(ob, "cpufreq", 0);
	outbuf_putc(ob, '[');
	for (unsigned int i = 0; m->freq && i < m->freq->npol; i++) {
		if (i)
			outbuf_putc(ob, ',');
		json_policy(ob, m->freq, &m->freq->pol[i]);
	}
	outbuf_putc(ob, ']');
	key(ob, "cpufreq_source", 0);
	if (m->freq && m->freq->npol)
		outbuf_json_str(ob, m->freq->backend->name);
	else
		outbuf_puts(ob, "null");
	outbuf_putc(ob, '}');
}

/* @all: the all-CPU row ("cpu": "all", no frequency bins) */
static void json_summary_cpu(struct outbuf *ob, const struct summary_cpu *c,
			     bool all)
{
	uint64_t tot = c->busy_ns + c->idle_ns + c->iowait_ns;
	uint64_t ftot = summary_freq_time_ns(c);

	outbuf_putc(ob, '{');
	key(ob, "cpu", 1);
	if (all)
		outbuf_json_str(ob, "all");
	else
		outbuf_u64(ob, c->cpu);
	key_secs(ob, "busy_s", c->busy_ns);
	key_secs(ob, "idle_s", c->idle_ns);
	key_secs(ob, "iowait_s", c->iowait_ns);
	key_ratio(ob, "busy", c->busy_ns, tot);
	key_ratio(ob, "idle", c->idle_ns, tot);
	key_ratio(ob, "iowait", c->iowait_ns, tot);
	key_u64(ob, "valid_samples", c->nvalid);
	key_u64(ob, "invalid_samples", c->ninvalid);
	key(ob, "invalid_reasons", 0);
	outbuf_putc(ob, '{');
	for (unsigned int b = 0; b < ACCT_NREASONS; b++) {
		key(ob, summary_reason_name(b), b == 0);
		outbuf_u64(ob, c->why[b]);
	}
	outbuf_putc(ob, '}');
	key(ob, "mean_busy_freq_khz", 0);
	if (c->busy_known_ns)
		outbuf_u64(ob, (uint64_t)(summary_mean_busy_khz(c) + 0.5));
	else
		outbuf_puts(ob, "null");
	/* turbostat's Bzy_MHz and Avg_MHz */
	key(ob, "bzy_mhz", 0);
	if (c->busy_known_ns)
		outbuf_u64(ob, (uint64_t)(summary_mean_busy_khz(c) / 1000 +
					  0.5));
	else
		outbuf_puts(ob, "null");
	key(ob, "avg_mhz", 0);
	if (c->busy_known_ns && tot)
		outbuf_u64(ob, (uint64_t)(summary_mean_busy_khz(c) / 1000 *
					  (double)c->busy_ns / (double)tot +
					  0.5));
	else
		outbuf_puts(ob, "null");
	key_u64(ob, "split_intervals", c->nsplit);
	if (all) {
		outbuf_putc(ob, '}');
		return;
	}
	key(ob, "freq_residency", 0);
	outbuf_putc(ob, '[');
	for (unsigned int b = 0; b < c->nbins; b++) {
		outbuf_puts(ob, b ? ",{" : "{");
		key(ob, "khz", 1);
		outbuf_u64(ob, c->bins[b].khz);
		key_secs(ob, "time_s", c->bins[b].time_ns);
		key_secs(ob, "busy_s", c->bins[b].busy_ns);
		key_ratio(ob, "share", c->bins[b].time_ns, ftot);
		outbuf_putc(ob, '}');
	}
	outbuf_putc(ob, ']');
	key_secs(ob, "freq_other_s", c->other_ns);
	key_secs(ob, "freq_unknown_s", c->nofreq_ns);
	key(ob, "proc_stat", 0);
	if (c->have_stat) {
		uint64_t b = c->stat1.busy - c->stat0.busy;
		uint64_t i = c->stat1.idle - c->stat0.idle;
		uint64_t w = c->stat1.iowait - c->stat0.iowait;

		outbuf_putc(ob, '{');
		key(ob, "busy_ticks", 1);
		outbuf_u64(ob, b);
		key_u64(ob, "idle_ticks", i);
		key_u64(ob, "iowait_ticks", w);
		key_ratio(ob, "busy", b, b + i + w);
		key_ratio(ob, "idle", i, b + i + w);
		key_ratio(ob, "iowait", w, b + i + w);
		outbuf_putc(ob, '}');
	} else {
		outbuf_puts(ob, "null");
	}
	outbuf_putc(ob, '}');
}

/* "time_in_state_check": [{policy_cpu, cpu, states: [...]}] */
static void json_tis(struct outbuf *ob, const struct summary *s)
{
	key(ob, "time_in_state_check", 0);
	outbuf_putc(ob, '[');
	for (unsigned int i = 0; i < s->ntis; i++) {
		const struct summary_tis *t = &s->tis[i];
		const struct summary_cpu *c = &s->cpu[t->sidx];
		uint64_t ttot = summary_tis_ticks(t);
		uint64_t stot = summary_freq_time_ns(c);

		outbuf_puts(ob, i ? ",{" : "{");
		key(ob, "policy_cpu", 1);
		outbuf_u64(ob, t->policy_cpu);
		key_u64(ob, "cpu", c->cpu);
		key(ob, "states", 0);
		outbuf_putc(ob, '[');
		for (unsigned int f = 0; f < t->delta.n; f++) {
			outbuf_puts(ob, f ? ",{" : "{");
			key(ob, "khz", 1);
			outbuf_u64(ob, t->delta.khz[f]);
			key_u64(ob, "stats_ticks", t->delta.ticks[f]);
			key_ratio(ob, "stats_share", t->delta.ticks[f], ttot);
			key_ratio(ob, "sampler_share",
				  summary_bin_ns(c, t->delta.khz[f]), stot);
			outbuf_putc(ob, '}');
		}
		outbuf_puts(ob, "]}");
	}
	outbuf_putc(ob, ']');
}

void json_summary(struct outbuf *ob, const struct summary *s)
{
	struct summary_cpu all;
	char num[32];

	outbuf_putc(ob, '{');
	key(ob, "samples", 1);
	outbuf_u64(ob, s->nsamples);
	key_secs(ob, "duration_s", s->span_ns);
	key_u64(ob, "interval_us", s->interval_ns / 1000);
	key(ob, "rate_hz", 0);
	outbuf_puts(ob, rate_format_hz(&s->rate, num, sizeof(num)));
	key_u64(ob, "tick_us", s->tick_ns / 1000);
	key_str(ob, "idle_source", s->stat_idle ? "/proc/stat" : "timer_list");
	key_u64(ob, "idle_resolution_ns", s->idle_res_ns);
	key_u64(ob, "missed_deadlines", s->nmissed);
	key_u64(ob, "dropped_samples", s->ndropped);
	key_u64(ob, "truncated_reads", s->ntruncated);
	key_u64(ob, "read_errors", s->nreaderr);
	key_u64(ob, "max_wakeup_latency_us", s->max_late_ns / 1000);
	key_ratio(ob, "sampler_cpu_share", s->thread_cpu_ns, s->wall_ns);
	key_ratio(ob, "process_cpu_share", s->proc_cpu_ns, s->proc_wall_ns);
	key_u64(ob, "user_hz", (uint64_t)(s->user_hz > 0 ? s->user_hz : 0));
	key(ob, "command_status", 0);
	if (s->command_status >= 0)
		outbuf_u64(ob, (uint64_t)s->command_status);
	else
		outbuf_puts(ob, "null");
	key(ob, "command_time", 0);
	if (s->have_cmd_times) {
		outbuf_putc(ob, '{');
		key(ob, "elapsed_s", 1);
		outbuf_decimal(ob, s->cmd_elapsed_ns, 9);
		key_secs(ob, "user_s", s->cmd_user_ns);
		key_secs(ob, "sys_s", s->cmd_sys_ns);
		outbuf_putc(ob, '}');
	} else {
		outbuf_puts(ob, "null");
	}
	key_str(ob, "end", s->end);
	key(ob, "all", 0);
	summary_all(s, &all);
	json_summary_cpu(ob, &all, true);
	key(ob, "cpus", 0);
	outbuf_putc(ob, '[');
	for (unsigned int i = 0; i < s->ncpus; i++) {
		if (i)
			outbuf_puts(ob, ",\n");
		json_summary_cpu(ob, &s->cpu[i], false);
	}
	outbuf_putc(ob, ']');
	json_tis(ob, s);
	outbuf_putc(ob, '}');
}
