// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for Proxmox's storage.cfg as iolab advise reads it:
 * the input is the storage.cfg; a fixed VM config has drives on storages
 * of the names the corpus uses, so every storage type resolves a path.
 * replay.c runs it over the kept corpus in every build.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/advise/advise_proxmox.h"
#include "cmd/advise/advise_rules.h"
#include "cmd/advise/advise_report.h"
#include "util/err.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char config[] = "name: fuzz\n"
			     "scsihw: virtio-scsi-single\n"
			     "scsi0: local:100/vm-100-disk-0.qcow2,iothread=1\n"
			     "scsi1: local-lvm:vm-100-disk-1,cache=writeback\n"
			     "scsi2: san-lvm:vm-100-disk-2,aio=native\n"
			     "virtio0: ceph-vm:vm-100-disk-3\n"
			     "virtio1: local-zfs:vm-100-disk-4,cache=none\n"
			     "sata0: nas-smb:100/vm-100-disk-5.raw\n"
			     "ide0: a:iso/x.iso,media=cdrom\n"
			     "scsi3: b:vm-100-disk-6\n"
			     "scsi4: c:vm-100-disk-7,cache=unsafe\n";

static FILE *sink(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "we");
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct adv_ctx ctx = { .probe = false,
					    .proc_root = "/proc" };
	struct adv_report r = { 0 };
	struct err err = { 0 };
	char *text = malloc(size + 1);

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (adv_proxmox_read_text(&r, "/etc/pve/qemu-server/100.conf", config,
				  text, &ctx, &err)) {
		struct advise_render a = { .r = &r };

		adv_rules_run(&r);
		advise_text_print(&a, sink());
		advise_json_write(&a, sink(), &err);
	}
	adv_report_free(&r);
	free(text);
	return 0;
}
