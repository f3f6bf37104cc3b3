// SPDX-License-Identifier: GPL-2.0
/* cpufreq discovery through libcpupower (the live system's /sys). */
#include <cpufreq.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpufreq_source.h"

static void copy_name(char *dst, const char *src)
{
	strncpy(dst, src ? src : "", FREQ_NAME_LEN - 1);
	dst[FREQ_NAME_LEN - 1] = '\0';
}

static int cpupower_probe(const char *root, unsigned int cpu,
			  unsigned int ncpus, struct freq_policy *pol)
{
	struct cpufreq_available_frequencies *freqs, *f;
	struct cpufreq_affected_cpus *rel, *r;
	struct cpufreq_policy *policy;
	char *driver;
	unsigned int n = 0;

	(void)root;
	driver = cpufreq_get_driver(cpu);
	if (!driver)
		return -ENOENT;
	copy_name(pol->driver, driver);
	cpufreq_put_driver(driver);

	policy = cpufreq_get_policy(cpu);
	if (policy) {
		copy_name(pol->governor, policy->governor);
		pol->min_khz = policy->min;
		pol->max_khz = policy->max;
		cpufreq_put_policy(policy);
	}

	rel = cpufreq_get_related_cpus(cpu);
	for (r = rel; r; r = r->next)
		if (r->cpu < ncpus)
			pol->related[r->cpu] = 1;
	cpufreq_put_related_cpus(rel);

	freqs = cpufreq_get_available_frequencies(cpu);
	for (f = freqs; f; f = f->next)
		n++;
	if (n) {
		pol->avail_khz = calloc(n, sizeof(*pol->avail_khz));
		if (!pol->avail_khz) {
			cpufreq_put_available_frequencies(freqs);
			return -ENOMEM;
		}
		for (f = freqs; f; f = f->next)
			pol->avail_khz[pol->navail++] = f->frequency;
	}
	cpufreq_put_available_frequencies(freqs);
	return 0;
}

const struct freq_backend cpufreq_cpupower = {
	.name = "libcpupower",
	.probe = cpupower_probe,
};
