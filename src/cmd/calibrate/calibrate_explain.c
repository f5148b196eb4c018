// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading a calibration: the knee of the IOPS curve, Little's law, and the
 * one sentence that says what kind of storage path the numbers look like.
 * The latency bands are what each class of device does for a lone small
 * read: RAM a few us, local NVMe flash tens of us, SATA/SAS flash and fast
 * arrays around 0.1-1 ms, networked or shared storage 1-4 ms, a spinning
 * disk 4-20 ms (seek plus half a rotation), and so does an emulated
 * controller or an overloaded host.
 */
#include <stdio.h>
#include <string.h>

#include "calibrate_suite.h"
#include "../../util/parse.h"

void calibrate_knee(const struct cal_search *s, double fraction,
		    struct cal_knee *k)
{
	const struct cal_point *best, *qd1;

	memset(k, 0, sizeof(*k));
	if (s->best < 0)
		return;
	best = &s->pts[s->best];
	qd1 = cal_search_at(s, 1);
	k->valid = true;
	k->fraction = fraction;
	k->iops = fraction * best->iops;
	/* The first load, walking up to max_iops, that reaches the target;
	 * linear between the two measured loads around it. */
	for (int i = 0; i <= s->best; i++) {
		const struct cal_point *b = &s->pts[i], *a;
		double t;

		if (b->iops < k->iops)
			continue;
		if (!i || s->pts[i - 1].iops >= b->iops) {
			k->load = b->load;
			k->mean_ns = b->mean_ns;
			break;
		}
		a = &s->pts[i - 1];
		t = (k->iops - a->iops) / (b->iops - a->iops);
		k->load = a->load + t * (b->load - a->load);
		k->mean_ns = a->mean_ns + t * (b->mean_ns - a->mean_ns);
		break;
	}
	if (qd1) {
		k->qd1_mean_ns = qd1->mean_ns;
		k->parallelism = best->iops * qd1->mean_ns / 1e9;
	}
	k->in_flight = best->iops * best->mean_ns / 1e9;
}

static bool emulated_driver(const char *d)
{
	static const char *const names[] = {
		"ata_piix", "ahci",    "pata_", "sym53c8xx", "mptspi", "mptsas",
		"BusLogic", "megasas", "lsi",	"floppy",    NULL,
	};

	if (!d || !*d)
		return false;
	for (int i = 0; names[i]; i++)
		if (!strncmp(d, names[i], strlen(names[i])))
			return true;
	return false;
}

/* The first half: what a lone request's latency looks like. Sets
 * *doctor when `iolab doctor` can say more. */
static int latency_clause(const struct cal_facts *f, char *b, size_t len,
			  bool *doctor)
{
	char lat[32];
	double ns = f->qd1_mean_ns;

	fmt_ns(ns, lat, sizeof(lat));
	if (f->null_engine)
		return snprintf(
			b, len,
			"With --engine null no I/O was done (%s per request is iolab's own path)",
			lat);
	if (f->ram_backed)
		return snprintf(
			b, len,
			"Latency at QD1 of %s is memory, not a disk: the target is backed by RAM",
			lat);
	if (f->buffered)
		return snprintf(
			b, len,
			"Latency at QD1 of %s was measured through the page cache, so it describes the cache as much as the disk",
			lat);
	if (ns < 20e3)
		return snprintf(
			b, len,
			"Latency at QD1 of %s is faster than any disk: the reads were served from a cache (%s)",
			lat,
			f->virtualized ?
				"most likely the host's page cache: a VM disk with cache=writeback or unsafe" :
				"an array or drive cache");
	if (ns < 200e3)
		return snprintf(
			b, len,
			"Latency at QD1 of %s is what local flash (NVMe, or a paravirtual path to it) looks like",
			lat);
	if (ns < 1e6)
		return snprintf(
			b, len,
			"Latency at QD1 of %s is SATA/SAS-flash class, or flash behind a virtualisation or network layer",
			lat);
	if (ns < 4e6)
		return snprintf(
			b, len,
			"Latency at QD1 of %s is what networked or heavily shared storage looks like",
			lat);
	*doctor = f->virtualized || f->rotational != 1;
	if (f->virtualized && emulated_driver(f->driver))
		return snprintf(
			b, len,
			"Latency at QD1 of %s is what an emulated controller (%s) looks like: a paravirtual (virtio) disk would do better",
			lat, f->driver);
	if (f->rotational == 1 && !f->virtualized)
		return snprintf(
			b, len,
			"Latency at QD1 of %s is what a spinning disk looks like (a seek plus half a rotation)",
			lat);
	return snprintf(
		b, len,
		"Latency at QD1 of %s is what an emulated controller or a saturated host looks like",
		lat);
}

/* The second half: what more load did. */
static void scaling_clause(const struct cal_facts *f, char *b, size_t len)
{
	double ratio = f->qd1_iops > 0 ? f->best_iops / f->qd1_iops : 0;

	if (!f->cap_met) {
		snprintf(
			b, len,
			", so no load meets --max-latency %g ms: even one read at a time is too slow for that cap",
			f->cap_ms);
		return;
	}
	if (ratio <= 0 || f->nloads < 2) {
		*b = '\0'; /* one load: nothing to say about scaling */
		return;
	}
	if (ratio < 1.5) {
		snprintf(
			b, len,
			", and more load does not raise IOPS (%.1fx): requests are served one at a time (a single queue, an emulated controller or one spindle)",
			ratio);
		return;
	}
	if (f->end == CAL_END_MAX_LOAD && f->best_load >= f->max_load &&
	    f->still_growing) {
		snprintf(
			b, len,
			", and IOPS grows %.1fx with load and was still growing at the --disks bound (load %u): there is more to find with a larger --disks",
			ratio, f->max_load);
		return;
	}
	if (ratio < 4) {
		snprintf(
			b, len,
			", and IOPS grows only %.1fx with load (best at load %u): little parallelism on the path",
			ratio, f->best_load);
		return;
	}
	snprintf(
		b, len,
		", and IOPS grows %.1fx with load (80%% of it by load %.0f, the best at load %u): the path serves parallel requests well",
		ratio, f->knee_load, f->best_load);
}

void calibrate_classify(const struct cal_facts *f, char *buf, size_t len)
{
	bool doctor = false;
	size_t n;
	int k;

	if (f->qd1_mean_ns <= 0) {
		snprintf(buf, len,
			 "QD1 was not measured, so there is nothing to read.");
		return;
	}
	k = latency_clause(f, buf, len, &doctor);
	if (k < 0 || (size_t)k >= len)
		return;
	n = (size_t)k;
	scaling_clause(f, buf + n, len - n);
	n = strlen(buf);
	snprintf(buf + n, len - n, "%s",
		 doctor ? "; see `iolab doctor`." : ".");
}
