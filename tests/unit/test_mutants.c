/* SPDX-License-Identifier: MIT */
/*
 * test_mutants.c - cases written against the mutants that the other
 * suites let live (make mutate, tests/mutate): each asserts a behaviour
 * that one of them changed, and says which line it pins.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "idr_view.h"
#include "model.h"
#include "nodes.h"
#include "tag.h"
#include "tree.h"

static void *val(unsigned long id)
{
	return (void *)(id * 8 + 8);
}

static void fill(struct idr *idr, unsigned long lo, unsigned long hi)
{
	unsigned long id;

	for (id = lo; id < hi; id++)
		CHECK_EQ(idr_alloc(idr, val(id), (int)id, (int)id + 1,
				   GFP_KERNEL),
			 id);
}

static unsigned long packed_leaves(const struct idr *idr)
{
	struct idr_stats st;

	idr_stats(idr, &st);
	return st.packed;
}

static int first_leaf_of(const struct idr_view *view, void *data)
{
	if (view->level)
		return 0;
	*(struct idr_view *)data = *view;
	return 1;
}

/* How many of each event a traced operation emitted. */
struct tally {
	unsigned int n[IDR_TRACE_NO_ROOM + 1];
	unsigned int total;
};

static void count(const struct idr *idr, const struct idr_trace *ev, void *data)
{
	struct tally *t = data;

	(void)idr;
	if (ev->event <= IDR_TRACE_NO_ROOM)
		t->n[ev->event]++;
	t->total++;
}

/* {==================== tree.c ==================== */

/*
 * A packed leaf is malloc'd to its size, so it never goes to the node
 * cache: unpacked by an insertion or emptied by a removal (tree.c,
 * node_release_at()), it is traced as "free".
 */
static void mutants_packed_leaf_freed(void)
{
	struct tally t;
	DEFINE_IDR(idr);
	unsigned long id;
	unsigned int k;

	fill(&idr, 0, IDR_SLOTS);
	for (id = 1; id < IDR_SLOTS; id++)
		if (id != IDR_SLOTS / 2)
			CHECK(idr_remove(&idr, id) == val(id));
	CHECK_EQ(packed_leaves(&idr), 1);
	k = fill_packed_room(&idr, val);
	memset(&t, 0, sizeof(t));
	idr_set_trace(&idr, count, &t);
	/* A range, not ID k + 1 alone, which would grow it packed. */
	CHECK_EQ(idr_alloc(&idr, val(k + 1), 1, IDR_SLOTS, GFP_KERNEL),
		 (int)k + 1);
	CHECK_EQ(t.n[IDR_TRACE_NODE_FREE], 1);
	CHECK_EQ(t.n[IDR_TRACE_FREE], 1);
	CHECK_EQ(t.n[IDR_TRACE_CACHE_PUT], 0);
	idr_set_trace(&idr, NULL, NULL);
	CHECK_EQ(packed_leaves(&idr), 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
	/* Packed again, its last entry goes, and the leaf with it. */
	fill(&idr, 0, IDR_SLOTS);
	for (id = 0; id < IDR_SLOTS; id++)
		if (id != IDR_SLOTS / 2)
			CHECK(idr_remove(&idr, id) == val(id));
	CHECK_EQ(packed_leaves(&idr), 1);
	memset(&t, 0, sizeof(t));
	idr_set_trace(&idr, count, &t);
	CHECK(idr_remove(&idr, IDR_SLOTS / 2) == val(IDR_SLOTS / 2));
	CHECK_EQ(t.n[IDR_TRACE_NODE_FREE], 1);
	CHECK_EQ(t.n[IDR_TRACE_FREE], 1);
	CHECK_EQ(t.n[IDR_TRACE_CACHE_PUT], 0);
	CHECK(idr_is_empty(&idr));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/*
 * A node freed while the idr's cache is full goes back to malloc, and the
 * trace says so (nodes.c, idr__node_release's false).
 */
static void mutants_full_cache_frees(void)
{
	struct tally t;
	DEFINE_IDR(idr);

	fill(&idr, 0, 1);
	CHECK(idr_pre_get(&idr, GFP_KERNEL));
	CHECK_EQ(idr_cache_count(&idr), IDR__CACHE_NODES);
	memset(&t, 0, sizeof(t));
	idr_set_trace(&idr, count, &t);
	CHECK(idr_remove(&idr, 0) == val(0));
	idr_set_trace(&idr, NULL, NULL);
	CHECK_EQ(t.n[IDR_TRACE_NODE_FREE], 1);
	CHECK_EQ(t.n[IDR_TRACE_FREE], 1);
	CHECK_EQ(t.n[IDR_TRACE_CACHE_PUT], 0);
	CHECK_EQ(idr_cache_count(&idr), IDR__CACHE_NODES);
	idr_destroy(&idr);
}

/*
 * A search that climbs out of a top node's last child reports no room in
 * that child only: the top node has no slot after its last (tree.c,
 * descend_first's off < IDR_SLOTS).
 */
static void mutants_no_room_after_last_slot(void)
{
	unsigned long lo = IDR_SLOTS * IDR_SLOTS - IDR_SLOTS / 2;
	struct tally t;
	DEFINE_IDR(idr);

	fill(&idr, lo, IDR_SLOTS * IDR_SLOTS);
	CHECK_EQ(idr__height(&idr), 2);
	memset(&t, 0, sizeof(t));
	idr_set_trace(&idr, count, &t);
	CHECK_EQ(idr_alloc(&idr, val(0), (int)lo, 0, GFP_KERNEL),
		 IDR_SLOTS * IDR_SLOTS);
	idr_set_trace(&idr, NULL, NULL);
	CHECK_EQ(t.n[IDR_TRACE_NO_ROOM], 1);
	CHECK_EQ(t.n[IDR_TRACE_GROW], 1);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* idr__delete says whether it freed anything (tree.c, its return false). */
static void mutants_delete_says_absent(void)
{
	void *entry = val(99);
	DEFINE_IDR(idr);

	CHECK(!idr__delete(&idr, 0, &entry)); /* no tree */
	CHECK(entry == val(99));
	fill(&idr, 0, 2);
	CHECK(!idr__delete(&idr, 2, &entry));	      /* in the leaf, free */
	CHECK(!idr__delete(&idr, IDR_SLOTS, &entry)); /* above the top */
	CHECK(entry == val(99));
	CHECK_EQ(idr_count(&idr), 2);
	CHECK(idr__delete(&idr, 1, &entry));
	CHECK(entry == val(1));
	CHECK_EQ(idr_count(&idr), 1);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/*
 * idr_check: a plain idr's leaf slot in use but not marked full is
 * -EUCLEAN (tree.c, leaf_sound's full != present).
 */
static void mutants_check_full_bit(void)
{
	struct idr_view leaf;
	uint64_t *full, was;
	DEFINE_IDR(idr);

	fill(&idr, 0, 3);
	CHECK_EQ(idr_walk(&idr, first_leaf_of, &leaf), 1);
	if (!CHECK(!leaf.packed && leaf.full == 7 && leaf.present == 7))
		goto out; /* not the tree this case knows */
	full = (uint64_t *)(uintptr_t)leaf.node; /* full is the first word */
	was = *full;
	if (!CHECK(was == 7))
		goto out; /* not the layout this case knows */
	*full = 5;	  /* slot 1 in use, not full */
	CHECK_EQ(idr_check(&idr), -EUCLEAN);
	*full = was;
	CHECK_SOUND(&idr);
out:
	idr_destroy(&idr);
}

/*
 * idr_check: a whole leaf's absent slot that is not NULL is -EUCLEAN
 * (check.c, leaf_sound): idr_find() reads such a slot alone, so a stale
 * pointer left there would be found.
 */
static void mutants_check_absent_slot(void)
{
	struct idr_view leaf;
	void **slots;
	DEFINE_IDR(idr);

	fill(&idr, 0, 3);
	CHECK(idr_remove(&idr, 1) == val(1));
	CHECK(idr_find(&idr, 1) == NULL);
	CHECK_EQ(idr_walk(&idr, first_leaf_of, &leaf), 1);
	if (!CHECK(!leaf.packed && leaf.present == 5))
		goto out; /* not the tree this case knows */
	slots = (void **)((uint64_t *)(uintptr_t)leaf.node + 3);
	if (!CHECK(slots[0] == val(0) && slots[1] == NULL))
		goto out; /* not the layout this case knows */
	slots[1] = val(1);
	CHECK_EQ(idr_check(&idr), -EUCLEAN);
	slots[1] = NULL;
	CHECK_SOUND(&idr);
out:
	idr_destroy(&idr);
}

/*
 * idr_check: a whole leaf of an untagged idr with a generations node
 * (its second word set) is unsound (tree.c, leaf_sound's aux test).
 */
static void mutants_check_leaf_aux(void)
{
	struct idr_view leaf;
	uint64_t *aux, was;
	DEFINE_IDR(idr);

	fill(&idr, 0, 3);
	CHECK_EQ(idr_walk(&idr, first_leaf_of, &leaf), 1);
	if (!CHECK(!leaf.packed))
		goto out; /* not the tree this case knows */
	aux = (uint64_t *)(uintptr_t)leaf.node + 1; /* after full */
	was = *aux;
	if (!CHECK(was == 0))
		goto out;		  /* not the layout this case knows */
	*aux = (uint64_t)(uintptr_t)&idr; /* aligned: not a pack word */
	CHECK_EQ(idr_check(&idr), -EUCLEAN);
	*aux = was;
	CHECK_SOUND(&idr);
out:
	idr_destroy(&idr);
}

/*
 * An iteration past the last slot of a one-leaf tree ends there: the
 * index after it is the tree's capacity, whose digits wrap round to 0
 * (tree.c, idr__iter_find's start < capacity).
 */
static void mutants_iterate_to_capacity(void)
{
	unsigned long last = IDR_SLOTS - 1;
	unsigned int seen = 0;
	void *entry;
	int id;
	DEFINE_IDR(idr);

	fill(&idr, 0, 1);
	fill(&idr, last, last + 1);
	idr_for_each_entry(&idr, entry, id)
		if (!CHECK(++seen <= 2))
			break;
	CHECK_EQ(seen, 2);
	id = (int)last + 1;
	CHECK(idr_get_next(&idr, &id) == NULL);
	idr_destroy(&idr);
}

/*
 * idr_check: a top shift of IDR__LEVELS levels, one more than any tree
 * has, is -EUCLEAN; one level less passes the shift check (and fails
 * later, for a leaf at the top).
 */
static void mutants_check_shift_limit(void)
{
	struct idr copy;
	DEFINE_IDR(idr);

	fill(&idr, 0, 2);
	copy = idr;
	copy.idr_shift = IDR__LEVELS * IDR_BITS;
	CHECK_EQ(idr_check(&copy), -EUCLEAN);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* }==================== tree.c ==================== */

/* {==================== dump.c ==================== */

/* A tagged idr's generation nodes are no IDA bitmaps: no "bits" bar. */
static void mutants_stats_bits_bar_ida_only(void)
{
	char text[4096];
	FILE *out;
	DEFINE_IDR(idr);
	DEFINE_IDA(ida);

	CHECK_EQ(idr_tag_init(&idr, 8, 0), 0);
	CHECK(idr_alloc_tagged(&idr, text, 0, 0, 0) >= 0);
	out = fmemopen(text, sizeof(text), "w");
	if (CHECK(out != NULL)) {
		CHECK_EQ(idr_stats_print(&idr, out), 0);
		fclose(out);
		CHECK(strstr(text, "L0 ") != NULL);
		CHECK(strstr(text, "bits ") == NULL);
	}
	CHECK_EQ(ida_alloc(&ida, 0), 0);
	out = fmemopen(text, sizeof(text), "w");
	if (CHECK(out != NULL)) {
		CHECK_EQ(idr_stats_print(ida_tree(&ida), out), 0);
		fclose(out);
		CHECK(strstr(text, "bits ") != NULL);
	}
	ida_destroy(&ida);
	idr_destroy(&idr);
}

/* }==================== dump.c ==================== */

/* The IDA's free of its largest ID reports the way down to it. */
static void mutants_ida_free_max_traced(void)
{
	struct tally t = { .total = 0 };
	DEFINE_IDA(ida);

	CHECK_EQ(ida_alloc_range(&ida, INT_MAX, INT_MAX, 0), INT_MAX);
	idr_set_trace(&ida.ida_rt, count, &t);
	ida_free(&ida, INT_MAX);
	idr_set_trace(&ida.ida_rt, NULL, NULL);
	CHECK(t.n[IDR_TRACE_VISIT] >= 1);
	CHECK(ida_is_empty(&ida));
	ida_destroy(&ida);
}

/* The IDs each node-new event covers, by kind of node. */
struct node_ranges {
	unsigned long leaf_first, leaf_last, bitmap_first, bitmap_last;
	unsigned int leaves, bitmaps;
};

static void node_ranges(const struct idr *idr, const struct idr_trace *ev,
			void *data)
{
	struct node_ranges *r = data;

	(void)idr;
	if (ev->event != IDR_TRACE_NODE_NEW)
		return;
	if (ev->aux == IDR_AUX_BITMAP) {
		r->bitmaps++;
		r->bitmap_first = ev->first;
		r->bitmap_last = ev->last;
	} else if (!ev->level) {
		r->leaves++;
		r->leaf_first = ev->first;
		r->leaf_last = ev->last;
	}
}

/*
 * An IDA's new bitmap covers its own chunk of IDs; the leaf that holds
 * it, IDR_SLOTS chunks (tree.c, idr__trace_node's aux == IDR_AUX_BITMAP).
 */
static void mutants_ida_node_ranges(void)
{
	struct node_ranges r = { .leaves = 0 };
	const unsigned long chunk = IDR__CHUNK;
	DEFINE_IDA(ida);

	idr_set_trace(&ida.ida_rt, node_ranges, &r);
	CHECK_EQ(ida_alloc_min(&ida, (unsigned int)(3 * chunk + 7), 0),
		 (int)(3 * chunk + 7));
	idr_set_trace(&ida.ida_rt, NULL, NULL);
	CHECK_EQ(r.bitmaps, 1);
	CHECK_EQ(r.bitmap_first, 3 * chunk);
	CHECK_EQ(r.bitmap_last, 4 * chunk - 1);
	CHECK_EQ(r.leaves, 1);
	CHECK_EQ(r.leaf_first, 0);
	CHECK_EQ(r.leaf_last, IDR_SLOTS * chunk - 1);
	ida_destroy(&ida);
}

/* ida_exists(INT_MAX) reports the way down to it (ida.c, id <= INT_MAX). */
static void mutants_ida_exists_max_traced(void)
{
	struct tally t = { .total = 0 };
	DEFINE_IDA(ida);

	CHECK_EQ(ida_alloc_range(&ida, INT_MAX, INT_MAX, 0), INT_MAX);
	idr_set_trace(&ida.ida_rt, count, &t);
	CHECK(ida_exists(&ida, INT_MAX));
	idr_set_trace(&ida.ida_rt, NULL, NULL);
	CHECK(t.n[IDR_TRACE_VISIT] >= 1);
	ida_destroy(&ida);
}

/* A range of one ID, the base itself, holds that ID. */
static void mutants_alloc_at_base_only(void)
{
	static char v[] = "v";
	DEFINE_IDR(idr);

	idr_init_base(&idr, 5);
	CHECK_EQ(idr_alloc(&idr, v, 5, 6, 0), 5);
	CHECK_EQ(idr_alloc(&idr, v, 5, 6, 0), -ENOSPC);
	idr_destroy(&idr);
}

/* {==================== idr.c ==================== */

/*
 * A cyclic allocation that fails from its range's start searches once,
 * as idr_alloc would: nothing below the start to wrap round to (idr.c,
 * idr_alloc_cyclic's id > start).
 */
static void mutants_cyclic_full_from_start(void)
{
	struct tally once, cyclic;
	DEFINE_IDR(idr);

	fill(&idr, 0, 4);
	memset(&once, 0, sizeof(once));
	memset(&cyclic, 0, sizeof(cyclic));
	idr_set_trace(&idr, count, &once);
	CHECK_EQ(idr_alloc(&idr, val(9), 0, 4, GFP_KERNEL), -ENOSPC);
	idr_set_trace(&idr, count, &cyclic);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(9), 0, 4, GFP_KERNEL), -ENOSPC);
	idr_set_trace(&idr, NULL, NULL);
	CHECK(once.total > 0);
	CHECK_EQ(cyclic.total, once.total);
	CHECK_EQ(idr_count(&idr), 4);
	idr_destroy(&idr);
}

/* }==================== idr.c ==================== */

/* {==================== tag.c ==================== */

/*
 * Taking back the base's own ID removes it, tag bits ignored; an ID
 * below the base is nothing to take back (tag.c, idr_unalloc's
 * id >= idr_base).
 */
static void mutants_tag_unalloc_at_base(void)
{
	static char v[] = "v";
	DEFINE_IDR(idr);
	int tagged;

	idr_init_base(&idr, 1);
	CHECK_EQ(idr_tag_init(&idr, 8, 0), 0);
	tagged = idr_alloc_tagged(&idr, v, 1, 2, GFP_KERNEL);
	CHECK(tagged >= 0);
	CHECK_EQ(tagged & 0xff, 1);
	CHECK(idr_unalloc(&idr, 0) == NULL);
	CHECK(idr_find(&idr, 1) == v);
	CHECK(idr_unalloc(&idr, (unsigned long)tagged) == v);
	CHECK(idr_find(&idr, 1) == NULL);
	CHECK(idr_is_empty(&idr));
	idr_destroy(&idr);
}

/* }==================== tag.c ==================== */

/* {==================== tree.c, views ==================== */

/*
 * A slot past the last has no child, even when slot 0 has one: the
 * bitmap's shift must not wrap (tree.c, idr_view_child's
 * slot >= IDR_SLOTS; x86 shifts by 64 as by 0).
 */
static void mutants_view_child_past_last(void)
{
	static char v[] = "v";
	struct idr_view top, child;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_alloc(&idr, v, 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_alloc(&idr, v, IDR_SLOTS * IDR_SLOTS, 0, GFP_KERNEL),
		 (int)(IDR_SLOTS * IDR_SLOTS));
	CHECK(idr_view_top(&idr, &top));
	CHECK(idr_view_child(&idr, &top, 0, &child));
	CHECK(!idr_view_child(&idr, &top, IDR_SLOTS, &child));
	CHECK(!idr_view_child(&idr, &top, IDR_SLOTS + 1, &child));
	idr_destroy(&idr);
}

/* }==================== tree.c, views ==================== */

void suite_mutants(void)
{
	RUN(mutants_packed_leaf_freed);
	RUN(mutants_view_child_past_last);
	RUN(mutants_full_cache_frees);
	RUN(mutants_no_room_after_last_slot);
	RUN(mutants_delete_says_absent);
	RUN(mutants_check_full_bit);
	RUN(mutants_check_absent_slot);
	RUN(mutants_check_leaf_aux);
	RUN(mutants_iterate_to_capacity);
	RUN(mutants_check_shift_limit);
	RUN(mutants_stats_bits_bar_ida_only);
	RUN(mutants_ida_free_max_traced);
	RUN(mutants_ida_exists_max_traced);
	RUN(mutants_ida_node_ranges);
	RUN(mutants_tag_unalloc_at_base);
	RUN(mutants_alloc_at_base_only);
	RUN(mutants_cyclic_full_from_start);
}
