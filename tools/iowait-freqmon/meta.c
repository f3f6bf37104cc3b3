// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "meta.h"
#include "srcfile.h"

static bool plain(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_./:=,+-@%", *s))
			return false;
	return true;
}

char *meta_command_line(int argc, char *const argv[])
{
	size_t len = 1;
	char *line, *p;

	for (int i = 0; i < argc; i++)
		len += 4 * strlen(argv[i]) + 3;
	line = malloc(len);
	if (!line)
		return NULL;
	p = line;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (i)
			*p++ = ' ';
		if (plain(a)) {
			p = stpcpy(p, a);
			continue;
		}
		*p++ = '\'';
		for (; *a; a++) {
			if (*a == '\'')
				p = stpcpy(p, "'\\''");
			else
				*p++ = *a;
		}
		*p++ = '\'';
	}
	*p = '\0';
	return line;
}

void meta_kernel(const char *root, char *buf, size_t len)
{
	struct utsname u;

	if (root) {
		if (root_read_file(root, "/proc/sys/kernel/osrelease", buf,
				   len) <= 0)
			snprintf(buf, len, "unknown");
		return;
	}
	if (uname(&u))
		snprintf(buf, len, "unknown");
	else
		snprintf(buf, len, "%s", u.release);
}
