// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's own counters of each whole disk (/proc/diskstats), beside
 * the probe: they cost nothing and say what the disk did between scrapes
 * (rate(read_time) / rate(reads) is the mean latency the workload saw).
 * Names follow node_exporter's node_disk_* so dashboards carry over.
 * Partitions are left out (a disk's counters include them), and so are
 * disks that never did any I/O (idle loop and RAM devices).
 */
#include <stdlib.h>
#include <string.h>

#include "probe_impl.h"
#include "../../util/fsread.h"
#include "../../util/xmem.h"

#define DISKSTATS_MAX (256 * 1024) /* ~2,000 devices; the rest is cut */
#define NDISKS_MAX 1024

struct dstat {
	char name[64];
	unsigned long long v[20]; /* the counters after the name, 0 if absent */
	int nv;
};

/* Which field (index into v), the metric, its type and help. */
static const struct {
	int field;
	double scale; /* to base units: sectors to bytes, ms to seconds */
	const char *name, *type, *help;
} rows[] = {
	{ 0, 1, "iolab_disk_reads_completed_total", "counter",
	  "Reads the disk completed (kernel diskstats)." },
	{ 2, 512, "iolab_disk_read_bytes_total", "counter",
	  "Bytes the disk read (kernel diskstats)." },
	{ 3, 1e-3, "iolab_disk_read_time_seconds_total", "counter",
	  "Time reads took, summed over all reads (kernel diskstats)." },
	{ 4, 1, "iolab_disk_writes_completed_total", "counter",
	  "Writes the disk completed (kernel diskstats)." },
	{ 6, 512, "iolab_disk_written_bytes_total", "counter",
	  "Bytes the disk wrote (kernel diskstats)." },
	{ 7, 1e-3, "iolab_disk_write_time_seconds_total", "counter",
	  "Time writes took, summed over all writes (kernel diskstats)." },
	{ 8, 1, "iolab_disk_io_now", "gauge",
	  "I/Os in flight on the disk now (kernel diskstats)." },
	{ 9, 1e-3, "iolab_disk_io_time_seconds_total", "counter",
	  "Time the disk had at least one I/O in flight (kernel diskstats)." },
	{ 10, 1e-3, "iolab_disk_io_time_weighted_seconds_total", "counter",
	  "Time spent in I/O weighted by the I/Os in flight (kernel diskstats)." },
	{ 15, 1, "iolab_disk_flush_requests_total", "counter",
	  "Flush requests the disk completed (kernel diskstats, Linux 5.5 and later)." },
	{ 16, 1e-3, "iolab_disk_flush_requests_time_seconds_total", "counter",
	  "Time flushes took (kernel diskstats, Linux 5.5 and later)." },
};

static int parse(char *text, char **disks, int ndisks, struct dstat *out,
		 int max)
{
	int n = 0;

	for (char *save = NULL, *line = strtok_r(text, "\n", &save);
	     line && n < max; line = strtok_r(NULL, "\n", &save)) {
		struct dstat *d = &out[n];
		char *p = line, *end;
		bool whole = false;

		/* major minor name */
		strtoul(p, &end, 10);
		strtoul(end, &p, 10);
		p += strspn(p, " \t");
		end = p + strcspn(p, " \t");
		if (end == p || (size_t)(end - p) >= sizeof(d->name))
			continue;
		memcpy(d->name, p, (size_t)(end - p));
		d->name[end - p] = '\0';
		for (int i = 0; i < ndisks && !whole; i++)
			whole = !strcmp(disks[i], d->name);
		if (!whole)
			continue;
		d->nv = 0;
		p = end;
		while (d->nv < 20) {
			unsigned long long x = strtoull(p, &end, 10);

			if (end == p)
				break;
			d->v[d->nv++] = x;
			p = end;
		}
		for (int i = d->nv; i < 20; i++)
			d->v[i] = 0;
		if (d->nv < 11 || (!d->v[0] && !d->v[4]))
			continue; /* malformed, or never used */
		n++;
	}
	return n;
}

/* Exact, whatever the size: counters must never lose their last digits. */
static void value(FILE *f, unsigned long long v, double scale)
{
	if (scale == 512)
		fprintf(f, "} %llu\n", v * 512ull);
	else if (scale < 1)
		fprintf(f, "} %llu.%03llu\n", v / 1000, v % 1000);
	else
		fprintf(f, "} %llu\n", v);
}

void probe_diskstats(FILE *f)
{
	char *buf = xmalloc(DISKSTATS_MAX), **disks = NULL;
	struct dstat *d = NULL;
	int ndisks, n = 0;

	ndisks = fsv_list(&fsview_host, "/sys/block", "", &disks);
	if (ndisks > 0 &&
	    fsv_read(&fsview_host, "/proc/diskstats", buf, DISKSTATS_MAX) > 0) {
		d = xcalloc(NDISKS_MAX, sizeof(*d));
		n = parse(buf, disks, ndisks, d, NDISKS_MAX);
	}
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]) && n; r++) {
		prom_family(f, rows[r].name, rows[r].type, rows[r].help);
		for (int i = 0; i < n; i++) {
			if (rows[r].field >= d[i].nv)
				continue; /* an older kernel has no such field */
			fprintf(f, "%s{disk=", rows[r].name);
			prom_label_value(f, d[i].name);
			value(f, d[i].v[rows[r].field], rows[r].scale);
		}
	}
	free(d);
	if (ndisks > 0)
		fsv_list_free(disks);
	free(buf);
}
