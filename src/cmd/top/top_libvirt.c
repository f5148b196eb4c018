// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libvirt's block statistics for top --vms. Read-only connection, and
 * only calls that read: list the running domains, their XML (without
 * secrets) and each disk's counters. libvirt's own error printing is off:
 * its messages come back as the VM's "why".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "top_libvirt.h"
#include "../../util/clock.h"
#include "../../util/term.h"
#include "../../util/xmem.h"

#if HAVE_LIBVIRT
#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

/* A domain XML larger than this is not read (advise's own bound is 4 MiB). */
#define XML_MAX (4u << 20)

struct top_lv {
	virConnectPtr conn;
	char uri[256];
};

static void quiet(void *opaque, virErrorPtr e)
{
	(void)opaque;
	(void)e;
}

static void last_error(const char *what, char *why, size_t wlen)
{
	const char *m = virGetLastErrorMessage();

	snprintf(why, wlen, "libvirt %s: %s", what, term_safe(m ? m : "?"));
}

bool top_lv_available(void)
{
	return true;
}

struct top_lv *top_lv_open(const char *uri, char *why, size_t wlen)
{
	struct top_lv *lv;
	virConnectPtr c;

	virSetErrorFunc(NULL, quiet);
	c = virConnectOpenReadOnly(uri);
	if (!c) {
		last_error(uri, why, wlen);
		return NULL;
	}
	lv = xcalloc(1, sizeof(*lv));
	lv->conn = c;
	snprintf(lv->uri, sizeof(lv->uri), "%s", uri);
	return lv;
}

const char *top_lv_uri(const struct top_lv *lv)
{
	return lv->uri;
}

void top_lv_close(struct top_lv *lv)
{
	if (!lv)
		return;
	virConnectClose(lv->conn);
	free(lv);
}

/* advise's view of the domain: its disks, named by <target dev>. */
static void read_cfg(virDomainPtr d, struct top_vm *vm)
{
	char *xml = virDomainGetXMLDesc(d, 0);
	size_t len = xml ? strlen(xml) : 0;

	free(vm->cfg);
	vm->cfg = NULL;
	vm->ncfg = 0;
	if (!xml) {
		last_error("domain XML", vm->why, sizeof(vm->why));
		return;
	}
	if (len <= XML_MAX)
		top_vm_advise_xml(vm->lvdom, xml, len, &vm->cfg, &vm->ncfg);
	free(xml);
	if (!vm->ncfg)
		snprintf(vm->why, sizeof(vm->why),
			 "no disk read from the domain's XML%s",
			 len > XML_MAX ? " (too large)" : "");
}

static struct top_vm *find(struct top_vm *vms, size_t n, const char *name,
			   bool lv_only)
{
	for (size_t i = 0; i < n; i++)
		if (vms[i].lv_only == lv_only && !strcmp(vms[i].name, name) &&
		    (lv_only || vms[i].libvirt || !vms[i].qmp[0]))
			return &vms[i];
	return NULL;
}

void top_lv_scan(struct top_lv *lv, struct top_vm **vms, size_t *n)
{
	virDomainPtr *doms = NULL;
	int nd = virConnectListAllDomains(lv->conn, &doms,
					  VIR_CONNECT_LIST_DOMAINS_ACTIVE);

	for (size_t i = 0; i < *n; i++)
		if ((*vms)[i].lv_only)
			(*vms)[i].seen = false;
	for (int i = 0; i < nd; i++) {
		const char *dn = virDomainGetName(doms[i]);
		char name[TOP_NAME_MAX];
		struct top_vm *vm;

		if (!dn)
			continue;
		/* As top_vm_name() keeps QEMU's -name guest=NAME. */
		term_sanitize(name, sizeof(name), dn, 0);
		vm = find(*vms, *n, name, false);
		if (!vm)
			vm = find(*vms, *n, name, true);
		if (!vm) {
			*vms = xrealloc(*vms, (*n + 1) * sizeof(**vms));
			vm = &(*vms)[(*n)++];
			memset(vm, 0, sizeof(*vm));
			vm->lv_only = true;
			vm->uid = (uid_t)-1;
			snprintf(vm->name, sizeof(vm->name), "%s", name);
		}
		vm->seen = true;
		if (!vm->libvirt) {
			/* Its disks as libvirt names them, not QEMU's ids. */
			vm->libvirt = true;
			vm->why[0] = '\0';
			snprintf(vm->lvdom, sizeof(vm->lvdom), "%s", dn);
			read_cfg(doms[i], vm);
		}
	}
	for (int i = 0; i < nd; i++)
		virDomainFree(doms[i]);
	free(doms);
	for (size_t i = 0, j = 0, m = *n; i < m; i++) {
		if ((*vms)[i].seen || !(*vms)[i].lv_only) {
			(*vms)[j++] = (*vms)[i];
		} else {
			top_vm_release(&(*vms)[i]);
			(*n)--;
		}
	}
}

static uint64_t param(const virTypedParameter *p, int np, const char *field,
		      bool *have)
{
	for (int i = 0; i < np; i++)
		if (!strcmp(p[i].field, field) &&
		    p[i].type == VIR_TYPED_PARAM_LLONG && p[i].value.l >= 0) {
			*have = true;
			return (uint64_t)p[i].value.l;
		}
	return 0;
}

/* The full counters (QEMU's driver); false if the driver has no such call. */
static int disk_flags(virDomainPtr d, const char *dev, struct top_vmdisk *k,
		      struct top_vmstats *s)
{
	virTypedParameter p[32];
	int np = 0;
	bool t = false, f = false, ign = false;

	if (virDomainBlockStatsFlags(d, dev, NULL, &np, 0) < 0)
		return virGetLastErrorCode() == VIR_ERR_NO_SUPPORT ? 0 : -1;
	if (np > (int)(sizeof(p) / sizeof(p[0])))
		np = (int)(sizeof(p) / sizeof(p[0]));
	if (virDomainBlockStatsFlags(d, dev, p, &np, 0) < 0)
		return -1;
	k->rd_ops = param(p, np, VIR_DOMAIN_BLOCK_STATS_READ_REQ, &ign);
	k->rd_bytes = param(p, np, VIR_DOMAIN_BLOCK_STATS_READ_BYTES, &ign);
	k->wr_ops = param(p, np, VIR_DOMAIN_BLOCK_STATS_WRITE_REQ, &ign);
	k->wr_bytes = param(p, np, VIR_DOMAIN_BLOCK_STATS_WRITE_BYTES, &ign);
	k->rd_ns = param(p, np, VIR_DOMAIN_BLOCK_STATS_READ_TOTAL_TIMES, &t);
	k->wr_ns = param(p, np, VIR_DOMAIN_BLOCK_STATS_WRITE_TOTAL_TIMES, &t);
	k->fl_ops = param(p, np, VIR_DOMAIN_BLOCK_STATS_FLUSH_REQ, &f);
	k->fl_ns = param(p, np, VIR_DOMAIN_BLOCK_STATS_FLUSH_TOTAL_TIMES, &t);
	s->no_times |= !t;
	s->no_flush |= !f;
	virTypedParamsClear(p, np);
	return 1;
}

/* The older call: requests and bytes only (-1 where unknown). */
static bool disk_legacy(virDomainPtr d, const char *dev, struct top_vmdisk *k,
			struct top_vmstats *s)
{
	virDomainBlockStatsStruct b;

	if (virDomainBlockStats(d, dev, &b, sizeof(b)) < 0)
		return false;
	k->rd_ops = b.rd_req > 0 ? (uint64_t)b.rd_req : 0;
	k->rd_bytes = b.rd_bytes > 0 ? (uint64_t)b.rd_bytes : 0;
	k->wr_ops = b.wr_req > 0 ? (uint64_t)b.wr_req : 0;
	k->wr_bytes = b.wr_bytes > 0 ? (uint64_t)b.wr_bytes : 0;
	s->no_times = s->no_flush = true;
	return true;
}

static bool sample_one(virConnectPtr c, struct top_vm *vm)
{
	virDomainPtr d = virDomainLookupByName(c, vm->lvdom);
	struct top_vmstats *s = &vm->cur;
	uint64_t t0 = clock_mono_ns();

	if (!d) {
		last_error("domain", vm->why, sizeof(vm->why));
		return false;
	}
	s->d = xcalloc(vm->ncfg + 1, sizeof(*s->d));
	for (size_t i = 0; i < vm->ncfg; i++) {
		struct top_vmdisk *k = &s->d[s->n];
		int rc = disk_flags(d, vm->cfg[i].id, k, s);

		if (rc < 0 || (!rc && !disk_legacy(d, vm->cfg[i].id, k, s))) {
			char what[TOP_NAME_MAX + 16];

			snprintf(what, sizeof(what), "disk %s", vm->cfg[i].id);
			last_error(what, vm->why, sizeof(vm->why));
			virDomainFree(d);
			return false;
		}
		memcpy(k->name, vm->cfg[i].id, sizeof(k->name));
		s->n++;
	}
	virDomainFree(d);
	/* The middle of the calls: the counters were read in between. */
	s->t_ns = t0 + (clock_mono_ns() - t0) / 2;
	return true;
}

void top_lv_sample(struct top_lv *lv, struct top_vm *vms, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct top_vm *vm = &vms[i];

		if (!vm->libvirt || !vm->ncfg)
			continue;
		top_vm_shift(vm);
		if (!sample_one(lv->conn, vm)) {
			top_vmstats_free(&vm->cur);
			vm->have_prev = false;
		}
	}
}

#else /* !HAVE_LIBVIRT */

bool top_lv_available(void)
{
	return false;
}

struct top_lv *top_lv_open(const char *uri, char *why, size_t wlen)
{
	snprintf(
		why, wlen,
		"libvirt %s: this iolab was built without libvirt (libvirt-dev)",
		uri);
	return NULL;
}

const char *top_lv_uri(const struct top_lv *lv)
{
	(void)lv;
	return "";
}

void top_lv_scan(struct top_lv *lv, struct top_vm **vms, size_t *n)
{
	(void)lv;
	(void)vms;
	(void)n;
}

void top_lv_sample(struct top_lv *lv, struct top_vm *vms, size_t n)
{
	(void)lv;
	(void)vms;
	(void)n;
}

void top_lv_close(struct top_lv *lv)
{
	(void)lv;
}

#endif
