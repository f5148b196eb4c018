// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A unified diff of the input and its corrected copy (advise --diff), by
 * Myers' O(ND) algorithm: the fixes change a few lines of a file that may
 * be long, so D is small. `patch -p0` and `git apply` take the output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_rewrite.h"
#include "../../util/xmem.h"

#define CONTEXT 3

struct lines {
	const char *text;
	size_t *start; /* [n] is the end */
	size_t n;
};

static bool same(const struct lines *a, size_t i, const struct lines *b,
		 size_t j)
{
	size_t la = a->start[i + 1] - a->start[i],
	       lb = b->start[j + 1] - b->start[j];

	return la == lb &&
	       !memcmp(a->text + a->start[i], b->text + b->start[j], la);
}

/* One step of the edit script: ' ' both, '-' a only, '+' b only. */
struct op {
	char kind;
	size_t a, b;
};

static void put_op(struct op **v, size_t *n, char kind, size_t a, size_t b)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].kind = kind;
	(*v)[*n].a = a;
	(*v)[(*n)++].b = b;
}

/* The shortest edit script from @a to @b, in order. */
static struct op *script(const struct lines *a, const struct lines *b,
			 size_t *nops)
{
	long N = (long)a->n, M = (long)b->n, max = N + M, D = -1;
	long **trace = xcalloc((size_t)max + 2, sizeof(*trace));
	long *Vmem = xcalloc(2 * (size_t)max + 3, sizeof(long)),
	     *V = Vmem + max + 1;
	struct op *rev = NULL, *ops;
	size_t nrev = 0;
	long x, y;

	for (long d = 0; d <= max && D < 0; d++) {
		for (long k = -d; k <= d; k += 2) {
			x = (k == -d || (k != d && V[k - 1] < V[k + 1])) ?
				    V[k + 1] :
				    V[k - 1] + 1;
			y = x - k;
			while (x < N && y < M &&
			       same(a, (size_t)x, b, (size_t)y)) {
				x++;
				y++;
			}
			V[k] = x;
			if (x >= N && y >= M)
				D = d;
		}
		trace[d] = xmalloc((2 * (size_t)d + 1) * sizeof(long));
		memcpy(trace[d], V - d, (2 * (size_t)d + 1) * sizeof(long));
	}
	x = N;
	y = M;
	for (long d = D; d > 0; d--) {
		long *v = trace[d - 1] + (d - 1), k = x - y, pk, px, py;

		pk = (k == -d || (k != d && v[k - 1] < v[k + 1])) ? k + 1 :
								    k - 1;
		px = v[pk];
		py = px - pk;
		while (x > px && y > py) {
			x--;
			y--;
			put_op(&rev, &nrev, ' ', (size_t)x, (size_t)y);
		}
		if (x == px)
			put_op(&rev, &nrev, '+', (size_t)x, (size_t)--y);
		else
			put_op(&rev, &nrev, '-', (size_t)--x, (size_t)y);
	}
	while (x > 0 && y > 0) {
		x--;
		y--;
		put_op(&rev, &nrev, ' ', (size_t)x, (size_t)y);
	}
	for (long d = 0; d <= max && trace[d]; d++)
		free(trace[d]);
	free(trace);
	free(Vmem);
	ops = xmalloc((nrev + 1) * sizeof(*ops));
	for (size_t i = 0; i < nrev; i++)
		ops[i] = rev[nrev - 1 - i];
	free(rev);
	*nops = nrev;
	return ops;
}

static void put_line(FILE *f, char kind, const struct lines *l, size_t i)
{
	size_t len = l->start[i + 1] - l->start[i];
	const char *s = l->text + l->start[i];

	fprintf(f, "%c%.*s", kind, (int)len, s);
	if (!len || s[len - 1] != '\n')
		fprintf(f, "\n\\ No newline at end of file\n");
}

/* "@@ -S,C" with diff's convention for an empty range. */
static void range(FILE *f, char sign, size_t first, size_t count)
{
	fprintf(f, "%c%zu,%zu", sign, count ? first + 1 : first, count);
}

void rw_diff(FILE *f, const char *a, const char *b, const char *name_a,
	     const char *name_b)
{
	struct lines la = { .text = a }, lb = { .text = b };
	struct op *ops;
	size_t nops, i = 0;
	bool header = false;

	la.start = rw_line_starts(a, &la.n);
	lb.start = rw_line_starts(b, &lb.n);
	ops = script(&la, &lb, &nops);
	while (i < nops) {
		size_t first, last, na = 0, nb = 0, end;

		if (ops[i].kind == ' ') {
			i++;
			continue;
		}
		/* a hunk: this change, the ones within 2*CONTEXT equal lines
		   of it, and CONTEXT lines around */
		first = i > CONTEXT ? i - CONTEXT : 0;
		while (first < i && ops[first].kind != ' ')
			first++;
		last = i;
		for (size_t j = i; j < nops; j++) {
			if (ops[j].kind != ' ') {
				last = j;
				continue;
			}
			if (j - last > 2 * CONTEXT)
				break;
		}
		end = last + CONTEXT + 1 < nops ? last + CONTEXT + 1 : nops;
		for (size_t j = first; j < end; j++) {
			na += ops[j].kind != '+';
			nb += ops[j].kind != '-';
		}
		if (!header) {
			fprintf(f, "--- %s\n+++ %s\n", name_a, name_b);
			header = true;
		}
		fprintf(f, "@@ ");
		range(f, '-', ops[first].a, na);
		fprintf(f, " ");
		range(f, '+', ops[first].b, nb);
		fprintf(f, " @@\n");
		for (size_t j = first; j < end; j++) {
			if (ops[j].kind == '+')
				put_line(f, '+', &lb, ops[j].b);
			else
				put_line(f, ops[j].kind, &la, ops[j].a);
		}
		i = end;
	}
	free(ops);
	free(la.start);
	free(lb.start);
}
