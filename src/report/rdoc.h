/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The neutral model `compare` and `report` work on. Each command's JSON is
 * mapped to it by an adapter (adapt_*.c); the renderers (compare_*.c,
 * html_*.c, csv) read only this, never a command's JSON.
 *
 * A document carries:
 * - figures: named numbers with a unit and a direction ("higher is
 *   better" for IOPS and MB/s, "lower is better" for latency), matched
 *   across documents by a stable key;
 * - settings: what was measured and where (block size, engine, cache,
 *   target, driver ...), so compare can call out mismatches;
 * - findings (doctor, advise), warnings;
 * - charts: bar charts, heat maps, line charts and tables, in the order
 *   the report shows them.
 */
#ifndef IOLAB_REPORT_RDOC_H
#define IOLAB_REPORT_RDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "../util/strmap.h"
#include "../util/warn.h"

struct err;

enum runit {
	RU_NONE, /* a plain number */
	RU_IOPS,
	RU_MBPS, /* 10^6 bytes per second */
	RU_NS, /* latency in nanoseconds, printed scaled */
	RU_MS, /* milliseconds (Oracle's figures) */
	RU_US, /* microseconds (CPU per I/O) */
	RU_COUNT, /* a count: compared by difference, not ratio */
	RU_LOAD, /* requests in flight */
	RU_PCT,
};

enum rbetter { RB_NONE, RB_HIGHER, RB_LOWER };

/* Figure flags. */
#define RF_CHART 1u /* drawn in the compare view's bar charts */
#define RF_HEADLINE 2u /* a tile at the top of the document's section */

/*
 * Where a figure's noise comes from, for compare's verdict: the value of
 * each repeated run (mark), or of each full second of the one run (run,
 * mark with one run). RSP_NONE: no spread known.
 */
enum rspread { RSP_NONE, RSP_RUNS, RSP_SECONDS };

struct rfig {
	char *key; /* stable and unique within a document */
	char *group; /* row group: "read", "RND4K Q1T1 read" */
	char *name; /* "IOPS", "p99 latency" */
	enum runit unit;
	enum rbetter better;
	double value; /* NAN when @status says why there is none */
	char *status; /* NULL if measured; else "refused", "failed" ... */
	unsigned int flags;
	enum rspread spread;
	double *samples; /* the per-run or per-second values, or NULL */
	size_t nsamples;
};

enum rset_kind {
	RS_WORKLOAD, /* what was asked: a mismatch makes figures unlike */
	RS_ENV, /* where it ran: a mismatch is often the point */
};

struct rset {
	char *key, *label, *value;
	enum rset_kind kind;
	bool detail; /* compared, but not listed in the document's section */
};

struct rfix_where {
	char *where, *what; /* "Proxmox", "Options > QEMU Guest Agent ..." */
};

struct rfinding {
	int rank; /* 3 critical/error, 2 warning, 1 info */
	char *severity, *id, *subject, *message, *why, *fix;
	bool fix_prose; /* @fix is a sentence, not a line to paste */
	char *commands; /* to run in the guest, one per line, or NULL */
	struct rfix_where *hosts; /* the setting per management tool */
	size_t nhosts;
};

/* A bar with an optional range (min..max of repeated runs) and mean. */
struct rbar {
	char *label;
	double v, lo, hi, mean; /* lo/hi/mean NAN if not known */
	char *note; /* a line under the bar: "IOPS 1234, p99 2.1 ms" */
	char *status; /* "refused" ...: no value */
};

struct rbars {
	char *title, *subtitle;
	enum runit unit;
	struct rbar *b;
	size_t n;
};

struct rcell {
	double v; /* NAN with a status */
	char *status; /* "refused", "failed", NULL */
	char *flag; /* a mark on a measured cell: "page cache" */
	int note; /* 1-based footnote, 0 none */
	char *key; /* the figure it shows, for compare's verdict, or NULL */
};

struct rheat {
	char *title;
	enum runit unit;
	char *corner; /* heading of the row labels: "aio, cache" */
	size_t nrows, ncols;
	char **rows, **cols;
	char *extra_head; /* an extra text column after the cells, or NULL */
	char **extra; /* per row */
	struct rcell *cells; /* nrows * ncols */
	char **notes; /* footnotes, numbered from 1 */
	size_t nnotes;
	/*
	 * Colour scale group: every column (test) is coloured on its own
	 * range, since tests differ by orders of magnitude; heat maps of one
	 * document with the same non-NULL group share that range column by
	 * column (lab: all buses), so a colour means one MB/s across them.
	 */
	char *scale;
};

enum rscale { RSC_LIN, RSC_LOG, RSC_NINES /* percentiles: -log10(1-p) */ };

struct rseries {
	char *name;
	int axis; /* 0 left, 1 right */
	bool dashed;
	size_t n;
	double *x, *y;
};

struct rmark {
	char axis; /* 'x' vertical line, 'y' left-axis line, 'r' right */
	double v;
	char *label;
};

struct rdot {
	int axis;
	double x, y;
	char *label;
};

struct rline {
	char *title, *xlabel, *ylabel, *y2label;
	enum runit xunit, yunit, y2unit;
	enum rscale xscale, yscale, y2scale;
	struct rseries *s;
	size_t ns;
	struct rmark *m;
	size_t nm;
	struct rdot *d;
	size_t nd;
};

struct rtable {
	char *title;
	size_t ncols, nrows;
	char **head; /* ncols */
	char **cells; /* nrows * ncols, NULL shows as empty */
};

enum rchart_kind { RC_BARS, RC_HEAT, RC_LINE, RC_TABLE };

struct rchart {
	enum rchart_kind kind;
	char *section; /* charts with the same section are drawn together */
	union {
		struct rbars bars;
		struct rheat heat;
		struct rline line;
		struct rtable table;
	};
};

struct rdoc {
	char *path; /* as given */
	char *label; /* short name in tables: file name without .json */
	char *command;
	char *tool_version;
	char *title; /* one line: what was measured, where */
	char *summary; /* a sentence or two, or NULL */
	time_t mtime; /* of the file, 0 if unknown */
	bool partial;

	struct rfig *figs;
	size_t nfigs, capfigs;
	struct rset *sets;
	size_t nsets, capsets;
	struct rfinding *finds;
	size_t nfinds, capfinds;
	struct warnings warns;
	struct rchart **charts;
	size_t ncharts, capcharts;
	struct strmap figmap, setmap; /* key -> index in figs, sets */
	struct strmap linemap, heatmap; /* title -> index in charts */
};

struct rdoc *rdoc_new(const char *command);
void rdoc_free(struct rdoc *d);

/* Figures: the key must be unique; a second figure with one is dropped. */
void rdoc_fig(struct rdoc *d, const char *key, const char *group,
	      const char *name, enum runit unit, enum rbetter better,
	      double value, unsigned int flags);
/* A figure that has no value, with the reason ("refused"). */
void rdoc_fig_status(struct rdoc *d, const char *key, const char *group,
		     const char *name, enum runit unit, enum rbetter better,
		     const char *status);
const struct rfig *rdoc_find_fig(const struct rdoc *d, const char *key);
/*
 * The samples behind figure @key (copied; non-finite ones dropped), if the
 * document has that figure; fewer than two samples carry no spread.
 */
void rdoc_fig_samples(struct rdoc *d, const char *key, enum rspread kind,
		      const double *v, size_t n);

/* A setting; NULL or empty values are skipped. */
void rdoc_set(struct rdoc *d, enum rset_kind kind, const char *key,
	      const char *label, const char *value);
const struct rset *rdoc_find_set(const struct rdoc *d, const char *key);
/* An RS_ENV setting that a table of the document already shows. */
void rdoc_set_detail(struct rdoc *d, const char *key, const char *label,
		     const char *value);

void rdoc_finding(struct rdoc *d, const char *severity, const char *id,
		  const char *subject, const char *message, const char *why,
		  const char *fix);
/* Add commands (one per line) or a per-tool setting to the last finding. */
void rdoc_finding_commands(struct rdoc *d, const char *commands);
void rdoc_finding_where(struct rdoc *d, const char *where, const char *what);
/* 3 for critical/error, 2 warning, 1 info or anything else. */
int rdoc_severity_rank(const char *severity);

/* Charts, appended in order; the pointers stay valid. */
struct rbars *rdoc_bars(struct rdoc *d, const char *section, const char *title,
			enum runit unit);
void rbars_add(struct rbars *b, const char *label, double v, double lo,
	       double hi, double mean, const char *note, const char *status);

struct rheat *rdoc_heat(struct rdoc *d, const char *section, const char *title,
			enum runit unit, const char *corner, size_t nrows,
			const char *const *rows, size_t ncols,
			const char *const *cols);
struct rcell *rheat_cell(struct rheat *h, size_t row, size_t col);
/* Attach footnote @text to a cell, reusing a footnote with the same text. */
void rheat_note(struct rheat *h, size_t row, size_t col, const char *text);
void rheat_extra(struct rheat *h, const char *head, size_t row,
		 const char *text);

struct rline *rdoc_line(struct rdoc *d, const char *section, const char *title,
			const char *xlabel, enum runit xunit,
			enum rscale xscale, const char *ylabel,
			enum runit yunit, enum rscale yscale);
/* A series of @n points; copies the arrays. */
void rline_series(struct rline *l, const char *name, int axis, bool dashed,
		  size_t n, const double *x, const double *y);
void rline_y2(struct rline *l, const char *label, enum runit unit,
	      enum rscale scale);
void rline_mark(struct rline *l, char axis, double v, const char *label);
void rline_dot(struct rline *l, int axis, double x, double y,
	       const char *label);

struct rtable *rdoc_table(struct rdoc *d, const char *section,
			  const char *title, size_t ncols,
			  const char *const *head);
/* Append a row of ncols strings (NULL allowed). */
void rtable_row(struct rtable *t, const char *const *cells);

/* The first line chart or heat map titled @title, or NULL. */
const struct rline *rdoc_find_line(const struct rdoc *d, const char *title);
const struct rheat *rdoc_find_heat(const struct rdoc *d, const char *title);

/* Value formatting shared by every renderer. */
const char *runit_label(enum runit u); /* "IOPS", "MB/s", "" for RU_NS */
const char *rfmt(enum runit u, double v, char *buf, size_t len);
/* The same with the unit: "12.3 MB/s", "4.56 ms", "1234 IOPS". */
const char *rfmt_unit(enum runit u, double v, char *buf, size_t len);

#endif
