// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rate.h"
#include "sampler.h"
#include "timeutil.h"

int sampler_init(struct sampler *s)
{
	unsigned int cap = s->ncpus ? s->cpu[s->ncpus - 1] + 1 : 1;

	s->snap.ncpus = cap;
	s->snap.cpu = calloc(cap, sizeof(*s->snap.cpu));
	s->acct = calloc(s->ncpus ? s->ncpus : 1, sizeof(*s->acct));
	s->scratch = calloc(1, sample_size(s->ncpus));
	if (s->stat_file) {
		s->stat.ncpus = cap;
		s->stat.cpu = calloc(cap, sizeof(*s->stat.cpu));
	}
	if (!s->snap.cpu || !s->acct || !s->scratch ||
	    (s->stat_file && !s->stat.cpu) ||
	    (s->stat_file && s->user_hz <= 0)) {
		sampler_free(s);
		return -ENOMEM;
	}
	acct_tick_init(&s->tick);
	atomic_init(&s->stop, false);
	s->end = SAMPLER_RUNNING;
	return 0;
}

void sampler_free(struct sampler *s)
{
	free(s->snap.cpu);
	free(s->acct);
	free(s->scratch);
	free(s->stat.cpu);
	s->stat.cpu = NULL;
	s->snap.cpu = NULL;
	s->acct = NULL;
	s->scratch = NULL;
}

static int read_snapshot(struct sampler *s)
{
	int fd = srcfile_get(s->tl_file, s->seq);
	int ret;

	if (fd < 0)
		return fd;
	ret = tl_reader_read(s->reader, fd, &s->snap);
	srcfile_put(s->tl_file, fd);
	if (!ret && s->stat_file)
		ret = stat_read(s->stat_file, s->seq, &s->stat);
	if (!ret) {
		if (s->snap.flags & TLS_TRUNCATED)
			s->sum->ntruncated++;
		if (s->freq)
			freq_source_read(s->freq, s->seq);
		acct_tick_update(&s->tick, &s->snap);
	}
	s->seq++;	/* a replay moves on past a broken snapshot */
	return ret;
}

static const struct tl_cpu *snap_cpu(const struct sampler *s, unsigned int cpu)
{
	return cpu < s->snap.ncpus ? &s->snap.cpu[cpu] : NULL;
}

/* One CPU's interval from timer_list, or from /proc/stat's ticks. */
static void step_cpu(struct sampler *s, unsigned int i, uint64_t now,
		     uint64_t dt, struct acct_interval *iv)
{
	unsigned int cpu = s->cpu[i];
	const struct stat_cpu *sc;
	uint64_t res;

	if (!s->stat_file) {
		acct_step(&s->acct[i], snap_cpu(s, cpu), now, dt,
			  s->tick.tick_ns, iv);
		return;
	}
	res = NSEC_PER_SEC / (uint64_t)s->user_hz;
	sc = cpu < s->stat.ncpus ? &s->stat.cpu[cpu] : NULL;
	/* a tick count this large is no count of ns since boot */
	if (sc && (sc->idle > UINT64_MAX / 4 / res ||
		   sc->iowait > UINT64_MAX / 4 / res)) {
		acct_step_coarse(&s->acct[i], true, UINT64_MAX / 4,
				 UINT64_MAX / 4, now, dt, res, iv);
		return;
	}
	acct_step_coarse(&s->acct[i], sc && sc->seen,
			 sc ? sc->idle * res : 0, sc ? sc->iowait * res : 0,
			 now, dt, res, iv);
}

int sampler_prime(struct sampler *s)
{
	struct acct_interval iv;
	int ret = read_snapshot(s);

	if (ret)
		return ret;
	for (unsigned int i = 0; i < s->ncpus; i++)
		step_cpu(s, i, s->snap.now_ns, 0, &iv);
	s->first_now = s->prev_now = s->snap.now_ns;
	s->have_prev = true;
	return 0;
}

int sampler_take(struct sampler *s)
{
	uint64_t now, dt;
	struct sample *smp;
	int ret = read_snapshot(s);

	if (ret) {
		if (ret != -ENODATA)
			s->sum->nreaderr++;
		return ret;
	}
	now = s->snap.now_ns;
	dt = now > s->prev_now ? now - s->prev_now : 0;

	smp = s->ring ? ring_reserve(s->ring) : NULL;
	if (!smp)
		smp = s->scratch;
	smp->seq = ++s->produced;
	smp->t_ns = now > s->first_now ? now - s->first_now : 0;
	smp->dt_ns = dt;
	smp->ncpus = s->ncpus;
	for (unsigned int i = 0; i < s->ncpus; i++) {
		struct sample_cpu *e = &smp->cpu[i];
		struct acct_interval iv;
		unsigned int cpu = s->cpu[i];

		step_cpu(s, i, now, dt, &iv);
		e->busy_ns = iv.busy_ns;
		e->idle_ns = iv.idle_ns;
		e->iowait_ns = iv.iowait_ns;
		e->invalid = (uint8_t)iv.invalid;
		e->live = iv.live;
		e->cpu = (uint16_t)cpu;
		e->freq_khz = s->freq ? freq_source_khz(s->freq, cpu) : 0;
		e->freq0_khz = s->freq ? freq_source_khz_start(s->freq, cpu)
				       : 0;
	}
	s->prev_now = now;
	summary_add(s->sum, smp);
	s->sum->span_ns = smp->t_ns;
	s->sum->tick_ns = s->tick.tick_ns;
	if (smp != s->scratch)
		ring_commit(s->ring);
	else if (s->ring)
		s->sum->ndropped++;
	return 0;
}

/* Returns false when the run is over (s->end says why). */
static bool sample_or_end(struct sampler *s)
{
	int ret = sampler_take(s);

	if (!ret) {
		s->read_errors = 0;
		return true;
	}
	if (ret == -ENODATA) {
		s->end = SAMPLER_REPLAY_END;
		return false;
	}
	if (++s->read_errors < SAMPLER_MAX_READ_ERRORS)
		return true;
	s->err = ret;
	s->end = SAMPLER_ERROR;
	return false;
}

static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	uint64_t start = mono_ns(), cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	const struct ifm_rate rate = { s->interval_ns, s->rate_hz };
	uint64_t k = 1, next = start + rate_deadline(&rate, k);
	uint64_t end = s->duration_ns ? start + s->duration_ns : UINT64_MAX;
	uint64_t value = 1;
	sigset_t usr1;

	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);

	while (!atomic_load(&s->stop)) {
		struct timespec ts = ns_to_ts(next);
		uint64_t now;
		int r;

		/* returns the error number, it does not set errno */
		r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (r == EINTR)
			continue;
		if (r) {
			s->err = -r;
			s->end = SAMPLER_ERROR;
			break;
		}
		now = mono_ns();
		if (now > next && now - next > s->sum->max_late_ns)
			s->sum->max_late_ns = now - next;
		if (!sample_or_end(s))
			break;
		next = start + rate_deadline(&rate, ++k);
		now = mono_ns();
		if (now >= next) {
			/* deadline k and maybe more are in the past: skip */
			uint64_t k2 = rate_next_index(&rate, now - start);

			s->sum->nmissed += k2 - k;
			k = k2;
			next = start + rate_deadline(&rate, k);
		}
		if (next > end) {
			s->end = SAMPLER_DURATION;
			break;
		}
	}
	if (s->end == SAMPLER_RUNNING) {
		s->end = SAMPLER_STOPPED;
		if (s->final_sample)
			sample_or_end(s);
	}
	s->sum->wall_ns = mono_ns() - start;
	s->sum->thread_cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	if (s->notify_fd >= 0 && write(s->notify_fd, &value, sizeof(value)) < 0)
		s->err = s->err ? s->err : -errno;
	return NULL;
}

int sampler_start(struct sampler *s, int pin_cpu, int fifo_prio)
{
	pthread_attr_t attr;
	int ret;

	ret = pthread_attr_init(&attr);
	if (ret)
		return -ret;
	if (pin_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET((size_t)pin_cpu, &set);
		ret = pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	if (!ret && fifo_prio > 0) {
		struct sched_param sp = { .sched_priority = fifo_prio };

		ret = pthread_attr_setinheritsched(&attr,
						   PTHREAD_EXPLICIT_SCHED);
		if (!ret)
			ret = pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		if (!ret)
			ret = pthread_attr_setschedparam(&attr, &sp);
	}
	if (!ret)
		ret = pthread_create(&s->thread, &attr, sampler_main, s);
	pthread_attr_destroy(&attr);
	s->started = ret == 0;
	return -ret;
}

void sampler_stop(struct sampler *s)
{
	if (!s->started)
		return;
	atomic_store(&s->stop, true);
	/*
	 * Interrupt clock_nanosleep(): SIGUSR1 has a no-op handler. Repeat in
	 * case it landed just before the thread went to sleep.
	 */
	for (;;) {
		struct timespec ts;

		pthread_kill(s->thread, SIGUSR1);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts = ns_to_ts(ts_to_ns(&ts) + 20 * NSEC_PER_MSEC);
		if (pthread_timedjoin_np(s->thread, NULL, &ts) != ETIMEDOUT)
			break;
	}
	s->started = false;
}
