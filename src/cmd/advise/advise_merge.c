// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One corrected configuration per VM. Each rule says what it would change
 * (struct adv_edit); written one by one, the second corrected line would
 * undo the first. Here every edit of a disk is merged into one and
 * written once, and the VM's lines are collected once each. When two
 * rules want different values of one setting, the rule listed first in
 * adv_rules[] (errors before warnings before info; man/iolab-advise.1,
 * CORRECTED CONFIGURATION) wins, and the other finding says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise_fix.h"
#include "advise_rules.h"
#include "../../util/xmem.h"

static size_t rule_rank(const char *id)
{
	size_t i = 0;

	for (; adv_rules[i].id; i++)
		if (!strcmp(adv_rules[i].id, id))
			break;
	return i;
}

/* Who set each single-valued setting of the merged edit. */
struct owners {
	const struct adv_finding *cache, *aio, *format, *queues, *queue_size,
		*define_iothread;
};

static void note(struct fixbuf *b, const char *what, const char *mine,
		 const char *theirs, const struct adv_finding *winner)
{
	fixbuf_addf(b,
		    "not applied: %s=%s, because %s (listed first) sets %s=%s",
		    what, mine, winner->rule, what, theirs);
}

/* Merge @f's edit into @m; a differing value already set stays. */
static void merge_one(struct adv_edit *m, struct owners *o,
		      struct adv_finding *f, struct fixbuf *notes)
{
	const struct adv_edit *e = f->edit;
	char a[16], b[16];

#define MERGE_STR(field)                                                   \
	do {                                                               \
		if (!e->field)                                             \
			break;                                             \
		if (!m->field) {                                           \
			m->field = e->field;                               \
			o->field = f;                                      \
		} else if (strcmp(m->field, e->field)) {                   \
			note(notes, #field, e->field, m->field, o->field); \
			f->overridden = true;                              \
		}                                                          \
	} while (0)
#define MERGE_NUM(field, name)                                  \
	do {                                                    \
		if (!e->field)                                  \
			break;                                  \
		if (!m->field) {                                \
			m->field = e->field;                    \
			o->field = f;                           \
		} else if (m->field != e->field) {              \
			snprintf(a, sizeof(a), "%u", e->field); \
			snprintf(b, sizeof(b), "%u", m->field); \
			note(notes, name, a, b, o->field);      \
			f->overridden = true;                   \
		}                                               \
	} while (0)
	MERGE_STR(cache);
	MERGE_STR(aio);
	MERGE_STR(format);
	MERGE_STR(define_iothread);
	MERGE_NUM(queues, "queues");
	MERGE_NUM(queue_size, "queue-size");
#undef MERGE_STR
#undef MERGE_NUM
	m->discard |= e->discard;
	m->virtio |= e->virtio;
	m->iothread |= e->iothread;
	m->drop_scsi |= e->drop_scsi;
	m->media_cdrom |= e->media_cdrom;
	m->fix_props |= e->fix_props;
}

/* What an edit changes, in words the three sources share. */
static void describe(struct fixbuf *b, const struct adv_edit *e,
		     const struct adv_disk *d)
{
	if (e->cache)
		fixbuf_addf(b, "cache=%s", e->cache);
	if (e->aio)
		fixbuf_addf(b, "aio=%s", e->aio);
	if (e->format)
		fixbuf_addf(b, "format=%s", e->format);
	if (e->discard)
		fixbuf_add(b, "discard passed through");
	if (e->virtio)
		fixbuf_add(b, d->bus == ADV_BUS_SCSI_EMULATED ?
				      "controller becomes virtio-scsi" :
				      "disk moves to virtio");
	if (e->iothread)
		fixbuf_add(b, "a new iothread");
	if (e->define_iothread)
		fixbuf_addf(b, "iothread %s defined", e->define_iothread);
	if (e->queues)
		fixbuf_addf(b, "queues=%u", e->queues);
	if (e->queue_size)
		fixbuf_addf(b, "queue-size=%u", e->queue_size);
	for (int k = 0; k < d->nbadprop; k++) {
		if (!(e->fix_props & (1u << k)))
			continue;
		if (d->badprop[k].good)
			fixbuf_addf(b, "'%s' renamed '%s'", d->badprop[k].bad,
				    d->badprop[k].good);
		else
			fixbuf_addf(b, "'%s' removed", d->badprop[k].bad);
	}
	if (e->drop_scsi)
		fixbuf_add(b, "scsi= removed");
	if (e->media_cdrom)
		fixbuf_add(b, "media=cdrom");
}

/* "a; b; c" from a '\n'-separated list. */
static char *joined(char *s, const char *sep)
{
	char *save = NULL;
	size_t cap = strlen(s) * 2 + 1, n = 0;
	char *out = xmalloc(cap);

	out[0] = '\0';
	for (char *t = strtok_r(s, "\n", &save); t;
	     t = strtok_r(NULL, "\n", &save)) {
		n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? sep : "",
				      t);
	}
	free(s);
	return out;
}

/* The smallest name "<prefix><n>" (n from @first, @alpha: a..z) that no
   disk or item of the VM uses and that is not in @taken. */
static char *free_name(const struct adv_vm *vm, const char *prefix, bool alpha,
		       unsigned max, char **taken, size_t ntaken)
{
	for (unsigned i = 0; i < max; i++) {
		char name[32];
		bool used = false;

		if (alpha)
			snprintf(name, sizeof(name), "%s%c", prefix, 'a' + i);
		else
			snprintf(name, sizeof(name), "%s%u", prefix, i);
		for (size_t k = 0; k < vm->ndisks; k++)
			used |= vm->disks[k].id &&
				!strcmp(vm->disks[k].id, name);
		for (size_t k = 0; k < vm->nitems; k++)
			used |= vm->source == ADV_SRC_PROXMOX &&
				vm->items[k].head &&
				!strcmp(vm->items[k].head, name);
		for (size_t k = 0; k < ntaken; k++)
			used |= !strcmp(taken[k], name);
		if (!used)
			return xstrdup(name);
	}
	return NULL;
}

/* Does moving @d to virtio give it a new target name? */
static bool renamed(const struct adv_vm *vm, const struct adv_disk *d)
{
	return d->bus != ADV_BUS_SCSI_EMULATED &&
	       (vm->source == ADV_SRC_LIBVIRT ||
		(vm->source == ADV_SRC_PROXMOX &&
		 d->slot[ADV_SLOT_DRIVE] >= 0));
}

/* Name the new target in the findings that move the disk, and what the
   user removes: the old Proxmox line. */
static void say_target(struct adv_report *r, size_t v, size_t di,
		       const char *from, const char *to, bool pve)
{
	for (size_t i = 0; i < r->nf; i++) {
		struct adv_finding *f = &r->f[i];
		const char *p;
		char *s;

		if (f->vm != v || f->disk != (long)di || !f->edit ||
		    !f->edit->virtio ||
		    !(p = strstr(f->fix, "disk moves to virtio")))
			continue;
		p += strlen("disk moves to virtio");
		s = pve ? xasprintf("%.*s as %s, replacing the %s: line%s",
				    (int)(p - f->fix), f->fix, to, from, p) :
			  xasprintf("%.*s as %s%s", (int)(p - f->fix), f->fix,
				    to, p);
		free(f->fix);
		f->fix = s;
	}
}

/* The move a Proxmox VM has no free scsiN key for, said in its findings. */
/* "; not applied: @why" into @f's fix, before its pointer to the
 * corrected configuration; the finding is overridden. */
static void not_applied(struct adv_finding *f, const char *why)
{
	const char *p = strstr(f->fix, " (the corrected configuration");
	char *s;

	if (!p)
		p = f->fix + strlen(f->fix);
	s = xasprintf("%.*s; not applied: %s%s", (int)(p - f->fix), f->fix, why,
		      p);
	free(f->fix);
	f->fix = s;
	f->overridden = true;
}

static void full_note(struct adv_report *r, size_t v, size_t di)
{
	for (size_t i = 0; i < r->nf; i++) {
		struct adv_finding *f = &r->f[i];

		if (f->vm == v && f->disk == (long)di && f->edit &&
		    f->edit->virtio)
			not_applied(
				f,
				"the move, because scsi0 to scsi30 are all taken");
	}
}

/*
 * A QEMU scsi-hd's iothread= that the bad-property fix moves to its
 * virtio-scsi controller already gives the controller an iothread: a new
 * one would be overwritten and left unused.
 */
static bool moves_iothread(const struct adv_vm *vm, const struct adv_disk *d,
			   const struct adv_edit *m)
{
	if (vm->source == ADV_SRC_LIBVIRT || vm->source == ADV_SRC_PROXMOX ||
	    d->bus != ADV_BUS_VIRTIO_SCSI || d->slot[ADV_SLOT_CTRL] < 0)
		return false;
	for (int k = 0; k < d->nbadprop; k++)
		if ((m->fix_props & (1u << k)) && !d->badprop[k].good &&
		    !strcmp(d->badprop[k].bad, "iothread") &&
		    d->badprop[k].slot != ADV_SLOT_CTRL)
			return true;
	return false;
}

static void moved_note(struct adv_report *r, size_t v, size_t di)
{
	for (size_t i = 0; i < r->nf; i++) {
		struct adv_finding *f = &r->f[i];

		if (f->vm == v && f->disk == (long)di && f->edit &&
		    f->edit->iothread && !f->edit->fix_props)
			not_applied(
				f,
				"a new iothread, because bad-property moves the disk's iothread to its controller");
	}
}

/*
 * Which new iothread a disk gets: its own, unless the iothread goes on a
 * virtio-scsi controller another disk already gave one to (one
 * controller, one iothread; two would print two different controllers).
 */
static unsigned iothread_for(const struct adv_vm *vm, const struct adv_disk *d,
			     unsigned *ctrl_seq, unsigned *next)
{
	int c = d->slot[ADV_SLOT_CTRL];

	if (d->bus != ADV_BUS_VIRTIO_SCSI || c < 0 || (size_t)c >= vm->nitems)
		return (*next)++;
	if (!ctrl_seq[c])
		ctrl_seq[c] = ++*next;
	return ctrl_seq[c] - 1;
}

/* The cache mode the disk ends up with: the first rule's that sets one. */
static const char *final_cache(const struct adv_report *r, size_t v, size_t di)
{
	const struct adv_finding *best = NULL;

	for (size_t i = 0; i < r->nf; i++) {
		const struct adv_finding *f = &r->f[i];

		if (f->vm == v && f->disk == (long)di && f->edit &&
		    f->edit->cache &&
		    (!best || rule_rank(f->rule) < rule_rank(best->rule)))
			best = f;
	}
	return best ? best->edit->cache : NULL;
}

/* Proxmox's io_uring fallback (native with cache.direct=on, threads
   otherwise) follows the cache mode the disk ends up with. */
static void fallback(struct adv_edit *e, const char *cache)
{
	bool direct, no_flush, wce;

	if (e->aio_fallback && cache &&
	    adv_cache_knobs(cache, &direct, &no_flush, &wce))
		e->aio = direct ? "native" : "threads";
}

static void merge_vm(struct adv_report *r, size_t v)
{
	struct adv_vm *vm = r->vms[v];
	char **taken = xcalloc(vm->ndisks + 1, sizeof(*taken));
	const char **from = xcalloc(vm->ndisks + 1, sizeof(*from));
	size_t ntaken = 0;
	unsigned new_iothreads = 0, defined = 0, new_pci = 0;
	/* per item: the new iothread its virtio-scsi controller got, +1 */
	unsigned *ctrl_seq = xcalloc(vm->nitems + 1, sizeof(*ctrl_seq));

	/* libvirt numbers iothreads: new ones go after those a fix defines */
	for (size_t i = 0; i < r->nf; i++) {
		const struct adv_finding *f = &r->f[i];
		unsigned long n;

		if (f->vm != v || !f->edit || !f->edit->define_iothread)
			continue;
		n = strtoul(f->edit->define_iothread, NULL, 10);
		if (n > defined && n < 65536)
			defined = (unsigned)n;
	}

	for (size_t di = 0; di < vm->ndisks; di++) {
		struct adv_disk *d = &vm->disks[di];
		struct adv_edit m = { 0 };
		struct owners o = { 0 };
		const char *cache = final_cache(r, v, di);
		size_t nf = 0;

		/* In the stated order: the rank of the rule, then the
		   order the findings were made in. */
		for (size_t rank = 0; adv_rules[rank].id; rank++) {
			for (size_t i = 0; i < r->nf; i++) {
				struct adv_finding *f = &r->f[i];
				struct fixbuf words = { 0 }, notes = { 0 };
				char *w, *n;

				if (f->vm != v || f->disk != (long)di ||
				    !f->edit || rule_rank(f->rule) != rank)
					continue;
				nf++;
				fallback(f->edit, cache);
				merge_one(&m, &o, f, &notes);
				describe(&words, f->edit, d);
				w = joined(fixbuf_take(&words), ", ");
				n = joined(fixbuf_take(&notes), "; ");
				free(f->fix);
				f->fix = xasprintf(
					"%s%s%s%s (the corrected configuration of %s below has every change of this disk)",
					*w ? "changes " : "", w, *n ? "; " : "",
					n, d->id ? d->id : "the disk");
				f->fix_is_advice = true;
				free(w);
				free(n);
			}
		}
		if (!nf)
			continue;
		if (m.iothread && moves_iothread(vm, d, &m)) {
			m.iothread = false;
			moved_note(r, v, di);
		}
		if (m.iothread)
			m.iothread_seq =
				iothread_for(vm, d, ctrl_seq, &new_iothreads);
		m.iothreads_defined = defined;
		if (m.virtio && renamed(vm, d)) {
			bool pve = vm->source == ADV_SRC_PROXMOX;
			/* qemu-server knows scsi0 to scsi30 only ("invalid
			   drive key" beyond) */
			char *t = free_name(vm, pve ? "scsi" : "vd", !pve,
					    pve ? 31 : 26, taken, ntaken);

			if (t) {
				from[ntaken] =
					pve ? vm->items[d->slot[ADV_SLOT_DRIVE]]
							.head :
					      d->id;
				taken[ntaken++] = t;
				m.target = t;
				say_target(r, v, di, from[ntaken - 1], t, pve);
			} else if (pve) {
				/* no key left to move to: the disk stays */
				m.virtio = false;
				full_note(r, v, di);
			}
		}
		{
			struct adv_repls rp = { 0 };

			m.repls = &rp;
			m.new_pci = &new_pci;
			d->corrected = adv_fix(vm, d, &m);
			d->repl = rp.v;
			d->nrepl = rp.n;
		}
	}
	adv_split_vm_lines(vm, from, (const char *const *)taken, ntaken);
	free(ctrl_seq);
	for (size_t i = 0; i < ntaken; i++)
		free(taken[i]);
	free(taken);
	free(from);
}

void adv_merge_run(struct adv_report *r)
{
	for (size_t v = 0; v < r->nvms; v++)
		merge_vm(r, v);
}
