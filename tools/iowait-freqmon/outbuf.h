/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Buffered output to an fd with a sticky error: the first failed write(2)
 * (disk full, EPIPE, ...) is remembered, later writes are dropped, and the
 * caller reports it once. Number formatting is integer-only and exact, so
 * fixture runs give byte-identical output everywhere.
 */
#ifndef IFM_OUTBUF_H
#define IFM_OUTBUF_H

#include <stddef.h>
#include <stdint.h>

struct outbuf {
	int fd;
	char *buf;
	size_t len, cap;
	int err;		/* first -errno, 0 if none */
};

int outbuf_init(struct outbuf *o, int fd, size_t cap);
void outbuf_free(struct outbuf *o);

/* Write out the buffer. Returns 0 or the (sticky) -errno. */
int outbuf_flush(struct outbuf *o);

static inline size_t outbuf_room(const struct outbuf *o)
{
	return o->cap - o->len;
}

void outbuf_write(struct outbuf *o, const char *p, size_t n);
void outbuf_puts(struct outbuf *o, const char *s);
void outbuf_putc(struct outbuf *o, char c);
void outbuf_printf(struct outbuf *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void outbuf_u64(struct outbuf *o, uint64_t v);
/* @v / 10^@decimals with exactly @decimals digits: (1234, 4) -> "0.1234" */
void outbuf_decimal(struct outbuf *o, uint64_t v, unsigned int decimals);
/*
 * @s on one line: a backslash as two, newline, tab and carriage return as
 * \n, \t and \r, any other control character as \xHH.
 */
void outbuf_escaped(struct outbuf *o, const char *s);
/* A cpulist ("0-3,5") of @set[0 .. @nbits - 1], of any length. */
void outbuf_cpulist(struct outbuf *o, const unsigned char *set,
		    unsigned int nbits);
/* Close the fd (not stdin/stdout/stderr). Returns 0 or -errno. */
int outbuf_close(struct outbuf *o);
/* A JSON string literal, quotes included. */
void outbuf_json_str(struct outbuf *o, const char *s);

#endif
