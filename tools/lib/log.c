// SPDX-License-Identifier: GPL-2.0
/*
 * Prefixed diagnostics. The prefix is glibc's program_invocation_short_name,
 * so the module needs no state of its own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

const char *log_prog(void)
{
	return program_invocation_short_name;
}

static void vlog(const char *kind, int err, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (err)
		fprintf(stderr, "%s: %s%s: %s\n", log_prog(), kind, msg,
			strerror(err < 0 ? -err : err));
	else
		fprintf(stderr, "%s: %s%s\n", log_prog(), kind, msg);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("warning: ", 0, fmt, ap);
	va_end(ap);
}

void err_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("", 0, fmt, ap);
	va_end(ap);
}

void err_errno(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("", err, fmt, ap);
	va_end(ap);
}

void info_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("", 0, fmt, ap);
	va_end(ap);
}
