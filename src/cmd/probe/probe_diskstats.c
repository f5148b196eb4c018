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
#include "../top/top_stats.h"
#include "../../util/err.h"
#include "../../util/fsread.h"

/* Which counter (top_stats.h), the metric, its type and help. */
static const struct {
	enum top_field field;
	double scale; /* to base units: sectors to bytes, ms to seconds */
	const char *name, *type, *help;
} rows[] = {
	{ TF_RD_IOS, 1, "iolab_disk_reads_completed_total", "counter",
	  "Reads the disk completed (kernel diskstats)." },
	{ TF_RD_SECT, 512, "iolab_disk_read_bytes_total", "counter",
	  "Bytes the disk read (kernel diskstats)." },
	{ TF_RD_TICKS, 1e-3, "iolab_disk_read_time_seconds_total", "counter",
	  "Time reads took, summed over all reads (kernel diskstats)." },
	{ TF_WR_IOS, 1, "iolab_disk_writes_completed_total", "counter",
	  "Writes the disk completed (kernel diskstats)." },
	{ TF_WR_SECT, 512, "iolab_disk_written_bytes_total", "counter",
	  "Bytes the disk wrote (kernel diskstats)." },
	{ TF_WR_TICKS, 1e-3, "iolab_disk_write_time_seconds_total", "counter",
	  "Time writes took, summed over all writes (kernel diskstats)." },
	{ TF_IN_FLIGHT, 1, "iolab_disk_io_now", "gauge",
	  "I/Os in flight on the disk now (kernel diskstats)." },
	{ TF_IO_TICKS, 1e-3, "iolab_disk_io_time_seconds_total", "counter",
	  "Time the disk had at least one I/O in flight (kernel diskstats)." },
	{ TF_RQ_TICKS, 1e-3, "iolab_disk_io_time_weighted_seconds_total",
	  "counter",
	  "Time spent in I/O weighted by the I/Os in flight (kernel diskstats)." },
	{ TF_FL_IOS, 1, "iolab_disk_flush_requests_total", "counter",
	  "Flush requests the disk completed (kernel diskstats, Linux 5.5 and later)." },
	{ TF_FL_TICKS, 1e-3, "iolab_disk_flush_requests_time_seconds_total",
	  "counter",
	  "Time flushes took (kernel diskstats, Linux 5.5 and later)." },
};

/* A whole disk (in /sys/block) that did some I/O: idle loop and RAM
 * devices are left out, and partitions are in their disk's counters. */
static bool shown(const struct top_dev *d, char **disks, int ndisks)
{
	if (!d->f[TF_RD_IOS] && !d->f[TF_WR_IOS])
		return false;
	for (int i = 0; i < ndisks; i++)
		if (!strcmp(disks[i], d->name))
			return true;
	return false;
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
	struct top_snap snap = { 0 };
	struct err ignore = { 0 };
	char **disks = NULL;
	int ndisks;

	/* One reader of /proc/diskstats for top, doctor --observe and this. */
	ndisks = fsv_list(&fsview_host, "/sys/block", "", &disks);
	if (ndisks <= 0)
		return;
	if (!top_read("/proc/diskstats", &snap, &ignore)) {
		fsv_list_free(disks);
		return;
	}
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		bool head = false;

		for (size_t i = 0; i < snap.n; i++) {
			const struct top_dev *d = &snap.devs[i];

			if (!shown(d, disks, ndisks) ||
			    !((int)rows[r].field < d->nfields))
				continue; /* an older kernel has no such field */
			if (!head)
				prom_family(f, rows[r].name, rows[r].type,
					    rows[r].help);
			head = true;
			fprintf(f, "%s{disk=", rows[r].name);
			prom_label_value(f, d->name);
			value(f, d->f[rows[r].field], rows[r].scale);
		}
	}
	top_snap_free(&snap);
	fsv_list_free(disks);
}
