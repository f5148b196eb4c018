// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML report's page: head and style sheet (screen and print), the
 * list of contents, a compare view for every command given more than
 * once, then one section per document; see html.h.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_impl.h"
#include "../../util/err.h"
#include "../../util/xmem.h"

/* Written as one string so the page needs nothing from outside. */
static const char css[] =
	":root{--fg:#1d2433;--muted:#5b6475;--line:#e2e5ea;--bg:#f3f4f6;--card:#fff;--good:#1a7f45;--bad:#b42318}\n"
	"*{box-sizing:border-box}\n"
	"body{margin:0;font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue','DejaVu Sans',Arial,sans-serif;color:var(--fg);background:var(--bg)}\n"
	"header.top{background:#1d2433;color:#fff;padding:18px 28px 16px}\n"
	"header.top h1{margin:0;font-size:21px;font-weight:650;letter-spacing:.01em}\n"
	"header.top .meta{margin:3px 0 0;color:#c3cad5;font-size:13px}\n"
	"main{max-width:1240px;margin:0 auto;padding:18px 22px 36px}\n"
	"nav.toc{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:10px 18px;margin:0 0 18px;font-size:13px}\n"
	"nav.toc ul{list-style:none;margin:6px 0 2px;padding:0;columns:2 380px}\n"
	"nav.toc li{margin:0 0 4px}\n"
	"nav.toc .cmd.c{background:#e6f4ea;color:#1a6b3a;font-size:10px}\n"
	"nav.toc a{color:#0b5a8c;text-decoration:none}\n"
	"nav.toc .sub,.sub{color:var(--muted)}\n"
	"section.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:16px 22px 10px;margin:0 0 20px;box-shadow:0 1px 2px rgba(16,24,40,.05)}\n"
	".head{display:flex;align-items:baseline;gap:10px;flex-wrap:wrap}\n"
	".badge{display:inline-block;min-width:22px;text-align:center;padding:0 6px;border-radius:11px;background:#1d2433;color:#fff;font-size:12px;font-weight:600}\n"
	".cmd{display:inline-block;padding:1px 8px;border-radius:4px;font-size:11.5px;font-weight:700;background:#e3eef7;color:#0b5a8c;text-transform:uppercase;letter-spacing:.06em}\n"
	"section.compare .cmd{background:#e6f4ea;color:#1a6b3a}\n"
	"h2{font-size:19px;margin:0;font-weight:650}\n"
	"h3{font-size:14.5px;margin:20px 0 8px;color:#2d3648;border-bottom:1px solid var(--line);padding-bottom:4px}\n"
	"h4{font-size:13px;margin:0 0 4px;color:var(--muted);font-weight:600}\n"
	".path{color:var(--muted);font-size:12px;word-break:break-all}\n"
	"p.what{margin:6px 0 10px;font-size:15px}\n"
	"div.summary{margin:8px 0 10px;padding:6px 14px;max-width:1000px;border-left:3px solid #0072b2;background:#f2f7fb;border-radius:0 6px 6px 0}\n"
	"div.summary p{margin:3px 0}\n"
	"p.fine{font-size:12px;color:var(--muted);margin:4px 0 8px}\n"
	".tiles{display:flex;flex-wrap:wrap;gap:10px;margin:10px 0 12px}\n"
	".tiles+.tiles{margin-top:-2px}\n"
	".tile{border:1px solid var(--line);border-radius:6px;padding:7px 14px 8px;min-width:136px;background:#fafbfc}\n"
	".tile .k{font-size:12px;color:var(--muted)}\n"
	".tile .v{font-size:23px;font-weight:650;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	".tile .u{font-size:13px;font-weight:500;color:var(--muted);margin-left:4px}\n"
	".grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(520px,1fr));gap:6px 26px;margin:8px 0}\n"
	"figure.chart{margin:6px 0 16px;min-width:0}\n"
	"figure svg{max-width:100%;height:auto;display:block}\n"

	".grid.lines{grid-template-columns:repeat(auto-fill,minmax(540px,1fr))}\n"
	".grid.lines>figure:only-child{grid-column:1/-1;max-width:800px}\n"
	"figcaption{font-size:13px;margin-bottom:5px}\n"
	".scroll{overflow-x:auto}\n"
	"svg text{font-size:12px;fill:#2b3240}\n"
	"svg .tick{fill:#6b7280;font-size:11px}\n"
	"svg .grid{stroke:#eceef1}\n"
	"svg .axis{stroke:#9aa0a8;fill:none}\n"
	"svg .lab{font-weight:600}\n"
	"svg .whisker{stroke:#1d2433;stroke-width:1.3;fill:none}\n"
	"svg .mean{stroke:#fff;stroke-width:2.2}\n"
	"svg .val{font-weight:650}\n"
	"svg .note{fill:#6b7280;font-size:11px}\n"
	"svg .status{fill:#8a1c1c;font-style:italic}\n"
	"svg .series{stroke-width:2.2;stroke-linejoin:round}\n"
	"svg .mark{stroke:#b42318;stroke-width:1.3;stroke-dasharray:5 4;fill:none}\n"
	"svg .mark.cap{stroke-dasharray:none;stroke-width:1.5;opacity:.8}\n"
	"svg .marklab{fill:#b42318;font-size:11.5px;font-weight:600}\n"
	"svg .dot{fill:#fff;stroke:#1d2433;stroke-width:2.2}\n"
	"svg .dotlab{font-weight:650}\n"
	/* A white halo keeps labels legible where they cross a line. */
	"svg .marklab,svg .dotlab{paint-order:stroke;stroke:#fff;stroke-width:3px;stroke-linejoin:round}\n"
	"svg .axt{fill:#4b5563}\n"
	"svg .v-better{fill:var(--good);font-weight:650}\n"
	"svg .v-worse{fill:var(--bad);font-weight:650}\n"
	"svg .v-same{fill:#6b7280;font-weight:500}\n"
	"table{border-collapse:collapse;font-variant-numeric:tabular-nums}\n"
	"table.data{font-size:13px;min-width:50%}\n"
	"table.data th,table.data td{padding:4px 10px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}\n"
	"table.data thead th{border-bottom:2px solid #cfd4dc;font-weight:600;white-space:nowrap}\n"
	"table.data .num{text-align:right;white-space:nowrap}\n"
	"table.cmp tr.gstart th,table.cmp tr.gstart td{border-top:1px solid #cfd4dc}\n"
	"table.cmp tbody th{font-weight:600;white-space:nowrap}\n"
	"td.ratio{white-space:nowrap}\n"
	".better,td.ratio.better{color:var(--good);font-weight:650}\n"
	".worse,td.ratio.worse{color:var(--bad);font-weight:650}\n"
	"td.ratio.better{background:#e8f5ec}\n"
	"td.ratio.worse{background:#fdecea}\n"
	".same,td.ratio.same{color:#6b7280}\n"
	"table.heat{font-size:13px;margin:2px 0}\n"
	"table.heat th,table.heat td{padding:5px 10px;border:2px solid #fff}\n"
	"table.heat thead th{font-weight:600;text-align:center;white-space:nowrap;border-bottom:2px solid #cfd4dc}\n"
	"table.heat th.rh,table.heat th.rg,table.heat th.rl{text-align:left;white-space:nowrap}\n"
	"table.heat th.rg{background:#f3f4f6;vertical-align:middle}\n"
	"table.heat th.rl{font-weight:500}\n"
	"table.heat td.v{text-align:right;min-width:84px;font-weight:650}\n"
	"td.st{background:repeating-linear-gradient(135deg,#e9ebef 0 5px,#f8f9fa 5px 10px);color:#8a1c1c;font-style:italic;text-align:center;font-weight:600}\n"
	"td.st.failed{color:#7a4b00}\n"
	".flag{display:block;font-size:10px;font-weight:600;letter-spacing:.02em;opacity:.85;white-space:nowrap}\n"
	"p.fine .flag{display:inline-block;background:#c7e9b4;color:#1d2433;padding:0 5px;border-radius:3px;margin-right:4px}\n"
	"table.heat .extra{color:var(--muted);font-size:12px;text-align:left;font-weight:400;padding-left:14px}\n"
	"ol.notes{font-size:12px;color:var(--muted);margin:6px 0;padding-left:22px}\n"
	".scale{font-size:11.5px;color:var(--muted);white-space:nowrap;margin-left:10px}\n"
	"table.heat thead .rng{display:block;font-size:11px;font-weight:400;color:var(--muted)}\n"
	".scale svg{display:inline-block;vertical-align:middle;border:1px solid #d8dce2}\n"
	"ul.warnings{list-style:none;background:#fff8e6;border:1px solid #f0d48a;border-radius:6px;padding:6px 12px;margin:10px 0}\n"
	"ul.warnings li{margin:3px 0;padding-left:20px;position:relative}\n"
	"ul.warnings li:before{content:'!';position:absolute;left:4px;font-weight:800;color:#b26b00}\n"
	"code.id{font-size:11px;color:#8a93a3;background:none}\n"
	"p.partial{background:#fdecea;border:1px solid #eeb4ae;color:#8a1c1c;border-radius:6px;padding:8px 12px;font-weight:600}\n"
	"ul.findings{list-style:none;padding:0;margin:6px 0}\n"
	"ul.findings li{border-left:4px solid #9aa0a8;background:#fafbfc;border-radius:0 6px 6px 0;padding:8px 14px;margin:8px 0}\n"
	"ul.findings li.sev3{border-color:#b42318}\n"
	"ul.findings li.sev2{border-color:#e69f00}\n"
	"ul.findings li.sev1{border-color:#56b4e9}\n"
	".sev,.sevb{display:inline-block;font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.05em;padding:1px 7px;border-radius:4px;background:#e5e7eb;color:#374151}\n"
	".sev3 .sev,.sevb.sev3{background:#b42318;color:#fff}\n"
	".sev2 .sev,.sevb.sev2{background:#f5b83d;color:#3b2a00}\n"
	".sev1 .sev,.sevb.sev1{background:#d7ecf8;color:#0b5a8c}\n"
	".subj{font-weight:600;color:#0b5a8c}\n"
	"p.why{margin:4px 0;color:#3d4656}\n"
	".fixlab{font-size:11px;font-weight:700;color:var(--muted);text-transform:uppercase;letter-spacing:.05em;margin-top:6px}\n"
	"pre.fix{background:#1d2433;color:#e6edf3;padding:8px 12px;border-radius:5px;white-space:pre-wrap;font-size:12.5px;margin:3px 0 2px}\n"
	"p.fixsum{margin:2px 0 4px;font-weight:600}\n"
	"dl.hosts{display:grid;grid-template-columns:max-content auto;gap:2px 14px;margin:6px 0 2px;font-size:12.5px}\n"
	"dl.hosts dt{color:var(--muted);font-weight:600}\n"
	"dl.hosts dd{margin:0}\n"
	".settings{display:flex;flex-wrap:wrap;gap:8px 48px;font-size:13px;margin-bottom:8px}\n"
	".settings dl{display:grid;grid-template-columns:max-content auto;gap:1px 14px;margin:0}\n"
	".settings dt{color:var(--muted)}\n"
	".settings dd{margin:0;word-break:break-all}\n"
	"table.inputs{font-size:13px;margin:8px 0 12px}\n"
	"table.inputs td{padding:4px 12px 4px 0;vertical-align:top}\n"
	".swatch{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:6px;vertical-align:-1px}\n"
	"p.tally{margin:4px 0 10px;font-size:14px;display:flex;flex-wrap:wrap;gap:6px 28px}\n"
	".callout{background:#fff8e6;border:1px solid #f0d48a;border-radius:6px;padding:4px 14px 10px;margin:10px 0}\n"
	".envdiff{background:#f5f7fa;border:1px solid var(--line);border-radius:6px;padding:4px 14px 10px;margin:10px 0}\n"
	".callout p,.envdiff p{margin:6px 0}\n"
	"table.diff{min-width:0}\n"
	"table.diff tbody th{font-weight:500;color:var(--muted)}\n"
	"footer{max-width:1240px;margin:0 auto;padding:0 22px 30px;font-size:12px;color:var(--muted)}\n"
	"@media print{\n"
	"  @page{size:A4;margin:12mm}\n"
	"  *{-webkit-print-color-adjust:exact;print-color-adjust:exact}\n"
	"  body{background:#fff;font-size:11.5px}\n"
	"  header.top{background:#fff;color:#000;border-bottom:2px solid #000;padding:0 0 6px}\n"
	"  header.top .meta{color:#333}\n"
	"  main{max-width:none;padding:8px 0}\n"
	"  nav.toc{display:none}\n"
	"  section.card{border:none;box-shadow:none;padding:0;margin:0 0 14px;break-before:page}\n"
	"  main>section.card:first-of-type{break-before:auto}\n"
	"  thead{display:table-header-group}\n"
	/* A hatch prints as a bitmap per cell: a flat grey prints small. */
	"  td.st{background:#eceef1}\n"
	"  figure.chart,table.heat,ul.findings li,.tiles,.callout,.envdiff{break-inside:avoid}\n"
	"  h2,h3{break-after:avoid}\n"
	"  .grid{grid-template-columns:1fr 1fr;gap:4px 16px}\n"
	"  .scroll{overflow:visible}\n"
	"  a{color:inherit;text-decoration:none}\n"
	"}\n";

static void toc(FILE *f, struct rdoc *const *docs, size_t n,
		const char *const *cmp_ids, char *const *cmp_cmds, size_t ncmp)
{
	if (n + ncmp < 2)
		return;
	fputs("<nav class=\"toc\"><b>Contents</b><ul>", f);
	for (size_t i = 0; i < ncmp; i++) {
		fprintf(f,
			"<li><span class=\"cmd c\">compare</span> <a href=\"#%s\">",
			cmp_ids[i]);
		hx_textf(f, "%s results side by side", cmp_cmds[i]);
		fputs("</a></li>", f);
	}
	for (size_t i = 0; i < n; i++) {
		fprintf(f,
			"<li><span class=\"badge\">%zu</span> <a href=\"#doc%zu\">",
			i + 1, i + 1);
		hx_text(f, docs[i]->label);
		fputs("</a> <span class=\"sub\">", f);
		hx_text(f, docs[i]->command);
		fputs("</span></li>", f);
	}
	fputs("</ul></nav>\n", f);
}

bool html_write(struct rdoc *const *docs, size_t n, const struct html_opts *o,
		FILE *f, struct err *err)
{
	char when[64], *cmp_ids[CMP_MAX_DOCS], *cmp_cmds[CMP_MAX_DOCS];
	struct cmp cmps[CMP_MAX_DOCS];
	size_t ncmp = 0;
	struct tm tm;

	/* A compare view per command given more than once, in order. */
	for (size_t i = 0; i < n && ncmp < CMP_MAX_DOCS; i++) {
		struct rdoc *group[CMP_MAX_DOCS];
		size_t m = 0;
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= !strcmp(docs[j]->command, docs[i]->command);
		if (seen)
			continue;
		for (size_t j = i; j < n && m < CMP_MAX_DOCS; j++)
			if (!strcmp(docs[j]->command, docs[i]->command))
				group[m++] = docs[j];
		if (m < 2)
			continue;
		/* cmp keeps a pointer to its list: give it one that lasts. */
		cmps[ncmp].docs = NULL;
		{
			struct rdoc **keep = xcalloc(m, sizeof(*keep));

			memcpy(keep, group, m * sizeof(*keep));
			if (!cmp_build(&cmps[ncmp], keep, m, o->threshold,
				       err)) {
				free(keep);
				goto fail;
			}
		}
		cmp_ids[ncmp] = xasprintf("cmp-%s", docs[i]->command);
		cmp_cmds[ncmp] = docs[i]->command;
		ncmp++;
	}

	gmtime_r(&o->now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M UTC", &tm);
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\"><head><meta charset=\"utf-8\"/>"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>"
	      "<meta name=\"generator\" content=\"iolab " IOLAB_VERSION
	      "\"/><title>",
	      f);
	if (o->title)
		hx_text(f, o->title);
	else if (n == 1)
		hx_textf(f, "iolab %s: %s", docs[0]->command, docs[0]->label);
	else
		hx_textf(f, "iolab report: %zu results", n);
	fprintf(f, "</title>\n<style>\n%s</style></head>\n<body>\n", css);
	fputs("<header class=\"top\"><h1>", f);
	if (o->title)
		hx_text(f, o->title);
	else
		fputs("iolab report", f);
	fputs("</h1><p class=\"meta\">", f);
	hx_textf(f, "%zu result%s", n, n == 1 ? "" : "s");
	if (ncmp)
		hx_textf(f, ", %zu comparison%s", ncmp, ncmp == 1 ? "" : "s");
	hx_textf(f, " \u00b7 generated %s by iolab %s", when, IOLAB_VERSION);
	fputs("</p></header>\n<main>\n", f);
	toc(f, docs, n, (const char *const *)cmp_ids, cmp_cmds, ncmp);
	for (size_t i = 0; i < ncmp; i++)
		html_cmp_section(f, &cmps[i], cmp_ids[i]);
	for (size_t i = 0; i < n; i++) {
		char id[32];

		snprintf(id, sizeof(id), "doc%zu", i + 1);
		html_doc_section(f, docs[i], id, i + 1);
	}
	fputs("</main>\n<footer><p>MB/s is 10^6 bytes per second, MiB/s 2^20; "
	      "latency runs from when a request is due (its slot frees; its intended start in paced runs) to its completion. "
	      "This page is self-contained: no scripts, fonts or network; it prints as it shows.</p></footer>\n"
	      "</body></html>\n",
	      f);
	for (size_t i = 0; i < ncmp; i++) {
		free((void *)cmps[i].docs);
		cmp_free(&cmps[i]);
		free(cmp_ids[i]);
	}
	if (fflush(f) || ferror(f))
		return err_set(err, EXIT_ENV, errno,
			       "cannot write the HTML report: %s",
			       strerror(errno));
	return true;
fail:
	for (size_t i = 0; i < ncmp; i++) {
		free((void *)cmps[i].docs);
		cmp_free(&cmps[i]);
		free(cmp_ids[i]);
	}
	return false;
}
