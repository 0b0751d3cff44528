/* SPDX-License-Identifier: MIT */
/*
 * test_pack.c - packed leaves: removals pack a plain idr's sparse leaves
 * and shrink them; an insertion into a packed leaf with no room unpacks
 * it into a whole node, which costs one node like any other (-ENOMEM,
 * -EAGAIN), and nothing else about the idr may tell the difference.
 */
#include <limits.h>
#include <string.h>

#include "check.h"
#include "idr_view.h"
#include "model.h"
#include "node.h"
#include "nodes.h"
#include "seam.h"
#include "tree.h"
#include "walk.h"

#define LEAVES 40u

static void *val(unsigned long id)
{
	return (void *)(id * 8 + 8);
}

static void fill(struct idr *idr, unsigned long n)
{
	unsigned long id;

	for (id = 0; id < n; id++)
		CHECK_EQ(idr_alloc(idr, val(id), 0, 0, GFP_KERNEL), id);
}

/* Of @n IDs, keep @keep in each leaf: slots 0, 64 / keep, ... */
static void thin(struct idr *idr, unsigned long n, unsigned int keep)
{
	unsigned long id;

	for (id = 0; id < n; id++)
		if ((id % IDR_SLOTS) % (IDR_SLOTS / keep) ||
		    id % IDR_SLOTS >= keep * (IDR_SLOTS / keep))
			CHECK(idr_remove(idr, id) == val(id));
}

/* Room in the leaf holding @id if it is packed, else 0. */
static unsigned int leaf_cap_at(const struct idr *idr, unsigned long id)
{
	struct idr_view views[IDR_LEVELS_MAX];
	unsigned int n = idr__path_views(idr, id, views);

	return n ? views[n - 1].packed : 0;
}

static unsigned int leaf_cap(const struct idr *idr)
{
	return leaf_cap_at(idr, 0);
}

/* Every ID below LEAVES * 64 is there exactly when @live says. */
static void check_contents(const struct idr *idr, bool (*live)(unsigned long))
{
	unsigned long id, next = 0, count = 0;
	void *entry;
	int got;

	for (id = 0; id < LEAVES * IDR_SLOTS; id++)
		CHECK(idr_find(idr, id) == (live(id) ? val(id) : NULL));
	idr_for_each_entry(idr, entry, got) {
		while (!live(next))
			next++;
		CHECK_EQ(got, next);
		CHECK(entry == val(next));
		next++;
		count++;
	}
	CHECK_EQ(count, idr->idr_count);
	CHECK_SOUND(idr);
}

static bool live_quarter(unsigned long id)
{
	return (id % IDR_SLOTS) % (IDR_SLOTS / (IDR_SLOTS / 4)) == 0;
}

/* Removals pack the leaves; lookups, iteration and stats do not change. */
static void pack_by_removal(void)
{
	DEFINE_IDR(idr);
	struct idr_stats st;
	size_t whole;

	fill(&idr, LEAVES * IDR_SLOTS);
	idr_stats(&idr, &st);
	whole = st.bytes;
	CHECK_EQ(st.packed, 0);
	thin(&idr, LEAVES * IDR_SLOTS, IDR_SLOTS / 4);
	idr_stats(&idr, &st);
	CHECK_EQ(st.packed, LEAVES);
	CHECK_EQ(st.level_nodes[0], LEAVES);
	/* Interior nodes as they were; leaves with at most 1/8 room spare,
	 * or PACK_SLACK (3) slots if more. */
	CHECK(st.bytes <=
	      whole - LEAVES * st.node_bytes +
		      LEAVES * (16 + 8 * (IDR_SLOTS / 4 +
					  (IDR_SLOTS / 32 > 3 ? IDR_SLOTS / 32
							      : 3))));
	check_contents(&idr, live_quarter);
	idr_destroy(&idr);
}

/* A full packed leaf is unpacked by the next insertion, and it shows. */
static void pack_unpacked_by_insertion(void)
{
	DEFINE_IDR(idr);
	struct idr_stats st;
	char text[4096];
	FILE *out;

	unsigned int k, id;

	fill(&idr, IDR_SLOTS);
	thin(&idr, IDR_SLOTS, 2); /* one leaf, with 2 entries, packed */
	/* Tight, with at most PACK_SLACK (3) slots to spare. */
	CHECK(leaf_cap(&idr) >= 2 && leaf_cap(&idr) <= 2 + 3);
	snprintf(text, sizeof(text), ", packed in %u", leaf_cap(&idr));
	out = fmemopen(text + 64, sizeof(text) - 64, "w");
	CHECK_EQ(idr_dump(&idr, out, 0), 0);
	fclose(out);
	CHECK(strstr(text + 64, "2/") && strstr(text + 64, text));
	k = leaf_cap(&idr) - 2;
	CHECK_EQ(fill_packed_room(&idr, val), k); /* IDs 1 .. k, in place */
	idr_stats(&idr, &st);
	CHECK_EQ(st.packed, 1);
	CHECK_EQ(idr_alloc(&idr, val(k + 1), 0, 0, GFP_KERNEL), k + 1);
	idr_stats(&idr, &st);
	CHECK_EQ(st.packed, 0);
	for (id = 0; id <= k + 1; id++)
		CHECK(idr_find(&idr, id) == val(id));
	CHECK(idr_find(&idr, IDR_SLOTS / 2) == val(IDR_SLOTS / 2));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/*
 * A packed leaf with room takes an entry in place, in slot order; a
 * removal that leaves little room to spare does not shrink it.
 */
static void pack_insert_in_place(void)
{
	DEFINE_IDR(idr);
	struct idr_stats st;
	unsigned long id;

	fill(&idr, IDR_SLOTS / 2 + 1);
	for (id = IDR_SLOTS / 2; id < IDR_SLOTS / 2 + 1; id++)
		CHECK(idr_remove(&idr, id) == val(id)); /* packed, with room */
	CHECK(idr_remove(&idr, 3) == val(3));		/* more room, kept */
	idr_stats(&idr, &st);
	CHECK_EQ(st.packed, 1);
	CHECK(leaf_cap(&idr) > IDR_SLOTS / 2);
	CHECK_EQ(idr_alloc(&idr, val(3), 0, 0, GFP_KERNEL), 3);
	idr_stats(&idr, &st);
	CHECK_EQ(st.packed, 1);
	for (id = 0; id < IDR_SLOTS / 2; id++)
		CHECK(idr_find(&idr, id) == val(id));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* Unpacking takes a node: with none to be had, nothing changes. */
static void pack_unpack_fails_cleanly(void)
{
	DEFINE_IDR(idr);
	struct idr_snap was;
	unsigned int k;
	int id;

	fill(&idr, IDR_SLOTS);
	thin(&idr, IDR_SLOTS, 2);
	k = fill_packed_room(&idr, val);
	was = idr_snap_of(&idr);
	seam_fault_inject(0, 1);
	CHECK_EQ(idr_alloc(&idr, val(k + 1), 0, 0, GFP_KERNEL), -ENOMEM);
	seam_fault_inject(0, 0);
	CHECK_UNCHANGED(&idr, was);
	/* The 2004 API: the cache is empty, so -EAGAIN, and then it works. */
	CHECK_EQ(idr_get_new(&idr, val(k + 1), &id), -EAGAIN);
	CHECK_UNCHANGED(&idr, was);
	CHECK(idr_pre_get(&idr, GFP_KERNEL));
	CHECK_EQ(idr_get_new(&idr, val(k + 1), &id), 0);
	CHECK_EQ(id, (int)k + 1);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* A trace callback that reads the whole tree at every event. */
static void read_all(const struct idr *idr, const struct idr_trace *ev,
		     void *data)
{
	struct idr_stats st;

	(void)ev;
	idr_stats(idr, &st);
	*(unsigned long *)data += st.packed;
}

/*
 * A trace callback may read the tree in the middle of an operation: a
 * removal from a packed leaf with no room (whose link says it has no pack
 * word) shows a sound leaf at every event; under ASan, nothing is read
 * past its block.
 */
static void pack_trace_reads_full_leaf(void)
{
	DEFINE_IDR(idr);
	unsigned long seen = 0;

	fill(&idr, IDR_SLOTS);
	thin(&idr, IDR_SLOTS, 2); /* one leaf, with 2 entries, packed */
	CHECK(fill_packed_room(&idr, val) > 0); /* IDs 1 .. k: no room */
	idr_set_trace(&idr, read_all, &seen);
	CHECK(idr_remove(&idr, 1) == val(1));
	idr_set_trace(&idr, NULL, NULL);
	CHECK(seen > 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* IDA and tagged leaves keep their layout: they hold more than entries. */
static void pack_only_plain_idrs(void)
{
	struct idr tagged;
	struct idr_stats st;
	unsigned long id;

	idr_init(&tagged);
	CHECK_EQ(idr_tag_init(&tagged, 16, 0), 0);
	for (id = 0; id < IDR_SLOTS; id++)
		CHECK(idr_alloc_tagged(&tagged, val(id), 0, 0, GFP_KERNEL) >=
		      0);
	for (id = 1; id < IDR_SLOTS; id++)
		CHECK(idr_remove(&tagged, id) == val(id));
	idr_stats(&tagged, &st);
	CHECK_EQ(st.packed, 0);
	CHECK_SOUND(&tagged);
	idr_destroy(&tagged);
}

/*
 * The end of a random run: @idr matches @m, is sound, has packed nodes,
 * and holds the bytes the seam gave out since @before; both are freed.
 */
static void model_done(struct idr *idr, struct model *m,
		       const struct seam_mem_stats *before)
{
	struct seam_mem_stats after;
	struct idr_stats st;

	CHECK(model_matches(m, idr));
	CHECK_SOUND(idr);
	seam_mem_stats(&after);
	idr_stats(idr, &st);
	CHECK(st.packed > 0);
	CHECK_EQ(st.bytes, after.bytes - before->bytes);
	model_free(m);
	idr_destroy(idr);
}

/* Random removals and refills against the model, bytes as stats say. */
static void pack_random_against_model(void)
{
	struct seam_mem_stats before;
	struct model m;
	uint64_t rng = 7;
	DEFINE_IDR(idr);
	unsigned long i, n = LEAVES * IDR_SLOTS;
	void *old;

	seam_mem_stats(&before);
	model_init(&m, 0);
	fill(&idr, n);
	for (i = 0; i < n; i++)
		model_alloc(&m, val(i), 0, 0);
	for (i = 0; i < 20 * n; i++) {
		uint32_t id = (uint32_t)rnd_below(&rng, n);

		if (rnd_below(&rng, 3)) {
			old = NULL;
			model_remove(&m, id, &old);
			CHECK(idr_remove(&idr, id) == old);
		} else {
			CHECK_EQ(idr_alloc(&idr, val(id), (int)id, 0, 0),
				 model_alloc(&m, val(id), (int)id, 0));
		}
	}
	model_done(&idr, &m, &before);
}

/* {==================== Churn ==================== */

/* What the allocator seam has done so far. */
struct seam {
	unsigned long allocs, frees;
	size_t bytes;
};

static struct seam seam_now(void)
{
	struct seam_mem_stats st;

	seam_mem_stats(&st);
	return (struct seam){ st.allocs, st.frees, st.bytes };
}

/*
 * No malloc, no free and no realloc since @was: with no malloc, bytes
 * only go down, so equal bytes mean no shrink either.
 */
static bool seam_quiet(struct seam was)
{
	struct seam now = seam_now();

	return now.allocs == was.allocs && now.frees == was.frees &&
	       now.bytes == was.bytes;
}

/* Allocate @w IDs, remove from the top down to @k, allocate up to @n. */
static void build_leaf(struct idr *idr, unsigned int w, unsigned int k,
		       unsigned int n)
{
	unsigned int id;

	fill(idr, w);
	for (id = w; id-- > k;)
		CHECK(idr_remove(idr, id) == val(id));
	for (id = k; id < n; id++)
		CHECK_EQ(idr_alloc(idr, val(id), 0, 0, GFP_KERNEL), id);
}

/* The ways to have @n IDs in one leaf that the churn tests start from. */
enum build { BY_ALLOC, BY_REMOVAL, FULL_PACKED, BUILDS };

static const char *const build_name[BUILDS] = {
	"allocations only", "removals from a full leaf", "a full packed leaf"
};

/*
 * Build @idr one of those ways; false if there is no full packed leaf
 * of @n entries to be had (by allocations and removals at the top).
 */
static bool build(struct idr *idr, unsigned int n, enum build how)
{
	unsigned int w, k;

	if (how == BY_ALLOC || how == BY_REMOVAL) {
		build_leaf(idr, how == BY_ALLOC ? n : IDR_SLOTS, n, n);
		return true;
	}
	for (w = 1; w <= IDR_SLOTS; w++)
		for (k = 1; k <= n && k <= w; k++) {
			build_leaf(idr, w, k, n);
			if (leaf_cap(idr) == n)
				return true;
			idr_destroy(idr);
		}
	return false;
}

/* @rounds of @amp allocations then the @amp removals; false on error. */
static bool churn(struct idr *idr, unsigned int amp, unsigned int rounds)
{
	int ids[2], i;

	while (rounds-- > 0) {
		for (i = 0; i < (int)amp; i++) {
			ids[i] = idr_alloc(idr, val(0), 0, 0, GFP_KERNEL);
			if (ids[i] < 0)
				return false;
		}
		while (i-- > 0)
			if (idr_remove(idr, ids[i]) != val(0))
				return false;
	}
	return true;
}

/*
 * After one round to settle, churn of amplitude @amp (@amp allocations,
 * then @amp removals) at every occupancy of a leaf, however the leaf was
 * built, allocates, frees and shrinks nothing: an almost full packed
 * leaf must not be unpacked and packed again at every round.
 */
static void churn_quiet_at_every_count(unsigned int amp)
{
	unsigned int n, loud = 0, full = 0;
	enum build how;
	struct seam was;

	for (n = 1; n <= IDR_SLOTS; n++)
		for (how = 0; how < BUILDS; how++) {
			DEFINE_IDR(idr);

			if (!build(&idr, n, how))
				continue;
			full += how == FULL_PACKED;
			CHECK(churn(&idr, amp, 1));
			was = seam_now();
			CHECK(churn(&idr, amp, 1000));
			if (!seam_quiet(was) && loud++ < 8)
				printf("# churn by %u at %u IDs (%s): %lu "
				       "mallocs, %ld bytes\n",
				       amp, n, build_name[how],
				       seam_now().allocs - was.allocs,
				       (long)(seam_now().bytes - was.bytes));
			CHECK_EQ(idr.idr_count, n);
			CHECK_SOUND(&idr);
			idr_destroy(&idr);
		}
	CHECK_EQ(loud, 0);
	/* Full packed leaves exist at every even count up to half a leaf
	 * (a packed leaf's room is even: it fills malloc's chunk). */
	CHECK(full >= IDR_SLOTS / 4);
}

static void pack_churn_pairs(void)
{
	churn_quiet_at_every_count(1);
}

static void pack_churn_by_two(void)
{
	churn_quiet_at_every_count(2);
}

/*
 * The 2004 API takes nodes only from the cache: churn at a full packed
 * leaf takes one there at most once, so one idr_pre_get() is enough.
 */
static void pack_churn_legacy_cache(void)
{
	unsigned int n, i, cached, full = 0;
	int id;

	for (n = 1; n <= IDR_SLOTS; n++) {
		DEFINE_IDR(idr);

		if (!build(&idr, n, FULL_PACKED))
			continue;
		full++;
		CHECK(idr_pre_get(&idr, GFP_KERNEL));
		CHECK_EQ(idr_get_new(&idr, val(n), &id), 0);
		CHECK(idr_remove(&idr, id) == val(n));
		cached = idr_cache_count(&idr);
		for (i = 0; i < 1000; i++) {
			id = -1;
			if (!CHECK_EQ(idr_get_new(&idr, val(n), &id), 0))
				break;
			CHECK(idr_remove(&idr, id) == val(n));
		}
		CHECK_EQ(idr_cache_count(&idr), cached);
		CHECK_SOUND(&idr);
		idr_destroy(&idr);
	}
	CHECK(full >= IDR_SLOTS / 4);
}

/* }==================== Churn ==================== */

/* {==================== Lone IDs ==================== */

/* Bytes of packed nodes with room for @cap: a leaf's header is one
 * word (full; its pack word takes a free slot), an interior node's three
 * (full, pack, present). */
#define LEAF_BYTES(cap) ((1 + (cap)) * sizeof(void *))
#define INTERIOR_BYTES(cap) ((3 + (cap)) * sizeof(void *))

/* The room that fills the chunk glibc gives for @cap: 16-byte steps, 8
 * bytes of them its header.  A leaf and an interior node of 1 both get
 * 2, for the same 32 and 48 bytes. */
static unsigned int fitted(unsigned int cap, bool interior)
{
	size_t head = (interior ? 3 : 1) * sizeof(void *);
	size_t chunk = (head + cap * sizeof(void *) + 8 + 15) / 16 * 16;

	return (unsigned int)((chunk - 8 - head) / sizeof(void *));
}

/* Ask for @id by itself: a range of one (an end of 0 is INT_MAX + 1). */
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

/* The room of the node at @level on @id's path when packed, 0 when
 * whole, -1 when there is none. */
static int cap_at(const struct idr *idr, unsigned long id, unsigned int level)
{
	struct idr_view v[IDR_LEVELS_MAX];
	unsigned int n = idr__path_views(idr, id, v), i;

	for (i = 0; i < n; i++)
		if (v[i].level == level)
			return (int)v[i].packed;
	return -1;
}

static size_t seam_bytes(void)
{
	struct seam_mem_stats st;

	seam_mem_stats(&st);
	return st.bytes;
}

/* A tree as tall as INT_MAX needs, whole nodes on its two paths. */
static void tall_tree(struct idr *idr)
{
	put_lone(idr, 0);
	put_whole(idr, INT_MAX);
	CHECK_EQ(cap_at(idr, INT_MAX, 0), 0);
}

/* An ID off those paths below the top: the nodes it needs are missing. */
#define FAR_ID ((unsigned long)INT_MAX / 3 * 2)

/* How many nodes on @id's path exist. */
static unsigned int nodes_on_path(const struct idr *idr, unsigned long id)
{
	struct idr_view v[IDR_LEVELS_MAX];

	return idr__path_views(idr, id, v);
}

/* A tree of two levels, IDs 0 and KEYED_SPAN - 1: its top is the
 * level-1 node, whole, so a lone ID below it gets a leaf, not a keyed
 * block (no slot at KEYED_SHIFT). */
static void low_tree(struct idr *idr)
{
	put_lone(idr, 0);
	put_whole(idr, KEYED_SPAN - 1);
	CHECK_EQ(idr__height(idr), 2);
	CHECK_EQ(cap_at(idr, 0, 1), 0);
}

/* A lone ID's new leaf is born packed with room for one (two, which
 * malloc's chunk holds anyway); a packed leaf with no room grows;
 * removals give every byte back.  (In a tall tree the level-1 node would
 * be a keyed block instead: the leaf needs its level-1 node there.) */
static void pack_lone_born_packed(void)
{
	unsigned long c = KEYED_SPAN / 2 + 2, d = c ^ 1, f = c ^ 3;
	unsigned long e = c ^ IDR_SLOTS, next;
	DEFINE_IDR(idr);
	size_t before;

	low_tree(&idr);
	before = seam_bytes();
	put_lone(&idr, c);
	CHECK_EQ(cap_at(&idr, c, 0), 2);
	CHECK_EQ(seam_bytes() - before, LEAF_BYTES(2));
	put_lone(&idr, d); /* in the leaf's room: now it has none */
	CHECK_EQ(cap_at(&idr, c, 0), 2);
	CHECK_EQ(seam_bytes() - before, LEAF_BYTES(2));
	put_lone(&idr, f); /* the leaf: room for twice the three */
	CHECK_EQ(cap_at(&idr, c, 0), 6);
	put_lone(&idr, e); /* a second leaf */
	CHECK_EQ(cap_at(&idr, e, 0), 2);
	CHECK_EQ(seam_bytes() - before, LEAF_BYTES(6) + LEAF_BYTES(2));
	CHECK(idr_find(&idr, f) == val(f));
	CHECK(idr_find(&idr, c) == val(c) && idr_find(&idr, d) == val(d) &&
	      idr_find(&idr, e) == val(e));
	CHECK(idr_find(&idr, c ^ 2) == NULL);
	next = c + 1;
	CHECK(idr_get_next_ul(&idr, &next) == val(d));
	CHECK_EQ(next, d);
	CHECK_SOUND(&idr);
	CHECK(idr_remove(&idr, e) == val(e));
	CHECK(idr_remove(&idr, c) == val(c));
	CHECK(idr_remove(&idr, d) == val(d));
	CHECK(idr_remove(&idr, f) == val(f));
	CHECK_EQ(seam_bytes(), before);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* In a tall tree a lone ID's interior nodes above KEYED_SHIFT are born
 * packed with room for two, and its level-1 node is a keyed block of
 * one; their parent grows at its third child; removals give every byte
 * back. */
static void pack_lone_born_packed_interior(void)
{
	unsigned long c = FAR_ID, d = c ^ KEYED_SPAN, e = c ^ 2 * KEYED_SPAN;
	unsigned int made, level;
	DEFINE_IDR(idr);
	size_t before;

	tall_tree(&idr);
	made = idr__height(&idr) - nodes_on_path(&idr, c);
	CHECK(made >= 4); /* a leaf, a level-1 node and two levels above */
	before = seam_bytes();
	put_lone(&idr, c);
	CHECK_EQ(cap_at(&idr, c, 1), 1); /* the keyed block's room */
	for (level = 2; level < made; level++)
		CHECK_EQ(cap_at(&idr, c, level), 2);
	CHECK_EQ(cap_at(&idr, c, made), 0);
	CHECK_EQ(seam_bytes() - before,
		 keyed_size(1) + (made - 2) * INTERIOR_BYTES(2));
	put_lone(&idr, d); /* a second block: its parent has room */
	CHECK_EQ(cap_at(&idr, c, 2), 2);
	CHECK_EQ(seam_bytes() - before,
		 2 * keyed_size(1) + (made - 2) * INTERIOR_BYTES(2));
	put_lone(&idr, e); /* a third: its parent grows */
	CHECK_EQ(cap_at(&idr, c, 2), 6);
	CHECK(idr_find(&idr, c) == val(c) && idr_find(&idr, d) == val(d) &&
	      idr_find(&idr, e) == val(e));
	CHECK_SOUND(&idr);
	CHECK(idr_remove(&idr, e) == val(e));
	CHECK(idr_remove(&idr, d) == val(d));
	CHECK(idr_remove(&idr, c) == val(c));
	CHECK_EQ(seam_bytes(), before);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* The room of a packed node after its @k-th lone insertion (@cap
 * before it): twice its entries, up to PACK_MAX; past that, whole (0). */
static unsigned int room_after(unsigned int k, unsigned int cap, bool interior)
{
	unsigned int most = IDR_SLOTS * 3 / 4;

	if (!cap || k <= cap)
		return cap;
	if (k > most)
		return 0;
	return fitted(2 * k < most ? 2 * k : most, interior);
}

/* Lone IDs from @first, @step apart, filling the node at @level they
 * share: its room grows as room_after() says, up to whole. */
static void grow_lone_node(struct idr *idr, unsigned long first,
			   unsigned long step, unsigned int level)
{
	unsigned int i, cap = fitted(1, level);

	for (i = 0; i < IDR_SLOTS; i++) {
		put_lone(idr, first + i * step);
		cap = room_after(i + 1, cap, level);
		if (!CHECK_EQ(cap_at(idr, first, level), (int)cap))
			break;
	}
	CHECK_EQ(cap, 0);
	CHECK_SOUND(idr);
	for (i = 0; i < IDR_SLOTS; i++)
		CHECK(idr_find(idr, first + i * step) == val(first + i * step));
}

/* Lone IDs filling one leaf, then IDR_SLOTS children under one parent.
 * The leaf is one of a level-1 node's (low_tree()), for in a tall tree
 * those IDs would go to a keyed block; the parent is at level 2, whose
 * children are keyed blocks. */
static void pack_lone_grows_to_whole(void)
{
	unsigned long base = FAR_ID &
			     ~(unsigned long)(IDR_SLOTS * KEYED_SPAN - 1);
	DEFINE_IDR(idr);

	low_tree(&idr);
	grow_lone_node(&idr, KEYED_SPAN / 2, 1, 0);
	idr_destroy(&idr);
	tall_tree(&idr);
	grow_lone_node(&idr, base, KEYED_SPAN, 2);
	idr_destroy(&idr);
}

/*
 * A leaf packed by removal (a whole leaf of PACK_MAX - 2 IDs, less one,
 * with PACK_ROOM: room for PACK_MAX - 1, which malloc's chunk rounds up
 * to PACK_MAX) that lone IDs fill holds PACK_MAX entries packed, and the
 * next goes whole: no packed leaf grows past PACK_MAX.
 */
static void pack_lone_grows_at_the_edge(void)
{
	unsigned int most = IDR_SLOTS * 3 / 4, id;
	DEFINE_IDR(idr);

	for (id = 0; id < most - 2; id++)
		CHECK_EQ(idr_alloc(&idr, val(id), 0, 0, GFP_KERNEL), id);
	CHECK_EQ(cap_at(&idr, 0, 0), 0);
	CHECK(idr_remove(&idr, most - 3) == val(most - 3));
	CHECK_EQ(fitted(most - 1, false), most);
	CHECK_EQ(cap_at(&idr, 0, 0), (int)most);
	for (id = most - 3; id < most; id++)
		put_lone(&idr, id);
	CHECK_EQ(cap_at(&idr, 0, 0), (int)most); /* full, packed */
	put_lone(&idr, most);
	CHECK_EQ(cap_at(&idr, 0, 0), 0);
	for (id = 0; id <= most; id++)
		CHECK(idr_find(&idr, id) == val(id));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* Each allocation of a lone insertion refused in turn: with one refusal
 * it falls back to whole nodes; with every later one refused too, it is
 * -ENOMEM and nothing changed.  Either way the tree is sound. */
static void pack_lone_fails_cleanly(void)
{
	unsigned long c = FAR_ID, skip;
	struct seam_mem_stats st;
	struct idr_snap was;
	DEFINE_IDR(idr);
	bool refused = true;
	long got;

	tall_tree(&idr);
	put_lone(&idr, c);
	put_lone(&idr, c ^ 3); /* its leaf packed, full: the next grows it */
	for (skip = 0; refused; skip++) {
		seam_mem_stats(&st);
		was = idr_snap_of(&idr);
		seam_fault_inject(skip, ~0UL);
		got = idr_alloc(&idr, val(c ^ 1), (int)(c ^ 1),
				(int)(c ^ 1) + 1, GFP_KERNEL);
		seam_fault_inject(0, 0);
		refused = got == -ENOMEM;
		if (refused)
			CHECK_UNCHANGED(&idr, was);
		else
			CHECK(got == (long)(c ^ 1) && idr_remove(&idr, c ^ 1));
		CHECK_SOUND(&idr);
	}
	CHECK_EQ(skip, 2); /* one block: the leaf moved; refused, no node */
	for (skip = 0; skip < 4; skip++) {
		seam_fault_inject(skip, 1);
		put_lone(&idr, c ^ 2);
		seam_fault_inject(0, 0);
		CHECK(idr_remove(&idr, c ^ 2) == val(c ^ 2));
		CHECK_SOUND(&idr);
	}
	idr_destroy(&idr);
}

/* The blocks of a lone ID at FAR_ID in an empty tree of @height: a
 * packed top, packed levels down to level 2, a keyed block. */
static size_t far_bytes(unsigned int height)
{
	return (height - 2) * INTERIOR_BYTES(2) + keyed_size(1);
}

/*
 * A lone ID above the top, or in an empty tree: the levels it adds on
 * top are packed too, the old top at the lowest one's slot 0, as are
 * the levels below them, down to a keyed block.  The kernel's height, a
 * few dozen bytes a level where whole nodes took a node's; removing it
 * gives every byte back and lowers the tree again.  An empty tree's
 * first ID below IDR_SLOTS (0, as a rule) still takes a whole leaf.
 */
static void pack_lone_grows_the_tree(void)
{
	unsigned int height = shift_for(FAR_ID) / IDR_BITS + 1, level, id;
	size_t before = seam_bytes();
	DEFINE_IDR(idr);

	put_lone(&idr, FAR_ID);
	CHECK_EQ(idr__height(&idr), height);
	CHECK_EQ(seam_bytes() - before, far_bytes(height));
	for (level = 2; level < height; level++)
		CHECK_EQ(cap_at(&idr, FAR_ID, level), 2);
	CHECK(idr_find(&idr, FAR_ID) == val(FAR_ID));
	CHECK(idr_remove(&idr, FAR_ID) == val(FAR_ID));
	CHECK(idr_is_empty(&idr));
	CHECK_EQ(seam_bytes(), before);

	/* Over a full whole leaf: its full bit goes up the new levels. */
	for (id = 0; id < IDR_SLOTS; id++)
		CHECK_EQ(idr_alloc(&idr, val(id), 0, 0, GFP_KERNEL), id);
	CHECK_EQ(cap_at(&idr, 0, 0), 0);
	before = seam_bytes();
	put_lone(&idr, FAR_ID);
	CHECK_EQ(idr__height(&idr), height);
	for (level = 1; level < height; level++)
		CHECK_EQ(cap_at(&idr, 0, level), 2);
	CHECK_EQ(seam_bytes() - before,
		 far_bytes(height) + (height - 2) * INTERIOR_BYTES(2));
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_alloc(&idr, val(IDR_SLOTS), 0, 0, GFP_KERNEL), IDR_SLOTS);
	CHECK(idr_remove(&idr, FAR_ID) == val(FAR_ID));
	CHECK_EQ(idr__height(&idr), 2);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);

	put_lone(&idr, 5);
	CHECK_EQ(idr__height(&idr), 1);
	CHECK_EQ(cap_at(&idr, 5, 0), 0);
	idr_destroy(&idr);
}

/*
 * Malloc refused from the n-th block of a lone ID's new levels on: the
 * whole nodes it falls back on are refused too, and nothing changes.
 * One block refused alone: the whole nodes take the ID.
 */
static void pack_lone_grows_or_not(void)
{
	unsigned int height = shift_for(FAR_ID) / IDR_BITS + 1;
	unsigned long skip;
	struct idr_snap was;
	DEFINE_IDR(idr);
	bool refused = true;
	long got;

	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	for (skip = 0; refused; skip++) {
		was = idr_snap_of(&idr);
		seam_fault_inject(skip, ~0UL);
		got = idr_alloc(&idr, val(FAR_ID), (int)FAR_ID, 0, GFP_KERNEL);
		seam_fault_inject(0, 0);
		refused = got == -ENOMEM;
		if (refused)
			CHECK_UNCHANGED(&idr, was);
		else
			CHECK(got == (long)FAR_ID &&
			      idr_remove(&idr, FAR_ID) == val(FAR_ID));
		CHECK_SOUND(&idr);
	}
	/* One past the blocks: the levels on top (height - 1) and below
	 * (height - 3), and the keyed block. */
	CHECK_EQ(skip, 2 * height - 2);
	for (skip = 0; skip + 3 < 2 * height; skip++) {
		seam_fault_inject(skip, 1);
		put_lone(&idr, FAR_ID);
		seam_fault_inject(0, 0);
		CHECK_EQ(cap_at(&idr, FAR_ID, 0), 0); /* whole: a leaf */
		CHECK_SOUND(&idr);
		CHECK(idr_remove(&idr, FAR_ID) == val(FAR_ID));
		CHECK_EQ(idr__height(&idr), 1);
	}
	idr_destroy(&idr);
}

/* RCU hooks for one thread: work waits in a queue until drained, as it
 * would for readers still in a read-side section. */
static struct idr_rcu_work *rcu_queue[256];
static unsigned int rcu_queued;

static void rcu_defer(struct idr_rcu_work *work)
{
	if (CHECK(rcu_queued < 256))
		rcu_queue[rcu_queued++] = work;
}

static unsigned int rcu_waits;

static void rcu_wait(void)
{
	rcu_waits++;
}

static void rcu_drain(void)
{
	while (rcu_queued) {
		struct idr_rcu_work *work = rcu_queue[--rcu_queued];

		work->idr_fn(work);
	}
}

static const struct idr_rcu_hooks queue_hooks = { rcu_defer, rcu_wait };

/*
 * An RCU idr's removal that empties a packed leaf leaves its entry in
 * place for readers, and when there is no memory for its parent's copy,
 * the empty leaf stays in the tree (sound: idr_check() says so).  An
 * insertion into it may not go in place: a reader that loaded the old
 * bitmap would take the new entry, at the same rank, for the old one.
 * The packed parent comes from a keyed block's split: c, and KEYED_MAX
 * IDs in the next leaf.
 */
static void pack_rcu_kept_empty_leaf(void)
{
	unsigned long c = FAR_ID, d = (c | (IDR_SLOTS - 1)) + 1;
	unsigned int off = (unsigned int)(c % IDR_SLOTS), i;
	struct idr_view v[IDR_LEVELS_MAX], reader;
	struct idr idr = IDR__INIT_RCU(0, 0, &queue_hooks);
	unsigned int n;

	tall_tree(&idr);
	put_lone(&idr, c);
	for (i = 0; i < KEYED_MAX; i++)
		put_lone(&idr, d + i);	 /* KEYED_MAX <= IDR_SLOTS */
	CHECK_EQ(cap_at(&idr, c, 1), 2); /* c's parent: packed, two children */
	CHECK(cap_at(&idr, c, 0) > 0);
	rcu_drain();
	n = idr__path_views(&idr, c, v);
	reader = v[n - 1]; /* a reader at c's leaf, its bitmap loaded */
	CHECK(!reader.keyed && reader.packed);
	CHECK(idr_view_entry(&reader, off) == val(c));
	CHECK_EQ(idr_cache_count(&idr), 0);
	seam_fault_inject(0, ~0UL);
	CHECK(idr_remove(&idr, c) == val(c)); /* no copy of the parent */
	seam_fault_inject(0, 0);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr__path_views(&idr, c, v), n); /* the empty leaf stays */
	put_lone(&idr, c ^ 1);
	CHECK(idr_view_entry(&reader, off) == val(c));
	CHECK(idr_find(&idr, c) == NULL && idr_find(&idr, c ^ 1) == val(c ^ 1));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
	rcu_drain();
}

/*
 * The same kept empty node in the chain a lone ID's packed levels make
 * over the old top: when the last ID goes, the tree does not lower onto
 * the empty node (a top with nothing below), it empties, and gives every
 * byte back once readers are gone.
 */
static void pack_rcu_kept_empty_not_top(void)
{
	struct idr idr = IDR__INIT_RCU(0, 0, &queue_hooks);
	size_t before = seam_bytes();

	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	put_lone(&idr, INT_MAX - 1); /* packed levels over 0's leaf */
	rcu_drain();
	seam_fault_inject(1, ~0UL); /* a copy, then none: a node kept empty */
	CHECK(idr_remove(&idr, 0) == val(0));
	seam_fault_inject(0, 0);
	rcu_drain();
	CHECK_SOUND(&idr);
	CHECK(idr_remove(&idr, INT_MAX - 1) == val(INT_MAX - 1));
	rcu_drain();
	CHECK_SOUND(&idr);
	CHECK(idr_is_empty(&idr) && idr__height(&idr) == 0);
	CHECK_EQ(seam_bytes(), before);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
	rcu_drain();
}

/*
 * No memory for the copy of an RCU idr's packed leaf: the removal clears
 * the entry in place and returns it (a removal never fails), the ID stays
 * allocated, holding NULL; removing it again with memory frees it.  The
 * review's case: 64 IDs, 50 removed, the leaf packed.
 */
static void pack_rcu_remove_no_memory_then_again(void)
{
	struct idr idr = IDR__INIT_RCU(0, 0, &queue_hooks);
	unsigned long id, last = IDR_SLOTS - 1, kept = IDR_SLOTS / 2;
	void *entry;

	for (id = 0; id <= last; id++)
		CHECK_EQ(idr_alloc(&idr, val(id), 0, 0, GFP_KERNEL), (int)id);
	for (id = 0; id < IDR_SLOTS - kept; id++)
		CHECK(idr_remove(&idr, id) == val(id));
	rcu_drain();
	CHECK(cap_at(&idr, last, 0) > 0); /* packed */
	idr__cache_drain(
		&idr); /* else the whole leaf, back there, is the copy */
	seam_fault_inject(0, ~0UL);
	CHECK(idr_remove(&idr, last) == val(last));
	seam_fault_inject(0, 0);
	CHECK_SOUND(&idr);
	CHECK(idr_find(&idr, last) == NULL);
	CHECK_EQ(idr_count(&idr), kept);
	id = last;
	CHECK(idr_next_in_use(&idr, &id, &entry) && id == last && !entry);
	CHECK(idr_remove(&idr, last) == NULL);
	CHECK_EQ(idr_count(&idr), kept - 1);
	CHECK_EQ(idr_alloc(&idr, val(1), (int)last, (int)last + 1, GFP_KERNEL),
		 (int)last);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
	rcu_drain();
}

/*
 * An insertion under idr_preload() that moves an RCU idr's packed leaf
 * hands the old block to RCU in a work item the preload set aside: no
 * malloc, and no wait for readers under the caller's lock.
 */
static void pack_rcu_move_under_preload(void)
{
	struct idr idr = IDR__INIT_RCU(0, 0, &queue_hooks);
	struct seam_mem_stats before, after;
	unsigned int i, n = IDR_SLOTS / 3, queued;

	for (i = 0; i < IDR_SLOTS; i++)
		CHECK_EQ(idr_alloc(&idr, val(i), 0, 0, GFP_KERNEL), i);
	for (i = n; i < IDR_SLOTS; i++)
		CHECK(idr_remove(&idr, i) == val(i));
	/* Its room filled: the next insertion moves it to a whole node. */
	for (; n < leaf_cap(&idr); n++)
		CHECK_EQ(idr_alloc(&idr, val(n), 0, 0, GFP_KERNEL), n);
	CHECK(n < IDR_SLOTS && leaf_cap(&idr) == n);
	rcu_drain();
	rcu_waits = 0;
	idr_preload(GFP_KERNEL);
	seam_mem_stats(&before);
	seam_fault_inject(0, ~0UL);
	CHECK_EQ(idr_alloc(&idr, val(n), 0, 0, GFP_NOWAIT), n);
	seam_fault_inject(0, 0);
	seam_mem_stats(&after);
	queued = rcu_queued;
	idr_preload_end();
	CHECK_EQ(after.thread_allocs - before.thread_allocs, 0);
	CHECK_EQ(rcu_waits, 0);
	CHECK_EQ(queued, 1); /* the old leaf, after readers */
	CHECK_EQ(leaf_cap(&idr), 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
	rcu_drain();
}

/*
 * Other insertions meet packed interior nodes: one with room takes a
 * whole child in place; one without is unpacked, one node more.  (The
 * packed node is at level 2: a lone ID's level-1 node is a keyed block
 * now, which a whole insertion unkeys, as test_keyed.c shows.)  A
 * packed interior node can become the top, and work there.
 */
static void pack_lone_meets_whole_ways(void)
{
	unsigned long c = FAR_ID & ~(unsigned long)(IDR_SLOTS * KEYED_SPAN - 1);
	unsigned long two = KEYED_SPAN;
	struct idr_view top;
	DEFINE_IDR(idr);
	int id;

	tall_tree(&idr);
	put_lone(&idr, c + 5);
	put_lone(&idr, c + 2 * KEYED_SPAN);
	CHECK_EQ(cap_at(&idr, c, 2), 2);
	/* The level-2 node unpacked, a level-1 node and a leaf. */
	CHECK_EQ(idr__nodes_needed(&idr, c + KEYED_SPAN), 3);
	put_whole(&idr, c + KEYED_SPAN);
	CHECK_EQ(cap_at(&idr, c, 2), 0); /* unpacked */
	CHECK_EQ(cap_at(&idr, c + KEYED_SPAN, 1), 0);
	CHECK_EQ(cap_at(&idr, c + KEYED_SPAN, 0), 0);
	c += 2 * IDR_SLOTS * KEYED_SPAN;
	put_lone(&idr, c); /* a level-2 node with room for 2 */
	CHECK_EQ(idr__nodes_needed(&idr, c + KEYED_SPAN), 2);
	put_whole(&idr, c + KEYED_SPAN);
	CHECK_EQ(cap_at(&idr, c, 2), 2); /* took the child in place */
	CHECK_EQ(cap_at(&idr, c + KEYED_SPAN, 1), 0);
	CHECK_EQ(cap_at(&idr, c + KEYED_SPAN, 0), 0);
	CHECK(idr_find(&idr, c) == val(c));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);

	/* ID KEYED_SPAN alone (a keyed block) under a tall top, whose other
	 * ID then goes. */
	put_lone(&idr, INT_MAX);
	put_lone(&idr, two);
	CHECK(idr_remove(&idr, INT_MAX) == val(INT_MAX));
	CHECK(idr_view_top(&idr, &top));
	CHECK_EQ(top.level, 2);
	CHECK_EQ(top.packed, 2);
	CHECK_SOUND(&idr);
	CHECK(idr_find(&idr, two) == val(two));
	/* A second child, by a search: in place, and the top is full. */
	CHECK_EQ(idr_alloc(&idr, val(3 * two), (int)(3 * two), 0, GFP_KERNEL),
		 (int)(3 * two));
	CHECK(idr_view_top(&idr, &top) && top.packed == 2);
	CHECK_EQ(idr__nodes_needed(&idr, 0), 3); /* the top unpacked */
	CHECK(idr_pre_get(&idr, GFP_KERNEL));
	CHECK_EQ(idr_get_new(&idr, val(0), &id), 0);
	CHECK_EQ(id, 0);
	CHECK(idr_view_top(&idr, &top) && top.packed == 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/*
 * A search that finds its start free, with nothing just below, is a lone
 * ID as a range of one is (random handles in a wide range).  A run (from
 * 0, or cyclic) reaches a new leaf from the full one below: whole.
 */
static void pack_lone_by_start(void)
{
	unsigned long c = FAR_ID, leaf_end = IDR_SLOTS - 1;
	DEFINE_IDR(idr);
	unsigned long i;

	tall_tree(&idr);
	CHECK_EQ(idr_alloc(&idr, val(c), (int)c, 0, GFP_KERNEL), (int)c);
	CHECK(cap_at(&idr, c, 0) > 0);
	CHECK(cap_at(&idr, c, 1) > 0);
	for (i = 1; i <= leaf_end + 1; i++)
		CHECK_EQ(idr_alloc(&idr, val(i), 1, 0, GFP_KERNEL), (int)i);
	CHECK_EQ(cap_at(&idr, leaf_end + 1, 0), 0);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(0), (int)(c + IDR_SLOTS), 0,
				  GFP_KERNEL),
		 (int)(c + IDR_SLOTS));
	for (i = c + IDR_SLOTS + 1; i <= c + 2 * IDR_SLOTS; i++)
		CHECK_EQ(idr_alloc_cyclic(&idr, val(i), 0, 0, GFP_KERNEL),
			 (int)i);
	CHECK_EQ(cap_at(&idr, c + 2 * IDR_SLOTS, 0), 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* A preload, the 2004 API, tagged idrs and IDAs: whole nodes only. */
static void pack_lone_not_everywhere(void)
{
	unsigned long c = FAR_ID;
	DEFINE_IDR(idr);
	int id;

	tall_tree(&idr);
	idr_preload(GFP_KERNEL);
	put_lone(&idr, c);
	idr_preload_end();
	CHECK_EQ(cap_at(&idr, c, 0), 0);
	CHECK_EQ(cap_at(&idr, c, 1), 0);
	CHECK(idr_pre_get(&idr, GFP_KERNEL));
	CHECK_EQ(idr_get_new_above(&idr, val(INT_MAX - 1), INT_MAX - 1, &id),
		 0);
	CHECK_EQ(id, INT_MAX - 1);
	CHECK(idr_pre_get(&idr, GFP_KERNEL));
	CHECK_EQ(idr_get_new_above(&idr, val(c ^ IDR_SLOTS * IDR_SLOTS),
				   (int)(c ^ IDR_SLOTS * IDR_SLOTS), &id),
		 0);
	CHECK_EQ(cap_at(&idr, (unsigned long)id, 0), 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* Lone insertions, searches from random IDs and removals against the
 * model, over a sparse range; bytes as stats say. */
static void pack_lone_random_against_model(void)
{
	struct seam_mem_stats before;
	unsigned long span = 1ul << 22, i;
	struct model m;
	uint64_t rng = 11;
	DEFINE_IDR(idr);
	void *old;

	seam_mem_stats(&before);
	model_init(&m, 0);
	for (i = 0; i < 40000; i++) {
		uint32_t id = (uint32_t)rnd_below(&rng, span);
		int end = rnd_below(&rng, 4) ? (int)id + 1 : 0;

		if (i % 2000 == 0)
			CHECK_SOUND(&idr);
		if (rnd_below(&rng, 3) == 0) {
			old = NULL;
			model_remove(&m, id, &old);
			CHECK(idr_remove(&idr, id) == old);
			continue;
		}
		CHECK_EQ(idr_alloc(&idr, val(id), (int)id, end, 0),
			 model_alloc(&m, val(id), (int)id, end));
	}
	model_done(&idr, &m, &before);
}

/* The seam, and a realloc that always moves the block, as one may. */
static struct idr_allocator outer;

static void *moving_realloc(void *ptr, size_t old_size, size_t new_size,
			    void *ctx)
{
	void *to = outer.malloc(new_size, outer.ctx);

	(void)ctx;
	if (to) {
		memcpy(to, ptr, new_size < old_size ? new_size : old_size);
		outer.free(ptr, old_size, outer.ctx);
	}
	return to;
}

/* Three leaves that lone IDs grew, below a packed parent, at slots whose
 * rank there is not their number. */
static const unsigned int shrink_leaves[] = { 1, IDR_SLOTS / 2, IDR_SLOTS - 1 };
#define SHRINK_IDS 6u

static unsigned long shrink_id(unsigned long base, unsigned int leaf,
			       unsigned int k)
{
	return base + shrink_leaves[leaf] * IDR_SLOTS + k;
}

/*
 * A removal that shrinks a leaf links the block realloc gave into the
 * leaf's parent, packed or not: the usual removal (tree.c's
 * delete_usual()) records only that parent.  With a realloc that moves,
 * a stale link would lead to freed memory.
 */
static void pack_shrink_relinks_moved_leaf(void)
{
	unsigned long base = FAR_ID &
			     ~(unsigned long)(IDR_SLOTS * IDR_SLOTS - 1);
	struct idr_allocator moving;
	unsigned int leaf, k, gone;
	DEFINE_IDR(idr);

	idr_get_allocator(&outer);
	moving = outer;
	moving.realloc = moving_realloc;
	CHECK_EQ(idr_set_allocator(&moving), 0);
	tall_tree(&idr);
	for (leaf = 0; leaf < 3; leaf++)
		for (k = 0; k < SHRINK_IDS; k++)
			put_lone(&idr, shrink_id(base, leaf, k));
	CHECK(cap_at(&idr, shrink_id(base, 0, 0), 1) > 0);
	for (gone = 0; gone < SHRINK_IDS - 1; gone++) {
		for (leaf = 0; leaf < 3; leaf++) {
			unsigned long id = shrink_id(base, leaf, gone);

			CHECK(idr_remove(&idr, id) == val(id));
		}
		for (leaf = 0; leaf < 3; leaf++)
			for (k = 0; k < SHRINK_IDS; k++) {
				unsigned long id = shrink_id(base, leaf, k);

				CHECK(idr_find(&idr, id) ==
				      (k > gone ? val(id) : NULL));
			}
		CHECK_SOUND(&idr);
	}
	idr_destroy(&idr);
	CHECK_EQ(idr_set_allocator(&outer), 0);
}

/*
 * The first ID past the tree's reach is absent: below the top its digits
 * are ID 0's, so a removal that went down without the range test would
 * take ID 0 (tree.c's leaf_below()).
 */
static void pack_remove_past_reach(void)
{
	unsigned long past = (unsigned long)IDR_SLOTS * IDR_SLOTS;
	DEFINE_IDR(idr);

	fill(&idr, 3);
	put_lone(&idr, IDR_SLOTS); /* two levels: they reach past - 1 */
	CHECK_EQ(idr__height(&idr), 2);
	CHECK(idr_remove(&idr, past) == NULL);
	CHECK(idr_find(&idr, 0) == val(0));
	CHECK_EQ(idr.idr_count, 4);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* Churn at one count of a leaf that lone IDs grew: after the first
 * round, no malloc, no free, no realloc (the room it grew is kept).  The
 * leaf is one of a level-1 node's (low_tree()): in a tall tree these IDs
 * would be a keyed block's, whose every change is a copy. */
static void pack_lone_churn_is_quiet(void)
{
	static const unsigned int counts[] = { 2, 3, 5, 9, 20 };
	unsigned long c = KEYED_SPAN / 2, last;
	unsigned int i, k, round;
	struct seam was;

	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		DEFINE_IDR(idr);

		k = counts[i];
		if (k > IDR_SLOTS * 3 / 4)
			break;
		low_tree(&idr);
		for (last = c; last < c + k; last++)
			put_lone(&idr, last);
		last--;
		CHECK(cap_at(&idr, c, 0) > 0);
		CHECK(idr_remove(&idr, last) == val(last));
		put_lone(&idr, last);
		was = seam_now();
		for (round = 0; round < 100; round++) {
			CHECK(idr_remove(&idr, last) == val(last));
			put_lone(&idr, last);
		}
		if (!CHECK(seam_quiet(was)))
			printf("# %u lone IDs in a leaf: churn is not quiet\n",
			       k);
		CHECK_SOUND(&idr);
		idr_destroy(&idr);
	}
}

/* }==================== Lone IDs ==================== */

static void quiet_trace(const struct idr *idr, const struct idr_trace *ev,
			void *data)
{
	(void)idr;
	(void)ev;
	++*(unsigned long *)data;
}

/*
 * IDs @base .. of leaf 0 full and 3/4 of leaf 1 (the most a removal
 * packs), by @cyclic allocation or not, @traced (removals then take the
 * general path) or not; then a removal from each leaf, which would pack
 * both: the leaf idr_alloc_cyclic() fills stays whole until its cursor
 * leaves it, and is packed then.
 */
static void pack_not_at_cursor_by(bool cyclic, unsigned int base, bool traced)
{
	unsigned long most = IDR_SLOTS * 3 / 4, k, n = IDR_SLOTS + most,
		      events = 0;
	struct idr idr;

	idr_init_base(&idr, (int)base);
	if (traced)
		idr_set_trace(&idr, quiet_trace, &events);
	for (k = 0; k < n; k++)
		CHECK_EQ(cyclic ? idr_alloc_cyclic(&idr, val(k), (int)base, 0,
						   GFP_KERNEL)
				: idr_alloc(&idr, val(k), 0, 0, GFP_KERNEL),
			 base + k);
	for (k = 0; k < IDR_SLOTS - most + 1; k++)
		CHECK(idr_remove(&idr, base + k) == val(k));
	CHECK(leaf_cap_at(&idr, 0) > 0);
	CHECK(idr_remove(&idr, base + IDR_SLOTS) == val(IDR_SLOTS));
	CHECK_EQ(leaf_cap_at(&idr, IDR_SLOTS) > 0, !cyclic);
	/* The cursor moves on to leaf 2, and leaf 1 is packed. */
	k = 2 * IDR_SLOTS;
	if (cyclic)
		CHECK_EQ(idr_alloc_cyclic(&idr, val(k), (int)(base + k), 0,
					  GFP_KERNEL),
			 base + k);
	CHECK(leaf_cap_at(&idr, IDR_SLOTS) > 0);
	CHECK(idr_remove(&idr, base + IDR_SLOTS + 1) == val(IDR_SLOTS + 1));
	CHECK(leaf_cap_at(&idr, IDR_SLOTS) > 0);
	for (k = IDR_SLOTS + 2; k < n; k++)
		CHECK(idr_find(&idr, base + k) == val(k));
	CHECK_EQ(events > 0, traced);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* Whether pack_behind_cursor() keeps @k. */
static bool kept_behind(unsigned long k)
{
	return k % 4 == 0 || k % IDR_SLOTS >= IDR_SLOTS - 2;
}

/*
 * A cyclic allocator whose IDs mostly die young: 3 of every 4 removed
 * right after the next allocation (which then is no lone ID, born
 * packed), none of a leaf's last two, so that each leaf loses them all
 * while the cursor is in it.  Every leaf it has left is packed, none
 * kept whole for good.
 */
static void pack_behind_cursor(void)
{
	unsigned long k, leaves = 4;
	DEFINE_IDR(idr);

	for (k = 0; k <= leaves * IDR_SLOTS; k++) {
		CHECK_EQ(idr_alloc_cyclic(&idr, val(k), 0, 0, GFP_KERNEL), k);
		if (k && !kept_behind(k - 1))
			CHECK(idr_remove(&idr, k - 1) == val(k - 1));
	}
	for (k = 0; k < leaves; k++)
		CHECK(leaf_cap_at(&idr, k * IDR_SLOTS) > 0);
	for (k = 0; k < leaves * IDR_SLOTS; k++)
		CHECK(idr_find(&idr, k) == (kept_behind(k) ? val(k) : NULL));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/*
 * The cursor moved by idr_set_cursor() leaves its leaf as an allocation
 * does: the removals that left KEPT entries there (PACK_MIN, the fewest
 * a whole leaf packs with) kept it whole for the cursor, and it packs
 * when the cursor goes.
 */
#define KEPT 3u
static void pack_set_cursor_leaves(void)
{
	unsigned long k;
	DEFINE_IDR(idr);

	for (k = 0; k + 1 < IDR_SLOTS; k++)
		CHECK_EQ(idr_alloc_cyclic(&idr, val(k), 0, 0, GFP_KERNEL), k);
	for (k = KEPT; k + 1 < IDR_SLOTS; k++)
		CHECK(idr_remove(&idr, k) == val(k));
	CHECK_EQ(leaf_cap(&idr), 0);
	idr_set_cursor(&idr, 0);
	CHECK_EQ(leaf_cap(&idr), 0);
	idr_set_cursor(&idr, 5 * IDR_SLOTS);
	CHECK(leaf_cap(&idr) >= KEPT);
	for (k = 0; k < IDR_SLOTS; k++)
		CHECK(idr_find(&idr, k) == (k < KEPT ? val(k) : NULL));
	CHECK_EQ(idr_alloc_cyclic(&idr, val(1), 0, 0, GFP_KERNEL),
		 5 * IDR_SLOTS);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void pack_not_at_cursor(void)
{
	static const unsigned int bases[] = { 0, 1, IDR_SLOTS + 5 };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		pack_not_at_cursor_by(false, bases[i], false);
		pack_not_at_cursor_by(true, bases[i], false);
		pack_not_at_cursor_by(true, bases[i], true);
	}
}

/* One random change the body of a loop makes at @id, to both. */
static void mutate(struct idr *idr, struct model *m, int id, uint64_t *rng)
{
	uint32_t at = (uint32_t)rnd_below(rng, 4 * LEAVES * IDR_SLOTS);
	void *old = NULL;

	switch (rnd_below(rng, 5)) {
	case 0: /* remove the current entry */
		model_remove(m, (unsigned long)id, &old);
		CHECK(idr_remove(idr, (unsigned long)id) == old);
		break;
	case 1: /* remove an entry anywhere */
		model_remove(m, at, &old);
		CHECK(idr_remove(idr, at) == old);
		break;
	case 2: /* allocate anywhere, NULL (reserved) now and then */
		old = rnd_below(rng, 4) ? val(at) : NULL;
		CHECK_EQ(idr_alloc(idr, old, (int)at, 0, GFP_KERNEL),
			 model_alloc(m, old, (int)at, 0));
		break;
	default: /* nothing */
		break;
	}
}

/*
 * idr_for_each_entry() steps through leaves without going down from the
 * top each time; with the body changing the idr, it must still visit
 * exactly what the kernel's loop of idr_get_next() calls would.
 */
static void iter_matches_get_next(void)
{
	uint64_t rng = 11, mrng;
	unsigned long i, want;
	DEFINE_IDR(idr);
	struct model m;
	void *entry, *w;
	int id, round;

	model_init(&m, 0);
	for (i = 0; i < 4 * LEAVES * IDR_SLOTS; i++)
		if (rnd_below(&rng, 3))
			CHECK_EQ(idr_alloc(&idr, val(i), (int)i, 0, GFP_KERNEL),
				 model_alloc(&m, val(i), (int)i, 0));
	for (round = 0; round < 20; round++) {
		mrng = rng;
		want = 0;
		idr_for_each_entry(&idr, entry, id) {
			w = model_next(&m, &want);
			if (!CHECK(w && (unsigned long)id == want &&
				   entry == w))
				break;
			want++;
			mutate(&idr, &m, id, &mrng);
		}
		CHECK(model_next(&m, &want) == NULL);
		rng = mrng;
	}
	CHECK(model_matches(&m, &idr));
	CHECK_SOUND(&idr);
	model_free(&m);
	idr_destroy(&idr);
}

/* A body that moves @id on skips what the kernel's loop would skip. */
static void iter_honours_id_changes(void)
{
	DEFINE_IDR(idr);
	void *entry, *w;
	int id, ref = 0, seen = 0;

	fill(&idr, 3 * IDR_SLOTS);
	CHECK(idr_remove(&idr, 5) == val(5));
	idr_for_each_entry(&idr, entry, id) {
		w = idr_get_next(&idr, &ref);
		CHECK(entry == w && id == ref);
		seen++;
		id += 2;
		ref = id + 1;
	}
	CHECK(idr_get_next(&idr, &ref) == NULL);
	CHECK(seen > (int)IDR_SLOTS / 2 && seen < (int)IDR_SLOTS * 3 / 2);
	idr_destroy(&idr);
}

void suite_pack(void)
{
	RUN(pack_by_removal);
	RUN(pack_unpacked_by_insertion);
	RUN(pack_insert_in_place);
	RUN(pack_unpack_fails_cleanly);
	RUN(pack_only_plain_idrs);
	RUN(pack_random_against_model);
	RUN(pack_churn_pairs);
	RUN(pack_churn_by_two);
	RUN(pack_churn_legacy_cache);
	RUN(pack_lone_born_packed);
	RUN(pack_lone_born_packed_interior);
	RUN(pack_lone_grows_to_whole);
	RUN(pack_lone_grows_at_the_edge);
	RUN(pack_lone_fails_cleanly);
	RUN(pack_lone_grows_the_tree);
	RUN(pack_lone_grows_or_not);
	RUN(pack_lone_meets_whole_ways);
	RUN(pack_lone_by_start);
	RUN(pack_lone_not_everywhere);
	RUN(pack_lone_random_against_model);
	RUN(pack_lone_churn_is_quiet);
	RUN(pack_not_at_cursor);
	RUN(pack_behind_cursor);
	RUN(pack_set_cursor_leaves);
	RUN(pack_shrink_relinks_moved_leaf);
	RUN(pack_trace_reads_full_leaf);
	RUN(pack_rcu_kept_empty_leaf);
	RUN(pack_rcu_kept_empty_not_top);
	RUN(pack_rcu_remove_no_memory_then_again);
	RUN(pack_rcu_move_under_preload);
	RUN(pack_remove_past_reach);
	RUN(iter_matches_get_next);
	RUN(iter_honours_id_changes);
}
