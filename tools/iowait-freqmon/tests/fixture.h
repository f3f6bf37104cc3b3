/* SPDX-License-Identifier: GPL-2.0 */
/* Loading fixture files in the unit tests. */
#ifndef IFM_FIXTURE_H
#define IFM_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

#ifndef FIXTURES
#error "FIXTURES must be the fixtures folder"
#endif

/* Read FIXTURES/@name into a malloc'd NUL-terminated buffer; exits on error. */
static inline char *fixture_load(const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(2);
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

#endif
