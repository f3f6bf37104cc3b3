// SPDX-License-Identifier: GPL-2.0
/*
 * cpufreq discovery from the sysfs files under a root directory, for
 * --root (fixtures, replays, a guest's exported files) where libcpupower,
 * which hard-codes /sys, cannot look.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpufreq_source.h"
#include "cpulist.h"
#include "num.h"

static ssize_t read_attr(const char *root, unsigned int cpu, const char *attr,
			 char *buf, size_t len)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%u/cpufreq/%s",
		 cpu, attr);
	return root_read_file(root, rel, buf, len);
}

static unsigned long read_khz(const char *root, unsigned int cpu,
			      const char *attr)
{
	char buf[32];
	ssize_t n = read_attr(root, cpu, attr, buf, sizeof(buf));

	return n > 0 ? freq_parse_khz(buf, (size_t)n) : 0;
}

static void read_name(const char *root, unsigned int cpu, const char *attr,
		      char *out)
{
	if (read_attr(root, cpu, attr, out, FREQ_NAME_LEN) < 0)
		out[0] = '\0';
}

/* "2400000 1800000 800000 " */
static int read_avail(const char *root, unsigned int cpu,
		      struct freq_policy *pol)
{
	char buf[4096];
	const char *p, *end;
	ssize_t n = read_attr(root, cpu, "scaling_available_frequencies",
			      buf, sizeof(buf));
	unsigned int count = 0;

	if (n <= 0)
		return 0;
	end = buf + n;
	for (p = buf; p < end; p++)
		count += (*p >= '0' && *p <= '9') &&
			 (p == buf || p[-1] == ' ');
	pol->avail_khz = calloc(count ? count : 1, sizeof(*pol->avail_khz));
	if (!pol->avail_khz)
		return -ENOMEM;
	p = buf;
	while (pol->navail < count) {
		uint64_t v;

		p = skip_blanks(p, end);
		if (parse_u64(&p, end, &v))
			break;
		pol->avail_khz[pol->navail++] = (unsigned long)v;
	}
	return 0;
}

static int sysfs_probe(const char *root, unsigned int cpu, unsigned int ncpus,
		       struct freq_policy *pol)
{
	char buf[1024];
	ssize_t n;

	/* a CPU has cpufreq if its policy has a current frequency */
	n = read_attr(root, cpu, "scaling_cur_freq", buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	read_name(root, cpu, "scaling_driver", pol->driver);
	read_name(root, cpu, "scaling_governor", pol->governor);
	pol->min_khz = read_khz(root, cpu, "scaling_min_freq");
	pol->max_khz = read_khz(root, cpu, "scaling_max_freq");
	n = read_attr(root, cpu, "related_cpus", buf, sizeof(buf));
	if (n > 0) {
		/* "0 1 2 3": the space-separated form of a cpulist */
		for (char *p = buf; *p; p++)
			if (*p == ' ')
				*p = ',';
		if (buf[n - 1] == ',')
			buf[n - 1] = '\0';
		if (cpulist_parse(buf, pol->related, ncpus) < 0)
			memset(pol->related, 0, ncpus);
	}
	return read_avail(root, cpu, pol);
}

const struct freq_backend cpufreq_sysfs = {
	.name = "sysfs",
	.probe = sysfs_probe,
};
