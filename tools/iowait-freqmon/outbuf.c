// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpulist.h"
#include "outbuf.h"

int outbuf_init(struct outbuf *o, int fd, size_t cap)
{
	o->fd = fd;
	o->len = 0;
	o->err = 0;
	o->cap = cap;
	o->buf = malloc(cap);
	return o->buf ? 0 : -ENOMEM;
}

void outbuf_free(struct outbuf *o)
{
	free(o->buf);
	o->buf = NULL;
}

int outbuf_flush(struct outbuf *o)
{
	size_t done = 0;

	while (!o->err && done < o->len) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			o->err = n < 0 ? -errno : -EIO;
		else
			done += (size_t)n;
	}
	o->len = 0;
	return o->err;
}

void outbuf_write(struct outbuf *o, const char *p, size_t n)
{
	while (n && !o->err) {
		size_t k;

		if (o->len == o->cap && outbuf_flush(o))
			return;
		k = o->cap - o->len < n ? o->cap - o->len : n;
		memcpy(o->buf + o->len, p, k);
		o->len += k;
		p += k;
		n -= k;
	}
}

void outbuf_puts(struct outbuf *o, const char *s)
{
	outbuf_write(o, s, strlen(s));
}

void outbuf_putc(struct outbuf *o, char c)
{
	if (o->len == o->cap && outbuf_flush(o))
		return;
	o->buf[o->len++] = c;
}

void outbuf_printf(struct outbuf *o, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(tmp)) {
		char *big = malloc((size_t)n + 1);

		if (!big) {
			o->err = o->err ? o->err : -ENOMEM;
			return;
		}
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		outbuf_write(o, big, (size_t)n);
		free(big);
		return;
	}
	outbuf_write(o, tmp, (size_t)n);
}

void outbuf_u64(struct outbuf *o, uint64_t v)
{
	char tmp[24];
	size_t n = sizeof(tmp);

	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	outbuf_write(o, tmp + n, sizeof(tmp) - n);
}

void outbuf_decimal(struct outbuf *o, uint64_t v, unsigned int decimals)
{
	char tmp[48];
	size_t n = sizeof(tmp);

	for (unsigned int i = 0; i < decimals; i++) {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	}
	if (decimals)
		tmp[--n] = '.';
	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	outbuf_write(o, tmp + n, sizeof(tmp) - n);
}

void outbuf_escaped(struct outbuf *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[5] = { '\\', 'x', hex[c >> 4], hex[c & 15], 0 };

		switch (c) {
		case '\\':
			outbuf_puts(o, "\\\\");
			break;
		case '\n':
			outbuf_puts(o, "\\n");
			break;
		case '\t':
			outbuf_puts(o, "\\t");
			break;
		case '\r':
			outbuf_puts(o, "\\r");
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				outbuf_puts(o, esc);
			else
				outbuf_putc(o, (char)c);
		}
	}
}

void outbuf_cpulist(struct outbuf *o, const unsigned char *set,
		    unsigned int nbits)
{
	unsigned int pos = 0, lo, hi;
	bool first = true;

	while (cpulist_next(set, nbits, &pos, &lo, &hi)) {
		if (!first)
			outbuf_putc(o, ',');
		first = false;
		outbuf_u64(o, lo);
		if (hi != lo) {
			outbuf_putc(o, '-');
			outbuf_u64(o, hi);
		}
	}
}

int outbuf_close(struct outbuf *o)
{
	int fd = o->fd;

	if (fd <= STDERR_FILENO)
		return 0;
	o->fd = -1;
	return close(fd) ? -errno : 0;
}

void outbuf_json_str(struct outbuf *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	outbuf_putc(o, '"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			outbuf_putc(o, '\\');
			outbuf_putc(o, (char)c);
		} else if (c == '\n') {
			outbuf_puts(o, "\\n");
		} else if (c == '\t') {
			outbuf_puts(o, "\\t");
		} else if (c < 0x20 || c == 0x7f) {
			char esc[7] = { '\\', 'u', '0', '0', hex[c >> 4],
					hex[c & 15], 0 };
			outbuf_puts(o, esc);
		} else {
			outbuf_putc(o, (char)c);
		}
	}
	outbuf_putc(o, '"');
}
