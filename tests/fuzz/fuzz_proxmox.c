// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the Proxmox VM config reader of iolab advise: the
 * input is a qemu-server config (drive lines, options, snapshots), read
 * with the fixture's storage.cfg; then the rules run and both renderers
 * write the report. replay.c runs it over the kept corpus in every build.
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

/* tests/fixtures/advise/proxmox/etc/pve/storage.cfg */
static const char storage_cfg[] = "dir: local\n"
				  "\tpath /var/lib/vz\n"
				  "\tcontent iso,vztmpl,backup\n"
				  "\n"
				  "lvmthin: local-lvm\n"
				  "\tthinpool data\n"
				  "\tvgname pve\n"
				  "\tcontent rootdir,images\n"
				  "\n"
				  "lvm: san-lvm\n"
				  "\tvgname vg_san\n"
				  "\tcontent images\n"
				  "\tshared 1\n"
				  "\n"
				  "cifs: nas-smb\n"
				  "\tpath /mnt/pve/nas-smb\n"
				  "\tserver 192.168.10.5\n"
				  "\tshare vmstore\n"
				  "\tcontent images,iso\n"
				  "\tusername pve\n"
				  "\n"
				  "rbd: ceph-vm\n"
				  "\tcontent images\n"
				  "\tkrbd 1\n"
				  "\tpool vm-pool\n"
				  "\n"
				  "zfspool: local-zfs\n"
				  "\tpool rpool/data\n"
				  "\tsparse 1\n"
				  "\tcontent images,rootdir\n";

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
	/* The file reader refuses NUL bytes; the parser sees text. */
	memcpy(text, data, size);
	text[size] = '\0';
	if (adv_proxmox_read_text(&r, "/etc/pve/qemu-server/100.conf", text,
				  storage_cfg, &ctx, &err)) {
		struct advise_render a = { .r = &r };

		adv_rules_run(&r);
		advise_text_print(&a, sink());
		advise_json_write(&a, sink(), &err);
	}
	adv_report_free(&r);
	free(text);
	return 0;
}
