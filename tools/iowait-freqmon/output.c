// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "output.h"

static const struct output_ops *const formats[] = {
	&output_tsv,
	&output_json,
	&output_trace,
	&output_table,
};

const struct output_ops *output_find(const char *name)
{
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i]->name, name))
			return formats[i];
	return NULL;
}

int output_open(struct output *o, const char *path,
		const struct output_ops *ops, const struct run_meta *meta,
		size_t bufsize)
{
	int fd = STDOUT_FILENO, ret;

	if (path && strcmp(path, "-")) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0)
			return -errno;
	}
	ret = outbuf_init(&o->ob, fd, bufsize);
	if (ret) {
		if (fd != STDOUT_FILENO)
			close(fd);
		return ret;
	}
	o->ops = ops;
	o->meta = meta;
	o->nrecords = 0;
	o->last_end_ns = 0;
	o->any_sample = false;
	o->priv = NULL;
	if (ops->init) {
		ret = ops->init(o);
		if (ret) {
			outbuf_close(&o->ob);
			outbuf_free(&o->ob);
			return ret;
		}
	}
	return 0;
}

int output_end(struct output *o, const struct summary *sum)
{
	int err;

	o->ops->end(o, sum);
	err = outbuf_flush(&o->ob);
	if (!err)
		err = outbuf_close(&o->ob);
	return err;
}

void output_free(struct output *o)
{
	if (o->ops && o->ops->fini)
		o->ops->fini(o);
	outbuf_close(&o->ob);
	outbuf_free(&o->ob);
}
