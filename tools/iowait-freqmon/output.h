/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output formats as a table of operations (tsv, json, trace), in the way
 * cpupower's monitors are a table of structs. Each writes through a
 * struct outbuf, so an output error is sticky and reported once.
 *
 *   begin   metadata and headers
 *   sample  one sample: one row/record per CPU
 *   end     the summary and the closing syntax
 */
#ifndef IFM_OUTPUT_H
#define IFM_OUTPUT_H

#include "meta.h"
#include "outbuf.h"
#include "sample.h"
#include "summary.h"

struct output {
	struct outbuf ob;
	const struct output_ops *ops;
	const struct run_meta *meta;
	uint64_t nrecords;	/* records written so far (JSON commas) */
	uint64_t last_end_ns;	/* end of the last sample written (trace) */
	bool any_sample;	/* a sample was written */
	void *priv;		/* the format's own state (init/fini) */
};

struct output_ops {
	const char *name;
	size_t row_max;		/* upper bound of the bytes of one CPU row */
	int (*init)(struct output *o);	/* optional: returns 0 or -errno */
	void (*fini)(struct output *o);	/* optional */
	void (*begin)(struct output *o);
	void (*sample)(struct output *o, const struct sample *s);
	void (*end)(struct output *o, const struct summary *sum);
};

extern const struct output_ops output_tsv;
extern const struct output_ops output_json;
extern const struct output_ops output_trace;
extern const struct output_ops output_table;

/*
 * A time of the run (ns since the first snapshot) as written: unchanged,
 * or CLOCK_MONOTONIC with --clock monotonic.
 */
static inline uint64_t output_time_ns(const struct output *o, uint64_t rel)
{
	return o->meta->clock_mono ? o->meta->start_mono_ns + rel : rel;
}

/* "tsv", "json", "trace" or "table"; NULL if unknown. */
const struct output_ops *output_find(const char *name);

/* The column header of the TSV format: a contract, see iowait-freqmon(8). */
#define TSV_COLUMNS "time_s\tcpu\tbusy\tidle\tiowait\tfreq_khz\tvalid" \
	"\tseq\tfreq_start_khz\tstart_s"

/*
 * Open @path for writing (NULL or "-": standard output, which is never
 * closed) with a buffer of @bufsize bytes. Returns 0 or -errno.
 */
int output_open(struct output *o, const char *path,
		const struct output_ops *ops, const struct run_meta *meta,
		size_t bufsize);

/* The end (@sum), flush and close. Returns 0 or the first -errno. */
int output_end(struct output *o, const struct summary *sum);

/* Free the buffer, and close the file if output_end() did not. */
void output_free(struct output *o);

/* JSON objects shared by the json and trace formats. */
void json_meta(struct outbuf *ob, const struct run_meta *m);
void json_summary(struct outbuf *ob, const struct summary *s);

#endif
