// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "discover.h"

/* -ENODEV if @set names a CPU outside sysfs' "possible" list. */
static int check_possible(struct discovery *d, const unsigned char *set,
			  unsigned int nbits)
{
	unsigned char *possible = calloc(nbits, 1);
	int ret = 0;

	if (!possible)
		return -ENOMEM;
	if (root_read_file(d->root, "/sys/devices/system/cpu/possible",
			   d->possible, sizeof(d->possible)) > 0 &&
	    cpulist_parse(d->possible, possible, nbits) > 0) {
		for (unsigned int c = 0; c < nbits; c++) {
			if (set[c] && !possible[c]) {
				d->bad_cpu = c;
				ret = -ENODEV;
				break;
			}
		}
	}
	free(possible);
	return ret;
}

static bool online(const struct tl_snapshot *snap, unsigned int c)
{
	return c < snap->ncpus && snap->cpu[c].seen;
}

/* Pick the CPUs: @want (--cpus), or those online in @snap. */
static int select_cpus(struct discovery *d, const struct tl_snapshot *snap,
		       const unsigned char *want, unsigned int nbits)
{
	unsigned int n = 0, noff = 0;
	int last = -1;

	for (unsigned int c = 0; c < nbits; c++) {
		if (want ? !want[c] : !online(snap, c))
			continue;
		noff += !online(snap, c);
		last = (int)c;
		n++;
	}
	if (last < 0)
		return -ENODATA;
	d->ncap = (unsigned int)last + 1;
	d->wanted = calloc(d->ncap, 1);
	d->cpu = calloc(n, sizeof(*d->cpu));
	d->offline = calloc(noff ? noff : 1, sizeof(*d->offline));
	if (!d->wanted || !d->cpu || !d->offline)
		return -ENOMEM;
	for (unsigned int c = 0; c < d->ncap; c++) {
		if (want ? !want[c] : !online(snap, c))
			continue;
		if (!online(snap, c))
			d->offline[d->noffline++] = c;
		d->wanted[c] = 1;
		d->cpu[d->ncpus++] = c;
	}
	return 0;
}

/*
 * Version, live or stale sums, or no sleep times at all (v0.11: idle and
 * iowait must come from /proc/stat). -ENODATA if no block has the fields
 * but some has a part of them or a malformed one: a broken file, not a
 * kernel without them.
 */
static int check_format(struct discovery *d, const struct tl_snapshot *snap)
{
	bool live = true, fields = false, some = false, bad = false;
	unsigned int seen = 0;

	for (unsigned int c = 0; c < snap->ncpus; c++) {
		const struct tl_cpu *cpu = &snap->cpu[c];

		if (!cpu->seen)
			continue;
		seen++;
		fields |= (cpu->have & TL_NEED_STALE) == TL_NEED_STALE;
		some |= (cpu->have & (TL_IDLE | TL_IOWAIT)) != 0;
		bad |= cpu->bad;
		live &= tl_cpu_live(cpu);
	}
	if (!fields && (some || bad || !seen))
		return -ENODATA;
	d->stat_idle = !fields;
	d->tl_major = snap->ver_major;
	d->tl_minor = snap->ver_minor;
	d->untested = snap->ver_major != 0 || snap->ver_minor < 8 ||
		      snap->ver_minor > 11;
	d->nextra = snap->nextra;
	d->live = live && fields;
	return 0;
}

int discover(struct discovery *d)
{
	unsigned int flags = d->replay ? SRC_REPLAY | SRC_SEQUENCE : 0;
	struct tl_snapshot snap = { 0 };
	unsigned char *want = NULL;
	struct tl_reader rd = { 0 };
	size_t cap;
	int ret, fd;

	d->stage = DISC_OPEN;
	d->nbits = DISCOVERY_CPUS;
	ret = srcfile_open(&d->tl_file, d->root, "/proc/timer_list", flags);
	if (ret)
		return ret;
	d->have_tl_file = true;

	if (d->cpus) {
		d->stage = DISC_CPUS;
		d->nbits = TL_MAX_CPU + 1;
		want = calloc(d->nbits, 1);
		if (!want)
			return -ENOMEM;
		ret = cpulist_parse(d->cpus, want, d->nbits);
		if (ret <= 0) {
			ret = ret ? ret : -EINVAL;
			goto out;
		}
		d->stage = DISC_POSSIBLE;
		ret = check_possible(d, want, d->nbits);
		if (ret)
			goto out;
	}

	d->stage = DISC_PARSE;
	snap.ncpus = d->nbits;
	snap.cpu = calloc(d->nbits, sizeof(*snap.cpu));
	ret = snap.cpu ? tl_reader_init(&rd, DISCOVERY_BUF, -1, d->nbits)
		       : -ENOMEM;
	if (ret)
		goto out;
	fd = srcfile_get(&d->tl_file, 0);
	ret = fd < 0 ? fd : tl_reader_read(&rd, fd, &snap);
	srcfile_put(&d->tl_file, fd);
	if (!ret && !(snap.flags & TLS_VERSION))
		ret = -EBADMSG;
	if (ret)
		goto out;

	d->stage = DISC_FIELDS;
	ret = check_format(d, &snap);
	if (ret)
		goto out;

	d->stage = DISC_SELECT;
	ret = select_cpus(d, &snap, want, d->nbits);
	if (ret)
		goto out;
	cap = rd.len * 4 > DISCOVERY_MIN_TL_BUF ? rd.len * 4
						: DISCOVERY_MIN_TL_BUF;
	ret = tl_reader_init(&d->reader, cap, (long)d->cpu[d->ncpus - 1],
			     d->ncap);
	if (ret)
		goto out;
	d->have_reader = true;
	d->stage = DISC_DONE;
out:
	tl_reader_free(&rd);
	free(snap.cpu);
	free(want);
	return ret;
}

void discovery_free(struct discovery *d)
{
	if (d->have_tl_file)
		srcfile_close(&d->tl_file);
	if (d->have_reader)
		tl_reader_free(&d->reader);
	free(d->wanted);
	free(d->cpu);
	free(d->offline);
	d->have_tl_file = d->have_reader = false;
	d->wanted = NULL;
	d->cpu = d->offline = NULL;
}
