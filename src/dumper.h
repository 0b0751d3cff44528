/* SPDX-License-Identifier: MIT */
/*
 * dumper.h - what dump.c gives dot.c: the dumper both write through, a
 * child's key and the words for a run of alike siblings, a leaf entry's
 * text, and the IDs a slot covers.
 */
#ifndef IDR_DUMPER_H
#define IDR_DUMPER_H

#include <stdio.h>

#include "geom.h"

/*
 * Runs of siblings that collapse to one line: full subtrees from two on
 * (there is nothing in them to read but '#'), leaves holding as many
 * entries each from eight on, so that small trees, as a lesson builds
 * them, print every leaf.
 */
#define RUN_FULL 2u
#define RUN_LEAVES 8u
#define RUN_WORDS 40 /* "64 leaves of 64/64": room to spare */

/* What a child subtree is, as far as collapsing alike siblings goes. */
enum kind {
	K_NONE,	 /* outside the range asked for */
	K_EMPTY, /* no child */
	K_FULL,	 /* no free ID below */
	K_ROOM,	 /* room below */
};

struct key {
	enum kind kind;
	unsigned int count; /* a leaf's entries; 0 higher up */
};

struct dumper {
	const struct idr *idr;
	FILE *out;
	/* Text goes through say(): counted, and written up to a budget. */
	bool measuring;	      /* count the lines, write nothing */
	unsigned long lines;  /* lines said so far */
	unsigned long budget; /* the lines written at most */
	unsigned long stop;   /* the walk ends once this many are said */
	struct idr_stats st;  /* the header's, counted at the first try */
	bool st_known;
	struct idr_dump_opts opts;
	bool ida;
	unsigned long drawn; /* nodes drawn so far */
	bool cut;	     /* stopped at max_nodes */
	bool gaps;	     /* text: a line for each run of empty slots */
	/* How the walk below writes a node, and a run of alike siblings. */
	void (*node)(struct dumper *d, const struct idr_view *v);
	void (*run)(struct dumper *d, const struct idr_view *v,
		    unsigned int from, unsigned int to, const struct key *k);
};

/* Set @d up to dump @idr to @out with @opts (NULL: the defaults). */
IDR__HIDDEN void idr__dumper_init(struct dumper *d, const struct idr *idr,
				  FILE *out, const struct idr_dump_opts *opts,
				  unsigned int default_nodes);
/* Flush @out: 0, or -EIO if a write to it failed. */
IDR__HIDDEN int idr__dump_finish(FILE *out);
/* Write one leaf entry as text into @buf (at most @size bytes). */
IDR__HIDDEN void idr__entry_text(const struct dumper *d,
				 const struct idr_view *v, unsigned int slot,
				 char *buf, size_t size);
/* The IDs slot @slot of @v covers. */
IDR__HIDDEN void idr__slot_range(const struct idr_view *v, unsigned int slot,
				 unsigned long *lo, unsigned long *hi);
/* What the child in slot @slot of @v is, for collapsing alike siblings. */
IDR__HIDDEN struct key idr__key_of(const struct dumper *d,
				   const struct idr_view *v, unsigned int slot);
IDR__HIDDEN bool idr__same_key(struct key a, struct key b);
/* What a run of @n alike children of @v are, e.g. "62 full leaves". */
IDR__HIDDEN void idr__run_words(char *buf, const struct idr_view *v,
				unsigned int n, const struct key *k);
/* The IDs of the children of @v in slots @from .. @to - 1. */
IDR__HIDDEN void idr__run_range(const struct idr_view *v, unsigned int from,
				unsigned int to, unsigned long *lo,
				unsigned long *hi);
/* The nodes of the subtree under @v, @v's own included. */
IDR__HIDDEN unsigned long idr__nodes_under(const struct dumper *d,
					   const struct idr_view *v);
/* The tree index of ID @id, or false if no index holds it. */
IDR__HIDDEN bool idr__index_of(const struct idr *idr, unsigned long id,
			       uint64_t *index);

#endif /* IDR_DUMPER_H */
