/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Source files under a root directory (--root), opened once and read with
 * pread() from offset 0 on every sample.
 *
 * Replay (--replay): a file F is read as "F.K" for sample K when that file
 * exists, else as F. With SRC_SEQUENCE (timer_list) F.K is required and its
 * absence ends the replay. Replay opens and closes a file per sample; it is
 * for fixtures and recorded runs, not for live sampling.
 */
#ifndef IFM_SRCFILE_H
#define IFM_SRCFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum {
	SRC_REPLAY = 1 << 0,	/* replay mode */
	SRC_SEQUENCE = 1 << 1,	/* replay needs F.K for every sample K */
};

struct srcfile {
	char *path;		/* root + relative path */
	char *seqpath;		/* buffer for "path.K" */
	size_t pathlen;
	int fd;			/* live: kept open */
	unsigned int flags;
};

/* Join @root (NULL or "" for /) and @rel ("/proc/stat"); malloc'd. */
char *root_path(const char *root, const char *rel);

/*
 * Read a small file under @root into @buf (NUL-terminated, trailing
 * newline stripped). Returns its length or -errno.
 */
ssize_t root_read_file(const char *root, const char *rel, char *buf,
		       size_t len);

/* Returns 0 or -errno (-ENOENT, -EACCES ...); nothing is opened on error. */
int srcfile_open(struct srcfile *f, const char *root, const char *rel,
		 unsigned int flags);
void srcfile_close(struct srcfile *f);

/*
 * The fd to read sample @seq from, or -errno; -ENODATA ends a replay
 * sequence. Pair with srcfile_put().
 */
int srcfile_get(struct srcfile *f, unsigned long seq);
void srcfile_put(struct srcfile *f, int fd);

/*
 * Read sample @seq of a small file into @buf, NUL-terminated.
 * Returns the length or -errno.
 */
ssize_t srcfile_read(struct srcfile *f, unsigned long seq, char *buf,
		     size_t len);

#endif
