/* SPDX-License-Identifier: MIT */
/*
 * test_tag.c - generation-tagged IDs.  A tagged ID is refused once its
 * slot was freed, across the freeing of nodes too; generations wrap, or
 * with IDR_TAG_RETIRE the slot is retired.  A random sequence is held
 * to a model that remembers every tag ever handed out.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "idr_view.h"
#include "model.h"
#include "seam.h"
#include "tree.h"

#define GFP GFP_KERNEL

static void *val(unsigned long n)
{
	return (void *)(uintptr_t)((n + 1) * 8);
}

/* The generations a tagged idr of @bits ID bits has: 2^(31 - bits). */
static unsigned int gen_mask(unsigned int bits)
{
	return (1u << (31 - bits)) - 1;
}

static int tag_of(unsigned int bits, unsigned int gen, unsigned int id)
{
	return (int)((gen & gen_mask(bits)) << bits | id);
}

/* A tagged ID that must be live at ID @id holding @ptr. */
static bool is_live(const struct idr *idr, int tagged, int id, void *ptr)
{
	return CHECK(tagged >= 0) && CHECK_EQ(idr_tag_id(idr, tagged), id) &&
	       CHECK_EQ(idr_tag_check(idr, tagged), 0) &&
	       CHECK(idr_find_tagged(idr, tagged) == ptr) &&
	       CHECK(idr_find(idr, (unsigned long)id) == ptr) &&
	       CHECK_SOUND(idr);
}

/* A tagged ID whose occupant is gone: refused by every checked call. */
static bool is_stale(struct idr *idr, int tagged)
{
	struct idr_snap was = idr_snap_of(idr);

	return CHECK_EQ(idr_tag_check(idr, tagged), -ESTALE) &&
	       CHECK(idr_find_tagged(idr, tagged) == NULL) &&
	       CHECK(idr_remove_tagged(idr, tagged) == NULL) &&
	       CHECK_UNCHANGED(idr, was);
}

static void tag_init_arguments(void)
{
	DEFINE_IDR(idr);
	int t;

	CHECK_EQ(idr_tag_init(&idr, 0, 0), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, 31, 0), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, 32, 0), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, UINT_MAX, 0), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, 10, 0x2), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, 10, IDR__IDA), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, 10, ~IDR_TAG_RETIRE), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, 10, UINT_MAX), -EINVAL);
	/* Refused, the idr is still untagged. */
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 0, 0, GFP), -EINVAL);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP), 0);
	CHECK_SOUND(&idr);

	CHECK_EQ(idr_tag_init(&idr, 10, 0), -EBUSY);
	CHECK_EQ(idr_tag_init(&idr, 10, IDR_TAG_RETIRE), -EBUSY);
	CHECK_EQ(idr_alloc_tagged(&idr, val(1), 0, 0, GFP), -EINVAL);
	CHECK_EQ(idr_alloc(&idr, val(5000), 5000, 0, GFP), 5000);
	CHECK_SOUND(&idr);
	CHECK(idr_remove(&idr, 0) == val(0));
	CHECK_EQ(idr_tag_init(&idr, 10, 0), -EBUSY);
	CHECK(idr_remove(&idr, 5000) == val(5000));
	CHECK_SOUND(&idr);

	/* Empty again, spare nodes cached: it can be tagged. */
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	CHECK_EQ(idr_tag_init(&idr, 10, 0), 0);
	t = idr_alloc_tagged(&idr, val(0), 0, 0, GFP);
	is_live(&idr, t, 0, val(0));
	CHECK_EQ(idr_tag_init(&idr, 12, 0), -EBUSY);
	idr_destroy(&idr);

	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 1, IDR_TAG_RETIRE), 0);
	t = idr_alloc_tagged(&idr, val(0), 0, 0, GFP);
	is_live(&idr, t, 0, val(0));
	idr_destroy(&idr);

	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 30, 0), 0);
	t = idr_alloc_tagged(&idr, val(0), 0, 0, GFP);
	is_live(&idr, t, 0, val(0));
	idr_destroy(&idr);
}

/* The tagged calls on an untagged idr, and negative tagged IDs. */
static void tag_errors(void)
{
	DEFINE_IDR(plain);
	DEFINE_IDR(idr);
	struct idr_snap was;
	int t;

	CHECK_EQ(idr_alloc(&plain, val(0), 0, 0, GFP), 0);
	was = idr_snap_of(&plain);
	CHECK_EQ(idr_alloc_tagged(&plain, val(1), 0, 0, GFP), -EINVAL);
	CHECK_EQ(idr_tag_check(&plain, 0), -EINVAL);
	CHECK_EQ(idr_tag_id(&plain, 0), -EINVAL);
	CHECK_EQ(idr_tag_gen(&plain, 0), -EINVAL);
	CHECK(idr_find_tagged(&plain, 0) == NULL);
	CHECK(idr_remove_tagged(&plain, 0) == NULL);
	CHECK_UNCHANGED(&plain, was);
	CHECK(idr_find(&plain, 0) == val(0));
	idr_destroy(&plain);

	CHECK_EQ(idr_tag_init(&idr, 10, 0), 0);
	t = idr_alloc_tagged(&idr, val(0), 0, 0, GFP);
	is_live(&idr, t, 0, val(0));
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc_tagged(&idr, val(1), -1, 0, GFP), -EINVAL);
	CHECK_EQ(idr_alloc_tagged(&idr, val(1), INT_MIN, 10, GFP), -EINVAL);
	CHECK_EQ(idr_tag_check(&idr, -1), -EINVAL);
	CHECK_EQ(idr_tag_check(&idr, INT_MIN | t), -EINVAL);
	CHECK_EQ(idr_tag_id(&idr, -1), -EINVAL);
	CHECK_EQ(idr_tag_gen(&idr, INT_MIN), -EINVAL);
	CHECK(idr_find_tagged(&idr, -1) == NULL);
	CHECK(idr_find_tagged(&idr, INT_MIN | t) == NULL);
	CHECK(idr_remove_tagged(&idr, INT_MIN | t) == NULL);
	CHECK(idr_remove_tagged(&idr, -1) == NULL);
	CHECK_UNCHANGED(&idr, was);
	is_live(&idr, t, 0, val(0));
	idr_destroy(&idr);
}

/* Fill a tagged idr of @bits bits: 2^bits IDs, then -ENOSPC. */
static void fill(unsigned int bits)
{
	unsigned int i, n = 1u << bits;
	uint32_t next = 0;
	DEFINE_IDR(idr);
	struct idr_snap was;

	CHECK_EQ(idr_tag_init(&idr, bits, 0), 0);
	for (i = 0; i < n; i++) {
		int t = i & 1 ? idr_alloc_tagged(&idr, val(i), 0, 0, GFP)
			      : idr_alloc(&idr, val(i), 0, 0, GFP);

		if (!CHECK(t >= 0) ||
		    !CHECK_EQ(i & 1 ? idr_tag_id(&idr, t) : t, i))
			break;
	}
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_count(&idr), n);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 0, 0, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc_u32(&idr, val(0), &next, UINT32_MAX, GFP), -ENOSPC);
	CHECK_EQ(next, 0);
	CHECK_UNCHANGED(&idr, was);
	idr_destroy(&idr);
}

/* IDs stay below 2^id_bits: a range starting there has no ID. */
static void tag_id_bits_limit(void)
{
	uint32_t next = 16;
	DEFINE_IDR(idr);
	struct idr_snap was;
	int t, i;

	CHECK_EQ(idr_tag_init(&idr, 4, 0), 0);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc(&idr, val(16), 16, 0, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc_tagged(&idr, val(16), 16, 0, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc_tagged(&idr, val(16), 1000, 2000, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc_tagged(&idr, val(16), INT_MAX, 0, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, val(16), INT_MAX, 0, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc_u32(&idr, val(16), &next, UINT32_MAX, GFP), -ENOSPC);
	CHECK_EQ(next, 16);
	CHECK_UNCHANGED(&idr, was);

	/* A range reaching past the limit is cut at it. */
	for (i = 10; i < 16; i++)
		CHECK_EQ(idr_alloc(&idr, val((unsigned)i), 10, 100, GFP), i);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc(&idr, val(0), 10, 100, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 10, 0, GFP), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);
	t = idr_alloc_tagged(&idr, val(9), 5, 0, GFP);
	is_live(&idr, t, 5, val(9));

	/* The cyclic and the 2004 allocators keep to the limit too. */
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(0), 16, 0, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(0), 10, 0, GFP), -ENOSPC);
	CHECK_EQ(idr_get_new_above(&idr, val(0), 16, &i), -ENOSPC);
	CHECK_EQ(idr_get_new_above(&idr, val(0), 10, &i), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(6), 6, 0, GFP), 6);
	CHECK_EQ(idr_get_new_above(&idr, val(7), 6, &i), 0);
	CHECK_EQ(i, 7);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);

	fill(1);
	fill(4);
	fill(IDR_BITS + 1);

	/* 30 ID bits: the top ID, and one generation bit. */
	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 30, 0), 0);
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 1 << 30, 0, GFP), -ENOSPC);
	t = idr_alloc_tagged(&idr, val(1), (1 << 30) - 1, 0, GFP);
	is_live(&idr, t, (1 << 30) - 1, val(1));
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), (1 << 30) - 1, 0, GFP),
		 -ENOSPC);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* tagged = (generation << id_bits) | id; plain calls ignore the tag. */
static void tag_layout(void)
{
	const unsigned int bits = 12;
	DEFINE_IDR(idr);
	int t, gen, other;

	CHECK_EQ(idr_tag_init(&idr, bits, 0), 0);
	t = idr_alloc_tagged(&idr, val(5), 5, 0, GFP);
	is_live(&idr, t, 5, val(5));
	gen = idr_tag_gen(&idr, t);
	CHECK(gen >= 0);
	CHECK_EQ(gen, t >> bits);
	CHECK_EQ(t, tag_of(bits, (unsigned int)gen, 5));
	CHECK_EQ(idr_count(&idr), 1);
	CHECK(!idr_is_empty(&idr));

	CHECK_EQ(idr_tag_id(&idr, INT_MAX), (1 << bits) - 1);
	CHECK_EQ(idr_tag_gen(&idr, INT_MAX), INT_MAX >> bits);
	CHECK_EQ(idr_tag_id(&idr, 0), 0);
	CHECK_EQ(idr_tag_gen(&idr, 0), 0);
	CHECK_EQ(idr_tag_id(&idr, 3 << bits | 7), 7);
	CHECK_EQ(idr_tag_gen(&idr, 3 << bits | 7), 3);

	/* idr_find ignores every bit at and above id_bits. */
	CHECK(idr_find(&idr, (unsigned long)t) == val(5));
	CHECK(idr_find(&idr, 5ul | 7ul << bits) == val(5));
	CHECK(idr_find(&idr, 5ul | 1ul << 31) == val(5));
	CHECK(idr_find(&idr, 5ul | ~0ul << bits) == val(5));
	CHECK(idr_find(&idr, 6ul | (unsigned long)t >> bits << bits) == NULL);

	/* A live slot, the wrong generation: stale. */
	other = tag_of(bits, (unsigned int)gen + 3, 5);
	is_stale(&idr, other);
	is_live(&idr, t, 5, val(5));

	/* idr_remove ignores the generation, and the generation advances. */
	CHECK(idr_remove(&idr, (unsigned long)other) == val(5));
	CHECK_SOUND(&idr);
	CHECK(idr_is_empty(&idr));
	is_stale(&idr, t);
	t = idr_alloc_tagged(&idr, val(6), 5, 0, GFP);
	is_live(&idr, t, 5, val(6));
	CHECK(idr_remove(&idr, 5ul | ~0ul << bits) == val(6));
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_count(&idr), 0);
	is_stale(&idr, t);
	idr_destroy(&idr);
}

/*
 * With its leaf kept alive, a slot's generation advances by one per
 * free, and the tag a free slot would be handed next is -ENOENT.
 */
static void tag_generation_advances(void)
{
	const unsigned int bits = 10;
	int keep, t0, t1, t2, g0;
	DEFINE_IDR(idr);
	struct idr_snap was;

	CHECK_EQ(idr_tag_init(&idr, bits, 0), 0);
	keep = idr_alloc_tagged(&idr, val(1), 1, 2, GFP);
	is_live(&idr, keep, 1, val(1));
	t0 = idr_alloc_tagged(&idr, val(0), 0, 1, GFP);
	is_live(&idr, t0, 0, val(0));
	g0 = idr_tag_gen(&idr, t0);
	/* A new leaf's slots all start at one generation. */
	CHECK_EQ(idr_tag_gen(&idr, keep), g0);

	/* Slot 2 was never handed out. */
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_tag_check(&idr, tag_of(bits, (unsigned)g0, 2)), -ENOENT);
	CHECK(idr_find_tagged(&idr, tag_of(bits, (unsigned)g0, 2)) == NULL);
	CHECK(idr_remove_tagged(&idr, tag_of(bits, (unsigned)g0, 2)) == NULL);
	CHECK_EQ(idr_tag_check(&idr, tag_of(bits, (unsigned)g0 + 1, 2)),
		 -ESTALE);
	CHECK_UNCHANGED(&idr, was);

	CHECK(idr_remove_tagged(&idr, t0) == val(0));
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_count(&idr), 1);
	CHECK(idr_find(&idr, 0) == NULL);
	is_stale(&idr, t0);
	t1 = tag_of(bits, (unsigned)g0 + 1, 0);
	CHECK_EQ(idr_tag_check(&idr, t1), -ENOENT);
	CHECK(idr_find_tagged(&idr, t1) == NULL);
	/* Removing a free ID frees nothing: no generation passes. */
	CHECK(idr_remove(&idr, 0) == NULL);
	CHECK(idr_remove(&idr, (unsigned long)t0) == NULL);
	CHECK_EQ(idr_tag_check(&idr, t1), -ENOENT);
	CHECK_EQ(idr_alloc_tagged(&idr, val(10), 0, 1, GFP), t1);
	is_live(&idr, t1, 0, val(10));
	is_stale(&idr, t0);

	/* idr_remove() advances it too. */
	CHECK(idr_remove(&idr, 0) == val(10));
	CHECK_SOUND(&idr);
	is_stale(&idr, t1);
	is_stale(&idr, t0);
	t2 = idr_alloc_tagged(&idr, val(20), 0, 0, GFP);
	CHECK_EQ(t2, tag_of(bits, (unsigned)g0 + 2, 0));
	is_live(&idr, t2, 0, val(20));
	is_stale(&idr, t1);
	is_live(&idr, keep, 1, val(1));
	CHECK_EQ(idr_count(&idr), 2);
	idr_destroy(&idr);
}

static bool in(const int *v, int n, int x)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

#define CYCLES 10

/*
 * Generations survive a leaf's emptying: a tagged idr keeps its leaves
 * (the tree never lowers), so each slot keeps its own counter.
 */
static void tag_stale_after_leaf_freed(void)
{
	const unsigned int bits = 10, x = 3 * IDR_SLOTS + 1;
	int t0, t1, keep, cur, old[CYCLES + 1], i;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_tag_init(&idr, bits, 0), 0);
	t0 = idr_alloc_tagged(&idr, val(5), 5, 6, GFP);
	is_live(&idr, t0, 5, val(5));
	CHECK(idr_remove_tagged(&idr, t0) == val(5));
	CHECK_SOUND(&idr);
	CHECK_EQ(idr__height(&idr), 1);
	t1 = idr_alloc_tagged(&idr, val(6), 5, 6, GFP);
	is_live(&idr, t1, 5, val(6));
	CHECK(t1 != t0);
	is_stale(&idr, t0);
	CHECK(idr_remove_tagged(&idr, t1) == val(6));
	CHECK_EQ(idr__height(&idr), 1);

	/* Slot x goes through generations... */
	keep = idr_alloc_tagged(&idr, val(1), x + 1, x + 2, GFP);
	is_live(&idr, keep, (int)x + 1, val(1));
	cur = idr_alloc_tagged(&idr, val(2), x, x + 1, GFP);
	for (i = 0; i < CYCLES; i++) {
		is_live(&idr, cur, (int)x, val(2));
		old[i] = cur;
		CHECK(idr_remove_tagged(&idr, cur) == val(2));
		cur = idr_alloc_tagged(&idr, val(2), x, x + 1, GFP);
		CHECK(!in(old, i + 1, cur));
	}
	old[CYCLES] = cur;
	CHECK(idr_remove_tagged(&idr, cur) == val(2));
	CHECK(idr_remove_tagged(&idr, keep) == val(1));
	CHECK_SOUND(&idr);
	CHECK_EQ(idr__height(&idr), 2);

	/* ...then another slot is used and emptied... */
	for (i = 0; i < 3; i++) {
		cur = idr_alloc_tagged(&idr, val(3), 1, 2, GFP);
		is_live(&idr, cur, 1, val(3));
		CHECK(idr_remove_tagged(&idr, cur) == val(3));
		CHECK_EQ(idr__height(&idr), 2);
	}

	/* ...and x again: no old tag of x comes back. */
	cur = idr_alloc_tagged(&idr, val(4), x, x + 1, GFP);
	is_live(&idr, cur, (int)x, val(4));
	CHECK(!in(old, CYCLES + 1, cur));
	for (i = 0; i <= CYCLES; i++)
		is_stale(&idr, old[i]);
	is_stale(&idr, t0);
	is_stale(&idr, keep);
	keep = idr_alloc_tagged(&idr, val(5), x + 1, x + 2, GFP);
	is_live(&idr, keep, (int)x + 1, val(5));
	idr_destroy(&idr);
}

/*
 * g = 3.  Slot 0 hands out a tag and its leaf goes; another leaf's slot
 * is reused 8 times and its leaf goes too.  Slot 0's leaf made again
 * must not hand out its first tag: a seed taken from the other slot's
 * counter (8, shown modulo 8 as 0) made that tag live again.
 */
static void tag_lagging_slot_after_leaves_freed(void)
{
	const unsigned int bits = 28, far = IDR_SLOTS;
	int first, keep, t, k;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_tag_init(&idr, bits, 0), 0);
	keep = idr_alloc_tagged(&idr, val(3), (int)far + 1, (int)far + 2, GFP);
	first = idr_alloc_tagged(&idr, val(0), 0, 1, GFP);
	CHECK(idr_remove_tagged(&idr, first) == val(0));
	for (k = 0; k < 8; k++) {
		t = idr_alloc_tagged(&idr, val(1), (int)far, (int)far + 1, GFP);
		CHECK(idr_remove_tagged(&idr, t) == val(1));
	}
	CHECK(idr_remove_tagged(&idr, keep) == val(3));
	t = idr_alloc_tagged(&idr, val(2), 0, 1, GFP);
	is_live(&idr, t, 0, val(2));
	CHECK(t != first);
	is_stale(&idr, first);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

#define WM_IDS (4 * IDR_SLOTS)
#define WM_RECENT 7 /* g = 3: 2^g - 1 tags a slot must not repeat */

struct wm {
	struct idr idr;
	uint64_t rng;
	int live[WM_IDS];
	int recent[WM_IDS][WM_RECENT];
	unsigned int uses[WM_IDS];
};

/* Hand out @id; its tag must be none of the slot's last 7. */
static bool wm_alloc(struct wm *m, int id)
{
	int t = idr_alloc_tagged(&m->idr, val((unsigned long)id), id, id + 1,
				 GFP);
	unsigned int k, n = m->uses[id];

	if (!CHECK_EQ(idr_tag_id(&m->idr, t), id))
		return false;
	for (k = 0; k < n && k < WM_RECENT; k++)
		if (!CHECK(m->recent[id][k] != t) ||
		    !is_stale(&m->idr, m->recent[id][k]))
			return false;
	m->recent[id][n % WM_RECENT] = t;
	m->uses[id]++;
	m->live[id] = t;
	return true;
}

static bool wm_remove(struct wm *m, int id)
{
	void *got = idr_remove_tagged(&m->idr, m->live[id]);

	m->live[id] = -1;
	return CHECK(got == val((unsigned long)id));
}

/* Empty one leaf's worth of IDs, so that its leaf goes. */
static bool wm_clear(struct wm *m)
{
	int first = (int)(rnd_below(&m->rng, WM_IDS / IDR_SLOTS) * IDR_SLOTS);
	int id;

	for (id = first; id < first + (int)IDR_SLOTS; id++)
		if (m->live[id] >= 0 && !wm_remove(m, id))
			return false;
	return true;
}

/*
 * The promise itself, at g = 3, through leaves freed and made again in
 * every order: a slot's new tag is none of the 7 it handed out before,
 * and those are all stale.
 */
static void tag_wrap_promise_model(void)
{
	struct wm *m = calloc(1, sizeof(*m));
	unsigned long step;
	bool ok = true;
	int id;

	if (!CHECK(m != NULL))
		return;
	m->rng = 3;
	memset(m->live, 0xff, sizeof(m->live));
	CHECK_EQ(idr_tag_init(&m->idr, 28, 0), 0);
	for (step = 0; ok && step < 20000; step++) {
		id = (int)rnd_below(&m->rng, WM_IDS);
		if (rnd_below(&m->rng, 40) == 0)
			ok = wm_clear(m);
		else if (m->live[id] < 0)
			ok = wm_alloc(m, id);
		else
			ok = wm_remove(m, id);
		ok = ok && CHECK_SOUND(&m->idr);
	}
	if (!ok)
		fprintf(stderr, "tag wrap model: differs at step %lu\n", step);
	idr_destroy(&m->idr);
	free(m);
}

/* g = 3: after 8 reuses of a slot its first tag is live again. */
static void tag_generations_wrap(void)
{
	const unsigned int bits = 28;
	int keep, t[9], k;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_tag_init(&idr, bits, 0), 0);
	keep = idr_alloc_tagged(&idr, val(1), 1, 2, GFP);
	is_live(&idr, keep, 1, val(1));
	t[0] = idr_alloc_tagged(&idr, val(0), 0, 1, GFP);
	is_live(&idr, t[0], 0, val(0));
	for (k = 1; k <= 8; k++) {
		CHECK(idr_remove_tagged(&idr, t[k - 1]) == val(0));
		CHECK_SOUND(&idr);
		t[k] = idr_alloc_tagged(&idr, val(0), 0, 1, GFP);
		is_live(&idr, t[k], 0, val(0));
		CHECK_EQ(idr_tag_gen(&idr, t[k]),
			 (idr_tag_gen(&idr, t[k - 1]) + 1) & 7);
	}
	CHECK_EQ(t[8], t[0]);
	is_live(&idr, t[0], 0, val(0));
	for (k = 1; k < 8; k++)
		is_stale(&idr, t[k]);
	/* Not retired: the slot goes on being handed out. */
	CHECK(idr_remove_tagged(&idr, t[8]) == val(0));
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 0, 2, GFP), t[1]);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/*
 * With IDR_TAG_RETIRE and g = 3, slots 0 and 1 are handed out 8 times
 * each, with 8 different generations, and then never again.
 */
static void tag_retire(void)
{
	const unsigned int bits = 28;
	unsigned int seen[2] = { 0, 0 };
	unsigned long next = 0;
	int keep, t[16], k, id;
	DEFINE_IDR(idr);
	struct idr_snap was;

	CHECK_EQ(idr_tag_init(&idr, bits, IDR_TAG_RETIRE), 0);
	keep = idr_alloc_tagged(&idr, val(2), 2, 3, GFP);
	is_live(&idr, keep, 2, val(2));
	for (k = 0; k < 16; k++) {
		t[k] = idr_alloc_tagged(&idr, val((unsigned)k), 0, 2, GFP);
		id = k < 8 ? 0 : 1;
		if (!is_live(&idr, t[k], id, val((unsigned)k)))
			break;
		CHECK(!in(t, k, t[k]));
		seen[id] |= 1u << idr_tag_gen(&idr, t[k]);
		CHECK_EQ(idr_count(&idr), 2);
		CHECK(idr_remove_tagged(&idr, t[k]) == val((unsigned)k));
		CHECK_SOUND(&idr);
		CHECK_EQ(idr_count(&idr), 1);
	}
	CHECK_EQ(seen[0], 0xff);
	CHECK_EQ(seen[1], 0xff);

	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 0, 2, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 2, GFP), -ENOSPC);
	CHECK(idr_find(&idr, 0) == NULL);
	CHECK(idr_find(&idr, 1) == NULL);
	CHECK(idr_remove(&idr, 0) == NULL);
	CHECK(idr_remove(&idr, 1) == NULL);
	CHECK(idr_replace(&idr, val(9), 0) == ERR_PTR(-ENOENT));
	CHECK(idr_get_next_ul(&idr, &next) == val(2));
	CHECK_EQ(next, 2);
	CHECK_UNCHANGED(&idr, was);
	for (k = 0; k < 16; k++)
		is_stale(&idr, t[k]);
	CHECK_EQ(idr_count(&idr), 1);
	CHECK(!idr_is_empty(&idr));

	/* Retired slots are not IDs: without keep the idr is empty. */
	CHECK(idr_remove(&idr, 2) == val(2));
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_count(&idr), 0);
	CHECK(idr_is_empty(&idr));
	is_stale(&idr, keep);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 0, 2, GFP), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);
	for (k = 0; k < 16; k++)
		is_stale(&idr, t[k]);

	/* Slot 2 was used once: it is handed out again. */
	keep = idr_alloc_tagged(&idr, val(3), 0, 0, GFP);
	is_live(&idr, keep, 2, val(3));
	CHECK_EQ(idr_alloc(&idr, val(4), 0, 0, GFP), 3);
	CHECK_EQ(idr_count(&idr), 2);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* The untagged idr pays nothing for tags; a tagged one pays some. */
static void tag_memory(void)
{
	struct seam_mem_stats m0, m1, m2, m3;
	unsigned int i, n = 3000;
	DEFINE_IDR(plain1);
	DEFINE_IDR(plain2);
	DEFINE_IDR(tagged);

	seam_mem_stats(&m0);
	for (i = 0; i < n; i++)
		CHECK_EQ(idr_alloc(&plain1, val(i), 0, 0, GFP), i);
	seam_mem_stats(&m1);
	CHECK_EQ(idr_tag_init(&tagged, 16, 0), 0);
	for (i = 0; i < n; i++) {
		int t = idr_alloc_tagged(&tagged, val(i), 0, 0, GFP);

		CHECK_EQ(idr_tag_id(&tagged, t), i);
	}
	seam_mem_stats(&m2);
	for (i = 0; i < n; i++)
		CHECK_EQ(idr_alloc(&plain2, val(i), 0, 0, GFP), i);
	seam_mem_stats(&m3);
	CHECK_SOUND(&plain1);
	CHECK_SOUND(&tagged);
	CHECK_SOUND(&plain2);
	printf("# tag: %u IDs: %zu bytes untagged, %zu tagged\n", n,
	       m1.bytes - m0.bytes, m2.bytes - m1.bytes);
	CHECK_EQ(m3.bytes - m2.bytes, m1.bytes - m0.bytes);
	CHECK(m2.bytes - m1.bytes > m1.bytes - m0.bytes);
	idr_destroy(&plain1);
	idr_destroy(&plain2);
	idr_destroy(&tagged);
}

/* A failed idr_alloc_tagged() changes nothing, generations included. */
static void tag_fault_enomem(void)
{
	const unsigned int bits = 12;
	int t0, t1, t2, next, far = 2 * IDR_SLOTS;
	DEFINE_IDR(idr);
	struct idr_snap was;

	CHECK_EQ(idr_tag_init(&idr, bits, 0), 0);
	was = idr_snap_of(&idr);
	seam_fault_inject(0, ULONG_MAX);
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 0, 0, GFP), -ENOMEM);
	seam_fault_inject(0, 0);
	CHECK_UNCHANGED(&idr, was);

	t0 = idr_alloc_tagged(&idr, val(0), 0, 0, GFP);
	is_live(&idr, t0, 0, val(0));
	t1 = idr_alloc_tagged(&idr, val(1), 1, 0, GFP);
	CHECK(idr_remove_tagged(&idr, t1) == val(1));
	was = idr_snap_of(&idr);
	seam_fault_inject(0, ULONG_MAX);
	CHECK_EQ(idr_alloc_tagged(&idr, val(2), far, 0, GFP), -ENOMEM);
	CHECK_EQ(idr_alloc_tagged(&idr, val(2), (1 << bits) - 1, 0, GFP),
		 -ENOMEM);
	seam_fault_inject(0, 0);
	CHECK_UNCHANGED(&idr, was);
	is_live(&idr, t0, 0, val(0));
	is_stale(&idr, t1);
	next = tag_of(bits, (unsigned int)idr_tag_gen(&idr, t1) + 1, 1);
	CHECK_EQ(idr_tag_check(&idr, next), -ENOENT);

	t2 = idr_alloc_tagged(&idr, val(2), far, 0, GFP);
	is_live(&idr, t2, far, val(2));
	is_live(&idr, t0, 0, val(0));
	CHECK_EQ(idr_alloc_tagged(&idr, val(1), 1, 0, GFP), next);
	idr_destroy(&idr);
}

/* {==================== Fault injection, each allocation ================ */

#define FT_BITS 12
#define FT_IDS (1u << FT_BITS)
#define FT_STEPS 300
#define FT_MAX_TAGS FT_STEPS

struct ftscene {
	struct idr idr;
	uint64_t rng;
	int live[FT_IDS]; /* the live tag at an ID, or -1 */
	void *val[FT_IDS];
	int tags[FT_MAX_TAGS]; /* every tag handed out */
	int ntags;
	unsigned long enomem;
};

static bool ft_matches(struct ftscene *s)
{
	unsigned long n = 0;
	unsigned int id;

	for (id = 0; id < FT_IDS; id++) {
		if (s->live[id] < 0) {
			if (!CHECK(idr_find(&s->idr, id) == NULL))
				return false;
			continue;
		}
		n++;
		if (!CHECK(idr_find_tagged(&s->idr, s->live[id]) == s->val[id]))
			return false;
	}
	return CHECK_EQ(idr_count(&s->idr), n) && CHECK_SOUND(&s->idr);
}

static bool ft_remove(struct ftscene *s, unsigned int id)
{
	int t;

	while (s->live[id] < 0 && id < FT_IDS - 1)
		id++;
	if (s->live[id] < 0)
		return true;
	t = s->live[id];
	s->live[id] = -1;
	return CHECK(idr_remove_tagged(&s->idr, t) == s->val[id]) &&
	       is_stale(&s->idr, t);
}

/* Spread IDs: allocations add leaves, removals free them. */
static bool ft_step(struct ftscene *s, unsigned long i)
{
	unsigned int id = (unsigned int)rnd_below(&s->rng, FT_IDS);
	int t, k;

	if (i % 3 == 2)
		return ft_remove(s, id);
	t = idr_alloc_tagged(&s->idr, val(i), (int)id, 0, GFP);
	if (t == -ENOMEM) {
		s->enomem++;
		return ft_matches(s);
	}
	while (s->live[id] >= 0 && id < FT_IDS - 1)
		id++;
	if (s->live[id] >= 0)
		return CHECK_EQ(t, -ENOSPC);
	if (!CHECK(t >= 0) || !CHECK_EQ(idr_tag_id(&s->idr, t), id))
		return false;
	for (k = 0; k < s->ntags; k++)
		if (!CHECK(s->tags[k] != t))
			return false;
	s->tags[s->ntags++] = t;
	s->live[id] = t;
	s->val[id] = val(i);
	return is_live(&s->idr, t, (int)id, val(i));
}

static unsigned long ft_run(unsigned long skip, unsigned long count)
{
	struct ftscene *s = calloc(1, sizeof(*s));
	unsigned long i, enomem;

	if (!CHECK(s != NULL))
		return 0;
	s->rng = 99;
	memset(s->live, 0xff, sizeof(s->live));
	idr_init(&s->idr);
	CHECK_EQ(idr_tag_init(&s->idr, FT_BITS, 0), 0);
	seam_fault_inject(skip, count);
	for (i = 0; i < FT_STEPS; i++)
		if (!ft_step(s, i) || !CHECK_SOUND(&s->idr)) {
			fprintf(stderr, "tag fault: skip %lu: step %lu\n", skip,
				i);
			break;
		}
	seam_fault_inject(0, 0);
	ft_matches(s);
	idr_destroy(&s->idr);
	enomem = s->enomem;
	free(s);
	return enomem;
}

static void tag_fault_each_allocation(void)
{
	fault_each_allocation_of("tag fault", ft_run);
}

/* }==================== Fault injection, each allocation ================ */

/* {==================== The differential test ==================== */

#define TM_BITS 10
#define TM_IDS (1u << TM_BITS)
#define TM_OLD 2048
#define TM_STEPS 100000

/* A set of tags, open addressing: every tag ever handed out. */
struct tagset {
	int *v; /* -1: empty */
	size_t cap, n;
};

static bool tagset_has(const struct tagset *s, int t)
{
	size_t i = ((size_t)t * 2654435761u) & (s->cap - 1);

	if (!s->cap)
		return false;
	while (s->v[i] >= 0) {
		if (s->v[i] == t)
			return true;
		i = (i + 1) & (s->cap - 1);
	}
	return false;
}

static void tagset_put(struct tagset *s, int t);

static void tagset_grow(struct tagset *s)
{
	struct tagset old = *s;
	size_t i;

	s->cap = old.cap ? 2 * old.cap : 1024;
	s->n = 0;
	s->v = malloc(s->cap * sizeof(*s->v));
	if (!s->v)
		abort();
	memset(s->v, 0xff, s->cap * sizeof(*s->v));
	for (i = 0; i < old.cap; i++)
		if (old.v[i] >= 0)
			tagset_put(s, old.v[i]);
	free(old.v);
}

static void tagset_put(struct tagset *s, int t)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap)
		tagset_grow(s);
	i = ((size_t)t * 2654435761u) & (s->cap - 1);
	while (s->v[i] >= 0)
		i = (i + 1) & (s->cap - 1);
	s->v[i] = t;
	s->n++;
}

struct tm {
	struct idr idr;
	uint64_t rng;
	unsigned long step;
	int live[TM_IDS]; /* the live tag at each ID, or -1 */
	void *val[TM_IDS];
	unsigned int nlive, cap;
	int old[TM_OLD]; /* the latest tags of removed occupants */
	unsigned long nold;
	struct tagset seen;
	unsigned long vals;
};

static void *tm_value(struct tm *m)
{
	if (rnd_below(&m->rng, 20) == 0)
		return NULL;
	return val(m->vals++);
}

/* A live ID, or -1 if there is none. */
static int tm_pick_live(struct tm *m)
{
	unsigned int id = (unsigned int)rnd_below(&m->rng, TM_IDS), i;

	if (!m->nlive)
		return -1;
	for (i = 0; m->live[(id + i) % TM_IDS] < 0; i++)
		;
	return (int)((id + i) % TM_IDS);
}

static int tm_pick_old(struct tm *m)
{
	unsigned long n = m->nold < TM_OLD ? m->nold : TM_OLD;

	if (!n)
		return -1;
	return m->old[rnd_below(&m->rng, n)];
}

/* The ID the model hands out for [@start, @end), or -ENOSPC. */
static int tm_lowest(struct tm *m, int start, int end)
{
	long hi = end > 0 ? (long)end - 1 : INT_MAX, id;

	if (hi > (long)TM_IDS - 1)
		hi = TM_IDS - 1;
	for (id = start; id <= hi; id++)
		if (m->live[id] < 0)
			return (int)id;
	return -ENOSPC;
}

static bool tm_alloc(struct tm *m)
{
	int start, end, want, t;
	void *v = tm_value(m);

	switch (rnd_below(&m->rng, 4)) {
	case 0:
		start = (int)rnd_below(&m->rng, 3 * IDR_SLOTS);
		break;
	case 1:
		start = (int)TM_IDS - (int)rnd_below(&m->rng, 2 * IDR_SLOTS);
		break;
	default:
		start = (int)rnd_below(&m->rng, TM_IDS);
	}
	switch (rnd_below(&m->rng, 3)) {
	case 0:
		end = -(int)rnd_below(&m->rng, 2);
		break;
	default:
		end = start + 1 + (int)rnd_below(&m->rng, 2 * IDR_SLOTS);
	}
	if (rnd_below(&m->rng, 100) == 0)
		start = -1;
	want = start < 0 ? -EINVAL : tm_lowest(m, start, end);
	t = idr_alloc_tagged(&m->idr, v, start, end, GFP);
	if (want < 0)
		return CHECK_EQ(t, want);
	if (!CHECK(t >= 0) || !CHECK_EQ(idr_tag_id(&m->idr, t), want) ||
	    !CHECK(!tagset_has(&m->seen, t)))
		return false;
	tagset_put(&m->seen, t);
	m->live[want] = t;
	m->val[want] = v;
	m->nlive++;
	return true;
}

static void tm_forget(struct tm *m, int id)
{
	m->old[m->nold++ % TM_OLD] = m->live[id];
	m->live[id] = -1;
	m->nlive--;
}

static bool tm_remove(struct tm *m)
{
	int id = tm_pick_live(m), t;
	unsigned long high;
	void *got;

	if (id < 0)
		return true;
	t = m->live[id];
	high = rnd_below(&m->rng, 4) << TM_BITS;
	switch (rnd_below(&m->rng, 3)) {
	case 0:
		got = idr_remove(&m->idr, (unsigned long)id | high);
		break;
	default:
		got = idr_remove_tagged(&m->idr, t);
	}
	if (!CHECK(got == m->val[id]))
		return false;
	tm_forget(m, id);
	return is_stale(&m->idr, t);
}

static bool tm_check_live(struct tm *m)
{
	int id = tm_pick_live(m), t;

	if (id < 0)
		return CHECK(idr_is_empty(&m->idr));
	t = m->live[id];
	return is_live(&m->idr, t, id, m->val[id]) &&
	       CHECK_EQ(idr_tag_gen(&m->idr, t), t >> TM_BITS) &&
	       CHECK(idr_find(&m->idr, (unsigned long)t) == m->val[id]);
}

/* A removed occupant's tag stays stale, whatever the slot does since. */
static bool tm_check_old(struct tm *m)
{
	int t = tm_pick_old(m);

	if (t < 0)
		return true;
	if (!CHECK(m->live[t & (TM_IDS - 1)] != t))
		return false;
	return is_stale(&m->idr, t);
}

static bool tm_step(struct tm *m)
{
	bool ok;

	switch (rnd_below(&m->rng, 10)) {
	case 0:
	case 1:
	case 2:
	case 3:
		ok = tm_alloc(m);
		break;
	case 4:
	case 5:
	case 6:
		ok = tm_remove(m);
		break;
	case 7:
	case 8:
		ok = tm_check_old(m);
		break;
	default:
		ok = tm_check_live(m);
	}
	if (ok && m->nlive > m->cap && rnd_below(&m->rng, 2))
		ok = tm_remove(m);
	if (rnd_below(&m->rng, 2000) == 0)
		m->cap = 2u << rnd_below(&m->rng, 9);
	if (!ok || !CHECK_SOUND(&m->idr))
		return false;
	return m->step % 1024 ||
	       (CHECK_EQ(idr_count(&m->idr), m->nlive) &&
		CHECK_EQ(idr_is_empty(&m->idr), m->nlive == 0));
}

static void tm_seed(uint64_t seed, unsigned int flags)
{
	struct tm *m = calloc(1, sizeof(*m));
	unsigned int id;

	if (!CHECK(m != NULL))
		return;
	m->rng = seed;
	m->cap = 64;
	memset(m->live, 0xff, sizeof(m->live));
	idr_init(&m->idr);
	CHECK_EQ(idr_tag_init(&m->idr, TM_BITS, flags), 0);
	for (m->step = 0; m->step < TM_STEPS; m->step++)
		if (!tm_step(m)) {
			fprintf(stderr,
				"tag model: seed %llu flags %u: "
				"differs at step %lu\n",
				(unsigned long long)seed, flags, m->step);
			break;
		}
	for (id = 0; id < TM_IDS; id++)
		if (m->live[id] >= 0 &&
		    !CHECK(idr_find_tagged(&m->idr, m->live[id]) == m->val[id]))
			break;
	CHECK_EQ(idr_count(&m->idr), m->nlive);
	idr_destroy(&m->idr);
	free(m->seen.v);
	free(m);
}

static void tag_model_wrap_seed1(void)
{
	tm_seed(1, 0);
}

static void tag_model_retire_seed2(void)
{
	tm_seed(2, IDR_TAG_RETIRE);
}

/* }==================== The differential test ==================== */

/* idr_destroy() keeps generations moving: a tag from before stays stale. */
static void tag_stale_after_destroy(void)
{
	int t0, t1;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_tag_init(&idr, 12, 0), 0);
	t0 = idr_alloc_tagged(&idr, val(1), 0, 0, GFP);
	CHECK(idr_remove_tagged(&idr, t0) == val(1));
	t0 = idr_alloc_tagged(&idr, val(2), 0, 0, GFP);
	idr_destroy(&idr);
	CHECK_SOUND(&idr);
	t1 = idr_alloc_tagged(&idr, val(3), 0, 0, GFP);
	CHECK_EQ(idr_tag_id(&idr, t1), idr_tag_id(&idr, t0));
	CHECK(t1 != t0);
	is_stale(&idr, t0);
	is_live(&idr, t1, idr_tag_id(&idr, t1), val(3));
	idr_destroy(&idr);
}

/*
 * With IDR_TAG_RETIRE, an ID that showed its last generation stays used
 * up after idr_destroy(), which forgets which IDs those were: every ID a
 * new leaf would hold counts as retired.  (Found by fuzz/ops.c.)
 */
static void tag_retired_after_destroy(void)
{
	int a, b, c;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_tag_init(&idr, 30, IDR_TAG_RETIRE), 0); /* 2 gens */
	a = idr_alloc_tagged(&idr, val(1), 0, 0, GFP);
	CHECK(idr_remove_tagged(&idr, a) == val(1));
	b = idr_alloc_tagged(&idr, val(2), 0, 0, GFP);
	CHECK_EQ(b, 1 << 30);
	idr_destroy(&idr);
	CHECK_SOUND(&idr);
	c = idr_alloc_tagged(&idr, val(3), 0, 0, GFP);
	CHECK_EQ(c, -ENOSPC);
	is_stale(&idr, a);
	is_stale(&idr, b);
	CHECK(idr_is_empty(&idr));
	/* Retired slots freed by idr_destroy() count too. */
	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 30, IDR_TAG_RETIRE), 0);
	a = idr_alloc_tagged(&idr, val(1), 0, 0, GFP);
	b = idr_alloc_tagged(&idr, val(2), 0, 0, GFP);
	CHECK(idr_remove_tagged(&idr, a) == val(1));
	a = idr_alloc_tagged(&idr, val(1), 0, 0, GFP); /* 0's last gen */
	CHECK(idr_remove_tagged(&idr, a) == val(1));   /* retired */
	/* Leaves that exist still hand out their free IDs. */
	CHECK_EQ(idr_alloc_tagged(&idr, val(3), 0, 0, GFP), 2);
	idr_destroy(&idr);
	CHECK_EQ(idr_alloc_tagged(&idr, val(3), 0, 0, GFP), -ENOSPC);
	idr_destroy(&idr);
}

/*
 * With IDR_TAG_RETIRE, idr_destroy() and idr_tag_init() with the same
 * id_bits keep every old tag stale, a lagging slot's too: generations
 * never wrap, and every slot starts past all of them.
 */
static void tag_retire_lagging_slot_after_destroy(void)
{
	const int far = IDR_SLOTS;
	int first, t, k, old[6];
	DEFINE_IDR(idr);

	CHECK_EQ(idr_tag_init(&idr, 28, IDR_TAG_RETIRE), 0); /* 8 gens */
	first = idr_alloc_tagged(&idr, val(0), 0, 1, GFP);
	CHECK(idr_remove_tagged(&idr, first) == val(0));
	for (k = 0; k < 6; k++) {
		old[k] = idr_alloc_tagged(&idr, val(1), far, far + 1, GFP);
		CHECK(idr_remove_tagged(&idr, old[k]) == val(1));
	}
	idr_destroy(&idr);
	CHECK_EQ(idr_tag_init(&idr, 28, IDR_TAG_RETIRE), 0);
	t = idr_alloc_tagged(&idr, val(2), 0, 1, GFP);
	is_live(&idr, t, 0, val(2));
	CHECK_EQ(idr_tag_gen(&idr, t), 6);
	is_stale(&idr, first);
	t = idr_alloc_tagged(&idr, val(3), far, far + 1, GFP);
	is_live(&idr, t, far, val(3));
	for (k = 0; k < 6; k++)
		is_stale(&idr, old[k]);
	idr_destroy(&idr);
}

/*
 * Tagged again with other id_bits after idr_destroy(): generations start
 * afresh (the seed 8 bits left would retire every slot of a 1-bit
 * generation); with the same id_bits they go on.
 */
/* idr_unalloc() of a retired slot: no ID there to take back, so nothing
 * changes (it used to count one out, and free the slot for reuse). */
static void tag_unalloc_retired_slot(void)
{
	int i, t;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_tag_init(&idr, 30, IDR_TAG_RETIRE), 0);
	for (i = 0; i < 2; i++) {
		t = idr_alloc_tagged(&idr, val(1), 0, 1, GFP);
		CHECK(t >= 0 && idr_remove_tagged(&idr, t) == val(1));
	}
	CHECK_EQ(idr_alloc(&idr, val(2), 0, 1, GFP), -ENOSPC);
	CHECK(idr_unalloc(&idr, 0) == NULL);
	CHECK_EQ(idr_count(&idr), 0);
	CHECK(idr_is_empty(&idr));
	CHECK_EQ(idr_alloc_tagged(&idr, val(2), 0, 1, GFP), -ENOSPC);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* Tagging a wrapping idr again as retiring clamps a seed past the new
 * limit to it (worn out either way), so a save of it restores. */
static void tag_retag_clamps_seed(void)
{
	int i, t;
	DEFINE_IDR(idr);
	DEFINE_IDR(copy);

	CHECK_EQ(idr_tag_init(&idr, 30, 0), 0);
	for (i = 0; i < 5; i++) {
		t = idr_alloc_tagged(&idr, val(1), 0, 1, GFP);
		CHECK(t >= 0 && idr_remove_tagged(&idr, t) == val(1));
	}
	CHECK_EQ(idr_tag_init(&idr, 30, IDR_TAG_RETIRE), 0);
	CHECK_EQ(idr_tag_get_seed(&idr), 2);
	CHECK_EQ(idr_alloc_tagged(&idr, val(2), 0, 0, GFP), -ENOSPC);
	CHECK_EQ(idr_tag_init(&copy, 30, IDR_TAG_RETIRE), 0);
	CHECK_EQ(idr_tag_set_seed(&copy, idr_tag_get_seed(&idr)), 0);
	idr_destroy(&idr);
	idr_destroy(&copy);
}

/* idr_path_print() of a retired slot says so, not "in use". */
static void tag_path_print_retired(void)
{
	FILE *out = tmpfile();
	char text[1024];
	size_t n;
	int i, t;
	DEFINE_IDR(idr);

	if (!CHECK(out != NULL))
		return;
	CHECK_EQ(idr_tag_init(&idr, 29, IDR_TAG_RETIRE), 0);
	for (i = 0; i < 4; i++) {
		t = idr_alloc_tagged(&idr, val(1), 0, 1, GFP);
		CHECK(t >= 0 && idr_remove_tagged(&idr, t) == val(1));
	}
	CHECK_EQ(idr_path_print(&idr, 0, out), 0);
	rewind(out);
	n = fread(text, 1, sizeof(text) - 1, out);
	text[n] = '\0';
	fclose(out);
	CHECK(strstr(text, ": slot 0 is retired\n") != NULL);
	CHECK(strstr(text, "in use") == NULL);
	idr_destroy(&idr);
}

static void tag_other_bits_after_destroy(void)
{
	int i, t = 0;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_tag_init(&idr, 8, 0), 0);
	for (i = 0; i < 5; i++) {
		t = idr_alloc_tagged(&idr, val(1), 0, 0, GFP);
		CHECK(idr_remove_tagged(&idr, t) == val(1));
	}
	idr_destroy(&idr);
	CHECK_EQ(idr_tag_init(&idr, 8, 0), 0);
	CHECK_EQ(idr_alloc_tagged(&idr, val(2), 0, 0, GFP), 5 << 8);
	idr_destroy(&idr);
	CHECK_EQ(idr_tag_init(&idr, 30, IDR_TAG_RETIRE), 0);
	CHECK_EQ(idr_alloc_tagged(&idr, val(3), 0, 0, GFP), 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

void suite_tag(void)
{
	RUN(tag_stale_after_destroy);
	RUN(tag_retired_after_destroy);
	RUN(tag_retire_lagging_slot_after_destroy);
	RUN(tag_other_bits_after_destroy);
	RUN(tag_path_print_retired);
	RUN(tag_unalloc_retired_slot);
	RUN(tag_retag_clamps_seed);
	RUN(tag_init_arguments);
	RUN(tag_errors);
	RUN(tag_id_bits_limit);
	RUN(tag_layout);
	RUN(tag_generation_advances);
	RUN(tag_stale_after_leaf_freed);
	RUN(tag_lagging_slot_after_leaves_freed);
	RUN(tag_wrap_promise_model);
	RUN(tag_generations_wrap);
	RUN(tag_retire);
	RUN(tag_memory);
	RUN(tag_fault_enomem);
	RUN(tag_fault_each_allocation);
	RUN(tag_model_wrap_seed1);
	RUN(tag_model_retire_seed2);
}
