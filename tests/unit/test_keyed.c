/* SPDX-License-Identifier: MIT */
/*
 * test_keyed.c - keyed blocks: a lone ID in a tall tree keeps its
 * level-1 node's few IDs in one block (node.h).  Each change is a copy
 * sized to its IDs; past KEYED_MAX a lone ID splits it into packed
 * nodes, any other insertion unkeys it into whole ones; removals copy,
 * prune, and without memory give up in place; views show it as a
 * level-1 node and runs.  idr_check() after every change.
 */
#include <limits.h>

#include "check.h"
#include "idr_rcu.h"
#include "idr_view.h"
#include "model.h"
#include "node.h"
#include "seam.h"
#include "tree.h"
#include "walk.h"

/* As in test_pack.c. */
#define LEAF_BYTES(cap) ((1 + (cap)) * sizeof(void *))
#define INTERIOR_BYTES(cap) ((3 + (cap)) * sizeof(void *))
#define FAR_ID ((unsigned long)INT_MAX / 3 * 2)
/* The first ID of FAR_ID's level-1 range: no node on its way yet. */
#define BASE (FAR_ID & ~(unsigned long)(KEYED_SPAN - 1))

static void *val(unsigned long id)
{
	return (void *)(id * 8 + 8);
}

static void put_lone(struct idr *idr, unsigned long id)
{
	int end = id == INT_MAX ? 0 : (int)id + 1;

	CHECK_EQ(idr_alloc(idr, val(id), (int)id, end, GFP_KERNEL), id);
}

/* @id by an insertion that takes whole nodes: a preloaded one. */
static void put_whole(struct idr *idr, unsigned long id)
{
	idr_preload(GFP_KERNEL);
	CHECK_EQ(idr_alloc(idr, val(id), (int)id, 0, GFP_NOWAIT), id);
	idr_preload_end();
}

static size_t seam_bytes(void)
{
	struct seam_mem_stats st;

	seam_mem_stats(&st);
	return st.bytes;
}

/* malloc's chunk for @cap, as room (test_pack.c's fitted()). */
static unsigned int fitted(unsigned int cap, bool interior)
{
	size_t head = (interior ? 3 : 1) * sizeof(void *);
	size_t chunk = (head + cap * sizeof(void *) + 8 + 15) / 16 * 16;

	return (unsigned int)((chunk - 8 - head) / sizeof(void *));
}

/* The view at @level on @id's path; false if there is none. */
static bool view_at(const struct idr *idr, unsigned long id, unsigned int level,
		    struct idr_view *out)
{
	struct idr_view v[IDR_LEVELS_MAX];
	unsigned int n = idr__path_views(idr, id, v), i;

	for (i = 0; i < n; i++)
		if (v[i].level == level) {
			*out = v[i];
			return true;
		}
	return false;
}

/* How many IDs the keyed block on @id's path holds; 0 if none. */
static unsigned int keyed_at(const struct idr *idr, unsigned long id)
{
	struct idr_view v;

	return view_at(idr, id, 1, &v) ? v.keyed : 0;
}

/* The packed room of the node at @level on @id's path (0: whole), or -1
 * when there is none. */
static int cap_at(const struct idr *idr, unsigned long id, unsigned int level)
{
	struct idr_view v;

	return view_at(idr, id, level, &v) ? (int)v.packed : -1;
}

/* The @i-th ID of BASE's range: each in a run of its own while runs
 * last, then the second of each. */
static unsigned long nth(unsigned int i)
{
	return BASE + (i % IDR_SLOTS) * IDR_SLOTS + i / IDR_SLOTS + 1;
}

/* A tree as tall as INT_MAX needs, whole on its two paths, and a keyed
 * block in the range next to BASE's, so that the interior nodes above
 * BASE's range exist with room: what BASE's IDs add is theirs alone. */
static void tall_tree(struct idr *idr)
{
	put_lone(idr, 0);
	put_whole(idr, INT_MAX);
	put_lone(idr, BASE + KEYED_SPAN);
	CHECK_EQ(keyed_at(idr, BASE + KEYED_SPAN), 1);
}

/* tall_tree() and nth(0 .. @n - 1). */
static void keyed_tree(struct idr *idr, unsigned int n)
{
	unsigned int i;

	tall_tree(idr);
	for (i = 0; i < n; i++)
		put_lone(idr, nth(i));
}

/* nth(0 .. @n - 1) are found, and nothing else in their range. */
static void check_nth(const struct idr *idr, unsigned int n)
{
	unsigned long id;
	unsigned int i, count = 0;
	void *entry;

	for (i = 0; i < n; i++)
		CHECK(idr_find(idr, nth(i)) == val(nth(i)));
	for (id = BASE;
	     (entry = idr_get_next_ul(idr, &id)) && id < BASE + KEYED_SPAN;
	     id++, count++)
		CHECK(entry == val(id));
	CHECK_EQ(count, n);
	CHECK_EQ(idr->idr_count, 3 + n);
	CHECK_SOUND(idr);
}

/* {==================== Made and grown ==================== */

/* A lone ID in a tall tree is a keyed block of one: keyed_size(1) bytes,
 * found by every way in, replaced in place; a reserved ID is skipped by
 * iteration but in use. */
static void keyed_lone_makes_block(void)
{
	unsigned long c = nth(0), r = nth(1), id;
	unsigned int seen = 0;
	DEFINE_IDR(idr);
	size_t before;
	void *entry;
	int got;

	tall_tree(&idr);
	before = seam_bytes();
	put_lone(&idr, c);
	CHECK_EQ(seam_bytes() - before, keyed_size(1));
	CHECK_EQ(keyed_at(&idr, c), 1);
	CHECK_EQ(cap_at(&idr, c, 1), 1);
	CHECK(idr_find(&idr, c) == val(c) && idr_find(&idr, c + 1) == NULL);
	id = 1;
	CHECK(idr_get_next_ul(&idr, &id) == val(c) && id == c);
	idr_for_each_entry(&idr, entry, got) {
		CHECK(entry == val((unsigned long)got));
		seen++;
	}
	CHECK_EQ(seen, 4);
	CHECK(idr_replace(&idr, val(1), c) == val(c));
	CHECK(idr_find(&idr, c) == val(1));
	CHECK_EQ(seam_bytes() - before, keyed_size(1)); /* in place */
	CHECK_EQ(idr_alloc(&idr, NULL, (int)r, (int)r + 1, GFP_KERNEL), r);
	CHECK_EQ(keyed_at(&idr, c), 2);
	CHECK_SOUND(&idr);
	id = c + 1;
	CHECK(idr_get_next_ul(&idr, &id) == val(BASE + KEYED_SPAN));
	id = c + 1;
	CHECK(idr_next_in_use(&idr, &id, &entry) && id == r && !entry);
	CHECK_EQ(idr_alloc(&idr, val(r), (int)r, (int)r + 1, GFP_KERNEL),
		 -ENOSPC);
	seen = 0;
	idr_for_each_entry(&idr, entry, got)
		seen++;
	CHECK_EQ(seen, 4); /* the reserved ID skipped */
	CHECK(idr_replace(&idr, val(r), r) == NULL);
	CHECK(idr_find(&idr, r) == val(r));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* The bytes of a split of nth(0 .. @n - 1): a packed level-1 node and a
 * packed leaf a run, each fitted to what it holds. */
static size_t split_bytes(unsigned int n)
{
	unsigned int runs = n < IDR_SLOTS ? n : IDR_SLOTS, r;
	size_t bytes = INTERIOR_BYTES(fitted(runs, true));

	for (r = 0; r < runs; r++)
		bytes += LEAF_BYTES(
			fitted(n / IDR_SLOTS + (r < n % IDR_SLOTS), false));
	return bytes;
}

/* Lone IDs grow a block one copy at a time, exactly its size, the old
 * one freed; the (KEYED_MAX + 1)-th splits it into packed nodes. */
static void keyed_grows_then_splits(void)
{
	unsigned int n, i;
	DEFINE_IDR(idr);
	size_t before;

	tall_tree(&idr);
	before = seam_bytes();
	for (n = 1; n <= KEYED_MAX; n++) {
		put_lone(&idr, nth(n - 1));
		CHECK_EQ(seam_bytes() - before, keyed_size(n));
		CHECK_EQ(keyed_at(&idr, BASE), n);
		check_nth(&idr, n);
	}
	put_lone(&idr, nth(KEYED_MAX));
	n = KEYED_MAX + 1;
	CHECK_EQ(keyed_at(&idr, BASE), 0);
	CHECK_EQ(seam_bytes() - before, split_bytes(n));
	CHECK_EQ(cap_at(&idr, BASE, 1),
		 fitted(n < IDR_SLOTS ? n : IDR_SLOTS, true));
	for (i = 0; i < n; i++)
		CHECK(cap_at(&idr, nth(i), 0) > 0);
	check_nth(&idr, n);
	idr_destroy(&idr);
}

/* Churn in a block: each removal and insertion is one copy sized to
 * its IDs (unlike a packed leaf's, whose room is kept): bytes steady. */
static void keyed_churn_copies(void)
{
	unsigned int n = 3, round;
	struct seam_mem_stats was, now;
	DEFINE_IDR(idr);

	keyed_tree(&idr, n);
	seam_mem_stats(&was);
	for (round = 0; round < 10; round++) {
		CHECK(idr_remove(&idr, nth(n - 1)) == val(nth(n - 1)));
		CHECK_EQ(cap_at(&idr, BASE, 1), n - 1);
		put_lone(&idr, nth(n - 1));
	}
	seam_mem_stats(&now);
	/* The removal in place, shrunk by realloc (a plain idr's: no malloc,
	 * as any removal); the insertion a copy, malloc and free. */
	CHECK_EQ(now.allocs - was.allocs, round);
	CHECK_EQ(now.frees - was.frees, round);
	CHECK_EQ(now.thread_reallocs - was.thread_reallocs, round);
	CHECK_EQ(now.bytes, was.bytes);
	check_nth(&idr, n);
	idr_destroy(&idr);
}

/* }==================== Made and grown ==================== */

/* {==================== Faults ==================== */

/*
 * The lone insertion of nth(@n) into keyed_tree(@n), with every
 * allocation from the @skip-th on refused: -ENOMEM and nothing changed,
 * or stored (by whatever way was left).  Whether it was refused.
 */
static bool put_refused(unsigned int n, unsigned long skip)
{
	struct idr_snap was;
	DEFINE_IDR(idr);
	long got;

	keyed_tree(&idr, n);
	was = idr_snap_of(&idr);
	seam_fault_inject(skip, ~0UL);
	got = idr_alloc(&idr, val(nth(n)), (int)nth(n), (int)nth(n) + 1,
			GFP_KERNEL);
	seam_fault_inject(0, 0);
	if (got == -ENOMEM)
		CHECK_UNCHANGED(&idr, was);
	else
		CHECK_EQ(got, nth(n));
	check_nth(&idr, got == -ENOMEM ? n : n + 1);
	idr_destroy(&idr);
	return got == -ENOMEM;
}

/* The same with only the @skip-th allocation refused: the whole-nodes
 * way takes over, and the ID is stored. */
static void put_one_refused(unsigned int n, unsigned long skip)
{
	DEFINE_IDR(idr);

	keyed_tree(&idr, n);
	seam_fault_inject(skip, 1);
	put_lone(&idr, nth(n));
	seam_fault_inject(0, 0);
	check_nth(&idr, n + 1);
	idr_destroy(&idr);
}

/* Each allocation of a new block, a copy, and a split refused in turn. */
static void keyed_put_faults(void)
{
	static const unsigned int counts[] = { 0, 1, KEYED_MAX / 2, KEYED_MAX };
	unsigned int i;
	unsigned long skip;

	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		for (skip = 0; put_refused(counts[i], skip); skip++)
			put_one_refused(counts[i], skip);
		CHECK(skip > 0); /* the first allocation was refused */
		put_one_refused(counts[i], skip);
		printf("# keyed put into %u IDs: refused up to allocation "
		       "%lu\n",
		       counts[i], skip);
	}
}

/* The unkeying search from nth(0) (taken: not lone) into keyed_tree(@n)
 * with every allocation from the @skip-th on refused: -ENOMEM and
 * nothing changed, or stored in whole nodes.  Whether it was refused. */
static bool unkey_refused(unsigned int n, unsigned long skip)
{
	unsigned long want = nth(0) + 1;
	struct idr_snap was;
	DEFINE_IDR(idr);
	long got;

	keyed_tree(&idr, n);
	was = idr_snap_of(&idr);
	seam_fault_inject(skip, ~0UL);
	got = idr_alloc(&idr, val(want), (int)nth(0), 0, GFP_KERNEL);
	seam_fault_inject(0, 0);
	if (got == -ENOMEM) {
		CHECK_UNCHANGED(&idr, was);
		CHECK_EQ(keyed_at(&idr, BASE), n);
	} else {
		CHECK_EQ(got, want);
		CHECK_EQ(keyed_at(&idr, BASE), 0);
		CHECK(idr_find(&idr, want) == val(want));
		CHECK(idr_remove(&idr, want) == val(want));
	}
	check_nth(&idr, n);
	idr_destroy(&idr);
	return got == -ENOMEM;
}

/* Unkeying reserves its 1 + runs whole nodes all or none. */
static void keyed_unkey_faults(void)
{
	unsigned int n = KEYED_MAX < IDR_SLOTS ? KEYED_MAX : IDR_SLOTS;
	unsigned long skip;

	for (skip = 0; unkey_refused(n, skip); skip++)
		;
	CHECK_EQ(skip, 1 + n);
}

/* }==================== Faults ==================== */

/* {==================== Unkeyed ==================== */

/* The block became a whole level-1 node with whole leaves. */
static void check_unkeyed(const struct idr *idr, unsigned int n)
{
	unsigned int i;

	CHECK_EQ(keyed_at(idr, BASE), 0);
	CHECK_EQ(cap_at(idr, BASE, 1), 0);
	for (i = 0; i < n; i++)
		CHECK_EQ(cap_at(idr, nth(i), 0), 0);
}

/* A search from the range's start (taken: not lone) unkeys the block,
 * from the nodes it reserved: 1 + its runs with the new ID's. */
static void keyed_unkeyed_by_search(void)
{
	DEFINE_IDR(idr);

	keyed_tree(&idr, 3);
	put_lone(&idr, BASE);
	CHECK_EQ(keyed_at(&idr, BASE), 4);
	/* runs 0, 1, 2 hold BASE and nth(0 .. 2); BASE + 2 is in run 0 */
	CHECK_EQ(idr__nodes_needed(&idr, BASE + 2), 1 + 3);
	CHECK_EQ(idr_alloc(&idr, val(BASE + 2), (int)BASE, 0, GFP_KERNEL),
		 BASE + 2);
	check_unkeyed(&idr, 3);
	CHECK(idr_find(&idr, BASE) == val(BASE));
	CHECK(idr_find(&idr, BASE + 2) == val(BASE + 2));
	CHECK_EQ(idr.idr_count, 3 + 5);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* Under idr_preload() a lone ID takes whole nodes: it unkeys, with
 * nothing malloc'd inside the preload. */
static void keyed_unkeyed_under_preload(void)
{
	DEFINE_IDR(idr);

	keyed_tree(&idr, 2);
	idr_preload(GFP_KERNEL);
	seam_fault_inject(0, ~0UL);
	CHECK_EQ(idr_alloc(&idr, val(nth(2)), (int)nth(2), (int)nth(2) + 1,
			   GFP_NOWAIT),
		 nth(2));
	seam_fault_inject(0, 0);
	idr_preload_end();
	check_unkeyed(&idr, 3);
	check_nth(&idr, 3);
	idr_destroy(&idr);
}

/* idr_pre_get() fills the cache with enough for any insertion: the
 * largest unkeying (KEYED_MAX runs and a new one) needs no malloc. */
static void keyed_unkeyed_by_get_new_above(void)
{
	unsigned int n = KEYED_MAX < IDR_SLOTS ? KEYED_MAX : IDR_SLOTS - 1;
	unsigned long id = BASE + IDR_SLOTS * n; /* a run of its own */
	DEFINE_IDR(idr);
	int got;

	keyed_tree(&idr, n);
	CHECK_EQ(keyed_at(&idr, BASE), n);
	CHECK_EQ(idr__nodes_needed(&idr, id), n + 2);
	CHECK(idr_pre_get(&idr, GFP_KERNEL));
	CHECK(idr_cache_count(&idr) >= n + 2);
	seam_fault_inject(0, ~0UL);
	CHECK_EQ(idr_get_new_above(&idr, val(id), (int)id, &got), 0);
	seam_fault_inject(0, 0);
	CHECK_EQ(got, id);
	check_unkeyed(&idr, n);
	CHECK(idr_find(&idr, id) == val(id));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* }==================== Unkeyed ==================== */

/* {==================== Removed ==================== */

/* A removal publishes a copy without the ID; the last takes the block
 * out and prunes its parents: every byte back. */
static void keyed_removal_copies_and_prunes(void)
{
	unsigned int n = 3, i;
	DEFINE_IDR(idr);
	size_t before;

	put_lone(&idr, 0);
	put_whole(&idr, INT_MAX);
	before = seam_bytes();
	for (i = 0; i < n; i++)
		put_lone(&idr, nth(i));
	for (i = n; i-- > 1;) {
		CHECK(idr_remove(&idr, nth(i)) == val(nth(i)));
		CHECK_EQ(keyed_at(&idr, BASE), i);
		CHECK(idr_find(&idr, nth(i)) == NULL);
		CHECK(idr_find(&idr, nth(0)) == val(nth(0)));
		CHECK_SOUND(&idr);
	}
	CHECK(seam_bytes() - before > keyed_size(1)); /* parents, packed */
	CHECK(idr_remove(&idr, nth(0)) == val(nth(0)));
	CHECK_EQ(seam_bytes(), before);
	CHECK_EQ(cap_at(&idr, BASE, 1), -1);
	CHECK_EQ(idr.idr_count, 2);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* The @i-th ID of range 0, in a run of its own while runs last. */
static unsigned long low(unsigned int i)
{
	return (i % IDR_SLOTS) * IDR_SLOTS + i / IDR_SLOTS + 1;
}

/* As many runs as a block may hold: unkeying them takes the most nodes. */
#define LOW_N (KEYED_MAX < IDR_SLOTS ? KEYED_MAX : IDR_SLOTS)

/* A fresh tree's height for low(0 .. LOW_N - 1). */
static unsigned int fresh_height(void)
{
	unsigned int height, i;
	DEFINE_IDR(idr);

	for (i = 0; i < LOW_N; i++)
		put_lone(&idr, low(i));
	height = idr__height(&idr);
	idr_destroy(&idr);
	return height;
}

/*
 * Range 0 is never keyed: a shrinking tree lowers into it, a keyed block
 * could not be the top, and a removal has no whole nodes to put in its
 * place (it mallocs nothing, as the kernel's).  Lone IDs there get
 * packed nodes instead, so removing ID IDR_SLOTS * KEYED_SPAN lowers the
 * tree to the kernel's height (a fresh tree's) with the cache empty and
 * no malloc.
 */
static void keyed_none_in_range_0(void)
{
	unsigned long far = (unsigned long)IDR_SLOTS * KEYED_SPAN;
	struct seam_mem_stats was, now;
	unsigned int i;
	DEFINE_IDR(idr);

	put_lone(&idr, far);
	CHECK_EQ(keyed_at(&idr, far), 1);
	for (i = 0; i < LOW_N; i++)
		put_lone(&idr, low(i));
	CHECK_EQ(keyed_at(&idr, low(0)), 0);
	/* A level-1 node, packed (or whole past PACK_MAX). */
	CHECK(cap_at(&idr, low(0), 1) >= 0);
	CHECK_EQ(idr_cache_count(&idr), 0);
	seam_mem_stats(&was);
	CHECK(idr_remove(&idr, far) == val(far));
	seam_mem_stats(&now);
	CHECK_EQ(now.allocs, was.allocs);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr__height(&idr), fresh_height());
	for (i = 0; i < LOW_N; i++)
		CHECK(idr_remove(&idr, low(i)) == val(low(i)));
	CHECK(idr_is_empty(&idr));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* A plain idr takes the ID out in place, with every malloc refused (a
 * removal mallocs nothing), then realloc shrinks the block to its IDs
 * when that is a smaller chunk. */
static void keyed_remove_no_memory_plain(void)
{
	DEFINE_IDR(idr);
	size_t before;

	keyed_tree(&idr, 3);
	before = seam_bytes();
	seam_fault_inject(0, ~0UL);
	CHECK(idr_remove(&idr, nth(1)) == val(nth(1)));
	seam_fault_inject(0, 0);
	CHECK_EQ(seam_bytes(), before - (keyed_size(3) - keyed_size(2)));
	CHECK_EQ(keyed_at(&idr, BASE), 2);
	CHECK_EQ(cap_at(&idr, BASE, 1), 2);
	CHECK(idr_find(&idr, nth(1)) == NULL);
	CHECK_EQ(idr.idr_count, 3 + 2);
	CHECK_SOUND(&idr);
	put_lone(&idr, nth(1)); /* a copy, sized to its IDs */
	CHECK_EQ(cap_at(&idr, BASE, 1), 3);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* RCU hooks that run the work at once: no reader here. */
static void run_now(struct idr_rcu_work *work)
{
	work->idr_fn(work);
}

static void no_wait(void)
{
}

static const struct idr_rcu_hooks now_hooks = { run_now, no_wait };

/* No memory for the copy: an RCU idr clears the entry in place, and the
 * ID stays allocated, holding NULL; with memory, it goes. */
static void keyed_remove_no_memory_rcu(void)
{
	struct idr idr = IDR__INIT_RCU(0, 0, &now_hooks);
	unsigned long id;
	void *entry;

	/* tall_tree()'s second block would take whole nodes here: an RCU
	 * idr's packed parent takes an ID in place only last. */
	put_lone(&idr, 0);
	put_whole(&idr, INT_MAX);
	for (id = 0; id < 3; id++)
		put_lone(&idr, nth((unsigned int)id));
	CHECK_EQ(keyed_at(&idr, BASE), 3);
	seam_fault_inject(0, ~0UL);
	CHECK(idr_remove(&idr, nth(1)) == val(nth(1)));
	seam_fault_inject(0, 0);
	CHECK_SOUND(&idr);
	CHECK(idr_find(&idr, nth(1)) == NULL);
	CHECK_EQ(keyed_at(&idr, BASE), 3);
	CHECK_EQ(idr.idr_count, 2 + 3);
	id = nth(0) + 1;
	CHECK(idr_next_in_use(&idr, &id, &entry) && id == nth(1) && !entry);
	CHECK_EQ(idr_alloc(&idr, val(1), (int)nth(1), (int)nth(1) + 1,
			   GFP_KERNEL),
		 -ENOSPC);
	CHECK(idr_remove(&idr, nth(1)) == NULL);
	CHECK_EQ(keyed_at(&idr, BASE), 2);
	CHECK_EQ(idr.idr_count, 2 + 2);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* An RCU idr's last ID of a block below a packed parent, with no memory
 * for the parent's copy: the entry is cleared in place, the ID stays. */
static void keyed_remove_last_no_memory_rcu(void)
{
	struct idr idr = IDR__INIT_RCU(0, 0, &now_hooks);
	unsigned long id;
	void *entry;

	put_lone(&idr, 0);
	put_whole(&idr, INT_MAX);
	put_lone(&idr, nth(0));
	/* A sibling after it: in place, even on an RCU idr (it goes last). */
	put_lone(&idr, BASE + KEYED_SPAN);
	CHECK_EQ(keyed_at(&idr, BASE), 1);
	CHECK_EQ(cap_at(&idr, BASE, 2), 2); /* its parent, packed */
	seam_fault_inject(0, ~0UL);
	CHECK(idr_remove(&idr, nth(0)) == val(nth(0)));
	seam_fault_inject(0, 0);
	CHECK_SOUND(&idr);
	CHECK(idr_find(&idr, nth(0)) == NULL);
	id = 1;
	CHECK(idr_next_in_use(&idr, &id, &entry) && id == nth(0) && !entry);
	CHECK_EQ(idr.idr_count, 4);
	CHECK(idr_remove(&idr, nth(0)) == NULL); /* now with memory */
	CHECK_EQ(cap_at(&idr, BASE, 1), -1);
	CHECK_EQ(idr.idr_count, 3);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* }==================== Removed ==================== */

/* {==================== Elsewhere, and views ==================== */

static int count_keyed(const struct idr_view *view, void *data)
{
	if (view->keyed)
		++*(unsigned int *)data;
	return 0;
}

static unsigned int keyed_views(const struct idr *idr)
{
	unsigned int n = 0;

	CHECK_EQ(idr_walk(idr, count_keyed, &n), 0);
	return n;
}

/* Tagged idrs and IDAs take whole nodes for lone IDs: no keyed view. */
static void keyed_not_tagged_nor_ida(void)
{
	static const unsigned int ids[] = { 0xffff, 2 * KEYED_SPAN + 5,
					    2 * KEYED_SPAN + IDR_SLOTS + 1 };
	unsigned int i;
	struct idr tagged;
	DEFINE_IDA(ida);

	idr_init(&tagged);
	CHECK_EQ(idr_tag_init(&tagged, 16, 0), 0);
	for (i = 0; i < 3; i++) {
		int id = (int)ids[i];

		CHECK(idr_alloc_tagged(&tagged, val(ids[i]), id, id + 1,
				       GFP_KERNEL) >= 0);
		CHECK_EQ(ida_alloc_range(&ida, ids[i], ids[i], GFP_KERNEL), id);
	}
	CHECK(idr__height(&tagged) > 2);
	CHECK(idr_find(&tagged, ids[1]) == val(ids[1]));
	CHECK_EQ(keyed_views(&tagged), 0);
	CHECK_EQ(keyed_views(ida_tree(&ida)), 0);
	CHECK_SOUND(&tagged);
	CHECK_SOUND(ida_tree(&ida));
	idr_destroy(&tagged);
	ida_destroy(&ida);
}

/* Views of a run: each entry is its ID's; [0] counts runs, [1] all. */
static int count_runs(const struct idr_view *view, void *data)
{
	unsigned long *n = data;
	uint64_t set;

	if (view->keyed && !view->level) {
		for (set = view->present; set; set &= set - 1)
			CHECK(idr_view_entry(view, lowest(set)) ==
			      val(view->first + lowest(set)));
		n[0]++;
	}
	if (!view->keyed && !view->level)
		n[2]++;
	n[1]++;
	return 0;
}

/* A block of three IDs in two runs: the path goes through it to the
 * run; the walk visits both runs; stats count the block, not its runs. */
static void keyed_views_show_block(void)
{
	unsigned long a = nth(0), b = nth(0) + 1, c = nth(1), n[3] = { 0 };
	struct idr_view v[IDR_LEVELS_MAX];
	struct idr_path path;
	struct idr_stats st;
	unsigned int depth;
	DEFINE_IDR(idr);

	tall_tree(&idr);
	put_lone(&idr, a);
	put_lone(&idr, b);
	put_lone(&idr, c);
	depth = idr__path_views(&idr, a, v);
	CHECK_EQ(depth, idr__height(&idr));
	CHECK(v[depth - 2].level == 1 && v[depth - 2].keyed == 3);
	CHECK_EQ(v[depth - 2].packed, 3);
	CHECK_EQ(v[depth - 2].present,
		 bit(digit(a, IDR_BITS)) | bit(digit(c, IDR_BITS)));
	CHECK(v[depth - 1].level == 0 && v[depth - 1].keyed == 3);
	CHECK_EQ(v[depth - 1].packed, 2);
	CHECK_EQ(v[depth - 1].present, bit(digit(a, 0)) | bit(digit(b, 0)));
	CHECK(idr_view_entry(&v[depth - 1], digit(b, 0)) == val(b));
	CHECK(idr_view_entry(&v[depth - 1], digit(a, 0) + 2) == NULL);
	CHECK_EQ(idr_path(&idr, b, &path), 0);
	CHECK_EQ(path.end, IDR_PATH_FOUND);
	CHECK(path.entry == val(b));
	CHECK_EQ(path.steps, idr__height(&idr));
	CHECK_EQ(idr_path(&idr, b + 1, &path), 0);
	CHECK_EQ(path.end, IDR_PATH_FREE_SLOT);
	CHECK_EQ(idr_path(&idr, BASE + 2 * IDR_SLOTS + 1, &path), 0);
	CHECK_EQ(path.end, IDR_PATH_NO_CHILD);
	CHECK_EQ(idr_walk(&idr, count_runs, n), 0);
	CHECK_EQ(n[0], 2 + 1); /* and tall_tree()'s block's run */
	CHECK_EQ(keyed_views(&idr), n[0] + 2);
	idr_stats(&idr, &st);
	CHECK_EQ(st.nodes, n[1] - n[0]);
	CHECK_EQ(st.level_nodes[0], n[2]);
	CHECK_EQ(st.level_nodes[1], 2 + 2); /* two blocks, two whole nodes */
	CHECK_EQ(st.ids, 6);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* An idr with base 1: keys are of the index (ID - 1), and the views
 * (idr__path_views() by index) show IDs; a block grows, splits, and its
 * runs' views hold each ID's entry. */
static void keyed_with_base(void)
{
	struct idr idr = IDR_INIT_BASE(idr, 1);
	unsigned long n[3] = { 0 };
	unsigned int i;

	put_lone(&idr, INT_MAX);
	for (i = 0; i <= KEYED_MAX; i++) {
		put_lone(&idr, nth(i)); /* index nth(i) - 1 >= BASE */
		CHECK_EQ(keyed_at(&idr, BASE), i < KEYED_MAX ? i + 1 : 0);
		CHECK_EQ(idr_walk(&idr, count_runs, n), 0);
		CHECK_SOUND(&idr);
	}
	for (i = 0; i <= KEYED_MAX; i++)
		CHECK(idr_find(&idr, nth(i)) == val(nth(i)));
	CHECK(idr_find(&idr, BASE) == NULL && idr_find(&idr, 0) == NULL);
	idr_destroy(&idr);
}

/* }==================== Elsewhere, and views ==================== */

/* {==================== Against the model ==================== */

/* The ways in: lone, a search, a preloaded lone one, the 2004 API,
 * cyclic. */
enum way { LONE, SEARCH, PRELOADED, LEGACY, CYCLIC };

/* Level-1 ranges from BASE on that the random steps use: few IDs each,
 * emptied now and then, so blocks keep being made. */
#define KEYED_RANGES 16u

/* Allocate at or from @id the @way way, as the model does: its result,
 * or -ENOMEM (the model then unchanged). */
static int alloc_by(struct idr *idr, struct model *m, unsigned long id,
		    enum way way)
{
	int start = (int)id, end = way == LONE ? start + 1 : 0, got;

	if (way == PRELOADED)
		idr_preload(GFP_KERNEL);
	if (way == LEGACY) {
		if (idr_pre_get(idr, GFP_KERNEL) &&
		    idr_get_new_above(idr, val(id), start, &got) == 0)
			CHECK_EQ(got, model_alloc(m, val(id), start, 0));
		else
			got = -ENOMEM;
		return got;
	}
	if (way == CYCLIC) {
		got = idr_alloc_cyclic(idr, val(id), start, 0, GFP_KERNEL);
		if (got != -ENOMEM)
			CHECK_EQ(got, model_alloc_cyclic(m, val(id), start, 0));
		return got;
	}
	got = idr_alloc(idr, val(id), start, end,
			way == PRELOADED ? GFP_NOWAIT : GFP_KERNEL);
	if (way == PRELOADED)
		idr_preload_end();
	if (got != -ENOMEM)
		CHECK_EQ(got, model_alloc(m, val(id), start, end));
	return got;
}

/* An RCU idr's removal with no memory may keep the ID, holding NULL
 * (a plain idr's never does): the model keeps it too. */
static void kept_by_rcu(const struct idr *idr, struct model *m,
			unsigned long id)
{
	struct idr_info info;
	unsigned long at = id;
	void *entry;

	idr_info(idr, &info);
	if (!idr_next_in_use(idr, &at, &entry) || at != id)
		return;
	CHECK(info.rcu && !entry);
	CHECK_EQ(model_alloc(m, NULL, (int)id, (int)id + 1), id);
}

/* One step: an allocation some way, or a removal, now and then with
 * allocations refused; the tree sound after each. */
static void keyed_step(struct idr *idr, struct model *m, uint64_t *rng)
{
	unsigned long id = BASE + rnd_below(rng, KEYED_RANGES * KEYED_SPAN);
	static const enum way ways[] = { LONE,	    LONE,   LONE,
					 LONE,	    SEARCH, SEARCH,
					 PRELOADED, LEGACY, CYCLIC };
	bool removal = m->n > 3 && rnd_below(rng, m->n > 40 ? 2 : 4) == 0;
	void *old = NULL;

	if (rnd_below(rng, 8) == 0)
		seam_fault_inject(rnd_below(rng, 4),
				  rnd_below(rng, 2) ? 1 : ~0UL);
	if (removal) {
		id = m->ids[rnd_below(rng, m->n)];
		model_remove(m, id, &old);
		CHECK(idr_remove(idr, id) == old);
	} else {
		alloc_by(idr, m, id, ways[rnd_below(rng, 9)]);
	}
	seam_fault_inject(0, 0);
	if (removal)
		kept_by_rcu(idr, m, id);
	CHECK_SOUND(idr);
}

/* Lone IDs, searches, preloads and the 2004 API over KEYED_RANGES
 * level-1 ranges of @idr's tall tree, with refusals: as the model
 * says. */
static void keyed_random_on(struct idr *idr, uint64_t rng)
{
	unsigned long failures = check_failures;
	unsigned int i, keyed_seen = 0;
	struct model m;

	model_init(&m, 0);
	tall_tree(idr);
	model_alloc(&m, val(0), 0, 1);
	model_alloc(&m, val(INT_MAX), INT_MAX, 0);
	model_alloc(&m, val(BASE + KEYED_SPAN), (int)(BASE + KEYED_SPAN), 0);
	for (i = 0; i < 20000 && check_failures == failures; i++) {
		keyed_step(idr, &m, &rng);
		keyed_seen += keyed_views(idr) > 0;
	}
	printf("# keyed: %u of %u steps with a keyed block\n", keyed_seen, i);
	CHECK(keyed_seen > i / 10); /* these seeds meet keyed blocks */
	CHECK(model_matches(&m, idr));
	model_free(&m);
	idr_destroy(idr);
}

static void keyed_random_against_model(void)
{
	DEFINE_IDR(idr);

	keyed_random_on(&idr, 7);
}

/* The same on an RCU idr (whose packed parents take whole nodes more
 * often, and whose old blocks go through the hooks). */
static void keyed_rcu_random_against_model(void)
{
	struct idr idr = IDR__INIT_RCU(0, 0, &now_hooks);

	keyed_random_on(&idr, 8);
}

/* }==================== Against the model ==================== */

void suite_keyed(void)
{
	RUN(keyed_lone_makes_block);
	RUN(keyed_grows_then_splits);
	RUN(keyed_churn_copies);
	RUN(keyed_put_faults);
	RUN(keyed_unkey_faults);
	RUN(keyed_unkeyed_by_search);
	RUN(keyed_unkeyed_under_preload);
	RUN(keyed_unkeyed_by_get_new_above);
	RUN(keyed_removal_copies_and_prunes);
	RUN(keyed_none_in_range_0);
	RUN(keyed_remove_no_memory_plain);
	RUN(keyed_remove_no_memory_rcu);
	RUN(keyed_remove_last_no_memory_rcu);
	RUN(keyed_not_tagged_nor_ida);
	RUN(keyed_views_show_block);
	RUN(keyed_with_base);
	RUN(keyed_random_against_model);
	RUN(keyed_rcu_random_against_model);
}
