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

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* bash's $'...': the line stays one line and still runs the same command */
static char *quote_ansi_c(char *p, const char *a)
{
	static const char hex[] = "0123456789abcdef";

	p = stpcpy(p, "$'");
	for (; *a; a++) {
		unsigned char c = (unsigned char)*a;

		if (c == '\n') {
			p = stpcpy(p, "\\n");
		} else if (c == '\t') {
			p = stpcpy(p, "\\t");
		} else if (c == '\r') {
			p = stpcpy(p, "\\r");
		} else if (c == '\'' || c == '\\') {
			*p++ = '\\';
			*p++ = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			*p++ = '\\';
			*p++ = 'x';
			*p++ = hex[c >> 4];
			*p++ = hex[c & 15];
		} else {
			*p++ = (char)c;
		}
	}
	*p++ = '\'';
	return p;
}

char *meta_command_line(int argc, char *const argv[])
{
	size_t len = 1;
	char *line, *p;

	for (int i = 0; i < argc; i++)
		len += 4 * strlen(argv[i]) + 4;
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
		if (has_control(a)) {
			p = quote_ansi_c(p, a);
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
