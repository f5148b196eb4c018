// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The syntax layers of iolab advise: QEMU option strings (",," escaping,
 * implied keys, flags), the JSON form, shell word splitting, cache knobs
 * and machine types.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cmd/advise/advise_model.h"
#include "cmd/advise/advise_qjson.h"
#include "cmd/advise/advise_qopts.h"
#include "cmd/advise/advise_shell.h"
#include "util/err.h"

static void test_qopts_escaping(void **state)
{
	const char *in = "file=/srv/a,,b.img,if=none,readonly,nosnapshot";
	struct kvl kv = { 0 };
	struct err err = { 0 };
	char *out;

	(void)state;
	assert_true(qopts_parse(in, NULL, "-drive", &kv, &err));
	assert_int_equal(kv.n, 4);
	assert_string_equal(kvl_get(&kv, "file"), "/srv/a,b.img");
	assert_string_equal(kvl_get(&kv, "readonly"), "on");
	assert_string_equal(kvl_get(&kv, "snapshot"), "off");
	out = qopts_format(&kv);
	assert_string_equal(out, in); /* round trip, escapes and flags kept */
	free(out);
	kvl_free(&kv);
}

static void test_qopts_implied(void **state)
{
	struct kvl kv = { 0 };
	struct err err = { 0 };
	char *out;

	(void)state;
	assert_true(qopts_parse("virtio-blk-pci,drive=d0,", "driver", "-device",
				&kv, &err));
	assert_int_equal(kv.n, 2);
	assert_string_equal(kvl_get(&kv, "driver"), "virtio-blk-pci");
	kvl_set(&kv, "iothread", "io0", KV_STR);
	kvl_set(&kv, "drive", "d,1", KV_STR);
	out = qopts_format(&kv);
	assert_string_equal(out, "virtio-blk-pci,drive=d,,1,iothread=io0");
	free(out);
	kvl_free(&kv);
	/* -smp 4 and -smp cpus=4 */
	assert_true(qopts_parse("4,sockets=1", "cpus", "-smp", &kv, &err));
	assert_string_equal(kvl_get(&kv, "cpus"), "4");
	kvl_free(&kv);
}

static void test_qopts_errors(void **state)
{
	struct kvl kv = { 0 };
	struct err err = { 0 };

	(void)state;
	/* a name is needed before '=' */
	assert_false(qopts_parse("file=a,=x", NULL, "-drive", &kv, &err));
	assert_non_null(strstr(err.msg, "no name"));
	kvl_free(&kv);
	/* an empty element is a stray comma */
	memset(&err, 0, sizeof(err));
	assert_false(qopts_parse(",a=1", NULL, "-drive", &kv, &err));
	assert_non_null(strstr(err.msg, "empty parameter"));
	kvl_free(&kv);
	/* ",," inside a value is one comma; ",,," is one comma then the
	   separator; a trailing comma ends the list */
	assert_true(qopts_parse("a=1,,b,,c", NULL, "-drive", &kv, &err));
	assert_string_equal(kvl_get(&kv, "a"), "1,b,c");
	kvl_free(&kv);
	assert_true(qopts_parse("a=b,,,c=d,", NULL, "-drive", &kv, &err));
	assert_int_equal(kv.n, 2);
	assert_string_equal(kvl_get(&kv, "a"), "b,");
	assert_string_equal(kvl_get(&kv, "c"), "d");
	kvl_free(&kv);
	/* the last of a repeated key wins, as in QEMU */
	assert_true(qopts_parse("cache=none,cache=unsafe", NULL, "-drive", &kv,
				&err));
	assert_string_equal(kvl_get(&kv, "cache"), "unsafe");
	kvl_free(&kv);
}

static void test_qjson_round_trip(void **state)
{
	const char *in = "{\"driver\":\"virtio-blk-pci\",\"drive\":\"d0\","
			 "\"cache\":{\"direct\":true,\"no-flush\":false},"
			 "\"iothread-vq-mapping\":[{\"iothread\":\"t0\","
			 "\"vqs\":[0,2]}],\"bootindex\":1,\"x\":null}";
	struct kvl kv = { 0 };
	struct err err = { 0 };
	char *out;

	(void)state;
	assert_true(qjson_flatten(in, "-device", &kv, &err));
	assert_string_equal(kvl_get(&kv, "cache.direct"), "on");
	assert_string_equal(kvl_get(&kv, "iothread-vq-mapping.0.iothread"),
			    "t0");
	assert_string_equal(kvl_get(&kv, "iothread-vq-mapping.0.vqs.1"), "2");
	out = qjson_format(&kv);
	assert_string_equal(out, in);
	free(out);
	kvl_set(&kv, "cache.direct", "off", KV_BOOL);
	kvl_set(&kv, "num-queues", "4", KV_NUM);
	out = qjson_format(&kv);
	assert_non_null(strstr(out, "\"direct\":false"));
	assert_non_null(strstr(out, "\"num-queues\":4"));
	free(out);
	kvl_free(&kv);
}

static void test_qjson_errors(void **state)
{
	struct kvl kv = { 0 };
	struct err err = { 0 };
	char deep[512];

	(void)state;
	assert_false(qjson_flatten("{\"a\":", "-blockdev", &kv, &err));
	assert_non_null(strstr(err.msg, "invalid JSON"));
	assert_false(qjson_flatten("[1,2]", "-blockdev", &kv, &err));
	assert_false(
		qjson_flatten("{\"a\":1,\"a\":2}", "-blockdev", &kv, &err));
	memset(deep, 0, sizeof(deep));
	for (int i = 0; i < 40; i++)
		strcat(deep, "{\"a\":");
	strcat(deep, "1");
	for (int i = 0; i < 40; i++)
		strcat(deep, "}");
	assert_false(qjson_flatten(deep, "-blockdev", &kv, &err));
	assert_non_null(strstr(err.msg, "nested deeper"));
	kvl_free(&kv);
}

static void test_shell_split(void **state)
{
	const char *in = "qemu-system-x86_64 'a b' \"c\\\"d\" e\\ f # note\n"
			 "  -g \\\n  h;i && j 2>/dev/null";
	struct sh_words w = { 0 };
	struct err err = { 0 };

	(void)state;
	assert_true(sh_split(in, "t", &w, &err));
	assert_string_equal(w.v[1].text, "a b");
	assert_string_equal(w.v[2].text, "c\"d");
	assert_string_equal(w.v[3].text, "e f");
	assert_true(w.v[4].op); /* the newline after the comment */
	assert_string_equal(w.v[5].text, "-g");
	assert_int_equal(w.v[5].line, 2);
	assert_string_equal(w.v[6].text, "h"); /* continued line */
	assert_int_equal(w.v[6].line, 3);
	assert_true(w.v[7].op);
	assert_string_equal(w.v[7].text, ";");
	assert_string_equal(w.v[9].text, "&&");
	assert_string_equal(w.v[10].text, "j");
	assert_string_equal(w.v[11].text, ">"); /* "2" dropped with it */
	sh_words_free(&w);
	assert_false(sh_split("a 'b\nc", "f.sh", &w, &err));
	assert_non_null(strstr(err.msg, "f.sh:1: unterminated '"));
	sh_words_free(&w);
}

static void test_shell_raw_json(void **state)
{
	struct sh_words w = { 0 };
	struct err err = { 0 };

	(void)state;
	/* as ps(1) shows libvirt's arguments: no shell quotes */
	assert_true(sh_split(
		"-blockdev {\"driver\":\"file\",\"a\":[1,{\"b\":\"}\"}]} "
		"-device '{\"driver\":\"x\"}' {unclosed",
		"t", &w, &err));
	assert_int_equal(w.n, 5);
	assert_string_equal(w.v[1].text,
			    "{\"driver\":\"file\",\"a\":[1,{\"b\":\"}\"}]}");
	assert_string_equal(w.v[3].text, "{\"driver\":\"x\"}");
	assert_string_equal(w.v[4].text, "{unclosed");
	sh_words_free(&w);
}

static void test_shell_quote(void **state)
{
	char *q;

	(void)state;
	q = sh_quote("file=/a,,b,if=none");
	assert_string_equal(q, "file=/a,,b,if=none");
	free(q);
	q = sh_quote("{\"a\":\"it's\"}");
	assert_string_equal(q, "'{\"a\":\"it'\\''s\"}'");
	free(q);
	q = sh_quote("");
	assert_string_equal(q, "''");
	free(q);
}

static void test_cache_knobs(void **state)
{
	static const char *const modes[] = { "none", "directsync",
					     "writethrough", "writeback",
					     "unsafe" };
	bool d, n, w;

	(void)state;
	for (size_t i = 0; i < 5; i++) {
		assert_true(adv_cache_knobs(modes[i], &d, &n, &w));
		assert_string_equal(adv_cache_name(d, n, w), modes[i]);
	}
	assert_true(adv_cache_knobs("off", &d, &n, &w));
	assert_true(d && !n && w);
	assert_false(adv_cache_knobs("fast", &d, &n, &w));
	assert_string_equal(adv_cache_name(true, true, true), "none+no-flush");
}

static void test_machine(void **state)
{
	struct adv_vm *vm = adv_vm_new(ADV_SRC_QEMU, "t");

	(void)state;
	adv_vm_set_machine(vm, "pc-q35-7.2");
	assert_true(vm->q35 && !vm->machine_old_queues);
	assert_int_equal(vm->machine_version, 702);
	adv_vm_set_machine(vm, "type=pc-i440fx-5.1+pve0,viommu=x");
	assert_string_equal(vm->machine, "pc-i440fx-5.1+pve0");
	assert_true(!vm->q35 && vm->machine_old_queues);
	adv_vm_set_machine(vm, "pc-q35-rhel8.2.0");
	assert_true(vm->machine_old_queues);
	adv_vm_set_machine(vm, "pc-i440fx-jammy");
	assert_int_equal(vm->machine_version, 602);
	adv_vm_set_machine(vm, "q35");
	assert_int_equal(vm->machine_version, 0);
	assert_false(vm->machine_old_queues);
	adv_vm_free(vm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qopts_escaping),
		cmocka_unit_test(test_qopts_implied),
		cmocka_unit_test(test_qopts_errors),
		cmocka_unit_test(test_qjson_round_trip),
		cmocka_unit_test(test_qjson_errors),
		cmocka_unit_test(test_shell_split),
		cmocka_unit_test(test_shell_raw_json),
		cmocka_unit_test(test_shell_quote),
		cmocka_unit_test(test_cache_knobs),
		cmocka_unit_test(test_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
