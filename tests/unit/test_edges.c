/* SPDX-License-Identifier: MIT */
/*
 * test_edges.c - the edges of every argument's range: the last valid
 * value and the first invalid one on each side, and every return code,
 * for the public functions, the view helpers included.  Several cases
 * were written against mutants that the other suites let live (see
 * tests/mutate); each says which line it pins.
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "idr_view.h"
#include "model.h"
#include "nodes.h"
#include "seam.h"
#include "tree.h"

static void *val(unsigned long id)
{
	return (void *)(id * 8 + 8);
}

/* {==================== idr_alloc and friends ==================== */

static void edges_alloc_start_end(void)
{
	struct idr idr;

	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, val(0), -1, 0, GFP_KERNEL), -EINVAL);
	CHECK_EQ(idr_alloc(&idr, val(0), INT_MIN, 0, GFP_KERNEL), -EINVAL);
	CHECK(idr_is_empty(&idr));
	/* [5, 6) holds 5 alone; [5, 5) and [6, 5) hold nothing. */
	CHECK_EQ(idr_alloc(&idr, val(5), 5, 5, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, val(5), 6, 5, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, val(5), 5, 6, GFP_KERNEL), 5);
	CHECK_EQ(idr_alloc(&idr, val(5), 5, 6, GFP_KERNEL), -ENOSPC);
	/* end 0 and end -1 both mean up to INT_MAX. */
	CHECK_EQ(idr_alloc(&idr, val(9), INT_MAX, 0, GFP_KERNEL), INT_MAX);
	CHECK_EQ(idr_alloc(&idr, val(9), INT_MAX, -1, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, val(9), INT_MAX - 1, INT_MAX, GFP_KERNEL),
		 INT_MAX - 1);
	CHECK_EQ(idr_alloc(&idr, val(9), INT_MAX - 1, 0, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_count(&idr), 3);
	CHECK(idr_find(&idr, INT_MAX) == val(9));
	CHECK(idr_find(&idr, (unsigned long)INT_MAX + 1) == NULL);
	CHECK(idr_find(&idr, ULONG_MAX) == NULL);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void edges_alloc_base(void)
{
	struct idr idr;

	idr_init_base(&idr, -1); /* a negative base is 0 */
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 1, GFP_KERNEL), 0);
	idr_destroy(&idr);
	idr_init_base(&idr, 3);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 3, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, val(3), 0, 4, GFP_KERNEL), 3);
	CHECK_EQ(idr_alloc(&idr, val(4), 2, 0, GFP_KERNEL), 4);
	CHECK(idr_find(&idr, 2) == NULL);
	CHECK(idr_find(&idr, 3) == val(3));
	CHECK(idr_remove(&idr, 2) == NULL);
	CHECK(idr_replace(&idr, val(1), 2) == ERR_PTR(-ENOENT));
	CHECK(idr_remove(&idr, 3) == val(3));
	CHECK(idr_remove(&idr, 3) == NULL);
	CHECK_EQ(idr_count(&idr), 1);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void edges_alloc_u32(void)
{
	struct idr idr;
	uint32_t id;

	idr_init(&idr);
	id = 7;
	CHECK_EQ(idr_alloc_u32(&idr, val(7), &id, 6, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(id, 7);
	CHECK_EQ(idr_alloc_u32(&idr, val(7), &id, 7, GFP_KERNEL), 0);
	CHECK_EQ(id, 7);
	CHECK_EQ(idr_alloc_u32(&idr, val(7), &id, 7, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(id, 7);
	id = UINT32_MAX;
	CHECK_EQ(idr_alloc_u32(&idr, NULL, &id, (unsigned long)UINT32_MAX - 1,
			       GFP_KERNEL),
		 -ENOSPC);
	CHECK_EQ(idr_alloc_u32(&idr, NULL, &id, UINT32_MAX, GFP_KERNEL), 0);
	CHECK(id == UINT32_MAX);
	CHECK_EQ(idr_alloc_u32(&idr, NULL, &id, ULONG_MAX, GFP_KERNEL),
		 -ENOSPC); /* clamped to UINT32_MAX, which is taken */
	CHECK(id == UINT32_MAX);
	CHECK_EQ(idr_count(&idr), 2);
	CHECK(idr_remove(&idr, UINT32_MAX) == NULL);
	CHECK_EQ(idr_count(&idr), 1);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void edges_alloc_cyclic(void)
{
	struct idr idr;

	idr_init(&idr);
	CHECK_EQ(idr_get_cursor(&idr), 0);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(0), -1, 0, GFP_KERNEL), -EINVAL);
	CHECK_EQ(idr_get_cursor(&idr), 0);
	/* The cursor at the last ID of the range: that ID, then a wrap. */
	idr_set_cursor(&idr, 9);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(9), 2, 10, GFP_KERNEL), 9);
	CHECK_EQ(idr_get_cursor(&idr), 10);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(2), 2, 10, GFP_KERNEL), 2);
	CHECK_EQ(idr_get_cursor(&idr), 3);
	/* A cursor below start starts at start; above INT_MAX, too. */
	idr_set_cursor(&idr, 1);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(3), 3, 10, GFP_KERNEL), 3);
	idr_set_cursor(&idr, (unsigned int)INT_MAX + 1);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(4), 4, 10, GFP_KERNEL), 4);
	/* Full: -ENOSPC and the cursor stays. */
	CHECK_EQ(idr_alloc_cyclic(&idr, NULL, 2, 5, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_get_cursor(&idr), 5);
	idr_set_cursor(&idr, INT_MAX);
	CHECK_EQ(idr_alloc_cyclic(&idr, NULL, 0, 0, GFP_KERNEL), INT_MAX);
	CHECK_EQ(idr_get_cursor(&idr), (unsigned int)INT_MAX + 1);
	CHECK_EQ(idr_count(&idr), 5);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void edges_get_next(void)
{
	struct idr idr;
	unsigned long ul;
	int id;

	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_alloc(&idr, NULL, INT_MAX - 1, 0, GFP_KERNEL),
		 INT_MAX - 1);
	CHECK_EQ(idr_alloc(&idr, val(9), INT_MAX, 0, GFP_KERNEL), INT_MAX);
	id = -1;
	CHECK(idr_get_next(&idr, &id) == NULL);
	CHECK_EQ(id, -1);
	id = INT_MIN;
	CHECK(idr_get_next(&idr, &id) == NULL);
	CHECK_EQ(id, INT_MIN);
	id = 0;
	CHECK(idr_get_next(&idr, &id) == val(0));
	CHECK_EQ(id, 0);
	id = 1; /* a NULL entry is passed over */
	CHECK(idr_get_next(&idr, &id) == val(9));
	CHECK_EQ(id, INT_MAX);
	id = INT_MAX;
	CHECK(idr_get_next(&idr, &id) == val(9));
	ul = INT_MAX;
	CHECK(idr_get_next_ul(&idr, &ul) == val(9));
	CHECK_EQ(ul, INT_MAX);
	ul = (unsigned long)INT_MAX + 1;
	CHECK(idr_get_next_ul(&idr, &ul) == NULL);
	CHECK(ul == (unsigned long)INT_MAX + 1);
	ul = ULONG_MAX;
	CHECK(idr_get_next_ul(&idr, &ul) == NULL);
	CHECK(ul == ULONG_MAX);
	CHECK(idr_replace(&idr, val(1), INT_MAX - 1) == NULL);
	CHECK(idr_replace(&idr, val(2), INT_MAX - 1) == val(1));
	CHECK(idr_replace(&idr, val(2), (unsigned long)INT_MAX + 1) ==
	      ERR_PTR(-ENOENT));
	CHECK(idr_replace(&idr, val(2), ULONG_MAX) == ERR_PTR(-ENOENT));
	CHECK(idr_remove(&idr, ULONG_MAX) == NULL);
	CHECK_EQ(idr_count(&idr), 3);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
	idr_destroy(&idr); /* twice is harmless */
	CHECK(idr_is_empty(&idr));
	CHECK_EQ(idr_count(&idr), 0);
}

static int stop_at(int id, void *p, void *data)
{
	(void)p;
	return id == *(int *)data ? id + 100 : 0;
}

static void edges_for_each(void)
{
	struct idr idr;
	int at = 3;

	idr_init(&idr);
	CHECK_EQ(idr_for_each(&idr, stop_at, &at), 0);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_alloc(&idr, val(3), 3, 0, GFP_KERNEL), 3);
	CHECK_EQ(idr_for_each(&idr, stop_at, &at), 103);
	at = 4;
	CHECK_EQ(idr_for_each(&idr, stop_at, &at), 0);
	idr_destroy(&idr);
}

/* }==================== idr_alloc and friends ==================== */

/* {==================== The 2004 API ==================== */

static void edges_legacy(void)
{
	struct idr idr;
	int id = -5;

	idr_init(&idr);
	CHECK_EQ(idr_cache_count(&idr), 0);
	CHECK_EQ(idr_get_new(&idr, val(0), &id), -EAGAIN);
	CHECK_EQ(id, -5);
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	CHECK(idr_cache_count(&idr) > 0);
	CHECK_EQ(idr_get_new_above(&idr, val(0), -1, &id), -EINVAL);
	CHECK_EQ(idr_get_new_above(&idr, val(0), INT_MIN, &id), -EINVAL);
	CHECK_EQ(id, -5);
	CHECK_EQ(idr_get_new_above(&idr, val(0), 0, &id), 0);
	CHECK_EQ(id, 0);
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	CHECK_EQ(idr_get_new_above(&idr, val(9), INT_MAX, &id), 0);
	CHECK_EQ(id, INT_MAX);
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	CHECK_EQ(idr_get_new_above(&idr, val(9), INT_MAX, &id), -ENOSPC);
	CHECK_EQ(id, INT_MAX);
	CHECK_EQ(idr_get_new(&idr, val(1), &id), 0);
	CHECK_EQ(id, 1);
	CHECK_EQ(idr_count(&idr), 3);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
	CHECK_EQ(idr_cache_count(&idr), 0);
}

/* }==================== The 2004 API ==================== */

/* {==================== Tagged IDs ==================== */

static void edges_tag_init(void)
{
	struct idr idr;

	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 0, 0), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, 31, 0), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, UINT_MAX, 0), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, 8, IDR_TAG_RETIRE << 1), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, 8, IDR_TAG_RETIRE | 4), -EINVAL);
	CHECK_EQ(idr_alloc_tagged(&idr, NULL, 0, 0, GFP_KERNEL), -EINVAL);
	CHECK_EQ(idr_tag_check(&idr, 0), -EINVAL);
	CHECK_EQ(idr_tag_id(&idr, 0), -EINVAL);
	CHECK_EQ(idr_tag_gen(&idr, 0), -EINVAL);
	CHECK(idr_find_tagged(&idr, 0) == NULL);
	CHECK(idr_remove_tagged(&idr, 0) == NULL);
	CHECK_EQ(idr_tag_init(&idr, 1, 0), 0);
	CHECK_EQ(idr_tag_init(&idr, 30, IDR_TAG_RETIRE), 0);
	CHECK_EQ(idr_alloc(&idr, NULL, 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_tag_init(&idr, 30, 0), -EBUSY);
	CHECK(idr_remove(&idr, 0) == NULL);
	CHECK_EQ(idr_tag_init(&idr, 30, 0), 0);
	idr_destroy(&idr);
}

/*
 * A base at or past 2^id_bits leaves no ID to hand out: idr_tag_init()
 * said 0, and every idr_alloc_tagged() then only -ENOSPC.  Refused now,
 * the idr left untagged; the last base that fits still works.
 */
static void edges_tag_init_base(void)
{
	struct idr idr;

	idr_init_base(&idr, 256);
	CHECK_EQ(idr_tag_init(&idr, 8, 0), -EINVAL);
	CHECK_EQ(idr_alloc_tagged(&idr, NULL, 0, 0, GFP_KERNEL), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, 9, IDR_TAG_RETIRE), 0);
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 0, 0, GFP_KERNEL), 256);
	idr_destroy(&idr);
	idr_init_base(&idr, INT_MAX);
	CHECK_EQ(idr_tag_init(&idr, 30, 0), -EINVAL);
	idr_init_base(&idr, 1);
	CHECK_EQ(idr_tag_init(&idr, 1, 0), 0);
	CHECK_EQ(idr_alloc_tagged(&idr, val(1), 0, 0, GFP_KERNEL), 1);
	CHECK_EQ(idr_alloc_tagged(&idr, val(1), 0, 0, GFP_KERNEL), -ENOSPC);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void edges_tag_bits(void)
{
	struct idr idr;
	int t, top = (1 << 8) - 1;

	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 8, 0), 0);
	/* IDs stay below 2^8: start 255 is the last that has room. */
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 256, 0, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), -1, 0, GFP_KERNEL), -EINVAL);
	t = idr_alloc_tagged(&idr, val(top), top, 0, GFP_KERNEL);
	CHECK_EQ(t, top);
	CHECK_EQ(idr_alloc_tagged(&idr, val(top), top, 0, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_tag_id(&idr, t), top);
	CHECK_EQ(idr_tag_gen(&idr, t), 0);
	CHECK_EQ(idr_tag_check(&idr, t), 0);
	CHECK(idr_find_tagged(&idr, t) == val(top));
	CHECK_EQ(idr_tag_id(&idr, INT_MAX), top);
	CHECK_EQ(idr_tag_gen(&idr, INT_MAX), INT_MAX >> 8);
	CHECK_EQ(idr_tag_id(&idr, -1), -EINVAL);
	CHECK_EQ(idr_tag_gen(&idr, -1), -EINVAL);
	CHECK_EQ(idr_tag_check(&idr, -1), -EINVAL);
	CHECK_EQ(idr_tag_check(&idr, INT_MIN), -EINVAL);
	CHECK(idr_find_tagged(&idr, -1) == NULL);
	CHECK(idr_remove_tagged(&idr, -1) == NULL);
	/* Generation 1 is one the slot has not reached: stale. */
	CHECK_EQ(idr_tag_check(&idr, 1 << 8 | top), -ESTALE);
	CHECK(idr_find_tagged(&idr, 1 << 8 | top) == NULL);
	CHECK(idr_remove_tagged(&idr, 1 << 8 | top) == NULL);
	/* Generation current, slot free: never handed out. */
	CHECK_EQ(idr_tag_check(&idr, top - 1), -ENOENT);
	CHECK(idr_remove_tagged(&idr, t) == val(top));
	CHECK_EQ(idr_tag_check(&idr, t), -ESTALE);
	CHECK(idr_remove_tagged(&idr, t) == NULL);
	t = idr_alloc_tagged(&idr, val(top), top, 0, GFP_KERNEL);
	CHECK_EQ(t, 1 << 8 | top);
	CHECK_EQ(idr_tag_gen(&idr, t), 1);
	CHECK_EQ(idr_tag_check(&idr, t), 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* }==================== Tagged IDs ==================== */

/* {==================== The IDA ==================== */

static void edges_ida_range(void)
{
	struct ida ida;
	unsigned int big = (unsigned int)INT_MAX + 1;

	ida_init(&ida);
	CHECK_EQ(ida_alloc_range(&ida, big, UINT_MAX, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_alloc_min(&ida, big, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_alloc_min(&ida, UINT_MAX, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, 6, 5, GFP_KERNEL), -ENOSPC);
	CHECK(ida_is_empty(&ida));
	CHECK_EQ(ida_alloc_range(&ida, 5, 5, GFP_KERNEL), 5);
	CHECK_EQ(ida_alloc_range(&ida, 5, 5, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, INT_MAX, big, GFP_KERNEL), INT_MAX);
	CHECK_EQ(ida_alloc_min(&ida, INT_MAX, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_alloc_max(&ida, 0, GFP_KERNEL), 0);
	CHECK_EQ(ida_alloc_max(&ida, 0, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_alloc_max(&ida, UINT_MAX, GFP_KERNEL), 1);
	CHECK_EQ(ida_alloc(&ida, GFP_KERNEL), 2);
	CHECK_EQ(ida_count(&ida), 5);
	CHECK(ida_exists(&ida, INT_MAX));
	CHECK(!ida_exists(&ida, big));
	CHECK(!ida_exists(&ida, UINT_MAX));
	CHECK(!ida_exists(&ida, INT_MAX - 1));
	CHECK_EQ(ida_free(&ida, big), -ENOENT);
	CHECK_EQ(ida_free(&ida, UINT_MAX), -ENOENT);
	CHECK_EQ(ida_free(&ida, INT_MAX - 1), -ENOENT);
	CHECK_EQ(ida_free(&ida, INT_MAX), 0);
	CHECK_EQ(ida_free(&ida, INT_MAX), -ENOENT);
	CHECK_EQ(ida_count(&ida), 4);
	CHECK_EQ(ida_check(&ida), 0);
	ida_destroy(&ida);
	CHECK(ida_is_empty(&ida));
	CHECK_EQ(ida_find_first(&ida), -ENOENT);
}

static void edges_ida_find(void)
{
	struct ida ida;
	unsigned int chunk = IDA_BITMAP_BITS;

	ida_init(&ida);
	CHECK_EQ(ida_find_first_range(&ida, 0, UINT_MAX), -ENOENT);
	/* The last bit of one bitmap and the first of the next. */
	CHECK_EQ(ida_alloc_min(&ida, chunk - 1, GFP_KERNEL), chunk - 1);
	CHECK_EQ(ida_alloc_min(&ida, chunk, GFP_KERNEL), chunk);
	CHECK_EQ(ida_alloc_min(&ida, INT_MAX, GFP_KERNEL), INT_MAX);
	CHECK_EQ(ida_find_first(&ida), chunk - 1);
	CHECK_EQ(ida_find_first_range(&ida, 0, chunk - 2), -ENOENT);
	CHECK_EQ(ida_find_first_range(&ida, 0, chunk - 1), chunk - 1);
	CHECK_EQ(ida_find_first_range(&ida, chunk - 1, chunk - 1), chunk - 1);
	CHECK_EQ(ida_find_first_range(&ida, chunk, chunk), chunk);
	CHECK_EQ(ida_find_first_range(&ida, chunk + 1, INT_MAX - 1), -ENOENT);
	CHECK_EQ(ida_find_first_range(&ida, chunk + 1, UINT_MAX), INT_MAX);
	CHECK_EQ(ida_find_first_range(&ida, INT_MAX, INT_MAX), INT_MAX);
	CHECK_EQ(ida_find_first_range(&ida, (unsigned int)INT_MAX + 1, UINT_MAX),
		 -EINVAL);
	CHECK_EQ(ida_find_first_range(&ida, UINT_MAX, UINT_MAX), -EINVAL);
	CHECK_EQ(ida_find_first_range(&ida, 5, 4), -ENOENT);
	CHECK_EQ(ida_count(&ida), 3);
	CHECK_EQ(ida_check(&ida), 0);
	ida_destroy(&ida);
}

/* }==================== The IDA ==================== */

/* {==================== Looking inside ==================== */

static int first_leaf(const struct idr_view *view, void *data)
{
	if (view->level)
		return 0;
	*(struct idr_view *)data = *view;
	return 1;
}

static int count_views(const struct idr_view *view, void *data)
{
	(void)view;
	return ++*(int *)data == 2 ? -7 : 0;
}

static void edges_walk(void)
{
	struct idr idr;
	struct idr_view leaf;
	int n = 0;

	idr_init(&idr);
	CHECK_EQ(idr_walk(&idr, count_views, &n), 0);
	CHECK_EQ(n, 0);
	CHECK_EQ(idr_alloc(&idr, NULL, 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_walk(&idr, count_views, &n), 0);
	CHECK_EQ(n, 1);
	CHECK_EQ(idr_alloc(&idr, NULL, IDR_SLOTS, 0, GFP_KERNEL), IDR_SLOTS);
	n = 0; /* top, leaf (stops: -7), not the second leaf */
	CHECK_EQ(idr_walk(&idr, count_views, &n), -7);
	CHECK_EQ(n, 2);
	CHECK_EQ(idr_walk(&idr, first_leaf, &leaf), 1);
	CHECK_EQ(leaf.level, 0);
	CHECK_EQ(leaf.depth, 1);
	CHECK_EQ(leaf.slots, IDR_SLOTS);
	CHECK_EQ(leaf.first, 0);
	CHECK_EQ(leaf.last, IDR_SLOTS - 1);
	idr_destroy(&idr);
}

/* idr_view_entry() and idr_view_gen() at their slot limits. */
static void edges_view_entry_gen(void)
{
	struct idr idr;
	struct idr_view leaf, top;
	unsigned int last = IDR_SLOTS - 1;
	int t;

	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 20, 0), 0);
	t = idr_alloc_tagged(&idr, val(0), 0, 0, GFP_KERNEL);
	CHECK_EQ(t, 0);
	t = idr_alloc_tagged(&idr, val(last), last, 0, GFP_KERNEL);
	CHECK(idr_remove_tagged(&idr, t) == val(last));
	t = idr_alloc_tagged(&idr, val(last), last, 0, GFP_KERNEL);
	CHECK_EQ(idr_tag_gen(&idr, t), 1);
	CHECK_EQ(idr_walk(&idr, first_leaf, &leaf), 1);
	CHECK(idr_view_entry(&leaf, 0) == val(0));
	CHECK(idr_view_entry(&leaf, 1) == NULL);
	CHECK(idr_view_entry(&leaf, last) == val(last));
	CHECK(idr_view_entry(&leaf, IDR_SLOTS) == NULL);
	CHECK(idr_view_entry(&leaf, UINT_MAX) == NULL);
	CHECK_EQ(idr_view_gen(&idr, &leaf, 0), 0);
	CHECK_EQ(idr_view_gen(&idr, &leaf, last), 1);
	CHECK_EQ(idr_view_gen(&idr, &leaf, IDR_SLOTS), 0);
	CHECK_EQ(idr_view_gen(&idr, &leaf, UINT_MAX), 0);
	/* An interior node has no entries and no generations. */
	t = idr_alloc_tagged(&idr, val(9), IDR_SLOTS, 0, GFP_KERNEL);
	CHECK_EQ(idr_tag_id(&idr, t), IDR_SLOTS);
	CHECK_EQ(idr_walk(&idr, first_leaf, &leaf), 1);
	CHECK_EQ(leaf.depth, 1);
	top = leaf;
	top.level = 1;
	CHECK(idr_view_entry(&top, 0) == NULL);
	CHECK_EQ(idr_view_gen(&idr, &top, last), 0);
	CHECK(idr_view_entry(&leaf, last) == val(last));
	CHECK_EQ(idr_view_gen(&idr, &leaf, last), 1);
	idr_destroy(&idr);
	/* An untagged idr: generations are 0. */
	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, val(last), last, 0, GFP_KERNEL), last);
	CHECK_EQ(idr_walk(&idr, first_leaf, &leaf), 1);
	CHECK_EQ(idr_view_gen(&idr, &leaf, last), 0);
	CHECK(idr_view_entry(&leaf, last) == val(last));
	idr_destroy(&idr);
}

/* idr_view_bits() and idr_view_bit() at their slot and bit limits. */
static void edges_view_bits(void)
{
	struct ida ida;
	struct idr_view leaf, top;
	unsigned int chunk = IDA_BITMAP_BITS, last = IDR_SLOTS - 1;

	ida_init(&ida);
	CHECK_EQ(ida_alloc_min(&ida, 0, GFP_KERNEL), 0);
	CHECK_EQ(ida_alloc_min(&ida, chunk - 1, GFP_KERNEL), chunk - 1);
	CHECK_EQ(ida_alloc_min(&ida, last * chunk + chunk - 1, GFP_KERNEL),
		 last * chunk + chunk - 1);
	CHECK_EQ(idr_walk(ida_tree(&ida), first_leaf, &leaf), 1);
	CHECK_EQ(idr_view_bits(&leaf, 0), 2);
	CHECK_EQ(idr_view_bits(&leaf, 1), 0);
	CHECK_EQ(idr_view_bits(&leaf, last), 1);
	CHECK_EQ(idr_view_bits(&leaf, IDR_SLOTS), 0);
	CHECK_EQ(idr_view_bits(&leaf, UINT_MAX), 0);
	CHECK(idr_view_bit(&leaf, 0, 0));
	CHECK(!idr_view_bit(&leaf, 0, 1));
	CHECK(idr_view_bit(&leaf, 0, chunk - 1));
	CHECK(!idr_view_bit(&leaf, 0, chunk));
	CHECK(!idr_view_bit(&leaf, 0, UINT_MAX));
	CHECK(idr_view_bit(&leaf, last, chunk - 1));
	CHECK(!idr_view_bit(&leaf, last, chunk - 2));
	CHECK(!idr_view_bit(&leaf, IDR_SLOTS, 0));
	CHECK(!idr_view_bit(&leaf, 1, 0));
	CHECK(idr_view_entry(&leaf, 0) != NULL); /* the bitmap */
	CHECK(idr_view_entry(&leaf, 1) == NULL);
	top = leaf;
	top.level = 1;
	CHECK_EQ(idr_view_bits(&top, 0), 0);
	CHECK(!idr_view_bit(&top, 0, 0));
	CHECK_EQ(ida_check(&ida), 0);
	ida_destroy(&ida);
}

/*
 * idr_path() fills digits [0, digits) and steps [0, steps) and leaves the
 * rest as it zeroed them (view.c:35, i < n; view.c:85, i < steps).
 */
static void check_steps_after(const struct idr_path *p)
{
	unsigned int i;

	for (i = p->digits; i < IDR_LEVELS_MAX; i++)
		if (!CHECK_EQ(p->digit[i], 0))
			fprintf(stderr, "  digit %u of %u\n", i, p->digits);

	for (i = p->steps; i < IDR_LEVELS_MAX; i++) {
		const struct idr_path_step *s = &p->step[i];

		if (!CHECK(s->level == 0 && s->shift == 0 && s->first == 0 &&
			   s->last == 0 && s->slot == 0 && !s->present &&
			   !s->full))
			fprintf(stderr, "  step %u of %u is not zero\n", i,
				p->steps);
	}
}

static void edges_path(void)
{
	struct idr idr;
	struct idr_path p;
	unsigned long s = IDR_SLOTS;

	idr_init_base(&idr, 1);
	CHECK_EQ(idr_path(&idr, 0, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_BELOW_BASE);
	CHECK_EQ(idr_path(&idr, 1, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_EMPTY);
	CHECK_EQ(p.steps, 0);
	/* Two leaves under one top: index 0 and 2 * slots + 1. */
	CHECK_EQ(idr_alloc(&idr, val(1), 1, 0, GFP_KERNEL), 1);
	CHECK_EQ(idr_alloc(&idr, val(2), 2 * s + 2, 0, GFP_KERNEL), 2 * s + 2);
	CHECK_EQ(idr_path(&idr, 1 + s + 5 % s, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_NO_CHILD);
	CHECK_EQ(p.height, 2);
	CHECK_EQ(p.steps, 1);
	CHECK_EQ(p.step[0].slot, 1);
	CHECK(!p.step[0].present);
	check_steps_after(&p);
	/* Just beyond the top: the first index of a third level. */
	CHECK_EQ(idr_path(&idr, 1 + s * s + s + 3, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_ABOVE_TOP);
	CHECK_EQ(p.steps, 0);
	CHECK_EQ(p.digits, 3);
	check_steps_after(&p);
	/* Index s * s, the first the top does not cover. */
	CHECK_EQ(idr_path(&idr, 1 + s * s, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_ABOVE_TOP);
	CHECK_EQ(p.steps, 0);
	CHECK_EQ(p.digits, 3);
	check_steps_after(&p);
	CHECK_EQ(idr_path(&idr, s * s, &p), 0); /* index s*s - 1: last */
	CHECK_EQ(p.end, IDR_PATH_NO_CHILD);
	CHECK_EQ(p.digits, 2);
	CHECK_EQ(p.step[0].slot, s - 1);
	check_steps_after(&p);
	CHECK_EQ(idr_path(&idr, 2 * s + 2, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_FOUND);
	CHECK(p.entry == val(2));
	CHECK_EQ(p.steps, 2);
	CHECK_EQ(p.step[1].slot, 1);
	CHECK(p.step[1].present);
	CHECK(p.step[1].full);
	check_steps_after(&p);
	CHECK_EQ(idr_path(&idr, 2 * s + 3, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_FREE_SLOT);
	check_steps_after(&p);
	CHECK_EQ(idr_path(&idr, ULONG_MAX, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_ABOVE_TOP);
	check_steps_after(&p);
	idr_destroy(&idr);
}

/* An IDA's path splits the ID at a bitmap's edge; a tagged one's, at
 * id_bits; a slot whose generations are used up is retired. */
static void edges_path_ida_tag(void)
{
	struct ida ida;
	struct idr idr;
	struct idr_path p;
	struct idr_stats st;
	unsigned long chunk = IDA_BITMAP_BITS;
	int t;

	ida_init(&ida);
	CHECK_EQ(ida_alloc_min(&ida, chunk - 1, GFP_KERNEL), chunk - 1);
	CHECK_EQ(idr_path(ida_tree(&ida), chunk - 1, &p), 0);
	CHECK(p.ida);
	CHECK_EQ(p.index, 0);
	CHECK_EQ(p.bit, chunk - 1);
	CHECK_EQ(p.end, IDR_PATH_FOUND);
	CHECK_EQ(idr_path(ida_tree(&ida), chunk - 2, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_FREE_SLOT);
	CHECK_EQ(idr_path(ida_tree(&ida), chunk, &p), 0);
	CHECK_EQ(p.index, 1);
	CHECK_EQ(p.bit, 0);
	CHECK_EQ(p.end, IDR_PATH_FREE_SLOT);
	check_steps_after(&p);
	ida_destroy(&ida);

	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 30, IDR_TAG_RETIRE), 0); /* 2 gens */
	t = idr_alloc_tagged(&idr, val(5), 5, 6, GFP_KERNEL);
	CHECK_EQ(t, 5);
	CHECK_EQ(idr_path(&idr, (1ul << 30) | 5, &p), 0);
	CHECK_EQ(p.id_bits, 30);
	CHECK_EQ(p.tag, 1);
	CHECK_EQ(p.index, 5);
	CHECK_EQ(p.gen, 0);
	CHECK_EQ(p.end, IDR_PATH_FOUND);
	CHECK(idr_remove_tagged(&idr, t) == val(5));
	t = idr_alloc_tagged(&idr, val(5), 5, 6, GFP_KERNEL);
	CHECK_EQ(t, 1 << 30 | 5);
	CHECK_EQ(idr_path(&idr, 5, &p), 0);
	CHECK_EQ(p.gen, 1);
	CHECK(idr_remove_tagged(&idr, t) == val(5));
	/* Both generations used: 5 is retired, never handed out again. */
	CHECK_EQ(idr_alloc_tagged(&idr, val(5), 5, 6, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_path(&idr, 5, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_RETIRED);
	CHECK_EQ(idr_stats(&idr, &st), 0);
	CHECK_EQ(st.retired, 1);
	CHECK_EQ(st.ids, 0);
	CHECK_EQ(st.lowest, -1);
	CHECK_EQ(idr_tag_check(&idr, t), -ESTALE);
	/* The leaf stays (a tagged idr keeps its leaves): slot 4, never
	 * used, is at its first generation. */
	t = idr_alloc_tagged(&idr, val(4), 4, 6, GFP_KERNEL);
	CHECK_EQ(idr_tag_id(&idr, t), 4);
	CHECK_EQ(idr_tag_gen(&idr, t), 0);
	t = idr_alloc_tagged(&idr, val(6), 5, 0, GFP_KERNEL);
	CHECK_EQ(idr_tag_id(&idr, t), 6);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void edges_stats(void)
{
	struct idr idr;
	struct ida ida;
	struct idr_stats st;
	unsigned int chunk = IDA_BITMAP_BITS;

	idr_init(&idr);
	CHECK_EQ(idr_stats(&idr, &st), 0);
	CHECK_EQ(st.ids, 0);
	CHECK_EQ(st.lowest, -1);
	CHECK_EQ(st.highest, -1);
	CHECK(st.bytes_per_id == 0);
	CHECK_EQ(idr_alloc(&idr, NULL, IDR_SLOTS - 1, 0, GFP_KERNEL),
		 IDR_SLOTS - 1);
	CHECK_EQ(idr_alloc(&idr, NULL, IDR_SLOTS, 0, GFP_KERNEL), IDR_SLOTS);
	CHECK_EQ(idr_stats(&idr, &st), 0);
	CHECK_EQ(st.ids, 2);
	CHECK_EQ(st.lowest, IDR_SLOTS - 1);
	CHECK_EQ(st.highest, IDR_SLOTS);
	CHECK_EQ(st.height, 2);
	CHECK_EQ(st.nodes, 3);
	CHECK_EQ(st.level_nodes[0], 2);
	CHECK_EQ(st.level_nodes[1], 1);
	CHECK(st.bytes_per_id == (double)st.bytes / 2);
	idr_destroy(&idr);
	/* ID 0 is the lowest, however many follow (view.c:182). */
	CHECK_EQ(idr_alloc(&idr, NULL, 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_alloc(&idr, NULL, 3, 0, GFP_KERNEL), 3);
	CHECK_EQ(idr_stats(&idr, &st), 0);
	CHECK_EQ(st.lowest, 0);
	CHECK_EQ(st.highest, 3);
	idr_destroy(&idr);
	/* The same in an IDA's bitmap (view.c:152). */
	ida_init(&ida);
	CHECK_EQ(ida_alloc_min(&ida, 0, GFP_KERNEL), 0);
	CHECK_EQ(ida_alloc_min(&ida, 5, GFP_KERNEL), 5);
	CHECK_EQ(idr_stats(ida_tree(&ida), &st), 0);
	CHECK_EQ(st.lowest, 0);
	CHECK_EQ(st.highest, 5);
	ida_destroy(&ida);
	/* An IDA: the ends are its bitmaps' first and last bits. */
	ida_init(&ida);
	CHECK_EQ(ida_alloc_min(&ida, chunk - 1, GFP_KERNEL), chunk - 1);
	CHECK_EQ(ida_alloc_min(&ida, chunk, GFP_KERNEL), chunk);
	CHECK_EQ(idr_stats(ida_tree(&ida), &st), 0);
	CHECK_EQ(st.ids, 2);
	CHECK_EQ(st.lowest, chunk - 1);
	CHECK_EQ(st.highest, chunk);
	CHECK_EQ(st.aux_nodes, 2);
	ida_destroy(&ida);
}

static int long_entry(FILE *out, unsigned long id, void *entry, void *data)
{
	(void)id;
	(void)entry;
	(void)data;
	return fprintf(out, "%0200d", 7);
}

/* The longest line of @text, and how many lines are that long. */
static size_t longest_line(const char *text, unsigned int *count)
{
	size_t most = 0, len;

	*count = 0;
	for (; *text; text += len + (text[len] == '\n')) {
		len = strcspn(text, "\n");
		if (len > most)
			*count = 0, most = len;
		if (len == most)
			++*count;
	}
	return most;
}

/*
 * An entry longer than a line is cut to fill it exactly: 80 columns at
 * any indent (dump.c:126, WIDTH - indent + 1).
 */
static void edges_dump_width(void)
{
	struct idr_dump_opts opts = { .print_entry = long_entry };
	struct idr idr;
	char *text = NULL;
	size_t len = 0;
	unsigned int count;
	FILE *out;

	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	out = open_memstream(&text, &len);
	CHECK_EQ(idr_dump(&idr, out, &opts), 0); /* a leaf at depth 0 */
	CHECK_EQ(idr_alloc(&idr, val(0), IDR_SLOTS, 0, GFP_KERNEL), IDR_SLOTS);
	CHECK_EQ(idr_dump(&idr, out, &opts), 0); /* two at depth 1 */
	fclose(out);
	CHECK_EQ(longest_line(text, &count), 80);
	CHECK_EQ(count, 3);
	free(text);
	idr_destroy(&idr);
}

static int sized_entry(FILE *out, unsigned long id, void *entry, void *data)
{
	const int *len = data;

	(void)entry;
	return fprintf(out, "%0*d", len[id], 0);
}

/* Dump a leaf of IDs 0 and 1 whose entries print @len[id] zeros; the
 * text from the entries on (they start at column 3, "0:"). */
static char *dump_entries(const int *len, unsigned int max_entries)
{
	struct idr_dump_opts opts = { .max_entries = max_entries,
				      .print_entry = sized_entry,
				      .data = (void *)len };
	struct idr idr;
	char *text = NULL, *from;
	size_t size = 0;
	FILE *out;

	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_alloc(&idr, val(1), 0, 0, GFP_KERNEL), 1);
	out = open_memstream(&text, &size);
	CHECK_EQ(idr_dump(&idr, out, &opts), 0);
	fclose(out);
	idr_destroy(&idr);
	from = strstr(text, "\n  0:");
	if (!CHECK(from != NULL))
		return text;
	memmove(text, from + 1, strlen(from));
	return text;
}

/* Whether @text begins @head, @a zeros, @mid, @b zeros, @tail. */
static bool entries_are(const char *text, const char *head, int a,
			const char *mid, int b, const char *tail)
{
	char want[256], zeros[128];
	int n;

	memset(zeros, '0', sizeof(zeros));
	n = snprintf(want, sizeof(want), "%s%.*s%s%.*s%s", head, a, zeros, mid,
		     b, zeros, tail);

	if (strncmp(text, want, (size_t)n) == 0)
		return true;
	fprintf(stderr, "  got  \"%.*s\"\n  want \"%s\"\n", n, text, want);
	return false;
}

/*
 * Two entries that fill a line exactly share it; one column more and the
 * second goes to the next line (dump.c:126, col + 1 + len > WIDTH).
 */
static void edges_dump_wrap(void)
{
	int fit[2] = { 36, 37 }, over[2] = { 36, 38 };
	char *text;

	/* 2 + "0:" 36 + " " + "1:" 37 = 80 columns. */
	text = dump_entries(fit, 0);
	CHECK(entries_are(text, "  0:", 36, " 1:", 37, "\n"));
	free(text);
	text = dump_entries(over, 0);
	CHECK(entries_are(text, "  0:", 36, "\n  1:", 38, "\n"));
	free(text);
}

/*
 * " (+N more)" stays on the line while the line, with room to spare,
 * reaches column 68 at most (dump.c:135, col + 12 > WIDTH).
 */
static void edges_dump_more(void)
{
	int at68[2] = { 64, 1 }, at69[2] = { 65, 1 };
	char *text;

	text = dump_entries(at68, 1);
	CHECK(entries_are(text, "  0:", 64, " (+1 more)\n", 0, ""));
	free(text);
	text = dump_entries(at69, 1);
	CHECK(entries_are(text, "  0:", 65, "\n  (+1 more)\n", 0, ""));
	free(text);
}

/*
 * With base 1 the leaf of INT_MAX also holds INT_MAX + 1 (an
 * idr_alloc_u32() ID): idr_for_each_entry() stops at INT_MAX, as
 * idr_get_next() does (idr.c:251, the room left up to INT_MAX).
 */
static void edges_for_each_entry_int_max(void)
{
	struct idr idr;
	uint32_t id;
	void *entry;
	int got, n = 0;
	long want[] = { INT_MAX - 1, INT_MAX };

	idr_init_base(&idr, 1);
	for (id = INT_MAX - 1; id <= (uint32_t)INT_MAX + 1; id++) {
		uint32_t at = id;

		CHECK_EQ(idr_alloc_u32(&idr, val(id), &at, at, GFP_KERNEL), 0);
	}
	idr_for_each_entry(&idr, entry, got) {
		if (!CHECK(n < 2))
			break;
		CHECK_EQ(got, want[n]);
		CHECK(entry == val((unsigned long)want[n]));
		n++;
	}
	CHECK_EQ(n, 2);
	got = INT_MAX;
	CHECK(idr_get_next(&idr, &got) == val(INT_MAX));
	CHECK_EQ(idr_count(&idr), 3);
	idr_destroy(&idr);
}

static char *dump_with(const struct idr *idr, unsigned int max_entries,
		       unsigned int max_nodes)
{
	struct idr_dump_opts opts = { .max_entries = max_entries,
				      .max_nodes = max_nodes };
	char *text = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&text, &size);

	CHECK_EQ(idr_dump(idr, out, &opts), 0);
	fclose(out);
	return text;
}

/* Whether @idr's dump with these limits holds @what. */
static bool dump_has(const struct idr *idr, unsigned int max_entries,
		     unsigned int max_nodes, const char *what)
{
	char *text = dump_with(idr, max_entries, max_nodes);
	bool has = strstr(text, what) != NULL;

	free(text);
	return has;
}

/* max_entries and max_nodes exactly at what the tree has, and one less. */
static void edges_dump_limits(void)
{
	struct idr idr;

	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_alloc(&idr, val(1), 0, 0, GFP_KERNEL), 1);
	CHECK_EQ(idr_alloc(&idr, val(2), 0, 0, GFP_KERNEL), 2);
	CHECK(dump_has(&idr, 3, 0, "  0:* 1:* 2:*\n"));
	CHECK(!dump_has(&idr, 3, 0, "more"));
	CHECK(dump_has(&idr, UINT_MAX, 0, "  0:* 1:* 2:*\n"));
	CHECK(dump_has(&idr, 2, 0, "  0:* 1:* (+1 more)\n"));
	CHECK(dump_has(&idr, 1, 0, "  0:* (+2 more)\n"));
	CHECK(dump_has(&idr, 0, 0, "  0:* 1:* 2:*\n")); /* 0: 8 */
	/* Three nodes: a top and two leaves. */
	CHECK_EQ(idr_alloc(&idr, val(9), IDR_SLOTS, 0, GFP_KERNEL), IDR_SLOTS);
	CHECK(!dump_has(&idr, 0, 3, "max_nodes"));
	CHECK(!dump_has(&idr, 0, UINT_MAX, "max_nodes"));
	CHECK(dump_has(&idr, 0, 2, "(stopped after 2 nodes: max_nodes)\n"));
	CHECK(dump_has(&idr, 0, 1, "(stopped after 1 node: max_nodes)\n"));
	idr_destroy(&idr);
}

/* IDs 1 .. IDR_SLOTS - 1 after 0, in its whole leaf: no malloc. */
static void fill_rest(struct idr *idr)
{
	unsigned int id;

	for (id = 1; id < IDR_SLOTS; id++)
		CHECK_EQ(idr_alloc(idr, val(id), 0, 0, GFP_KERNEL), id);
}

/* The first allocation fails, or the second: -ENOMEM, nothing changed. */
static void edges_fault(void)
{
	struct seam_mem_stats was, now;
	struct idr idr;
	struct ida ida;

	idr_init(&idr);
	ida_init(&ida);
	seam_mem_stats(&was);
	seam_fault_inject(0, 1);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), -ENOMEM);
	CHECK(idr_is_empty(&idr));
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	seam_mem_stats(&now);
	CHECK_EQ(now.failed, was.failed + 1);
	CHECK_EQ(now.allocs, was.allocs + 1);
	CHECK_EQ(now.thread_allocs, was.thread_allocs + 1);
	CHECK_EQ(now.bytes, was.bytes + IDR__NODE_SIZE);
	/* The leaf full, the next ID takes two whole nodes (a new top and
	 * a leaf): the second fails. */
	fill_rest(&idr);
	seam_fault_inject(1, 1);
	CHECK_EQ(idr_alloc(&idr, val(1), 0, 0, GFP_KERNEL), -ENOMEM);
	CHECK_EQ(idr_count(&idr), IDR_SLOTS);
	CHECK(idr_find(&idr, IDR_SLOTS) == NULL);
	CHECK_SOUND(&idr);
	seam_fault_inject(0, 0);
	CHECK_EQ(idr_alloc(&idr, val(1), 0, 0, GFP_KERNEL), IDR_SLOTS);
	seam_fault_inject(0, 1);
	CHECK_EQ(ida_alloc(&ida, GFP_KERNEL), -ENOMEM);
	CHECK(ida_is_empty(&ida));
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0); /* the fault is used */
	seam_fault_inject(0, 1);
	CHECK_EQ(ida_alloc(&ida, GFP_KERNEL), -ENOMEM);
	seam_fault_inject(0, 0);
	CHECK_EQ(ida_alloc(&ida, GFP_KERNEL), 0);
	CHECK_EQ(ida_check(&ida), 0);
	idr_destroy(&idr);
	ida_destroy(&ida);
}

/* After idr_preload() an allocation needs no malloc; after _end, none
 * is kept. */
static void edges_preload(void)
{
	struct seam_mem_stats was, now;
	struct idr_stats st;
	struct idr idr;

	idr_init(&idr);
	CHECK_EQ(idr_stats(&idr, &st), 0);
	CHECK_EQ(st.preloaded, 0);
	idr_preload(GFP_KERNEL);
	CHECK_EQ(idr_stats(&idr, &st), 0);
	CHECK(st.preloaded > 0);
	seam_mem_stats(&was);
	seam_fault_inject(0, ~0ul); /* malloc would fail */
	CHECK_EQ(idr_alloc(&idr, val(0), INT_MAX, 0, GFP_KERNEL), INT_MAX);
	seam_fault_inject(0, 0);
	seam_mem_stats(&now);
	CHECK_EQ(now.thread_allocs, was.thread_allocs);
	idr_preload_end();
	CHECK_EQ(idr_stats(&idr, &st), 0);
	CHECK_EQ(st.preloaded, 0);
	idr_preload_end(); /* twice is harmless */
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* Every printer: 0, and -EIO when the stream refuses writes. */
static void edges_print_eio(void)
{
	struct idr idr;
	FILE *bad = fopen("/dev/null", "r"), *good = fopen("/dev/null", "w");

	idr_init(&idr);
	if (!CHECK(bad && good))
		return;
	CHECK_EQ(idr_dump(&idr, bad, NULL), -EIO);
	clearerr(bad);
	CHECK_EQ(idr_path_print(&idr, 0, bad), -EIO);
	clearerr(bad);
	CHECK_EQ(idr_stats_print(&idr, bad), -EIO);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_dump(&idr, good, NULL), 0);
	CHECK_EQ(idr_path_print(&idr, 0, good), 0);
	CHECK_EQ(idr_path_print(&idr, ULONG_MAX, good), 0);
	CHECK_EQ(idr_stats_print(&idr, good), 0);
	fclose(bad);
	fclose(good);
	idr_destroy(&idr);
}

static void edges_trace_name(void)
{
	CHECK(strcmp(idr_trace_name(IDR_TRACE_VISIT), "visit") == 0);
	CHECK(strcmp(idr_trace_name(IDR_TRACE_MALLOC), "malloc") == 0);
	CHECK(strcmp(idr_trace_name(IDR_TRACE_NO_ROOM), "no-room") == 0);
	CHECK(strcmp(idr_trace_name(IDR_TRACE_OP), "op") == 0);
	CHECK(strcmp(idr_trace_name(IDR_TRACE_DONE), "done") == 0);
	CHECK(strcmp(idr_trace_name(IDR_TRACE_DONE + 1), "unknown") == 0);
	CHECK(strcmp(idr_trace_name((enum idr_trace_event) - 1), "unknown") ==
	      0);
}

/* }==================== Looking inside ==================== */

/* {==================== Packing ==================== */

/* A packed leaf's room for @n: what fills malloc's chunk (16-byte
 * steps with its 8-byte header, around the leaf's 8-byte bitmap and its
 * 8-byte slots): @n rounded up to even, at most a whole leaf's. */
static unsigned int fitted_leaf(unsigned int n)
{
	unsigned int cap = (n + 1) & ~1u;

	return cap < IDR_SLOTS ? cap : IDR_SLOTS;
}

/*
 * What a leaf's packed room should be after a removal leaves @n entries
 * (pack.c's idr__pack_leaf: PACK_ROOM 2, packed from 3 to 3/4 of the
 * slots; a loose leaf keeps 2 * PACK_ROOM + n / 8 room, a tight one
 * n / 8 or PACK_SLACK, 3, if more; each fitted to malloc's chunk).
 */
static unsigned int model_cap(unsigned int cap, bool *loose, unsigned int n)
{
	unsigned int room;

	if (!cap) {
		if (n < 3 || n > IDR_SLOTS * 3 / 4)
			return 0;
		*loose = true;
		return fitted_leaf(n + 2);
	}
	room = *loose ? 4 + n / 8 : n / 8 > 3 ? n / 8 : 3;
	if (cap - n <= room)
		return cap;
	*loose = false;
	return fitted_leaf(n);
}

/* A full leaf emptied from the top: its room at every count
 * (tree.c:910, cap - n <= room kept). */
static void edges_pack_room(void)
{
	struct idr idr;
	struct idr_view leaf;
	unsigned int n, cap = 0, id;
	bool loose = false;

	idr_init(&idr);
	for (id = 0; id < IDR_SLOTS; id++)
		CHECK_EQ(idr_alloc(&idr, val(id), 0, 0, GFP_KERNEL), id);
	for (n = IDR_SLOTS - 1; n > 0; n--) {
		CHECK(idr_remove(&idr, n) == val(n));
		cap = model_cap(cap, &loose, n);
		CHECK_EQ(idr_walk(&idr, first_leaf, &leaf), 1);
		if (!CHECK_EQ(leaf.packed, cap))
			fprintf(stderr, "  with %u entries\n", n);
		CHECK_SOUND(&idr);
	}
	idr_destroy(&idr);
}

/* The room of the leaf of @n IDs 0 .. n - 1 once the last is removed. */
static unsigned int room_after_one_removal(unsigned int n)
{
	struct idr idr;
	struct idr_view leaf = { 0 };
	unsigned int id;

	idr_init(&idr);
	for (id = 0; id < n; id++)
		CHECK_EQ(idr_alloc(&idr, val(id), 0, 0, GFP_KERNEL), id);
	CHECK(idr_remove(&idr, n - 1) == val(n - 1));
	CHECK_EQ(idr_walk(&idr, first_leaf, &leaf), 1);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
	return leaf.packed;
}

/* A whole leaf is packed from 3 entries (PACK_MIN) up to 3/4 of its
 * slots (PACK_MAX), with room for 2 more, and what fills malloc's chunk
 * (tree.c:915). */
static void edges_pack_bounds(void)
{
	unsigned int max = IDR_SLOTS * 3 / 4;

	CHECK_EQ(room_after_one_removal(3), 0); /* 2 left */
	CHECK_EQ(room_after_one_removal(4), 6); /* 3 left, 5 fitted */
	CHECK_EQ(room_after_one_removal(max + 1), fitted_leaf(max + 2));
	CHECK_EQ(room_after_one_removal(max + 2), 0);
}

/* }==================== Packing ==================== */

/* {==================== idr_check ==================== */

/*
 * A leaf below the top that is unsound while its full bit agrees with
 * its parent, and the count made to add up: idr_check still sees it
 * (tree.c:1179, n < 0 || ...).
 */
static void edges_check_deep_leaf(void)
{
	struct idr idr;
	void **slot;

	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	/* Preloaded, so whole nodes: a lone ID's leaf is born packed. */
	idr_preload(GFP_KERNEL);
	CHECK_EQ(idr_alloc(&idr, val(1), IDR_SLOTS, 0, GFP_NOWAIT), IDR_SLOTS);
	idr_preload_end();
	CHECK_SOUND(&idr);
	/* No removal yet, so no leaf is packed: slots lie side by side. */
	slot = idr__lookup(&idr, IDR_SLOTS);
	if (!CHECK(slot != NULL))
		return;
	/* The slot after it, free, now holds a pointer. */
	slot[1] = val(2);
	CHECK_EQ(idr_check(&idr), -EUCLEAN);
	/* That leaf counts -1: with a count of 0 the sums agree. */
	idr.idr_count = 0;
	CHECK_EQ(idr_check(&idr), -EUCLEAN);
	idr.idr_count = 2;
	slot[1] = NULL;
	CHECK_SOUND(&idr);
	/* The counts alone. */
	idr.idr_count = 1;
	CHECK_EQ(idr_check(&idr), -EUCLEAN);
	idr.idr_count = 3;
	CHECK_EQ(idr_check(&idr), -EUCLEAN);
	idr.idr_count = 2;
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
	CHECK_SOUND(&idr);
}

/*
 * idr_check's limits on a packed leaf's room: from its entries to a whole
 * node's slots (tree.c:1138, cap <= IDR_SLOTS: with 64 slots no packed
 * leaf has that much room, so only a leaf made to claim it shows it).
 * The room is in the pack word, in the first slot after the entries:
 * cap << 16 | shift << 8 | grown << 3 | interior << 2 | loose << 1 | 1
 * (a leaf's shift is 0); that slot is room, so the room is more than
 * the entries.
 */
static void edges_check_pack_room(void)
{
	struct idr idr;
	struct idr_view leaf;
	unsigned int id, n = IDR_SLOTS * 3 / 4;
	uintptr_t *word, was;

	idr_init(&idr);
	for (id = 0; id < IDR_SLOTS; id++)
		CHECK_EQ(idr_alloc(&idr, val(id), 0, 0, GFP_KERNEL), id);
	for (id = IDR_SLOTS - 1; id >= n; id--)
		CHECK(idr_remove(&idr, id) == val(id));
	CHECK_EQ(idr_walk(&idr, first_leaf, &leaf), 1);
	word = (uintptr_t *)(uintptr_t)leaf.node + 1 + n;
	was = *word;
	if (!CHECK(leaf.packed > 0 &&
		   was == ((uintptr_t)leaf.packed << 16 | 3)))
		goto out; /* not the layout this case knows */
	*word = (uintptr_t)IDR_SLOTS << 16 | 3;
	CHECK_EQ(idr_check(&idr), 0);
	*word = (uintptr_t)(IDR_SLOTS + 1) << 16 | 3;
	CHECK_EQ(idr_check(&idr), -EUCLEAN);
	*word = (uintptr_t)(n + 1) << 16 | 3;
	CHECK_EQ(idr_check(&idr), 0);
	*word = (uintptr_t)n << 16 | 3;
	CHECK_EQ(idr_check(&idr), -EUCLEAN);
	*word = was;
	CHECK_SOUND(&idr);
out:
	idr_destroy(&idr);
}

/* ida_check: a bit set behind its bitmap's summaries is -EUCLEAN. */
static void edges_ida_check(void)
{
	struct ida ida;
	struct idr_view leaf;
	uint64_t *bits;

	ida_init(&ida);
	CHECK_EQ(ida_check(&ida), 0);
	CHECK_EQ(ida_alloc(&ida, GFP_KERNEL), 0);
	CHECK_EQ(ida_check(&ida), 0);
	CHECK_EQ(idr_walk(ida_tree(&ida), first_leaf, &leaf), 1);
	bits = idr__node_bits(idr_view_entry(&leaf, 0));
	bits[1] |= 1; /* word 1 is not in the "used" summary */
	CHECK_EQ(ida_check(&ida), -EUCLEAN);
	bits[1] &= ~(uint64_t)1;
	CHECK_EQ(ida_check(&ida), 0);
	ida_destroy(&ida);
}

/* }==================== idr_check ==================== */

/* idr_replace() on a tagged idr: a live ID is replaced, by its bare ID. */
static void edges_replace_tagged(void)
{
	int a = 1, b = 2, tid;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_tag_init(&idr, 4, 0), 0);
	tid = idr_alloc_tagged(&idr, &a, 3, 0, GFP_KERNEL);
	CHECK_EQ(idr_tag_id(&idr, tid), 3);
	CHECK(idr_replace(&idr, &b, 3) == &a);
	CHECK(idr_find_tagged(&idr, tid) == &b);
	CHECK(idr_replace(&idr, &a, 4) == ERR_PTR(-ENOENT));
	idr_destroy(&idr);
}

/* {==================== Limits not pinned above ==================== */

/* idr_init_base() at the ends of @base: INT_MIN is 0; INT_MAX leaves one
 * ID, and a range wholly below it has none. */
static void edges_init_base_limits(void)
{
	struct idr idr;
	struct idr_snap was;
	struct idr_path p;

	idr_init_base(&idr, INT_MIN);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 1, GFP_KERNEL), 0);
	idr_destroy(&idr);
	idr_init_base(&idr, INT_MAX);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc(&idr, val(1), 0, INT_MAX, GFP_KERNEL), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(idr_alloc(&idr, val(1), 0, 0, GFP_KERNEL), INT_MAX);
	CHECK_EQ(idr_alloc(&idr, val(1), 0, 0, GFP_KERNEL), -ENOSPC);
	CHECK(idr_find(&idr, INT_MAX - 1) == NULL);
	CHECK(idr_find(&idr, INT_MAX) == val(1));
	CHECK_EQ(idr_path(&idr, INT_MAX - 1, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_BELOW_BASE);
	CHECK_EQ(idr_path(&idr, INT_MAX, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_FOUND);
	CHECK_EQ(p.index, 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* idr_destroy() keeps the base and the cursor (idr.h: "are kept"). */
static void edges_destroy_keeps(void)
{
	struct idr idr;

	idr_init_base(&idr, 7);
	idr_set_cursor(&idr, UINT_MAX);
	CHECK_EQ(idr_get_cursor(&idr), UINT_MAX);
	CHECK_EQ(idr_alloc(&idr, val(7), 0, 0, GFP_KERNEL), 7);
	idr_destroy(&idr);
	CHECK(idr_is_empty(&idr));
	CHECK_EQ(idr_count(&idr), 0);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_get_cursor(&idr), UINT_MAX);
	CHECK_EQ(idr_alloc(&idr, val(7), 0, 0, GFP_KERNEL), 7);
	/* A cursor above INT_MAX starts at @start, here below the base. */
	CHECK_EQ(idr_alloc_cyclic(&idr, val(8), 0, 0, GFP_KERNEL), 8);
	CHECK_EQ(idr_get_cursor(&idr), 9);
	idr_set_cursor(&idr, 0);
	CHECK_EQ(idr_get_cursor(&idr), 0);
	idr_destroy(&idr);
}

/* Every refusal of the allocating calls leaves the idr as it was. */
static void edges_alloc_refused(void)
{
	struct idr idr;
	struct idr_snap was;
	uint32_t u = 2;
	unsigned int cursor;

	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 1, GFP_KERNEL), 0); /* lowest */
	CHECK_EQ(idr_alloc(&idr, val(1), 0, 2, GFP_KERNEL), 1);
	CHECK_EQ(idr_alloc(&idr, val(9), INT_MAX, INT_MIN, GFP_KERNEL),
		 INT_MAX); /* any end <= 0 is "up to INT_MAX" */
	idr_set_cursor(&idr, 1);
	cursor = idr_get_cursor(&idr);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc(&idr, val(2), -1, 0, GFP_KERNEL), -EINVAL);
	CHECK_EQ(idr_alloc(&idr, val(2), -1, 5, GFP_KERNEL), -EINVAL);
	CHECK_EQ(idr_alloc(&idr, val(2), 0, 2, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, val(2), 2, 2, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, val(2), INT_MAX, 0, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc_u32(&idr, val(2), &u, 1, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(u, 2);
	u = 0;
	CHECK_EQ(idr_alloc_u32(&idr, val(2), &u, 1, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(u, 0);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(2), -1, 0, GFP_KERNEL), -EINVAL);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(2), INT_MIN, 0, GFP_KERNEL),
		 -EINVAL);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(2), 0, 2, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc_cyclic(&idr, val(2), 3, 3, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_get_cursor(&idr), cursor);
	CHECK_UNCHANGED(&idr, was);
	/* The first free ID past the cursor at the range's last: 2, wrap. */
	CHECK_EQ(idr_alloc_cyclic(&idr, val(2), 0, 3, GFP_KERNEL), 2);
	CHECK_EQ(idr_get_cursor(&idr), 3);
	idr_destroy(&idr);
}

/* idr_remove() and idr_replace() refused: NULL or -ENOENT, no change. */
static void edges_remove_replace_refused(void)
{
	struct idr idr;
	struct idr_snap was;

	idr_init_base(&idr, 1);
	CHECK_EQ(idr_alloc(&idr, val(1), 1, 0, GFP_KERNEL), 1);
	CHECK_EQ(idr_alloc(&idr, NULL, 2, 0, GFP_KERNEL), 2);
	CHECK_EQ(idr_count(&idr), 2);
	CHECK(!idr_is_empty(&idr));
	was = idr_snap_of(&idr);
	CHECK(idr_remove(&idr, 0) == NULL); /* below the base */
	CHECK(idr_remove(&idr, 3) == NULL);
	CHECK(idr_remove(&idr, ULONG_MAX) == NULL);
	CHECK(idr_replace(&idr, val(0), 0) == ERR_PTR(-ENOENT));
	CHECK(idr_replace(&idr, val(0), 3) == ERR_PTR(-ENOENT));
	CHECK(idr_replace(&idr, val(0), ULONG_MAX) == ERR_PTR(-ENOENT));
	CHECK_UNCHANGED(&idr, was);
	/* At the base, and a NULL entry: allocated, so not refused. */
	CHECK(idr_replace(&idr, val(2), 2) == NULL);
	CHECK(idr_replace(&idr, NULL, 2) == val(2));
	CHECK(idr_remove(&idr, 2) == NULL);
	CHECK_EQ(idr_count(&idr), 1);
	CHECK(idr_remove(&idr, 1) == val(1));
	CHECK(idr_is_empty(&idr));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* get_next below the base, and at the highest ID idr_alloc_u32 makes. */
static void edges_get_next_ends(void)
{
	struct idr idr;
	unsigned long ul;
	uint32_t u = UINT32_MAX;
	int id = 0;

	idr_init_base(&idr, 4);
	CHECK(idr_get_next(&idr, &id) == NULL);
	CHECK_EQ(id, 0);
	CHECK_EQ(idr_alloc(&idr, val(4), 0, 0, GFP_KERNEL), 4);
	CHECK(idr_get_next(&idr, &id) == val(4));
	CHECK_EQ(id, 4);
	CHECK_EQ(idr_alloc_u32(&idr, val(9), &u, UINT32_MAX, GFP_KERNEL), 0);
	CHECK(u == UINT32_MAX);
	id = 5; /* the only entry above is beyond INT_MAX */
	CHECK(idr_get_next(&idr, &id) == NULL);
	CHECK_EQ(id, 5);
	ul = 5;
	CHECK(idr_get_next_ul(&idr, &ul) == val(9));
	CHECK(ul == UINT32_MAX);
	CHECK(idr_get_next_ul(&idr, &ul) == val(9));
	ul = (unsigned long)UINT32_MAX + 1;
	CHECK(idr_get_next_ul(&idr, &ul) == NULL);
	CHECK(ul == (unsigned long)UINT32_MAX + 1);
	ul = 0;
	CHECK(idr_get_next_ul(&idr, &ul) == val(4));
	CHECK_EQ(ul, 4);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static int stop_negative(int id, void *p, void *data)
{
	(void)p;
	++*(int *)data;
	return id == 0 ? INT_MIN : 0;
}

/* The loop macros at their ends: the last int ID, a negative start, the
 * last u32 ID; idr_for_each() passes a negative return through. */
static void edges_for_each_macros(void)
{
	struct idr idr;
	unsigned long tmp, ul;
	uint32_t u = UINT32_MAX;
	void *entry;
	int id, n = 0;

	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_alloc(&idr, val(9), INT_MAX, 0, GFP_KERNEL), INT_MAX);
	CHECK_EQ(idr_for_each(&idr, stop_negative, &n), INT_MIN);
	CHECK_EQ(n, 1);
	id = INT_MAX; /* one step, then the ID wraps to INT_MIN: the end */
	n = 0;
	idr_for_each_entry_continue(&idr, entry, id) {
		CHECK(entry == val(9));
		n++;
	}
	CHECK_EQ(n, 1);
	CHECK_EQ(id, INT_MIN);
	id = -1;
	idr_for_each_entry_continue(&idr, entry, id)
		n++;
	CHECK_EQ(n, 1);
	CHECK_EQ(id, -1);
	CHECK_EQ(idr_alloc_u32(&idr, val(7), &u, UINT32_MAX, GFP_KERNEL), 0);
	n = 0;
	idr_for_each_entry_ul(&idr, entry, tmp, ul) {
		CHECK(entry == val(n == 0 ? 0 : n == 1 ? 9 : 7));
		n++;
	}
	CHECK_EQ(n, 3);
	CHECK(ul == (unsigned long)UINT32_MAX + 1);
	idr_destroy(&idr);
}

/* get_new refused (-EINVAL, -EAGAIN, -ENOSPC): *id and the idr stay. */
static void edges_legacy_refused(void)
{
	struct idr idr;
	struct idr_snap was;
	int id = -5;

	idr_init_base(&idr, 3);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_get_new_above(&idr, val(0), 0, &id), -EAGAIN);
	CHECK_EQ(idr_get_new_above(&idr, val(0), -1, &id), -EINVAL);
	CHECK_EQ(id, -5);
	CHECK_UNCHANGED(&idr, was);
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	/* Below the base starts at the base. */
	CHECK_EQ(idr_get_new_above(&idr, val(3), 0, &id), 0);
	CHECK_EQ(id, 3);
	CHECK_EQ(idr_get_new(&idr, val(4), &id), 0);
	CHECK_EQ(id, 4);
	CHECK_EQ(idr_get_new_above(&idr, val(9), INT_MAX, &id), 0);
	CHECK_EQ(id, INT_MAX);
	id = -5;
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_get_new_above(&idr, val(0), INT_MAX, &id), -ENOSPC);
	CHECK_EQ(idr_get_new_above(&idr, val(0), INT_MIN, &id), -EINVAL);
	CHECK_EQ(id, -5);
	CHECK_UNCHANGED(&idr, was);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* idr_pre_get(): 0 when malloc fails, keeping what it got; nonzero, and
 * the cache at its capacity, otherwise; a full cache takes no more. */
static void edges_pre_get(void)
{
	struct idr idr;
	struct seam_mem_stats was, now;

	idr_init(&idr);
	seam_fault_inject(0, ~0ul);
	CHECK_EQ(idr_pre_get(&idr, GFP_KERNEL), 0);
	CHECK_EQ(idr_cache_count(&idr), 0);
	seam_fault_inject(2, 1);
	CHECK_EQ(idr_pre_get(&idr, GFP_KERNEL), 0);
	CHECK_EQ(idr_cache_count(&idr), 2);
	seam_fault_inject(0, 0);
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	CHECK_EQ(idr_cache_count(&idr), IDR__CACHE_NODES);
	seam_mem_stats(&was);
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	seam_mem_stats(&now);
	CHECK_EQ(now.allocs, was.allocs);
	CHECK_EQ(idr_cache_count(&idr), IDR__CACHE_NODES);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
	CHECK_EQ(idr_cache_count(&idr), 0);
}

/* seam_fault_inject(): @count 0 is off whatever @skip; @count n fails n. */
static void edges_fault_inject(void)
{
	struct seam_mem_stats was, now;
	struct idr idr;

	idr_init(&idr);
	seam_mem_stats(&was);
	seam_fault_inject(3, 0);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	fill_rest(&idr);
	seam_fault_inject(0, 2);
	CHECK_EQ(idr_alloc(&idr, val(1), 0, 0, GFP_KERNEL), -ENOMEM);
	CHECK_EQ(idr_alloc(&idr, val(1), 0, 0, GFP_KERNEL), -ENOMEM);
	CHECK_EQ(idr_alloc(&idr, val(1), 0, 0, GFP_KERNEL), IDR_SLOTS);
	seam_mem_stats(&now);
	CHECK_EQ(now.failed, was.failed + 2);
	CHECK_EQ(now.allocs, was.allocs + 3);
	seam_fault_inject(0, 0);
	idr_destroy(&idr);
	seam_mem_stats(&now);
	CHECK_EQ(now.frees, was.frees + 3);
	CHECK_EQ(now.bytes, was.bytes);
}

/* id_bits 1, the fewest: IDs 0 and 1, 30 bits of generation. */
static void edges_tag_one_bit(void)
{
	struct idr idr;
	struct idr_snap was;
	int t;

	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 1, 0), 0);
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_alloc_tagged(&idr, val(1), 0, 0, GFP_KERNEL), 1);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc_tagged(&idr, val(2), 0, 0, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc_tagged(&idr, val(2), 2, 0, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, val(2), 2, 0, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(idr_alloc_tagged(&idr, val(2), INT_MIN, 0, GFP_KERNEL),
		 -EINVAL);
	CHECK(idr_remove_tagged(&idr, 1 << 1 | 1) == NULL); /* stale */
	CHECK(idr_remove_tagged(&idr, INT_MIN) == NULL);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(idr_tag_id(&idr, INT_MAX), 1);
	CHECK_EQ(idr_tag_gen(&idr, INT_MAX), INT_MAX >> 1);
	CHECK_EQ(idr_tag_id(&idr, 0), 0);
	CHECK_EQ(idr_tag_gen(&idr, 0), 0);
	CHECK(idr_find(&idr, INT_MAX) == val(1)); /* the tag is ignored */
	CHECK(idr_remove_tagged(&idr, 1) == val(1));
	t = idr_alloc_tagged(&idr, val(1), 1, 2, GFP_KERNEL);
	CHECK_EQ(t, 1 << 1 | 1);
	CHECK_EQ(idr_tag_check(&idr, t), 0);
	CHECK_EQ(idr_tag_check(&idr, 1), -ESTALE);
	CHECK(idr_find_tagged(&idr, 1) == NULL);
	CHECK(idr_find_tagged(&idr, t) == val(1));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* id_bits 30, the most: one generation bit, which wraps to 0. */
static void edges_tag_gen_wrap(void)
{
	struct idr idr;
	int t;

	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 30, 0), 0);
	t = idr_alloc_tagged(&idr, val(5), 5, 6, GFP_KERNEL);
	CHECK_EQ(t, 5);
	CHECK_EQ(idr_tag_check(&idr, 1 << 30 | 5), -ESTALE);
	CHECK_EQ(idr_tag_gen(&idr, INT_MAX), 1);
	CHECK_EQ(idr_tag_id(&idr, INT_MAX), (1 << 30) - 1);
	CHECK(idr_remove_tagged(&idr, t) == val(5));
	CHECK_EQ(idr_alloc_tagged(&idr, val(5), 5, 6, GFP_KERNEL), 1 << 30 | 5);
	CHECK(idr_remove_tagged(&idr, 1 << 30 | 5) == val(5));
	CHECK_EQ(idr_alloc_tagged(&idr, val(5), 5, 6, GFP_KERNEL), 5);
	CHECK_EQ(idr_tag_check(&idr, 5), 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* A refused idr_tag_init() keeps the tagging the idr had. */
static void edges_tag_init_refused(void)
{
	struct idr idr;
	int t;

	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 8, 0), 0);
	CHECK_EQ(idr_alloc_tagged(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_tag_init(&idr, 30, IDR_TAG_RETIRE), -EBUSY);
	CHECK_EQ(idr_tag_init(&idr, 0, 0), -EINVAL);
	CHECK_EQ(idr_tag_init(&idr, 31, 0), -EINVAL);
	CHECK_EQ(idr_tag_id(&idr, INT_MAX), 255);
	CHECK_EQ(idr_alloc_tagged(&idr, val(1), 256, 0, GFP_KERNEL), -ENOSPC);
	CHECK(idr_remove_tagged(&idr, 0) == val(0));
	CHECK_EQ(idr_count(&idr), 0);
	CHECK_EQ(idr_tag_init(&idr, 30, IDR_TAG_RETIRE), 0);
	CHECK_EQ(idr_tag_id(&idr, INT_MAX), (1 << 30) - 1);
	idr_destroy(&idr);
	/* A slot retired for good keeps its node: no ID, yet -EBUSY. */
	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 30, IDR_TAG_RETIRE), 0);
	t = idr_alloc_tagged(&idr, val(5), 5, 6, GFP_KERNEL);
	CHECK(idr_remove_tagged(&idr, t) == val(5));
	t = idr_alloc_tagged(&idr, val(5), 5, 6, GFP_KERNEL);
	CHECK(idr_remove_tagged(&idr, t) == val(5));
	CHECK(idr_is_empty(&idr));
	CHECK(idr_replace(&idr, val(6), 5) == ERR_PTR(-ENOENT));
	CHECK(idr_remove(&idr, 5) == NULL);
	CHECK_EQ(idr_tag_init(&idr, 30, 0), -EBUSY);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* What "the IDA is unchanged" compares, cheaply. */
static bool ida_same(const struct ida *ida, unsigned long count, int first,
		     size_t bytes)
{
	struct idr_stats st;

	CHECK_EQ(idr_stats(ida_tree(ida), &st), 0);
	return ida_count(ida) == count && ida_find_first(ida) == first &&
	       st.bytes == bytes && ida_check(ida) == 0;
}

/* The IDA's refusals change nothing; ranges at their ends. */
static void edges_ida_refused(void)
{
	struct ida ida;
	struct idr_stats st;
	struct idr_path p;
	unsigned int big = (unsigned int)INT_MAX + 1;

	ida_init(&ida);
	CHECK(!ida_exists(&ida, 0));
	CHECK_EQ(ida_alloc_range(&ida, 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(ida_alloc_max(&ida, big, GFP_KERNEL), 1);
	CHECK_EQ(ida_alloc_range(&ida, INT_MAX, INT_MAX, GFP_KERNEL), INT_MAX);
	CHECK_EQ(idr_stats(ida_tree(&ida), &st), 0);
	CHECK_EQ(ida_alloc_range(&ida, 0, 1, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, 2, 1, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, big, big, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, INT_MAX, UINT_MAX, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_alloc_min(&ida, INT_MAX, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_alloc_max(&ida, 1, GFP_KERNEL), -ENOSPC);
	CHECK_EQ(ida_free(&ida, 2), -ENOENT);
	CHECK_EQ(ida_free(&ida, big), -ENOENT);
	CHECK(ida_same(&ida, 3, 0, st.bytes));
	CHECK_EQ(ida_find_first_range(&ida, big, big), -EINVAL);
	CHECK_EQ(ida_find_first_range(&ida, INT_MAX, big), INT_MAX);
	CHECK_EQ(ida_find_first_range(&ida, 1, 1), 1);
	CHECK_EQ(ida_find_first_range(&ida, 2, INT_MAX - 1), -ENOENT);
	CHECK_EQ(ida_find_first_range(&ida, 0, 0), 0);
	/* An IDA's path past INT_MAX: the top (made for INT_MAX) covers its
	 * bitmap's index, which has no child; beyond that, above the top. */
	CHECK_EQ(idr_path(ida_tree(&ida), big, &p), 0);
	CHECK_EQ(p.index, big / IDA_BITMAP_BITS);
	CHECK_EQ(p.bit, 0);
	CHECK_EQ(p.end, IDR_PATH_NO_CHILD);
	CHECK_EQ(idr_path(ida_tree(&ida), ULONG_MAX, &p), 0);
	CHECK_EQ(p.end, IDR_PATH_ABOVE_TOP);
	CHECK_EQ(ida_free(&ida, 0), 0);
	CHECK_EQ(ida_find_first(&ida), 1);
	ida_destroy(&ida);
	CHECK(ida_is_empty(&ida));
	CHECK_EQ(ida_count(&ida), 0);
	CHECK_EQ(ida_check(&ida), 0);
	CHECK_EQ(ida_alloc(&ida, GFP_KERNEL), 0); /* usable again */
	ida_destroy(&ida);
}

/* IDs 0 .. IDR_SLOTS - 1 in a new @idr: one whole leaf. */
static void fill_leaf(struct idr *idr)
{
	unsigned int id;

	idr_init(idr);
	for (id = 0; id < IDR_SLOTS; id++)
		CHECK_EQ(idr_alloc(idr, val(id), 0, 0, GFP_KERNEL), id);
}

/* All but IDs 0, 1 and the last removed: removals pack the leaf. */
static void thin_leaf(struct idr *idr)
{
	unsigned int id;

	for (id = 2; id < IDR_SLOTS - 1; id++)
		CHECK(idr_remove(idr, id) == val(id));
}

/* idr_view_entry() on a packed leaf, at its first and last slots. */
static void edges_view_packed(void)
{
	struct idr idr;
	struct idr_view leaf;
	unsigned int last = IDR_SLOTS - 1;

	fill_leaf(&idr);
	thin_leaf(&idr);
	CHECK_EQ(idr_walk(&idr, first_leaf, &leaf), 1);
	CHECK(leaf.packed >= 3);
	CHECK(idr_view_entry(&leaf, 0) == val(0));
	CHECK(idr_view_entry(&leaf, 1) == val(1));
	CHECK(idr_view_entry(&leaf, 2) == NULL);
	CHECK(idr_view_entry(&leaf, last - 1) == NULL);
	CHECK(idr_view_entry(&leaf, last) == val(last));
	CHECK(idr_view_entry(&leaf, IDR_SLOTS) == NULL);
	CHECK_EQ(idr_view_gen(&idr, &leaf, last), 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/*
 * idr_view_bits() and idr_view_bit() on an idr's leaf, whole or packed:
 * 0 and false.  Its slots hold the caller's pointers (here small
 * integers), which were read as IDA bitmaps: a crash, or, in a packed
 * leaf, a read past its block.
 */
static void edges_view_bits_idr(void)
{
	struct idr idr;
	struct idr_view leaf;
	unsigned int last = IDR_SLOTS - 1;

	fill_leaf(&idr);
	CHECK_EQ(idr_walk(&idr, first_leaf, &leaf), 1);
	CHECK_EQ(leaf.packed, 0);
	CHECK_EQ(idr_view_bits(&leaf, 0), 0);
	CHECK_EQ(idr_view_bits(&leaf, last), 0);
	CHECK(!idr_view_bit(&leaf, 0, 0));
	CHECK(!idr_view_bit(&leaf, last, 3));
	thin_leaf(&idr);
	CHECK_EQ(idr_walk(&idr, first_leaf, &leaf), 1);
	CHECK(leaf.packed != 0);
	CHECK_EQ(idr_view_bits(&leaf, last), 0);
	CHECK(!idr_view_bit(&leaf, last, 0));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* idr_stats() counts the idr's cache, and this thread's preload. */
static void edges_stats_cache(void)
{
	struct idr idr;
	struct idr_stats st;

	idr_init(&idr);
	CHECK(idr_pre_get(&idr, GFP_KERNEL) != 0);
	CHECK_EQ(idr_stats(&idr, &st), 0);
	CHECK_EQ(st.cached, IDR__CACHE_NODES);
	CHECK_EQ(st.nodes, 0);
	CHECK_EQ(st.bytes, IDR__CACHE_NODES * st.node_bytes);
	CHECK_EQ(st.ids, 0);
	CHECK(st.bytes_per_id == 0);
	idr_destroy(&idr);
}

static char *dump_lines(const struct idr *idr, unsigned int max_lines)
{
	struct idr_dump_opts opts = { .max_lines = max_lines };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	CHECK_EQ(idr_dump(idr, out, &opts), 0);
	fclose(out);
	return text;
}

static unsigned int lines_in(const char *text)
{
	unsigned int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* max_lines below 2 is 2; at the dump's own length it is not cut. */
static void edges_dump_max_lines(void)
{
	struct idr idr;
	char *all, *one, *two, *three;
	unsigned int id, n;

	idr_init(&idr);
	for (id = 0; id < 3 * IDR_SLOTS; id += IDR_SLOTS)
		CHECK_EQ(idr_alloc(&idr, val(id), id, 0, GFP_KERNEL), id);
	all = dump_lines(&idr, 0);
	n = lines_in(all);
	CHECK(n > 3);
	one = dump_lines(&idr, 1);
	two = dump_lines(&idr, 2);
	three = dump_lines(&idr, 3);
	CHECK(strcmp(one, two) == 0);
	CHECK_EQ(lines_in(two), 2);
	CHECK_EQ(lines_in(three), 3);
	free(one);
	free(two);
	free(three);
	one = dump_lines(&idr, n);
	CHECK(strcmp(one, all) == 0);
	free(one);
	one = dump_lines(&idr, n - 1);
	CHECK(strcmp(one, all) != 0);
	CHECK(lines_in(one) <= n - 1);
	free(one);
	free(all);
	idr_destroy(&idr);
}

static void count_event(const struct idr *idr, const struct idr_trace *ev,
			void *data)
{
	(void)idr;
	(void)ev;
	++*(unsigned long *)data;
}

/* A callback set sees events; NULL stops them; every event is named. */
static void edges_trace_set(void)
{
	struct idr idr;
	unsigned long n = 0;
	int e;

	idr_init(&idr);
	idr_set_trace(&idr, count_event, &n);
	CHECK_EQ(idr_alloc(&idr, val(0), 0, 0, GFP_KERNEL), 0);
	CHECK(n > 0);
	idr_set_trace(&idr, NULL, &n);
	n = 0;
	CHECK_EQ(idr_alloc(&idr, val(1), 0, 0, GFP_KERNEL), 1);
	CHECK(idr_remove(&idr, 0) == val(0));
	CHECK_EQ(n, 0);
	idr_destroy(&idr);
	for (e = IDR_TRACE_VISIT; e <= IDR_TRACE_DONE; e++) {
		const char *name = idr_trace_name((enum idr_trace_event)e);

		if (!CHECK(name && strcmp(name, "unknown") != 0))
			fprintf(stderr, "  event %d\n", e);
	}
}

/* }==================== Limits not pinned above ==================== */

void suite_edges(void)
{
	RUN(edges_replace_tagged);
	RUN(edges_alloc_start_end);
	RUN(edges_alloc_base);
	RUN(edges_alloc_u32);
	RUN(edges_alloc_cyclic);
	RUN(edges_get_next);
	RUN(edges_for_each);
	RUN(edges_legacy);
	RUN(edges_tag_init);
	RUN(edges_tag_init_base);
	RUN(edges_tag_bits);
	RUN(edges_ida_range);
	RUN(edges_ida_find);
	RUN(edges_walk);
	RUN(edges_view_entry_gen);
	RUN(edges_view_bits);
	RUN(edges_path);
	RUN(edges_path_ida_tag);
	RUN(edges_stats);
	RUN(edges_dump_width);
	RUN(edges_dump_wrap);
	RUN(edges_dump_more);
	RUN(edges_for_each_entry_int_max);
	RUN(edges_dump_limits);
	RUN(edges_fault);
	RUN(edges_preload);
	RUN(edges_print_eio);
	RUN(edges_trace_name);
	RUN(edges_pack_room);
	RUN(edges_pack_bounds);
	RUN(edges_check_deep_leaf);
	RUN(edges_check_pack_room);
	RUN(edges_ida_check);
	RUN(edges_init_base_limits);
	RUN(edges_destroy_keeps);
	RUN(edges_alloc_refused);
	RUN(edges_remove_replace_refused);
	RUN(edges_get_next_ends);
	RUN(edges_for_each_macros);
	RUN(edges_legacy_refused);
	RUN(edges_pre_get);
	RUN(edges_fault_inject);
	RUN(edges_tag_one_bit);
	RUN(edges_tag_gen_wrap);
	RUN(edges_tag_init_refused);
	RUN(edges_ida_refused);
	RUN(edges_view_packed);
	RUN(edges_view_bits_idr);
	RUN(edges_stats_cache);
	RUN(edges_dump_max_lines);
	RUN(edges_trace_set);
}
