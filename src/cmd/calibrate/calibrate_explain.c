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

/* The latency classes below, by their upper bound; 4: slower than 4 ms. */
static int latency_band(double ns)
{
	static const double upper[] = { 20e3, 200e3, 1e6, 4e6 };

	for (int i = 0; i < 4; i++)
		if (ns < upper[i])
			return i;
	return 4;
}

/*
 * The first half: what a lone request's latency looks like, read from the
 * QD1 point's median (a few slow requests move the mean, not the class).
 * Sets *doctor when `iolab doctor` can say more.
 */
static int latency_clause(const struct cal_facts *f, char *b, size_t len,
			  bool *doctor)
{
	char lat[48], n1[32];
	double ns = f->qd1_p50_ns > 0 ? f->qd1_p50_ns : f->qd1_mean_ns;

	fmt_ns(ns, n1, sizeof(n1));
	snprintf(lat, sizeof(lat), "%s%s", n1,
		 f->qd1_p50_ns > 0 ? " (median)" : "");
	if (f->null_engine) {
		fmt_ns(f->qd1_mean_ns, lat, sizeof(lat));
		return snprintf(
			b, len,
			"With --engine null no I/O was done (%s per request is iolab's own path)",
			lat);
	}
	if (f->ram_backed)
		return snprintf(
			b, len,
			"Latency at QD1 of %s is memory, not a disk: the target is backed by RAM",
			lat);
	if (f->unbacked)
		return snprintf(
			b, len,
			"Latency at QD1 of %s is not a disk's: the reads were of a region no disk stored (see the warnings); calibrate a region that holds data",
			lat);
	if (f->buffered)
		return snprintf(
			b, len,
			"Latency at QD1 of %s was measured through the page cache, so it describes the cache as much as the disk",
			lat);
	if (latency_band(ns) == 0)
		return snprintf(
			b, len,
			"Latency at QD1 of %s is faster than any disk: the reads were served from a cache (%s)",
			lat,
			f->virtualized ?
				"most likely the host's page cache: a VM disk with cache=writeback or unsafe" :
				"an array or drive cache");
	if (latency_band(ns) == 1)
		return snprintf(
			b, len,
			"Latency at QD1 of %s is what local flash (NVMe, or a paravirtual path to it) looks like",
			lat);
	if (latency_band(ns) == 2)
		return snprintf(
			b, len,
			"Latency at QD1 of %s is SATA/SAS-flash class, or flash behind a virtualisation or network layer",
			lat);
	if (latency_band(ns) == 3)
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

/*
 * A noisy QD1 point whose windows lie in two classes: the class read from
 * their median is a guess, and the sentence says so.
 */
static void hedge_clause(const struct cal_facts *f, char *b, size_t len)
{
	char lo[32], hi[32];

	*b = '\0';
	if (!f->qd1_noisy || f->null_engine || f->qd1_p50_lo_ns <= 0 ||
	    latency_band(f->qd1_p50_lo_ns) == latency_band(f->qd1_p50_hi_ns))
		return;
	snprintf(
		b, len,
		" (but its windows disagreed, %s to %s, across a class boundary: the class is uncertain)",
		fmt_ns(f->qd1_p50_lo_ns, lo, sizeof(lo)),
		fmt_ns(f->qd1_p50_hi_ns, hi, sizeof(hi)));
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
	hedge_clause(f, buf + n, len - n);
	n = strlen(buf);
	scaling_clause(f, buf + n, len - n);
	n = strlen(buf);
	snprintf(buf + n, len - n, "%s",
		 doctor ? "; see `iolab doctor`." : ".");
}
