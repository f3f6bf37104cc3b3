// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "srcfile.h"

char *root_path(const char *root, const char *rel)
{
	size_t rl = root ? strlen(root) : 0;
	char *p;

	while (rl && root[rl - 1] == '/')
		rl--;
	p = malloc(rl + strlen(rel) + 1);
	if (!p)
		return NULL;
	memcpy(p, root ? root : "", rl);
	strcpy(p + rl, rel);
	return p;
}

static ssize_t pread_all(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, (off_t)got);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* Read into buf[0..len-2] and terminate; strip one trailing newline. */
static ssize_t read_terminated(int fd, char *buf, size_t len)
{
	ssize_t n;

	if (!len)
		return -EINVAL;
	n = pread_all(fd, buf, len - 1);
	if (n < 0)
		return n;
	buf[n] = '\0';
	return n;
}

ssize_t root_read_file(const char *root, const char *rel, char *buf,
		       size_t len)
{
	char *path = root_path(root, rel);
	ssize_t n;
	int fd;

	if (!path)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return -errno;
	n = read_terminated(fd, buf, len);
	close(fd);
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

int srcfile_open(struct srcfile *f, const char *root, const char *rel,
		 unsigned int flags)
{
	int ret;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->flags = flags;
	f->path = root_path(root, rel);
	if (!f->path)
		return -ENOMEM;
	f->pathlen = strlen(f->path);
	f->seqpath = malloc(f->pathlen + 24);
	if (!f->seqpath) {
		ret = -ENOMEM;
		goto fail;
	}
	if (flags & SRC_REPLAY) {
		/* check that sample 0 is there (and readable) */
		ret = srcfile_get(f, 0);
		if (ret < 0)
			goto fail;
		srcfile_put(f, ret);
		return 0;
	}
	f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0) {
		ret = -errno;
		goto fail;
	}
	return 0;
fail:
	srcfile_close(f);
	return ret == -ENODATA ? -ENOENT : ret;
}

void srcfile_close(struct srcfile *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	free(f->path);
	free(f->seqpath);
	f->path = f->seqpath = NULL;
}

/* path + "." + decimal seq, without snprintf */
static const char *seq_name(struct srcfile *f, unsigned long seq)
{
	char digits[24];
	size_t n = 0;
	char *p = f->seqpath;

	do {
		digits[n++] = (char)('0' + seq % 10);
		seq /= 10;
	} while (seq);
	memcpy(p, f->path, f->pathlen);
	p += f->pathlen;
	*p++ = '.';
	while (n)
		*p++ = digits[--n];
	*p = '\0';
	return f->seqpath;
}

int srcfile_get(struct srcfile *f, unsigned long seq)
{
	int fd;

	if (!(f->flags & SRC_REPLAY))
		return f->fd;
	fd = open(seq_name(f, seq), O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (errno != ENOENT)
		return -errno;
	if (f->flags & SRC_SEQUENCE)
		return -ENODATA;
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

void srcfile_put(struct srcfile *f, int fd)
{
	if ((f->flags & SRC_REPLAY) && fd >= 0)
		close(fd);
}

ssize_t srcfile_read(struct srcfile *f, unsigned long seq, char *buf,
		     size_t len)
{
	int fd = srcfile_get(f, seq);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = read_terminated(fd, buf, len);
	srcfile_put(f, fd);
	return n;
}
