// SPDX-License-Identifier: GPL-2.0
/* Frequency source: discovery through a back end, kept-open fd reads. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpufreq_source.h"
#include "num.h"

uint32_t freq_parse_khz(const char *buf, size_t len)
{
	const char *p = skip_blanks(buf, buf + len);
	uint64_t v;

	if (parse_u64(&p, buf + len, &v) || v > UINT32_MAX)
		return 0;
	return (uint32_t)v;
}

static void policy_free(struct freq_policy *pol)
{
	if (pol->open)
		srcfile_close(&pol->cur);
	pol->open = false;
	free(pol->related);
	free(pol->avail_khz);
	free(pol->tun);
	pol->tun = NULL;
	pol->related = NULL;
	pol->avail_khz = NULL;
}

static int open_cur(struct freq_policy *pol, const char *root,
		    unsigned int srcflags)
{
	char rel[96];
	int ret;

	snprintf(rel, sizeof(rel),
		 "/sys/devices/system/cpu/cpu%u/cpufreq/scaling_cur_freq",
		 pol->cpu);
	ret = srcfile_open(&pol->cur, root, rel, srcflags);
	pol->open = ret == 0;
	return ret;
}

int freq_source_init(struct freq_source *fs, const char *root,
		     unsigned int srcflags, const unsigned char *wanted,
		     unsigned int ncpus)
{
	memset(fs, 0, sizeof(*fs));
#ifdef IFM_HAVE_CPUPOWER
	fs->backend = root ? &cpufreq_sysfs : &cpufreq_cpupower;
#else
	fs->backend = &cpufreq_sysfs;
#endif
	fs->ncpus = ncpus;
	fs->retry_every = 1000;
	fs->policy_of = malloc(ncpus * sizeof(*fs->policy_of));
	fs->pol = calloc(ncpus, sizeof(*fs->pol));
	if (!fs->policy_of || !fs->pol) {
		freq_source_free(fs);
		return -ENOMEM;
	}
	for (unsigned int c = 0; c < ncpus; c++)
		fs->policy_of[c] = -1;

	for (unsigned int c = 0; c < ncpus; c++) {
		struct freq_policy *pol = &fs->pol[fs->npol];

		if (!wanted[c] || fs->policy_of[c] >= 0)
			continue;
		memset(pol, 0, sizeof(*pol));
		pol->related = calloc(ncpus, 1);
		if (!pol->related) {
			freq_source_free(fs);
			return -ENOMEM;
		}
		pol->cpu = c;
		if (fs->backend->probe(root, c, ncpus, pol) ||
		    open_cur(pol, root, srcflags)) {
			policy_free(pol);
			continue;
		}
		pol->related[c] = 1;
		/* metadata only: a governor without tunables is no error */
		pol->tun = malloc(sizeof(*pol->tun));
		if (pol->tun && governor_tunables_read(root, c, pol->governor,
						       pol->tun)) {
			free(pol->tun);
			pol->tun = NULL;
		}
		for (unsigned int r = 0; r < ncpus; r++)
			if (pol->related[r] && wanted[r] &&
			    fs->policy_of[r] < 0)
				fs->policy_of[r] = (int)fs->npol;
		fs->npol++;
	}
	return 0;
}

void freq_source_free(struct freq_source *fs)
{
	for (unsigned int i = 0; fs->pol && i < fs->npol; i++)
		policy_free(&fs->pol[i]);
	free(fs->pol);
	free(fs->policy_of);
	fs->pol = NULL;
	fs->policy_of = NULL;
	fs->npol = 0;
}

/*
 * A policy whose CPUs are all offline answers EBUSY and comes back by
 * itself; a file that went away (ENODEV, ENOENT) is reopened now and then.
 */
static void read_policy(struct freq_source *fs, struct freq_policy *pol,
			unsigned long seq)
{
	char buf[32];
	ssize_t n;
	int fd;

	pol->prev_khz = pol->khz;
	pol->khz = 0;
	if (pol->dead) {
		if (pol->retry && --pol->retry)
			return;
		fd = open(pol->cur.path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			pol->retry = fs->retry_every;
			return;
		}
		/* keep the fd number: replace the dead file in place */
		dup3(fd, pol->cur.fd, O_CLOEXEC);
		close(fd);
		pol->dead = false;
	}
	fd = srcfile_get(&pol->cur, seq);
	if (fd < 0)
		return;
	n = pread(fd, buf, sizeof(buf), 0);
	srcfile_put(&pol->cur, fd);
	if (n > 0) {
		pol->khz = freq_parse_khz(buf, (size_t)n);
	} else if (n < 0 && (errno == ENODEV || errno == ENOENT) &&
		   !(pol->cur.flags & SRC_REPLAY)) {
		pol->dead = true;
		pol->retry = fs->retry_every;
	}
}

void freq_source_read(struct freq_source *fs, unsigned long seq)
{
	for (unsigned int i = 0; i < fs->npol; i++)
		read_policy(fs, &fs->pol[i], seq);
}
