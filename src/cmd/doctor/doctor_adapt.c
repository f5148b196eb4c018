// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `iolab doctor --json` to the compare/report model; the schema is in
 * iolab-doctor(1): "system", "virtualization", "guest", "disks":[{"name",
 * "driver","bus","controller","model","size_bytes","scheduler","queues",
 * ...,"probe":{"lat_ns"}}], "findings":[{"severity","id","disk","message",
 * "why","fix":{"summary","commands","host":{...}}}], "summary".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../adapters.h"
#include "../../report/adapt.h"
#include "../../report/json_read.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

void adapt_finding_counts(struct rdoc *d, const char *const *severities)
{
	for (int s = 0; severities[s]; s++) {
		size_t n = 0;
		char key[64], name[64];

		for (size_t i = 0; i < d->nfinds; i++)
			if (!strcmp(d->finds[i].severity, severities[s]))
				n++;
		snprintf(key, sizeof(key), "findings/%s", severities[s]);
		snprintf(name, sizeof(name), "%s findings", severities[s]);
		rdoc_fig(d, key, "findings", name, RU_COUNT,
			 s < 2 ? RB_LOWER : RB_NONE, (double)n, RF_HEADLINE);
	}
}

static void disk_setting(struct rdoc *d, const char *disk,
			 const struct jr_node *n, const char *path,
			 const char *label)
{
	char key[128], lab[128], buf[64];

	snprintf(key, sizeof(key), "disk/%s/%s", disk, path);
	snprintf(lab, sizeof(lab), "%s %s", disk, label);
	rdoc_set_detail(d, key, lab, jr_scalar(n, path, buf, sizeof(buf)));
}

/*
 * With one disk in every document (the usual guest), figures and settings
 * are keyed "disk", not by name, so that a guest whose disk moved from sda
 * (IDE) to vda (virtio) compares with itself.
 */
static void doctor_disks(struct rdoc *d, const struct jr_node *disks)
{
	static const char *const head[] = {
		"disk",	     "driver", "controller", "model",	   "size",
		"scheduler", "queues", "rotational", "probe mean", "probe p99"
	};
	struct rtable *t = rdoc_table(d, "disks", "Disks", 10, head);
	struct rbars *bars = NULL;
	size_t probed = 0;

	/* One disk's probe is a tile; several are worth a bar chart. */
	for (size_t i = 0; i < jr_len(disks); i++)
		probed += jr_get(jr_at(disks, i), "probe.lat_ns.mean") != NULL;

	for (size_t i = 0; i < jr_len(disks); i++) {
		const struct jr_node *k = jr_at(disks, i);
		const char *name = jr_str(k, "name") ? jr_str(k, "name") : "?";
		const char *id = jr_len(disks) == 1 ? "disk" : name;
		char c[10][64], key[96], group[96], note[96];
		const char *row[10];
		double mean = jr_numd(k, "probe.lat_ns.mean", NAN);
		double p99 = jr_numd(k, "probe.lat_ns.p99", NAN);
		bool rot;

		snprintf(c[0], 64, "%s", name);
		snprintf(c[1], 64, "%s", jr_str(k, "driver") ?: "");
		snprintf(c[2], 64, "%s",
			 jr_str(k, "controller") ? jr_str(k, "controller") :
			 jr_str(k, "bus")	 ? jr_str(k, "bus") :
						   "");
		snprintf(c[3], 64, "%s", jr_str(k, "model") ?: "");
		if (!adapt_size(k, "size_bytes", c[4], 64))
			c[4][0] = 0;
		snprintf(c[5], 64, "%s", jr_str(k, "scheduler") ?: "");
		if (!jr_scalar(k, "queues", c[6], 64))
			c[6][0] = 0;
		snprintf(c[7], 64, "%s",
			 jr_bool(k, "rotational", &rot) ? (rot ? "yes" : "no") :
							  "");
		if (isfinite(mean))
			rfmt(RU_NS, mean, c[8], 64);
		else
			snprintf(c[8], 64, "%s",
				 jr_str(k, "probe.error") ? "failed" : "");
		if (isfinite(p99))
			rfmt(RU_NS, p99, c[9], 64);
		else
			c[9][0] = 0;
		for (int j = 0; j < 10; j++)
			row[j] = c[j];
		rtable_row(t, row);

		disk_setting(d, id, k, "name", "name");
		disk_setting(d, id, k, "driver", "driver");
		disk_setting(d, id, k, "bus", "bus");
		disk_setting(d, id, k, "model", "model");
		disk_setting(d, id, k, "scheduler", "scheduler");
		disk_setting(d, id, k, "queues", "queues");
		disk_setting(d, id, k, "nr_requests", "nr_requests");
		disk_setting(d, id, k, "write_cache", "write cache");

		snprintf(group, sizeof(group), "%s QD1 read probe", id);
		snprintf(key, sizeof(key), "disk/%s/probe_mean", id);
		rdoc_fig(d, key, group, "mean latency", RU_NS, RB_LOWER, mean,
			 RF_CHART | RF_HEADLINE);
		snprintf(key, sizeof(key), "disk/%s/probe_p99", id);
		rdoc_fig(d, key, group, "p99 latency", RU_NS, RB_LOWER, p99, 0);
		snprintf(key, sizeof(key), "disk/%s/probe_iops", id);
		rdoc_fig(d, key, group, "IOPS", RU_IOPS, RB_HIGHER,
			 jr_numd(k, "probe.iops", NAN), 0);
		if (isfinite(mean) && probed > 1) {
			if (!bars)
				bars = rdoc_bars(d, "probe",
						 "QD1 read latency probe",
						 RU_NS);
			snprintf(note, sizeof(note), "p99 %s",
				 rfmt(RU_NS, p99, c[0], 64));
			rbars_add(bars, name, mean, NAN, NAN, NAN,
				  isfinite(p99) ? note : NULL, NULL);
		}
	}
}

/*
 * A finding's "fix": a string, or doctor's {"summary", "commands":[...],
 * "host":{"proxmox":..., ...}, "other_hypervisor"}.
 */
void adapt_fix(struct rdoc *d, const struct jr_node *fix)
{
	static const struct {
		const char *key, *name;
	} hosts[] = {
		{ "qnap_virtualization_station",
		  "QNAP Virtualization Station" },
		{ "proxmox", "Proxmox" },
		{ "virt_manager", "virt-manager" },
		{ "libvirt_xml", "libvirt XML" },
		{ "qemu", "QEMU command line" },
	};
	const struct jr_node *cmds = jr_get(fix, "commands");
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	if (!jr_is_object(fix))
		return;
	if (d->nfinds)
		d->finds[d->nfinds - 1].fix_prose = true;
	m = open_memstream(&text, &len);
	if (!m)
		xoom();
	for (size_t i = 0; i < jr_len(cmds); i++) {
		const char *c = jr_str(jr_at(cmds, i), "");

		if (c)
			fprintf(m, "%s%s", ftell(m) ? "\n" : "", c);
	}
	fclose(m);
	rdoc_finding_commands(d, text);
	free(text);
	for (size_t i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
		char path[96];

		snprintf(path, sizeof(path), "host.%s", hosts[i].key);
		rdoc_finding_where(d, hosts[i].name, jr_str(fix, path));
	}
	rdoc_finding_where(d, "other hypervisors",
			   jr_str(fix, "other_hypervisor"));
}

bool adapt_doctor(struct rdoc *d, const struct jr_node *root, struct err *err)
{
	static const char *const sev[] = { "critical", "warning", "info",
					   NULL };
	const struct jr_node *v = jr_get(root, "virtualization");
	const struct jr_node *disks = jr_get(root, "disks");
	const struct jr_node *f = jr_get(root, "findings");
	const char *hv = jr_str(v, "hypervisor_name") ?
				 jr_str(v, "hypervisor_name") :
				 jr_str(v, "hypervisor");
	const char *os = jr_str(root, "system.distribution.name") ?
				 jr_str(root, "system.distribution.name") :
				 jr_str(root, "os.name");
	const char *ct = jr_str(v, "container");
	char buf[512];
	bool b;

	if (!jr_is_array(disks) || !jr_is_array(f))
		return err_set(
			err, EXIT_USAGE, 0,
			"a doctor document without \"disks\" or \"findings\"; give the output of 'iolab doctor --json'");
	rdoc_set(d, RS_ENV, "hypervisor", "hypervisor", hv ? hv : "none");
	rdoc_set(d, RS_ENV, "product", "machine", jr_str(v, "product"));
	rdoc_set(d, RS_ENV, "platform", "platform", jr_str(v, "platform"));
	/* doctor says "none" when it looked and found no container. */
	if (ct && !strcmp(ct, "none"))
		ct = NULL;
	rdoc_set(d, RS_ENV, "container", "container", ct);
	snprintf(buf, sizeof(buf), "%s%s%s", os ? os : "",
		 jr_str(root, "os.version") ? " " : "",
		 jr_str(root, "os.version") ? jr_str(root, "os.version") : "");
	rdoc_set(d, RS_ENV, "os", "distribution", os ? buf : NULL);
	rdoc_set(d, RS_ENV, "kernel", "kernel",
		 jr_str(root, "system.kernel") ? jr_str(root, "system.kernel") :
						 jr_str(root, "os.kernel"));
	if (jr_bool(root, "guest.agent.running", &b) ||
	    jr_bool(root, "guest_agent.running", &b))
		rdoc_set(d, RS_ENV, "guest_agent", "QEMU guest agent",
			 b ? "running" : "not running");
	adapt_warnings(d, jr_get(root, "warnings"));

	for (size_t i = 0; i < jr_len(f); i++) {
		const struct jr_node *x = jr_at(f, i);

		rdoc_finding(d, jr_str(x, "severity"), jr_str(x, "id"),
			     jr_str(x, "disk"), jr_str(x, "message"),
			     jr_str(x, "why"),
			     jr_str(x, "fix") ? jr_str(x, "fix") :
						jr_str(x, "fix.summary"));
		adapt_fix(d, jr_get(x, "fix"));
	}
	adapt_finding_counts(d, sev);
	doctor_disks(d, disks);
	/* "Debian 12 on KVM, QEMU Standard PC (Q35 ...), 1 disk" */
	snprintf(buf, sizeof(buf), "%s%s%s%s%s, %zu disk%s", os ? os : "",
		 os ? " on " : "", hv ? hv : "no hypervisor",
		 jr_str(v, "product") ? ", " : "",
		 jr_str(v, "product") ? jr_str(v, "product") : "",
		 jr_len(disks), jr_len(disks) == 1 ? "" : "s");
	d->title = xstrdup(buf);
	if (ct)
		warn_add(
			&d->warns, "container",
			"running in a container (%s): the disks seen are the host's",
			ct);
	return true;
}
