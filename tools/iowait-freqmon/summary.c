// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "summary.h"
#include "timeutil.h"

static const char *const reason_names[ACCT_NREASONS] = {
	"absent", "fields", "first", "backwards", "excess", "clock",
};

const char *summary_reason_name(unsigned int bit)
{
	return bit < ACCT_NREASONS ? reason_names[bit] : "?";
}

int summary_init(struct summary *s, const unsigned int *cpus,
		 unsigned int ncpus)
{
	memset(s, 0, sizeof(*s));
	s->cpu = calloc(ncpus ? ncpus : 1, sizeof(*s->cpu));
	if (!s->cpu)
		return -ENOMEM;
	s->ncpus = ncpus;
	for (unsigned int i = 0; i < ncpus; i++)
		s->cpu[i].cpu = cpus[i];
	s->command_status = -1;
	return 0;
}

void summary_free(struct summary *s)
{
	free(s->cpu);
	free(s->tis);
	s->cpu = NULL;
	s->tis = NULL;
	s->ntis = 0;
}

void summary_reset(struct summary *s)
{
	for (unsigned int i = 0; i < s->ncpus; i++) {
		unsigned int cpu = s->cpu[i].cpu;

		memset(&s->cpu[i], 0, sizeof(s->cpu[i]));
		s->cpu[i].cpu = cpu;
	}
	s->nsamples = 0;
}

int summary_add_tis(struct summary *s, unsigned int policy_cpu,
		    unsigned int sidx, const struct tis_table *t0,
		    const struct tis_table *t1)
{
	struct summary_tis *tis, t = { .policy_cpu = policy_cpu,
				       .sidx = sidx };

	if (sidx >= s->ncpus || !tis_delta(t0, t1, &t.delta))
		return 0;
	tis = realloc(s->tis, (s->ntis + 1) * sizeof(*tis));
	if (!tis)
		return -ENOMEM;
	tis[s->ntis++] = t;
	s->tis = tis;
	return 0;
}

void summary_all(const struct summary *s, struct summary_cpu *all)
{
	memset(all, 0, sizeof(*all));
	for (unsigned int i = 0; i < s->ncpus; i++) {
		const struct summary_cpu *c = &s->cpu[i];

		all->busy_ns += c->busy_ns;
		all->idle_ns += c->idle_ns;
		all->iowait_ns += c->iowait_ns;
		all->nvalid += c->nvalid;
		all->ninvalid += c->ninvalid;
		for (unsigned int b = 0; b < ACCT_NREASONS; b++)
			all->why[b] += c->why[b];
		all->busy_khz_ns += c->busy_khz_ns;
		all->busy_known_ns += c->busy_known_ns;
		all->nofreq_ns += c->nofreq_ns;
		all->nsplit += c->nsplit;
	}
}

uint64_t summary_freq_time_ns(const struct summary_cpu *c)
{
	uint64_t t = c->other_ns;

	for (unsigned int b = 0; b < c->nbins; b++)
		t += c->bins[b].time_ns;
	return t;
}

uint64_t summary_tis_ticks(const struct summary_tis *t)
{
	uint64_t n = 0;

	for (unsigned int f = 0; f < t->delta.n; f++)
		n += t->delta.ticks[f];
	return n;
}

uint64_t summary_bin_ns(const struct summary_cpu *c, uint32_t khz)
{
	for (unsigned int b = 0; b < c->nbins; b++)
		if (c->bins[b].khz == khz)
			return c->bins[b].time_ns;
	return 0;
}

static void add_freq(struct summary_cpu *c, uint32_t khz, uint64_t dt,
		     uint64_t busy)
{
	unsigned int i;

	for (i = 0; i < c->nbins; i++)
		if (c->bins[i].khz == khz)
			break;
	if (i == c->nbins) {
		if (c->nbins == SUMMARY_BINS) {
			c->other_ns += dt;
			c->other_busy_ns += busy;
			return;
		}
		/* keep the bins sorted by frequency */
		while (i > 0 && c->bins[i - 1].khz > khz) {
			c->bins[i] = c->bins[i - 1];
			i--;
		}
		c->bins[i] = (struct freq_bin){ .khz = khz };
		c->nbins++;
	}
	c->bins[i].time_ns += dt;
	c->bins[i].busy_ns += busy;
}

/*
 * Credit the interval to the frequency in force during it. The frequency
 * was read at both ends; when the two differ it changed somewhere inside,
 * and half the time (and half the busy time) goes to each: the unbiased
 * split when the change is equally likely anywhere in the interval. (The
 * reading at the end alone credits a governor's ramp-up to the burst that
 * caused it, and overstates the busy-weighted frequency.)
 */
static void add_busy_freq(struct summary_cpu *c, const struct sample_cpu *e,
			  uint64_t dt)
{
	uint32_t f0 = e->freq0_khz, f1 = e->freq_khz;

	if (!f0 || f0 == f1) {
		add_freq(c, f1, dt, e->busy_ns);
		c->busy_khz_ns += (double)e->busy_ns * f1;
	} else {
		uint64_t dt0 = dt / 2, b0 = e->busy_ns / 2;

		add_freq(c, f0, dt0, b0);
		add_freq(c, f1, dt - dt0, e->busy_ns - b0);
		c->busy_khz_ns += (double)b0 * f0 +
				  (double)(e->busy_ns - b0) * f1;
		c->nsplit++;
	}
	c->busy_known_ns += e->busy_ns;
}

void summary_add(struct summary *s, const struct sample *smp)
{
	s->nsamples++;
	for (unsigned int i = 0; i < smp->ncpus && i < s->ncpus; i++) {
		const struct sample_cpu *e = &smp->cpu[i];
		struct summary_cpu *c = &s->cpu[i];

		if (e->invalid) {
			c->ninvalid++;
			for (unsigned int b = 0; b < ACCT_NREASONS; b++)
				c->why[b] += (e->invalid >> b) & 1;
			continue;
		}
		c->nvalid++;
		c->busy_ns += e->busy_ns;
		c->idle_ns += e->idle_ns;
		c->iowait_ns += e->iowait_ns;
		if (!e->freq_khz) {
			c->nofreq_ns += smp->dt_ns;
			continue;
		}
		add_busy_freq(c, e, smp->dt_ns);
	}
}

void summary_add_stat(struct summary *s, const struct stat_snapshot *s0,
		      const struct stat_snapshot *s1)
{
	for (unsigned int i = 0; i < s->ncpus; i++) {
		struct summary_cpu *c = &s->cpu[i];

		if (c->cpu >= s0->ncpus || c->cpu >= s1->ncpus)
			continue;
		c->stat0 = s0->cpu[c->cpu];
		c->stat1 = s1->cpu[c->cpu];
		c->have_stat = stat_delta_ok(&c->stat0, &c->stat1);
	}
}

void summary_end(struct summary *s, uint64_t start_ns, uint64_t start_cpu_ns)
{
	struct timespec now;

	s->proc_cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID) - start_cpu_ns;
	s->proc_wall_ns = mono_ns() - start_ns;
	clock_gettime(CLOCK_REALTIME, &now);
	time_iso8601(&now, s->end, sizeof(s->end));
}

double summary_thread_share(const struct summary *s)
{
	return s->wall_ns ? (double)s->thread_cpu_ns / (double)s->wall_ns : 0;
}

double summary_process_share(const struct summary *s)
{
	return s->proc_wall_ns ? (double)s->proc_cpu_ns /
				 (double)s->proc_wall_ns : 0;
}

double summary_mean_busy_khz(const struct summary_cpu *c)
{
	return c->busy_known_ns ? c->busy_khz_ns / (double)c->busy_known_ns
				: 0;
}

struct printer {
	const char *prefix;
	summary_emit_fn emit;
	void *ctx;
	char line[1024];
	size_t len;
};

static void put(struct printer *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct printer *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->len >= sizeof(p->line) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(p->line + p->len, sizeof(p->line) - p->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		p->len += (size_t)n;
	if (p->len >= sizeof(p->line))
		p->len = sizeof(p->line) - 1;
}

static void begin(struct printer *p)
{
	p->len = 0;
	put(p, "%s", p->prefix);
}

static void end(struct printer *p)
{
	p->emit(p->ctx, p->line);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static void print_stat(struct printer *p, const struct summary *s)
{
	bool any = false;

	for (unsigned int i = 0; i < s->ncpus; i++)
		any |= s->cpu[i].have_stat;
	if (!any)
		return;
	begin(p);
	put(p, "/proc/stat cross-check, busy/idle/iowait %% over the run "
	       "(stat, %ld Hz | %s):", s->user_hz,
	    s->stat_idle ? "sampler, from /proc/stat too" : "timer_list, ns");
	end(p);
	for (unsigned int i = 0; i < s->ncpus; i++) {
		const struct summary_cpu *c = &s->cpu[i];
		uint64_t b, id, io, tot, ttot;

		if (!c->have_stat)
			continue;
		b = c->stat1.busy - c->stat0.busy;
		id = c->stat1.idle - c->stat0.idle;
		io = c->stat1.iowait - c->stat0.iowait;
		tot = b + id + io;
		ttot = c->busy_ns + c->idle_ns + c->iowait_ns;
		begin(p);
		put(p, "  cpu%u: stat %.1f/%.1f/%.1f | %s %.1f/%.1f/%.1f",
		    c->cpu, pct(b, tot), pct(id, tot), pct(io, tot),
		    s->stat_idle ? "sampler" : "timer_list",
		    pct(c->busy_ns, ttot), pct(c->idle_ns, ttot),
		    pct(c->iowait_ns, ttot));
		end(p);
	}
}

static void print_freqs(struct printer *p, const struct summary *s)
{
	for (unsigned int i = 0; i < s->ncpus; i++) {
		const struct summary_cpu *c = &s->cpu[i];
		uint64_t tot = summary_freq_time_ns(c);

		if (!c->nbins)
			continue;
		begin(p);
		put(p, "  cpu%u:", c->cpu);
		for (unsigned int b = 0; b < c->nbins; b++)
			put(p, " %u %.1f%% %.3f/%.3f", c->bins[b].khz,
			    pct(c->bins[b].time_ns, tot),
			    secs(c->bins[b].time_ns),
			    secs(c->bins[b].busy_ns));
		if (c->other_ns)
			put(p, " other %.1f%% %.3f/%.3f", pct(c->other_ns, tot),
			    secs(c->other_ns), secs(c->other_busy_ns));
		if (c->nofreq_ns)
			put(p, " unknown %.3f", secs(c->nofreq_ns));
		end(p);
	}
}

static void print_tis(struct printer *p, const struct summary *s)
{
	if (!s->ntis)
		return;
	begin(p);
	put(p, "cpufreq time_in_state cross-check, %% of the time at each "
	       "frequency (stats, %ld Hz | sampler):", s->user_hz);
	end(p);
	for (unsigned int i = 0; i < s->ntis; i++) {
		const struct summary_tis *t = &s->tis[i];
		const struct summary_cpu *c = &s->cpu[t->sidx];
		uint64_t ttot = summary_tis_ticks(t);
		uint64_t stot = summary_freq_time_ns(c);

		begin(p);
		put(p, "  policy of cpu%u (sampled cpu%u):", t->policy_cpu,
		    c->cpu);
		for (unsigned int f = 0; f < t->delta.n; f++) {
			uint64_t sns = summary_bin_ns(c, t->delta.khz[f]);

			if (!t->delta.ticks[f] && !sns)
				continue;
			put(p, " %u %.1f/%.1f", t->delta.khz[f],
			    pct(t->delta.ticks[f], ttot), pct(sns, stot));
		}
		end(p);
	}
}

static void print_invalid(struct printer *p, const struct summary *s)
{
	for (unsigned int i = 0; i < s->ncpus; i++) {
		const struct summary_cpu *c = &s->cpu[i];

		if (!c->ninvalid)
			continue;
		begin(p);
		put(p, "  cpu%u invalid samples:", c->cpu);
		for (unsigned int b = 0; b < ACCT_NREASONS; b++)
			if (c->why[b])
				put(p, " %s %llu", reason_names[b],
				    (unsigned long long)c->why[b]);
		end(p);
	}
}

/* One row of the table: Busy% and the MHz as turbostat words them. */
static void print_row(struct printer *p, const char *name,
		      const struct summary_cpu *c)
{
	uint64_t tot = c->busy_ns + c->idle_ns + c->iowait_ns;
	char khz[24] = "-", bzy[16] = "-", avg[16] = "-";

	if (c->busy_known_ns) {
		double mean = summary_mean_busy_khz(c);

		snprintf(khz, sizeof(khz), "%.0f", mean);
		snprintf(bzy, sizeof(bzy), "%.0f", mean / 1000);
		snprintf(avg, sizeof(avg), "%.0f",
			 mean / 1000 * pct(c->busy_ns, tot) / 100);
	}
	begin(p);
	put(p, "%-5s %10.6f %10.6f %10.6f %7.2f %7.2f %7.2f %7s %7s %13s "
	       "%7llu %7llu",
	    name, secs(c->busy_ns), secs(c->idle_ns), secs(c->iowait_ns),
	    pct(c->busy_ns, tot), pct(c->idle_ns, tot),
	    pct(c->iowait_ns, tot), bzy, avg, khz,
	    (unsigned long long)c->nvalid, (unsigned long long)c->ninvalid);
	end(p);
}

void summary_print(const struct summary *s, const char *prefix,
		   summary_emit_fn emit, void *ctx)
{
	struct printer p = { .prefix = prefix, .emit = emit, .ctx = ctx };
	struct summary_cpu all;
	bool freqs = false;
	char hz[32], ns[32];

	begin(&p);
	put(&p, "summary: %llu samples over %.6f s, rate %s Hz (interval %s ns), "
		"tick %llu us",
	    (unsigned long long)s->nsamples, secs(s->span_ns),
	    rate_format_hz(&s->rate, hz, sizeof(hz)),
	    rate_format_interval_ns(&s->rate, ns, sizeof(ns)),
	    (unsigned long long)(s->tick_ns / 1000));
	end(&p);
	begin(&p);
	if (s->stat_idle)
		put(&p, "idle/iowait source: /proc/stat (timer_list has no "
			 "sleep times), resolution %llu us (USER_HZ %ld)",
		    (unsigned long long)(s->idle_res_ns / 1000), s->user_hz);
	else
		put(&p, "idle/iowait source: timer_list, resolution 1 ns");
	end(&p);
	begin(&p);
	put(&p, "missed deadlines: %llu (%.2f%%), dropped samples: %llu, "
		"truncated reads: %llu, read errors: %llu, "
		"max wake-up latency: %llu us",
	    (unsigned long long)s->nmissed,
	    pct(s->nmissed, s->nmissed + s->nsamples),
	    (unsigned long long)s->ndropped,
	    (unsigned long long)s->ntruncated,
	    (unsigned long long)s->nreaderr,
	    (unsigned long long)(s->max_late_ns / 1000));
	end(&p);
	begin(&p);
	put(&p, "sampler CPU: %.2f%% of one CPU (sampler thread), "
		"%.2f%% (whole process)",
	    100 * summary_thread_share(s), 100 * summary_process_share(s));
	end(&p);
	if (s->command_status >= 0) {
		begin(&p);
		put(&p, "command exit status: %d", s->command_status);
		end(&p);
	}
	if (s->have_cmd_times) {
		begin(&p);
		put(&p, "command time: %.6f s elapsed, %.6f s user, %.6f s sys",
		    secs(s->cmd_elapsed_ns), secs(s->cmd_user_ns),
		    secs(s->cmd_sys_ns));
		end(&p);
	}
	begin(&p);
	put(&p, "%-5s %10s %10s %10s %7s %7s %7s %7s %7s %13s %7s %7s", "cpu",
	    "busy_s", "idle_s", "iowait_s", "Busy%", "idle%", "iowait%",
	    "Bzy_MHz", "Avg_MHz", "mean_busy_khz", "valid", "invalid");
	end(&p);
	summary_all(s, &all);
	if (s->ncpus > 1)
		print_row(&p, "all", &all);
	for (unsigned int i = 0; i < s->ncpus; i++) {
		char name[16];

		snprintf(name, sizeof(name), "%u", s->cpu[i].cpu);
		print_row(&p, name, &s->cpu[i]);
		freqs |= s->cpu[i].nbins > 0;
	}
	if (freqs) {
		begin(&p);
		put(&p, "time in state (kHz %% of time total_s/busy_s; "
			 "an interval whose ends differ is split in two):");
		end(&p);
		print_freqs(&p, s);
	}
	print_tis(&p, s);
	print_invalid(&p, s);
	print_stat(&p, s);
}
