// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "governor.h"
#include "srcfile.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct gov_tunable *)a)->name,
		      ((const struct gov_tunable *)b)->name);
}

/* Read the files of @rel into @out. Returns 0, -ENOENT or -errno. */
static int read_dir(const char *root, const char *rel, struct gov_tunables *out)
{
	char *path = root_path(root, rel);
	struct dirent *de;
	DIR *d;

	if (!path)
		return -ENOMEM;
	d = opendir(path);
	free(path);
	if (!d)
		return -errno;
	out->n = 0;
	while ((de = readdir(d)) && out->n < GOV_MAX_TUNABLES) {
		struct gov_tunable *t = &out->t[out->n];
		size_t len = strlen(de->d_name), rlen = strlen(rel);
		char file[sizeof(out->dir) + GOV_NAME_LEN + 1];
		char *nl;

		if (de->d_name[0] == '.' || len >= sizeof(t->name) ||
		    rlen >= sizeof(out->dir))
			continue;
		memcpy(file, rel, rlen);
		file[rlen] = '/';
		memcpy(file + rlen + 1, de->d_name, len + 1);
		/* write-only or unreadable files are left out */
		if (root_read_file(root, file, t->value, sizeof(t->value)) < 0)
			continue;
		nl = strchr(t->value, '\n');
		if (nl)
			*nl = '\0';
		memcpy(t->name, de->d_name, len + 1);
		out->n++;
	}
	closedir(d);
	qsort(out->t, out->n, sizeof(out->t[0]), by_name);
	snprintf(out->dir, sizeof(out->dir), "%s", rel);
	return 0;
}

int governor_tunables_read(const char *root, unsigned int cpu,
			   const char *governor, struct gov_tunables *out)
{
	char rel[128];
	int ret;

	memset(out, 0, sizeof(*out));
	if (!governor[0] || strchr(governor, '/') || !strcmp(governor, ".") ||
	    !strcmp(governor, ".."))
		return 0;
	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%u/cpufreq/%s",
		 cpu, governor);
	ret = read_dir(root, rel, out);
	if (ret == -ENOENT || ret == -ENOTDIR) {
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpufreq/%s",
			 governor);
		ret = read_dir(root, rel, out);
	}
	if (ret == -ENOENT || ret == -ENOTDIR) {
		memset(out, 0, sizeof(*out));
		return 0;
	}
	return ret;
}
