/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cpufreq governor's tunables: every readable file of its sysfs folder
 * (ondemand: io_is_busy, sampling_rate, up_threshold, sampling_down_factor,
 * ignore_nice_load, powersave_bias; conservative: freq_step, ...;
 * schedutil: rate_limit_us), read once at the start for the metadata.
 * The folder is the policy's own (cpuN/cpufreq/GOVERNOR, with per-policy
 * governors) or the global one (cpu/cpufreq/GOVERNOR).
 */
#ifndef IFM_GOVERNOR_H
#define IFM_GOVERNOR_H

#define GOV_MAX_TUNABLES 32
#define GOV_NAME_LEN 48
#define GOV_VALUE_LEN 64

struct gov_tunable {
	char name[GOV_NAME_LEN];
	char value[GOV_VALUE_LEN];	/* the file's first line */
};

struct gov_tunables {
	char dir[128];		/* the folder, relative to the root; "" if none */
	unsigned int n;
	struct gov_tunable t[GOV_MAX_TUNABLES];	/* sorted by name */
};

/*
 * Read the tunables of @governor for the policy of @cpu under @root (NULL:
 * /). A governor without a folder (performance, powersave, userspace)
 * leaves @out empty. Returns 0, or -errno (-ENOMEM).
 */
int governor_tunables_read(const char *root, unsigned int cpu,
			   const char *governor, struct gov_tunables *out);

#endif
