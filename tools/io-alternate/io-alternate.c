// SPDX-License-Identifier: GPL-2.0
/*
 * io-alternate: the workload of the 2010 ondemand problem in its simplest
 * form. One thread, optionally pinned, reads one block at a random aligned
 * offset of a device or file with O_DIRECT (so every read waits for the
 * device: iowait), then does a fixed amount of CPU work (a burst whose
 * length depends on the clock), and repeats for a given time.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#include "log.h"
#include "spin.h"
#include "timeutil.h"

struct job {
	const char *path;
	int cpu;		/* -1: not pinned */
	uint64_t duration_ns;
	unsigned long chunks;	/* work chunks per burst */
	size_t block;
	/* state */
	int fd;
	uint64_t size;		/* bytes of the device or file */
	void *buf;
	uint64_t rng;
	/* results */
	uint64_t ops, io_ns, cpu_ns, elapsed_ns;
};

static int job_open(struct job *j)
{
	struct stat st;
	int ret;

	j->fd = open(j->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (j->fd < 0)
		return -errno;
	if (fstat(j->fd, &st))
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(j->fd, BLKGETSIZE64, &j->size))
			return -errno;
	} else {
		j->size = (uint64_t)st.st_size;
	}
	if (j->size < j->block)
		return -ENOSPC;
	ret = posix_memalign(&j->buf, 4096, j->block);
	if (ret) {
		j->buf = NULL;
		return -ret;
	}
	if (j->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(j->cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return -errno;
	}
	return 0;
}

static void job_close(struct job *j)
{
	if (j->fd >= 0)
		close(j->fd);
	free(j->buf);
}

static int job_run(struct job *j)
{
	uint64_t blocks = j->size / j->block, x = 88172645463325252ull;
	uint64_t start = mono_ns(), t = start;
	volatile uint64_t sink;

	while (t - start < j->duration_ns) {
		uint64_t t_io;
		off_t off;
		ssize_t n;

		j->rng ^= j->rng << 13;
		j->rng ^= j->rng >> 7;
		j->rng ^= j->rng << 17;
		off = (off_t)((j->rng % blocks) * j->block);
		n = pread(j->fd, j->buf, j->block, off);
		if (n < 0)
			return -errno;
		if ((size_t)n != j->block)
			return -EIO;
		t_io = mono_ns();
		j->io_ns += t_io - t;
		for (unsigned long c = 0; c < j->chunks; c++)
			x = spin_chunk(x);
		t = mono_ns();
		j->cpu_ns += t - t_io;
		j->ops++;
	}
	sink = x;
	(void)sink;
	j->elapsed_ns = t - start;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: io-alternate [-c CPU] [-t SECONDS] [-w CHUNKS] [-b BYTES] PATH\n"
		"\n"
		"Alternate, for SECONDS (default 10), an O_DIRECT read of BYTES\n"
		"(default 4096) at a random aligned offset of PATH (a block device or\n"
		"a file) with a CPU burst of CHUNKS work chunks (default 100), the\n"
		"loop of cpuloop: its loops_per_s / 1000 is chunks per ms. -c pins the\n"
		"thread to CPU.\n"
		"\n"
		"Output: one line, 'ops=N seconds=S io_ms=X cpu_ms=Y io_mean_us=A\n"
		"burst_mean_us=B'.\n"
		"Exit status: 0 ok, 1 runtime error, 2 bad usage.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "block", required_argument, NULL, 'b' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ "seconds", required_argument, NULL, 't' },
		{ "work", required_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	struct job j = {
		.cpu = -1,
		.duration_ns = 10 * NSEC_PER_SEC,
		.chunks = 100,
		.block = 4096,
		.fd = -1,
		.rng = 0x2545f4914f6cdd1dull,
	};
	unsigned long v;
	char *end;
	int c, ret;

	while ((c = getopt_long(argc, argv, "b:c:ht:w:", opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			v = strtoul(optarg, &end, 10);
			if (*end || v < 512 || v > (1UL << 24) || v % 512) {
				err_msg("block size must be a multiple of 512 up to 16 MiB");
				return 2;
			}
			j.block = v;
			break;
		case 'c':
			v = strtoul(optarg, &end, 10);
			if (*end || v >= CPU_SETSIZE) {
				err_msg("bad CPU '%s'", optarg);
				return 2;
			}
			j.cpu = (int)v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 't':
			if (parse_duration_ns(optarg, NSEC_PER_SEC, &j.duration_ns) ||
			    !j.duration_ns) {
				err_msg("bad duration '%s'", optarg);
				return 2;
			}
			break;
		case 'w':
			j.chunks = strtoul(optarg, &end, 10);
			if (*end || j.chunks > 100000000UL) {
				err_msg("bad work chunk count '%s'", optarg);
				return 2;
			}
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	j.path = argv[optind];

	ret = job_open(&j);
	if (ret)
		err_errno(ret, "%s", j.path);
	else {
		ret = job_run(&j);
		if (ret)
			err_errno(ret, "read %s", j.path);
	}
	if (!ret)
		printf("ops=%" PRIu64 " seconds=%.2f io_ms=%" PRIu64 " cpu_ms=%" PRIu64
		       " io_mean_us=%" PRIu64 " burst_mean_us=%" PRIu64 "\n",
		       j.ops, j.elapsed_ns / 1e9, (uint64_t)(j.io_ns / NSEC_PER_MSEC),
		       (uint64_t)(j.cpu_ns / NSEC_PER_MSEC),
		       (uint64_t)(j.ops ? j.io_ns / j.ops / NSEC_PER_USEC : 0),
		       (uint64_t)(j.ops ? j.cpu_ns / j.ops / NSEC_PER_USEC : 0));
	job_close(&j);
	return ret ? 1 : 0;
}
