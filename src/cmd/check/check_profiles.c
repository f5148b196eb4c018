// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The profiles of `iolab check`: one table, one entry per database. Each
 * step is the I/O the database issues on its critical path, opened the
 * way it opens its files; each criterion is a figure its project (or its
 * own tool's recipe) states, with the source. Where a project publishes
 * no threshold the criterion is CHECK_INFO: the figure, no verdict.
 */
#include <stdio.h>
#include <string.h>

#include "check_profile.h"
#include "../../core/result.h"
#include "../../util/parse.h"

#define MS 1e6 /* limits of latency are in ns */

/* A sequential append followed by fdatasync, on a buffered file. */
#define LOG_STEP(i, size, text)                                                \
	{                                                                      \
		.id = i, .what = text, .rw = RW_WRITE, .bs = size, .qd = 1,    \
		.threads = 1, .engine = ENGINE_SYNC, .cache = CACHE_WRITEBACK, \
		.flush_every = 1                                               \
	}

const struct check_profile check_profiles[] = {
	{
		.name = "etcd",
		.title = "etcd write-ahead log",
		.nsteps = 1,
		.steps = {
			LOG_STEP("wal", 2300,
				 "sequential 2300-byte WAL appends, each followed by fdatasync, one at a time (etcd's fio recipe: --rw=write --ioengine=sync --fdatasync=1 --bs=2300)"),
		},
		.ncrit = 2,
		.crit = {
			{ .id = "wal-fdatasync-p99", .step = 0, .dir = DIR_FLUSH,
			  .stat = CHECK_PCT, .pct = 99, .cmp = CHECK_AT_MOST,
			  .limit = 10 * MS,
			  .what = "99th percentile of the fdatasync after each WAL append",
			  .source = "etcd docs: wal_fsync_duration_seconds p99 under 10 ms (etcd 3.x; the fio recipe checks fio's fdatasync p99 against it)",
			  .fix = "give etcd's --data-dir (or --wal-dir) a dedicated SSD or NVMe disk with no other heavy I/O; in a VM a virtio disk with cache=none and aio=io_uring or native (iolab doctor, iolab advise)" },
			{ .id = "wal-appends-rate", .step = 0, .dir = DIR_WRITE,
			  .stat = CHECK_RATE, .cmp = CHECK_AT_LEAST, .limit = 50,
			  .what = "WAL appends made durable per second",
			  .source = "etcd 3.5 docs, hardware recommendations, Disks: typically 50 sequential IOPS required, 500 for heavily loaded clusters",
			  .fix = "a disk with lower flush latency (SSD or NVMe); a 7200 RPM disk is the minimum etcd names" },
		},
	},
	{
		.name = "postgresql",
		.alias = "postgres",
		.title = "PostgreSQL WAL commits and data-file reads",
		.nsteps = 3,
		.steps = {
			{ .id = "wal-fdatasync",
			  .what = "one 8 KiB WAL page written again and again, each write followed by fdatasync, one at a time (small commits of one session; wal_sync_method=fdatasync, Linux's default; pg_test_fsync's one 8kB write)",
			  .rw = RW_WRITE, .bs = 8192, .qd = 1, .threads = 1,
			  .engine = ENGINE_SYNC, .cache = CACHE_WRITEBACK,
			  .flush_every = 1, .span_bytes = 8192 },
			{ .id = "wal-open_datasync",
			  .what = "one 8 KiB WAL page written again and again to a file opened O_DSYNC, one at a time (wal_sync_method=open_datasync as the server opens it, without O_DIRECT)",
			  .rw = RW_WRITE, .bs = 8192, .qd = 1, .threads = 1,
			  .engine = ENGINE_SYNC, .cache = CACHE_WRITETHROUGH,
			  .span_bytes = 8192 },
			{ .id = "data-read",
			  .what = "random 8 KiB reads, one at a time, that miss every cache (O_DIRECT): a backend reading a block not in shared_buffers",
			  .rw = RW_RANDREAD, .bs = 8192, .qd = 1, .threads = 1,
			  .engine = ENGINE_SYNC, .cache = CACHE_NONE },
		},
		.ncrit = 3,
		.crit = {
			{ .id = "commits-fdatasync", .step = 0, .dir = DIR_WRITE,
			  .stat = CHECK_RATE, .cmp = CHECK_INFO,
			  .what = "commits per second one session can reach with wal_sync_method=fdatasync",
			  .source = "no published threshold; pg_test_fsync reports this figure per wal_sync_method (PostgreSQL 16 docs, pg_test_fsync)" },
			{ .id = "commits-open_datasync", .step = 1, .dir = DIR_WRITE,
			  .stat = CHECK_RATE, .cmp = CHECK_INFO,
			  .what = "commits per second one session can reach with wal_sync_method=open_datasync",
			  .source = "no published threshold; pg_test_fsync reports this figure per wal_sync_method (PostgreSQL 16 docs, pg_test_fsync)" },
			{ .id = "data-read-p99", .step = 2, .dir = DIR_READ,
			  .stat = CHECK_PCT, .pct = 99, .cmp = CHECK_INFO,
			  .what = "99th percentile of a data-block read that misses the caches",
			  .source = "no published threshold" },
		},
	},
	{
		.name = "mysql",
		.alias = "innodb",
		.title = "MySQL InnoDB redo log and page writes",
		.nsteps = 2,
		.steps = {
			LOG_STEP("redo", 4096,
				 "sequential 4 KiB redo log writes, each followed by fdatasync, one at a time (innodb_flush_log_at_trx_commit=1)"),
			{ .id = "pages",
			  .what = "random 16 KiB page writes with O_DIRECT through Linux AIO, 4 in flight (innodb_flush_method=O_DIRECT, innodb_use_native_aio)",
			  .rw = RW_RANDWRITE, .bs = 16384, .qd = 4, .threads = 1,
			  .engine = ENGINE_NATIVE, .cache = CACHE_NONE },
		},
		.ncrit = 2,
		.crit = {
			{ .id = "commits", .step = 0, .dir = DIR_WRITE,
			  .stat = CHECK_RATE, .cmp = CHECK_INFO,
			  .what = "commits per second one session can reach (a redo write and its flush each)",
			  .source = "no published threshold" },
			{ .id = "page-writes-rate", .step = 1, .dir = DIR_WRITE,
			  .stat = CHECK_RATE, .cmp = CHECK_AT_LEAST, .limit = 200,
			  .what = "16 KiB page writes per second",
			  .source = "innodb_io_capacity's default, 200: the page-flush rate InnoDB plans for (MySQL 8.0 and 8.4 Reference Manual, Configuring InnoDB I/O Capacity); not a stated requirement",
			  .fix = "set innodb_io_capacity to the rate measured here (so InnoDB does not plan for more), or give the data files a faster disk" },
		},
	},
	{
		.name = "oracle",
		.title = "Oracle redo writes and single-block reads",
		.nsteps = 2,
		.steps = {
			{ .id = "redo",
			  .what = "sequential 4 KiB redo writes with O_DIRECT and O_DSYNC, one at a time (LGWR with filesystemio_options=SETALL)",
			  .rw = RW_WRITE, .bs = 4096, .qd = 1, .threads = 1,
			  .engine = ENGINE_SYNC, .cache = CACHE_DIRECTSYNC },
			{ .id = "db-read",
			  .what = "random 8 KiB reads with O_DIRECT, one at a time (db file sequential read, db_block_size 8k)",
			  .rw = RW_RANDREAD, .bs = 8192, .qd = 1, .threads = 1,
			  .engine = ENGINE_SYNC, .cache = CACHE_NONE },
		},
		.ncrit = 2,
		.crit = {
			{ .id = "redo-write-mean", .step = 0, .dir = DIR_WRITE,
			  .stat = CHECK_MEAN, .cmp = CHECK_INFO,
			  .what = "mean time of a redo write (what AWR shows as log file parallel write)",
			  .source = "no published threshold" },
			{ .id = "db-read-mean", .step = 1, .dir = DIR_READ,
			  .stat = CHECK_MEAN, .cmp = CHECK_AT_MOST, .limit = 20 * MS,
			  .what = "mean latency of a database-block read with one in flight (the least CALIBRATE_IO needs to find any rate)",
			  .source = "DBMS_RESOURCE_MANAGER.CALIBRATE_IO's max_latency default, 20 ms, 'maximum tolerable latency for database-block-sized IO requests' (Oracle PL/SQL Packages and Types Reference)",
			  .fix = "in a VM: paravirtual drivers and a virtio disk (iolab doctor); on the host: cache=none with aio=native or io_uring (iolab advise); then iolab calibrate for the figures at load" },
		},
	},
	{
		.name = "zookeeper",
		.alias = "zk",
		.title = "ZooKeeper transaction log",
		.nsteps = 1,
		.steps = {
			LOG_STEP("txnlog", 4096,
				 "sequential 4 KiB transaction-log appends, each followed by fdatasync, one at a time (FileTxnLog.commit: FileChannel.force(false))"),
		},
		.ncrit = 2,
		.crit = {
			{ .id = "fsync-max", .step = 0, .dir = DIR_FLUSH,
			  .stat = CHECK_MAX, .cmp = CHECK_AT_MOST,
			  .limit = 1000 * MS,
			  .what = "the slowest fdatasync of the transaction log",
			  .source = "ZooKeeper Administrator's Guide: fsync.warningthresholdms, default 1000 ms; a slower fsync logs 'fsync-ing the write ahead log ... took N ms'",
			  .fix = "give dataLogDir a dedicated disk, apart from dataDir and other I/O; in a VM a virtio disk with cache=none" },
			{ .id = "fsync-p99", .step = 0, .dir = DIR_FLUSH,
			  .stat = CHECK_PCT, .pct = 99, .cmp = CHECK_INFO,
			  .what = "99th percentile of the fdatasync after each append",
			  .source = "no published threshold" },
		},
	},
};

const int check_nprofiles =
	(int)(sizeof(check_profiles) / sizeof(check_profiles[0]));

const struct check_profile *check_profile_find(const char *name)
{
	for (int i = 0; i < check_nprofiles; i++) {
		const struct check_profile *p = &check_profiles[i];

		if (!strcmp(name, p->name) ||
		    (p->alias && !strcmp(name, p->alias)))
			return p;
	}
	return NULL;
}

const char *check_step_title(const struct check_step *s, char *buf, size_t len)
{
	char bs[16], flush[80] = "";

	if (s->flush_every == 1)
		snprintf(flush, sizeof(flush), " + fdatasync each");
	else if (s->flush_every)
		snprintf(flush, sizeof(flush), " + fdatasync every %llu",
			 (unsigned long long)s->flush_every);
	/* etcd's 2300 bytes are not a round size: say them as they are. */
	if (s->bs % 1024)
		snprintf(bs, sizeof(bs), "%llu B", (unsigned long long)s->bs);
	else
		fmt_size(s->bs, bs, sizeof(bs));
	if (s->span_bytes) {
		char span[16];

		snprintf(flush + strlen(flush), sizeof(flush) - strlen(flush),
			 " over the first %s",
			 fmt_size(s->span_bytes, span, sizeof(span)));
	}
	snprintf(buf, len, "%s %s%s, QD%u, %s, cache=%s", rw_name(s->rw), bs,
		 flush, s->qd, engine_name(s->engine), cache_name(s->cache));
	return buf;
}
