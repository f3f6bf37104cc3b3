// SPDX-License-Identifier: GPL-2.0
/*
 * iowait-freqmon - per-CPU busy/idle/iowait and CPU frequency sampler
 *
 * main.c: the run, once options.c has parsed the command line: setting up
 * the sources (see discover.c) and sinks, a sampler thread, and this
 * thread waiting for signals (signalfd), for the sampler's end (eventfd)
 * and for the command (command.c) while it writes the samples out
 * (writer.c); then the output's end and the summary. The modules return
 * -errno; the messages are here and in options.c.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "cpufreq_stats.h"
#include "discover.h"
#include "log.h"
#include "meta.h"
#include "options.h"
#include "output.h"
#include "pin.h"
#include "sampler.h"
#include "stat.h"
#include "timeutil.h"
#include "writer.h"

#define OUTBUF_SIZE (256u << 10)

/* One policy's stats/time_in_state, read at the start and the end. */
struct tis_src {
	struct srcfile file;
	bool open, have0;
	struct tis_table t0;
};

struct run {
	struct options opt;
	uint64_t start_ns;		/* CLOCK_MONOTONIC at main() */
	uint64_t start_cpu_ns;		/* CLOCK_PROCESS_CPUTIME_ID at main() */
	struct discovery disc;
	struct run_meta meta;
	struct srcfile stat_file;
	bool have_stat_file;
	struct srcfile idle_file;	/* /proc/stat for the idle times */
	bool have_idle_file;
	struct freq_source freq;
	bool have_freq;
	struct tis_src *tis;		/* per policy: stats/time_in_state */
	struct stat_snapshot stat0, stat1;
	bool have_stat0;
	struct summary sum;
	struct ring ring;
	bool have_ring;
	struct sampler smp;
	bool have_smp;
	struct output out;
	bool have_out;
	const char *out_name;
	bool data_on_stdout;		/* the output is our stdout */
	bool summary_in_output;		/* the summary file is the output */
	struct writer wr;
	FILE *sumf;
	int sig_fd, smp_fd;
	struct command cmd;
	int status;			/* exit status of the tool itself */
};

/* ---- setup ------------------------------------------------------------ */

/* Report what discover() left in r->disc; an exit status, or -1 */
static int report_discovery(struct run *r, int ret)
{
	struct discovery *d = &r->disc;
	const char *path = d->tl_file.path;
	const char *seq0 = r->opt.replay ? ".0" : "";

	if (ret == -ENOMEM) {
		err_errno(ret, "cannot set up");
		return EXIT_RUNTIME;
	}
	switch (d->stage) {
	case DISC_OPEN:
		if (r->opt.root) {
			char *p = root_path(r->opt.root, "/proc/timer_list");

			err_errno(ret, "cannot read %s%s", p ? p : r->opt.root,
				  seq0);
			free(p);
		} else if (ret == -EACCES || ret == -EPERM) {
			err_msg("cannot read /proc/timer_list: it needs root "
				"(or CAP_DAC_READ_SEARCH); or use --root DIR");
		} else {
			err_errno(ret, "cannot read /proc/timer_list");
		}
		return EXIT_SOURCE;
	case DISC_CPUS:
		return usage_error("invalid --cpus '%s' (a CPU list like "
				   "0-3,5)", r->opt.cpus);
	case DISC_POSSIBLE:
		return usage_error("CPU %u does not exist (possible CPUs: %s)",
				   d->bad_cpu, d->possible);
	case DISC_PARSE:
		err_errno(ret, "cannot parse %s%s", path, seq0);
		return EXIT_SOURCE;
	case DISC_FIELDS:
		err_msg("%s: no CPU block has the idle accounting fields "
			"(malformed, or a kernel without CONFIG_TICK_ONESHOT)",
			path);
		return EXIT_SOURCE;
	case DISC_SELECT:
		err_msg("no CPU to sample in timer_list");
		return EXIT_SOURCE;
	case DISC_DONE:
		break;
	}
	if (d->untested)
		warn_msg("Timer List Version v%u.%u is untested (v0.8-v0.11 "
			 "are known)", d->tl_major, d->tl_minor);
	if (d->nextra)
		warn_msg("CPUs above %u are ignored", d->nbits - 1);
	for (unsigned int i = 0; i < d->noffline; i++)
		warn_msg("CPU %u is not in timer_list now (offline?); "
			 "its samples are invalid until it is", d->offline[i]);
	return -1;
}

/* The policies' time_in_state at the start (CONFIG_CPU_FREQ_STAT). */
static void setup_tis(struct run *r)
{
	unsigned int flags = r->opt.replay ? SRC_REPLAY : 0;

	if (!r->freq.npol)
		return;
	r->tis = calloc(r->freq.npol, sizeof(*r->tis));
	if (!r->tis)
		return;
	for (unsigned int i = 0; i < r->freq.npol; i++) {
		struct tis_src *t = &r->tis[i];
		char rel[128];

		snprintf(rel, sizeof(rel), TIS_PATH_FMT, r->freq.pol[i].cpu);
		if (srcfile_open(&t->file, r->opt.root, rel, flags))
			continue;
		t->open = true;
		t->have0 = !tis_read(&t->file, 0, &t->t0);
	}
}

static void setup_freq(struct run *r)
{
	unsigned int flags = r->opt.replay ? SRC_REPLAY : 0;

	if (r->opt.no_freq)
		return;
	if (freq_source_init(&r->freq, r->opt.root, flags, r->disc.wanted,
			     r->disc.ncap)) {
		warn_msg("cannot set up the frequency source: out of memory");
		return;
	}
	r->freq.retry_every = NSEC_PER_SEC / r->opt.interval_ns + 1;
	r->have_freq = true;
	r->meta.freq = &r->freq;
	setup_tis(r);
}

static void setup_stat(struct run *r)
{
	unsigned int flags = r->opt.replay ? SRC_REPLAY : 0;
	unsigned int ncap = r->disc.ncap;
	int ret;

	if (r->opt.no_stat)
		return;
	r->stat0.ncpus = r->stat1.ncpus = ncap;
	r->stat0.cpu = calloc(ncap, sizeof(*r->stat0.cpu));
	r->stat1.cpu = calloc(ncap, sizeof(*r->stat1.cpu));
	if (!r->stat0.cpu || !r->stat1.cpu)
		return;
	ret = srcfile_open(&r->stat_file, r->opt.root, "/proc/stat", flags);
	if (ret) {
		warn_msg("no /proc/stat cross-check: cannot read %s/proc/stat: "
			 "%s", r->opt.root ? r->opt.root : "", strerror(-ret));
		return;
	}
	r->have_stat_file = true;
	r->have_stat0 = !stat_read(&r->stat_file, 0, &r->stat0);
}

/* Do @a and @b refer to the same file (a terminal, a pipe, ...)? */
static bool same_file(int a, int b)
{
	struct stat sa, sb;

	if (a < 0 || b < 0 || fstat(a, &sa) || fstat(b, &sb))
		return false;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int setup_output(struct run *r)
{
	int fd, ret;

	/* refused before the output file is truncated */
	if (r->opt.pin >= 0 && pin_check(r->opt.pin)) {
		err_errno(-EINVAL, "cannot pin the sampler to CPU %d",
			  r->opt.pin);
		return EXIT_RUNTIME;
	}
	r->sumf = stderr;
	if (r->opt.summary) {
		if (!strcmp(r->opt.summary, "-")) {
			r->sumf = stdout;
		} else {
			r->sumf = fopen(r->opt.summary, "we");
			if (!r->sumf) {
				err_errno(errno, "cannot open %s",
					  r->opt.summary);
				return EXIT_RUNTIME;
			}
		}
	}
	/* --quiet without --output: no output stream at all */
	if (r->opt.quiet && !r->opt.output)
		return -1;
	/* a terminal gets a block per second, not a flood of rows */
	if (!r->opt.format_set && (!r->opt.output ||
				   !strcmp(r->opt.output, "-")) &&
	    isatty(STDOUT_FILENO))
		r->opt.format = &output_table;
	ret = output_open(&r->out, r->opt.output, r->opt.format, &r->meta,
			  OUTBUF_SIZE);
	if (ret) {
		err_errno(ret, "cannot open %s", r->opt.output);
		return EXIT_RUNTIME;
	}
	r->have_out = true;
	fd = r->out.ob.fd;
	r->out_name = fd == STDOUT_FILENO ? "standard output" : r->opt.output;
	/* TSV has it as comments, JSON and trace in their summary object */
	r->summary_in_output = same_file(fd, fileno(r->sumf));
	r->data_on_stdout = same_file(fd, STDOUT_FILENO);
	return -1;
}

static void noop_handler(int sig)
{
	(void)sig;
}

static int setup_signals(struct run *r)
{
	struct sigaction sa = { .sa_handler = noop_handler }, hup;
	sigset_t set;

	/* the sampler thread unblocks SIGUSR1 to be woken from its sleep */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);	/* EPIPE is an output error */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	/* started under nohup: SIGHUP stays ignored, also by the command */
	if (!sigaction(SIGHUP, NULL, &hup) && hup.sa_handler != SIG_IGN)
		sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);	/* threads inherit it */
	sigdelset(&set, SIGUSR1);
	r->sig_fd = signalfd(-1, &set, SFD_CLOEXEC);
	r->smp_fd = eventfd(0, EFD_CLOEXEC);
	if (r->sig_fd < 0 || r->smp_fd < 0) {
		err_errno(errno, "cannot set up signal handling");
		return EXIT_RUNTIME;
	}
	return -1;
}

/*
 * timer_list has no sleep times (v0.11): idle and iowait from /proc/stat,
 * at USER_HZ. Said once on stderr, and in the header and summary.
 */
static int setup_stat_idle(struct run *r)
{
	unsigned int flags = r->opt.replay ? SRC_REPLAY : 0;
	long hz = r->sum.user_hz;
	int ret;

	if (hz <= 0) {
		err_msg("%s has no idle sleep times, and USER_HZ is unknown",
			r->disc.tl_file.path);
		return EXIT_SOURCE;
	}
	ret = srcfile_open(&r->idle_file, r->opt.root, "/proc/stat", flags);
	if (ret) {
		err_errno(ret, "%s has no idle sleep times, and /proc/stat "
			  "cannot be read", r->disc.tl_file.path);
		return EXIT_SOURCE;
	}
	r->have_idle_file = true;
	r->sum.stat_idle = true;
	r->sum.idle_res_ns = NSEC_PER_SEC / (uint64_t)hz;
	warn_msg("Timer List Version v%u.%u has no idle_sleeptime/"
		 "iowait_sleeptime: idle and iowait come from /proc/stat, "
		 "at USER_HZ (%ld Hz: a resolution of %llu ms per CPU)",
		 r->disc.tl_major, r->disc.tl_minor, hz,
		 (unsigned long long)(NSEC_PER_SEC / (uint64_t)hz /
				      NSEC_PER_MSEC));
	return -1;
}

static int setup_sampling(struct run *r, int argc, char **argv)
{
	struct timespec now;
	unsigned long slots = r->opt.ring_slots;
	struct discovery *d = &r->disc;
	int ret, status;

	if (summary_init(&r->sum, d->cpu, d->ncpus))
		return EXIT_RUNTIME;
	r->sum.user_hz = sysconf(_SC_CLK_TCK);
	r->sum.idle_res_ns = 1;
	if (d->stat_idle) {
		status = setup_stat_idle(r);
		if (status >= 0)
			return status;
	}
	r->sum.interval_ns = r->opt.interval_ns;
	r->sum.rate = (struct ifm_rate){ r->opt.interval_ns, r->opt.rate_hz };
	if (r->have_out && !r->opt.quiet) {
		if (!slots)
			slots = 2 * NSEC_PER_SEC / r->opt.interval_ns;
		if (slots < MIN_RING_SLOTS && !r->opt.ring_slots)
			slots = MIN_RING_SLOTS;
		if (ring_init(&r->ring, slots, sample_size(d->ncpus)))
			return EXIT_RUNTIME;
		r->have_ring = true;
	}
	r->smp = (struct sampler){
		.interval_ns = r->opt.interval_ns,
		.rate_hz = r->opt.rate_hz,
		.duration_ns = r->opt.duration_ns,
		.final_sample = !r->opt.replay,
		.tl_file = &d->tl_file,
		.reader = &d->reader,
		.freq = r->have_freq ? &r->freq : NULL,
		.stat_file = r->have_idle_file ? &r->idle_file : NULL,
		.user_hz = r->sum.user_hz,
		.cpu = d->cpu,
		.ncpus = d->ncpus,
		.ring = r->have_ring ? &r->ring : NULL,
		.sum = &r->sum,
		.notify_fd = r->smp_fd,
	};
	if (sampler_init(&r->smp))
		return EXIT_RUNTIME;
	r->have_smp = true;

	clock_gettime(CLOCK_REALTIME, &now);
	time_iso8601(&now, r->meta.start, sizeof(r->meta.start));
	ret = sampler_prime(&r->smp);
	if (ret) {
		err_errno(ret, "cannot read %s%s", d->tl_file.path,
			  r->have_idle_file ? " or /proc/stat" : "");
		return EXIT_SOURCE;
	}
	r->meta.version = IFM_VERSION;
	r->meta.argc = argc;
	r->meta.argv = argv;
	r->meta.command = meta_command_line(argc, argv);
	if (!r->meta.command)
		return EXIT_RUNTIME;
	meta_kernel(r->opt.root, r->meta.kernel, sizeof(r->meta.kernel));
	r->meta.tl_major = d->tl_major;
	r->meta.tl_minor = d->tl_minor;
	r->meta.live = d->live;
	r->meta.stat_idle = d->stat_idle;
	r->meta.user_hz = r->sum.user_hz;
	r->meta.cpuset = d->wanted;
	r->meta.ncap = d->ncap;
	r->meta.cpu = d->cpu;
	r->meta.ncpus = d->ncpus;
	r->meta.interval_ns = r->opt.interval_ns;
	r->meta.rate = r->sum.rate;
	r->meta.clock_mono = r->opt.clock_mono;
	r->meta.start_mono_ns = r->smp.first_now;
	r->meta.root = r->opt.root;
	r->meta.replay = r->opt.replay;
	return -1;
}

/* ---- the run ---------------------------------------------------------- */

static void drain_fd(int fd)
{
	uint64_t v;

	if (read(fd, &v, sizeof(v)) < 0)
		return;
}

/* Returns an exit status if the sampler could not be started, else -1. */
static int start_threads(struct run *r)
{
	int ret;

	if (r->have_ring)
		r->wr = (struct writer){
			.ring = &r->ring,
			.out = &r->out,
			.ncpus = r->disc.ncpus,
		};
	ret = sampler_start(&r->smp, r->opt.pin, r->opt.priority);
	if (ret) {
		if (ret == -EPERM && r->opt.priority)
			err_errno(ret, "cannot run the sampler SCHED_FIFO at "
				  "priority %d", r->opt.priority);
		else if (r->opt.pin >= 0)
			err_errno(ret, "cannot pin the sampler to CPU %d",
				  r->opt.pin);
		else
			err_errno(ret, "cannot start the sampler thread");
		return EXIT_RUNTIME;
	}
	return -1;
}

static void start_command(struct run *r)
{
	/* our stdout carries the data: the command's goes to stderr */
	int ret = command_start(&r->cmd, r->opt.command, r->data_on_stdout);

	if (ret) {
		err_errno(ret, "cannot run '%s'", r->opt.command[0]);
		r->sum.command_status = r->cmd.status;
	}
}

/* Returns true while the command runs. */
static bool reap_command(struct run *r)
{
	int ret = command_reap(&r->cmd);

	if (ret > 0)
		return true;
	if (ret < 0) {
		err_errno(ret, "the exit status of '%s' is lost",
			  r->opt.command[0]);
		r->status = EXIT_RUNTIME;
	}
	r->sum.command_status = r->cmd.status;
	if (r->cmd.have_times) {
		r->sum.have_cmd_times = true;
		r->sum.cmd_elapsed_ns = r->cmd.elapsed_ns;
		r->sum.cmd_user_ns = r->cmd.user_ns;
		r->sum.cmd_sys_ns = r->cmd.sys_ns;
	}
	return false;
}

/*
 * The main thread's loop: signals, the sampler's end and the command, and
 * every WRITER_POLL_NS the samples in the ring to the output.
 */
static void wait_loop(struct run *r)
{
	bool sampling = true, running = r->cmd.pid > 0;

	while (sampling || running) {
		/* no timeout once the sampler stopped: finish() drains the rest */
		int timeout_ms = r->have_ring && sampling ?
				 (int)(WRITER_POLL_NS / 1000000) : -1;
		struct pollfd p[2] = {
			{ .fd = r->sig_fd, .events = POLLIN },
			{ .fd = r->smp_fd, .events = POLLIN },
		};
		struct signalfd_siginfo si;

		if (poll(p, 2, timeout_ms) < 0) {
			if (errno == EINTR)
				continue;
			err_errno(errno, "poll");
			r->status = EXIT_RUNTIME;
			break;
		}
		if (p[1].revents) {		/* sampler ended by itself */
			drain_fd(r->smp_fd);
			sampling = false;
		}
		if (r->have_ring && writer_drain(&r->wr))
			sampling = false;	/* output error: stop */
		if (!p[0].revents ||
		    read(r->sig_fd, &si, sizeof(si)) != sizeof(si))
			goto next;
		if (si.ssi_signo == SIGCHLD) {
			if (running)
				running = reap_command(r);
			if (!running)
				sampling = false;
		} else if (running) {
			/*
			 * A terminal's signal reached the command already;
			 * pass on what was sent to us with kill().
			 */
			if (si.ssi_code == SI_USER || si.ssi_code == SI_QUEUE)
				command_signal(&r->cmd, (int)si.ssi_signo);
		} else {
			sampling = false;	/* SIGINT, SIGTERM, SIGHUP */
		}
next:
		if (!sampling)
			sampler_stop(&r->smp);
	}
	sampler_stop(&r->smp);
}

static void emit_summary_line(void *ctx, const char *line)
{
	fprintf(ctx, "%s\n", line);
}

/* The time_in_state deltas of the run, for the policies sampled. */
static void complete_tis(struct run *r, unsigned long seq)
{
	struct tis_table t1;

	for (unsigned int i = 0; r->tis && i < r->freq.npol; i++) {
		const struct freq_policy *pol = &r->freq.pol[i];
		unsigned int sidx;

		if (!r->tis[i].have0 || tis_read(&r->tis[i].file, seq, &t1))
			continue;
		/* the first sampled CPU of the policy */
		for (sidx = 0; sidx < r->disc.ncpus; sidx++)
			if (r->disc.cpu[sidx] < r->freq.ncpus &&
			    pol->related[r->disc.cpu[sidx]])
				break;
		if (summary_add_tis(&r->sum, pol->cpu, sidx, &r->tis[i].t0,
				    &t1))
			warn_msg("no time_in_state cross-check: out of memory");
	}
}

/* The /proc/stat figures of the run, and the process's own cost. */
static void complete_summary(struct run *r)
{
	complete_tis(r, r->smp.seq ? r->smp.seq - 1 : 0);
	if (r->have_stat_file && r->have_stat0 &&
	    !stat_read(&r->stat_file, r->smp.seq ? r->smp.seq - 1 : 0,
		       &r->stat1))
		summary_add_stat(&r->sum, &r->stat0, &r->stat1);
	summary_end(&r->sum, r->start_ns, r->start_cpu_ns);
}

/* The last samples, the output's end, close. */
static void finish_output(struct run *r)
{
	int err = 0;

	if (r->have_ring)
		err = writer_drain(&r->wr);
	if (!err)
		err = output_end(&r->out, &r->sum);
	if (!err)
		return;
	r->status = EXIT_RUNTIME;
	if (!r->have_ring || !r->smp.produced) {
		/* --quiet, or no sample taken: there were none to lose */
		err_msg("cannot write to %s: %s (the metadata and the "
			"summary are lost)", r->out_name, strerror(-err));
	} else {
		uint64_t lost = r->smp.produced - r->wr.committed;

		err_msg("cannot write to %s: %s (%llu of %llu samples "
			"lost%s)", r->out_name, strerror(-err),
			(unsigned long long)lost,
			(unsigned long long)r->smp.produced,
			lost ? "" : ", and the summary");
	}
}

/* Samples taken, and not one valid for any CPU? */
static bool no_valid_sample(const struct summary *s)
{
	if (!s->nsamples)
		return false;
	for (unsigned int i = 0; i < s->ncpus; i++)
		if (s->cpu[i].nvalid)
			return false;
	return true;
}

static void finish(struct run *r)
{
	complete_summary(r);
	if (r->have_out)
		finish_output(r);
	if (r->smp.end == SAMPLER_ERROR) {
		err_errno(r->smp.err, "sampling failed");
		r->status = EXIT_RUNTIME;
	}
	if (!r->summary_in_output) {
		summary_print(&r->sum, "", emit_summary_line, r->sumf);
		if (fflush(r->sumf) && !r->status) {
			err_errno(errno, "cannot write the summary");
			r->status = EXIT_RUNTIME;
		}
	}
	if (r->sumf != stderr && r->sumf != stdout) {
		if (fclose(r->sumf) && !r->status) {
			err_errno(errno, "cannot write the summary");
			r->status = EXIT_RUNTIME;
		}
		r->sumf = NULL;
	}
	if (r->sum.ndropped)
		warn_msg("%llu samples were dropped: the output could not keep "
			 "up (see --buffer)",
			 (unsigned long long)r->sum.ndropped);
	if (no_valid_sample(&r->sum)) {
		err_msg("no valid sample in %llu samples: the CPUs' figures "
			"could not be used (see the invalid samples in the "
			"summary)", (unsigned long long)r->sum.nsamples);
		if (!r->status)
			r->status = EXIT_SOURCE;
	}
}

static void cleanup(struct run *r)
{
	if (r->have_smp)
		sampler_free(&r->smp);
	if (r->have_ring)
		ring_free(&r->ring);
	if (r->have_out)
		output_free(&r->out);
	if (r->sumf && r->sumf != stderr && r->sumf != stdout)
		fclose(r->sumf);
	for (unsigned int i = 0; r->tis && i < r->freq.npol; i++)
		if (r->tis[i].open)
			srcfile_close(&r->tis[i].file);
	free(r->tis);
	if (r->have_freq)
		freq_source_free(&r->freq);
	if (r->have_stat_file)
		srcfile_close(&r->stat_file);
	if (r->have_idle_file)
		srcfile_close(&r->idle_file);
	discovery_free(&r->disc);
	summary_free(&r->sum);
	free(r->stat0.cpu);
	free(r->stat1.cpu);
	free(r->meta.command);
	if (r->sig_fd >= 0)
		close(r->sig_fd);
	if (r->smp_fd >= 0)
		close(r->smp_fd);
}

static int run(struct run *r, int argc, char **argv)
{
	int status;

	r->disc.root = r->opt.root;
	r->disc.replay = r->opt.replay;
	r->disc.cpus = r->opt.cpus;
	status = report_discovery(r, discover(&r->disc));
	if (status >= 0)
		return status;
	setup_freq(r);
	setup_stat(r);
	status = setup_output(r);
	if (status < 0)
		status = setup_signals(r);
	if (status < 0)
		status = setup_sampling(r, argc, argv);
	if (status >= 0)
		return status;
	if (r->opt.mlock && mlockall(MCL_CURRENT | MCL_FUTURE))
		warn_msg("mlockall: %s", strerror(errno));
	if (r->have_out)
		r->out.ops->begin(&r->out);
	/* a failed start still ends the output properly, with no sample */
	status = start_threads(r);
	if (status >= 0) {
		r->status = status;
	} else {
		if (r->opt.command) {
			start_command(r);
			if (!r->cmd.pid)
				sampler_stop(&r->smp);
		}
		wait_loop(r);
	}
	finish(r);
	if (r->status)
		return r->status;
	return r->cmd.status >= 0 ? r->cmd.status : 0;
}

int main(int argc, char **argv)
{
	struct run r;
	int status;

	memset(&r, 0, sizeof(r));
	r.start_ns = mono_ns();
	r.start_cpu_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	r.sig_fd = r.smp_fd = -1;
	r.cmd.status = -1;
	status = parse_options(&r.opt, argc, argv);
	if (status >= 0)
		return status;
	status = run(&r, argc, argv);
	cleanup(&r);
	return status;
}
