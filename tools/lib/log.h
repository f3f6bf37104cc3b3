/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Prefixed diagnostics on stderr, in the style of rt-tests' rt-error.h.
 * Every line starts with the program's short name ("iowait-freqmon: "),
 * so stdout stays free for data. Library code elsewhere never prints: it
 * returns -errno and lets the front end call these.
 */
#ifndef IFM_LOG_H
#define IFM_LOG_H

#include <stdarg.h>

#define IFM_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* "prog: warning: <msg>\n" */
void warn_msg(const char *fmt, ...) IFM_PRINTF(1, 2);
/* "prog: <msg>\n" -- errors: one line that says what failed */
void err_msg(const char *fmt, ...) IFM_PRINTF(1, 2);
/* "prog: <msg>: <strerror(err)>\n"; err may be negative (-errno) */
void err_errno(int err, const char *fmt, ...) IFM_PRINTF(2, 3);
/* "prog: <msg>\n" -- progress and informational lines */
void info_msg(const char *fmt, ...) IFM_PRINTF(1, 2);

/* The prefix used above (the basename the program was started as). */
const char *log_prog(void);

#endif
