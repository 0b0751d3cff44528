/* SPDX-License-Identifier: MIT */
/*
 * test_api.c - today's kernel idr API, case by case, held to the
 * kernel's behaviour.  Each case destroys every idr it creates: the
 * harness counts bytes left in use as a failure.
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "seam.h"
#include "tree.h"

#define GFP GFP_KERNEL
#define S ((int)IDR_SLOTS)

/* The levels a tree needs to hold index @id: IDR_BITS bits per level. */
static unsigned int levels(uint64_t id)
{
	unsigned int n = 1;

	while (id >> (n * IDR_BITS))
		n++;
	return n;
}

/* The most levels an index up to UINT32_MAX needs. */
#define MAX_K ((32 + IDR_BITS - 1) / IDR_BITS)

/* A distinct value for each ID: never NULL, never an ERR_PTR. */
static void *tag(unsigned long id)
{
	return (void *)(uintptr_t)(((uintptr_t)id + 1) * 8);
}

/* A second value per ID, distinct from every tag(). */
static void *alt(unsigned long id)
{
	return (void *)(uintptr_t)((uintptr_t)id * 8 + 4);
}

/* Allocate exactly @id; idr_alloc_u32 reaches every u32 ID. */
static bool alloc_at(struct idr *idr, void *ptr, uint32_t id)
{
	uint32_t got = id;

	return CHECK_EQ(idr_alloc_u32(idr, ptr, &got, id, GFP), 0) &&
	       CHECK_EQ(got, id) && CHECK_SOUND(idr);
}

/* Allocate every ID of [@start, @end) with idr_alloc, lowest first. */
static void fill(struct idr *idr, int start, int end)
{
	int id;

	for (id = start; id < end; id++) {
		CHECK_EQ(idr_alloc(idr, tag(id), start, end, GFP), id);
		CHECK_SOUND(idr);
	}
}

/* Remove @id, which must hold @want. */
static void remove_ok(struct idr *idr, unsigned long id, void *want)
{
	unsigned long count = idr_count(idr);

	CHECK_EQ(idr_remove(idr, id), want);
	CHECK_SOUND(idr);
	CHECK_EQ(idr_find(idr, id), NULL);
	CHECK_EQ(idr_count(idr), count - 1);
}

/* Everything an empty idr answers. */
static void check_empty(const struct idr *idr)
{
	unsigned long ul = 0;
	int id = 0;

	CHECK(idr_is_empty(idr));
	CHECK_EQ(idr_count(idr), 0);
	CHECK_EQ(idr__height(idr), 0);
	CHECK_SOUND(idr);
	CHECK_EQ(idr_find(idr, 0), NULL);
	CHECK_EQ(idr_get_next(idr, &id), NULL);
	CHECK_EQ(id, 0);
	CHECK_EQ(idr_get_next_ul(idr, &ul), NULL);
	CHECK_EQ(ul, 0);
}

/* idr_get_next() from @from: @want's entry and ID, or (@want < 0) none. */
static void check_next(const struct idr *idr, int from, long want)
{
	int id = from;
	void *entry = idr_get_next(idr, &id);

	if (want < 0) {
		CHECK_EQ(entry, NULL);
		CHECK_EQ(id, from);
	} else {
		CHECK_EQ(entry, tag((unsigned long)want));
		CHECK_EQ(id, want);
	}
}

static void check_next_ul(const struct idr *idr, unsigned long from,
			  long long want)
{
	unsigned long id = from;
	void *entry = idr_get_next_ul(idr, &id);

	if (want < 0) {
		CHECK_EQ(entry, NULL);
		CHECK(id == from);
	} else {
		CHECK_EQ(entry, tag((unsigned long)want));
		CHECK(id == (unsigned long)want);
	}
}

/* {==================== idr_for_each callbacks ==================== */

#define SEEN_MAX 16

struct seen {
	int n;
	int ids[SEEN_MAX];
	void *ptrs[SEEN_MAX];
	int stop_at; /* the call that returns @ret; -1 for none */
	int ret;
};

static int record(int id, void *p, void *data)
{
	struct seen *s = data;

	if (s->n < SEEN_MAX) {
		s->ids[s->n] = id;
		s->ptrs[s->n] = p;
	}
	return s->n++ == s->stop_at ? s->ret : 0;
}

static void check_seen(const struct seen *s, const int *ids, int n)
{
	int i;

	CHECK_EQ(s->n, n);
	for (i = 0; i < n && i < s->n && i < SEEN_MAX; i++) {
		CHECK_EQ(s->ids[i], ids[i]);
		CHECK_EQ(s->ptrs[i], tag((unsigned long)ids[i]));
	}
}

struct remover {
	struct idr *idr;
	int n;
};

static int remove_self(int id, void *p, void *data)
{
	struct remover *r = data;

	r->n++;
	CHECK_EQ(p, tag((unsigned long)id));
	CHECK_EQ(idr_remove(r->idr, (unsigned long)id), p);
	CHECK_SOUND(r->idr);
	return 0;
}

static int remove_next(int id, void *p, void *data)
{
	struct remover *r = data;

	r->n++;
	CHECK_EQ(p, tag((unsigned long)id));
	idr_remove(r->idr, (unsigned long)id + 1);
	CHECK_SOUND(r->idr);
	return 0;
}

/* }==================== idr_for_each callbacks ==================== */

static void api_err_ptr(void)
{
	int x;

	CHECK(IS_ERR(ERR_PTR(-ENOENT)));
	CHECK_EQ(PTR_ERR(ERR_PTR(-ENOENT)), -ENOENT);
	CHECK_EQ(PTR_ERR(ERR_PTR(-ENOSPC)), -ENOSPC);
	CHECK(IS_ERR(ERR_PTR(-1)));
	CHECK(IS_ERR(ERR_PTR(-MAX_ERRNO)));
	CHECK(!IS_ERR(ERR_PTR(-MAX_ERRNO - 1)));
	CHECK(ERR_PTR(0) == NULL);
	CHECK_EQ(PTR_ERR(NULL), 0);
	CHECK(!IS_ERR(NULL));
	CHECK(!IS_ERR(&x));
	CHECK(!IS_ERR(tag(UINT32_MAX)));
	CHECK(!IS_ERR(alt(0)));
}

static void api_init(void)
{
	DEFINE_IDR(defined);
	struct idr plain = IDR_INIT(plain);
	struct idr based = IDR_INIT_BASE(based, 7);
	struct idr dyn, dyn_based;

	idr_init(&dyn);
	idr_init_base(&dyn_based, 3);
	check_empty(&defined);
	check_empty(&plain);
	check_empty(&based);
	check_empty(&dyn);
	check_empty(&dyn_based);
	CHECK_EQ(idr_get_cursor(&defined), 0);
	CHECK_EQ(idr_get_cursor(&based), 0);
	CHECK_EQ(idr_get_cursor(&dyn_based), 0);
	CHECK_EQ(idr_alloc(&defined, tag(0), 0, 0, GFP), 0);
	CHECK_EQ(idr_alloc(&plain, tag(0), 0, 0, GFP), 0);
	CHECK_EQ(idr_alloc(&based, tag(7), 0, 0, GFP), 7);
	CHECK_EQ(idr_alloc(&dyn, tag(0), 0, 0, GFP), 0);
	CHECK_EQ(idr_alloc(&dyn_based, tag(3), 0, 0, GFP), 3);
	CHECK_EQ(idr_find(&based, 7), tag(7));
	CHECK_EQ(idr_find(&dyn_based, 3), tag(3));
	idr_destroy(&defined);
	idr_destroy(&plain);
	idr_destroy(&based);
	idr_destroy(&dyn);
	idr_destroy(&dyn_based);
}

static void api_empty(void)
{
	struct seen s = { .stop_at = -1 };
	struct idr idr;
	void *entry, *r;
	int id, n = 0;

	idr_init(&idr);
	CHECK_EQ(idr_remove(&idr, 0), NULL);
	CHECK_EQ(idr_remove(&idr, ULONG_MAX), NULL);
	r = idr_replace(&idr, tag(0), 0);
	CHECK(IS_ERR(r) && PTR_ERR(r) == -ENOENT);
	CHECK_EQ(idr_find(&idr, ULONG_MAX), NULL);
	CHECK_EQ(idr_for_each(&idr, record, &s), 0);
	CHECK_EQ(s.n, 0);
	idr_for_each_entry(&idr, entry, id)
		n++;
	CHECK_EQ(n, 0);
	check_empty(&idr);
	idr_destroy(&idr);
	check_empty(&idr);
}

static void api_alloc_lowest(void)
{
	struct idr idr;

	idr_init(&idr);
	fill(&idr, 0, 5);
	CHECK_EQ(idr_alloc(&idr, tag(10), 10, 0, GFP), 10);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(5), 0, 0, GFP), 5);
	CHECK_SOUND(&idr);
	remove_ok(&idr, 2, tag(2));
	CHECK_EQ(idr_alloc(&idr, tag(2), 0, 0, GFP), 2);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(6), 3, 0, GFP), 6);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_count(&idr), 8);
	CHECK_EQ(idr_find(&idr, 0), tag(0));
	CHECK_EQ(idr_find(&idr, 2), tag(2));
	CHECK_EQ(idr_find(&idr, 6), tag(6));
	CHECK_EQ(idr_find(&idr, 10), tag(10));
	CHECK_EQ(idr_find(&idr, 7), NULL);
	idr_destroy(&idr);
}

static void api_alloc_bad_ranges(void)
{
	struct idr idr;
	struct idr_snap was;

	idr_init(&idr);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(0), -1, 0, GFP), -EINVAL);
	CHECK_EQ(idr_alloc(&idr, tag(0), INT_MIN, 10, GFP), -EINVAL);
	CHECK_EQ(idr_alloc(&idr, tag(5), 5, 5, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, tag(9), 9, 3, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, tag(1), 1, 1, GFP), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(idr_alloc(&idr, tag(0), 0, 1, GFP), 0);
	CHECK_SOUND(&idr);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(1), 0, 1, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, tag(1), -3, 0, GFP), -EINVAL);
	CHECK_EQ(idr_alloc(&idr, tag(1), 2, 1, GFP), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(idr_find(&idr, 0), tag(0));
	/* end <= 0 means "up to INT_MAX". */
	CHECK_EQ(idr_alloc(&idr, tag(1), 0, 0, GFP), 1);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(2), 0, -7, GFP), 2);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(3), 0, INT_MIN, GFP), 3);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void api_alloc_int_max(void)
{
	struct idr idr;
	struct idr_snap was;

	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(INT_MAX), INT_MAX, INT_MAX, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, tag(INT_MAX), INT_MAX, 0, GFP), INT_MAX);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr__height(&idr), levels(INT_MAX));
	CHECK_EQ(idr_find(&idr, INT_MAX), tag(INT_MAX));
	was = idr_snap_of(&idr);
	/* idr_alloc never goes above INT_MAX, though those IDs are free. */
	CHECK_EQ(idr_alloc(&idr, tag(0), INT_MAX, 0, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, tag(0), INT_MAX, -1, GFP), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(idr_alloc(&idr, tag(INT_MAX - 1), INT_MAX - 1, INT_MAX, GFP),
		 INT_MAX - 1);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(0), 0, 0, GFP), 0);
	CHECK_SOUND(&idr);
	remove_ok(&idr, INT_MAX, tag(INT_MAX));
	CHECK_EQ(idr__height(&idr), levels(INT_MAX - 1));
	remove_ok(&idr, INT_MAX - 1, tag(INT_MAX - 1));
	CHECK_EQ(idr__height(&idr), 1);
	remove_ok(&idr, 0, tag(0));
	check_empty(&idr);
	idr_destroy(&idr);
}

static void api_alloc_full_range(void)
{
	struct idr idr;
	struct idr_snap was;

	idr_init(&idr);
	fill(&idr, 3 * S, 3 * S + 3);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(0), 3 * S, 3 * S + 3, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, tag(0), 3 * S + 1, 3 * S + 3, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, tag(0), 3 * S + 2, 3 * S + 3, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, NULL, 3 * S, 3 * S + 3, GFP), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);
	/* A range across a leaf boundary. */
	fill(&idr, S - 2, S + 2);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(0), S - 2, S + 2, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, tag(0), S - 1, S + 1, GFP), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);
	/* The IDs outside were free all along. */
	CHECK_EQ(idr_alloc(&idr, tag(0), 0, 0, GFP), 0);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(S + 2), S - 2, 0, GFP), S + 2);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(3 * S + 3), 3 * S, 0, GFP), 3 * S + 3);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void api_fill_leaf(void)
{
	struct idr idr;
	int id;

	idr_init(&idr);
	fill(&idr, 0, S);
	CHECK_EQ(idr__height(&idr), 1);
	CHECK_EQ(idr_alloc(&idr, tag(S), 0, 0, GFP), S);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr__height(&idr), 2);
	remove_ok(&idr, S / 2, tag(S / 2));
	CHECK_EQ(idr_alloc(&idr, tag(S / 2), 0, 0, GFP), S / 2);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(S + 1), 0, 0, GFP), S + 1);
	CHECK_SOUND(&idr);
	for (id = 0; id <= S + 1; id++)
		CHECK_EQ(idr_find(&idr, (unsigned long)id), tag(id));
	remove_ok(&idr, S, tag(S));
	CHECK_EQ(idr__height(&idr), 2);
	remove_ok(&idr, S + 1, tag(S + 1));
	CHECK_EQ(idr__height(&idr), 1);
	CHECK_EQ(idr_count(&idr), S);
	idr_destroy(&idr);
}

static void api_fill_two_levels(void)
{
	struct idr idr;
	int id;

	idr_init(&idr);
	fill(&idr, 0, S * S);
	CHECK_EQ(idr__height(&idr), 2);
	CHECK_EQ(idr_alloc(&idr, tag(S * S), 0, 0, GFP), S * S);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr__height(&idr), 3);
	for (id = 0; id <= S * S; id++)
		CHECK_EQ(idr_find(&idr, (unsigned long)id), tag(id));
	remove_ok(&idr, S * S, tag(S * S));
	CHECK_EQ(idr__height(&idr), 2);
	remove_ok(&idr, S + 1, tag(S + 1));
	CHECK_EQ(idr_alloc(&idr, tag(S + 1), 0, 0, GFP), S + 1);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(S * S), 0, 0, GFP), S * S);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void check_absent(struct idr *idr, unsigned long id)
{
	struct idr_snap was = idr_snap_of(idr);
	void *r;

	CHECK_EQ(idr_find(idr, id), NULL);
	CHECK_EQ(idr_remove(idr, id), NULL);
	CHECK_UNCHANGED(idr, was);
	r = idr_replace(idr, alt(id), id);
	CHECK(IS_ERR(r) && PTR_ERR(r) == -ENOENT);
	CHECK_UNCHANGED(idr, was);
}

static void api_absent_ids(void)
{
	unsigned long big = (unsigned long)S * S * S * 5;
	struct idr idr;

	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(0), 0, 0, GFP), 0);
	CHECK_EQ(idr_alloc(&idr, tag(5), 5, 0, GFP), 5);
	CHECK_EQ(idr_alloc(&idr, tag(S * S + 3), S * S + 3, 0, GFP), S * S + 3);
	CHECK_SOUND(&idr);
	check_absent(&idr, 1);
	check_absent(&idr, 4);
	check_absent(&idr, (unsigned long)S * 2);
	check_absent(&idr, S * S + 4);
	check_absent(&idr, big);
	check_absent(&idr, INT_MAX);
	check_absent(&idr, UINT32_MAX);
	check_absent(&idr, ULONG_MAX);
#if ULONG_MAX > UINT32_MAX
	/* No aliasing of 64-bit IDs onto the IDs they truncate to. */
	check_absent(&idr, 1UL << 32);
	check_absent(&idr, (1UL << 32) + 5);
	check_absent(&idr, (1UL << 32) + S * S + 3);
#endif
	remove_ok(&idr, 5, tag(5));
	check_absent(&idr, 5);
	CHECK_EQ(idr_find(&idr, 0), tag(0));
	CHECK_EQ(idr_find(&idr, S * S + 3), tag(S * S + 3));
	idr_destroy(&idr);
}

static void api_replace(void)
{
	struct idr idr;
	void *r;

	idr_init(&idr);
	fill(&idr, 0, 3);
	CHECK_EQ(idr_alloc(&idr, NULL, 0, 0, GFP), 3);
	CHECK_EQ(idr_replace(&idr, alt(1), 1), tag(1));
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_find(&idr, 1), alt(1));
	CHECK_EQ(idr_count(&idr), 4);
	check_absent(&idr, 7);
	remove_ok(&idr, 2, tag(2));
	r = idr_replace(&idr, alt(2), 2);
	CHECK(IS_ERR(r) && PTR_ERR(r) == -ENOENT);
	CHECK_EQ(idr_find(&idr, 2), NULL);
	/* A NULL-reserved ID is allocated: replace works and says NULL. */
	CHECK_EQ(idr_replace(&idr, alt(3), 3), NULL);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_find(&idr, 3), alt(3));
	CHECK_EQ(idr_count(&idr), 3);
	/* Replacing with NULL keeps the ID reserved. */
	CHECK_EQ(idr_replace(&idr, NULL, 1), alt(1));
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_find(&idr, 1), NULL);
	CHECK_EQ(idr_count(&idr), 3);
	CHECK_EQ(idr_alloc(&idr, tag(2), 0, 0, GFP), 2);
	CHECK_EQ(idr_alloc(&idr, tag(4), 0, 0, GFP), 4);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_remove(&idr, 1), NULL);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_count(&idr), 4);
	idr_destroy(&idr);
}

static void api_null_entries(void)
{
	static const int want[] = { 1, 3 };
	struct seen s = { .stop_at = -1 };
	struct idr idr;

	idr_init(&idr);
	CHECK_EQ(idr_alloc(&idr, NULL, 0, 0, GFP), 0);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_find(&idr, 0), NULL);
	CHECK(!idr_is_empty(&idr));
	CHECK_EQ(idr_count(&idr), 1);
	CHECK_EQ(idr__height(&idr), 1);
	CHECK_EQ(idr_alloc(&idr, tag(1), 0, 0, GFP), 1);
	CHECK_EQ(idr_alloc_cyclic(&idr, NULL, 0, 0, GFP), 2);
	CHECK_EQ(idr_alloc(&idr, tag(3), 0, 0, GFP), 3);
	CHECK_SOUND(&idr);
	check_next(&idr, 0, 1);
	check_next(&idr, 2, 3);
	CHECK_EQ(idr_for_each(&idr, record, &s), 0);
	check_seen(&s, want, 2);
	remove_ok(&idr, 1, tag(1));
	remove_ok(&idr, 3, tag(3));
	CHECK(!idr_is_empty(&idr));
	check_next(&idr, 0, -1);
	s.n = 0;
	CHECK_EQ(idr_for_each(&idr, record, &s), 0);
	CHECK_EQ(s.n, 0);
	remove_ok(&idr, 2, NULL);
	CHECK(!idr_is_empty(&idr));
	remove_ok(&idr, 0, NULL);
	check_empty(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(0), 0, 0, GFP), 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* 3 and a NULL at 4; a leaf of NULLs; then 2S + 1. */
static void setup_gappy(struct idr *idr)
{
	int id;

	idr_init(idr);
	CHECK_EQ(idr_alloc(idr, tag(3), 3, 0, GFP), 3);
	CHECK_EQ(idr_alloc(idr, NULL, 4, 0, GFP), 4);
	for (id = S; id < 2 * S; id++)
		CHECK_EQ(idr_alloc(idr, NULL, S, 0, GFP), id);
	CHECK_EQ(idr_alloc(idr, tag(2 * S + 1), 2 * S + 1, 0, GFP), 2 * S + 1);
	CHECK_SOUND(idr);
}

static void api_get_next(void)
{
	struct idr idr;

	setup_gappy(&idr);
	check_next(&idr, 0, 3);
	check_next(&idr, 3, 3);
	check_next(&idr, 4, 2 * S + 1);
	check_next(&idr, S, 2 * S + 1);
	check_next(&idr, 2 * S + 1, 2 * S + 1);
	check_next(&idr, 2 * S + 2, -1);
	check_next(&idr, INT_MAX, -1);
	check_next(&idr, -1, -1);
	check_next(&idr, INT_MIN, -1);
	idr_destroy(&idr);
}

static void api_get_next_ul(void)
{
	struct idr idr;

	setup_gappy(&idr);
	check_next_ul(&idr, 0, 3);
	check_next_ul(&idr, 3, 3);
	check_next_ul(&idr, 4, 2 * S + 1);
	check_next_ul(&idr, 2 * S + 1, 2 * S + 1);
	check_next_ul(&idr, 2 * S + 2, -1);
	check_next_ul(&idr, UINT32_MAX, -1);
	check_next_ul(&idr, ULONG_MAX, -1);
	idr_destroy(&idr);
}

static void setup_four(struct idr *idr, const int *ids)
{
	int i;

	idr_init(idr);
	for (i = 0; i < 4; i++)
		alloc_at(idr, tag((unsigned long)ids[i]), (uint32_t)ids[i]);
	alloc_at(idr, NULL, 5);
}

static void api_for_each(void)
{
	static const int ids[] = { 0, 3, S, S * S + 1 };
	struct seen s = { .stop_at = -1 };
	struct idr idr;

	setup_four(&idr, ids);
	CHECK_EQ(idr_for_each(&idr, record, &s), 0);
	check_seen(&s, ids, 4);
	s = (struct seen){ .stop_at = 1, .ret = 7 };
	CHECK_EQ(idr_for_each(&idr, record, &s), 7);
	check_seen(&s, ids, 2);
	s = (struct seen){ .stop_at = 0, .ret = -5 };
	CHECK_EQ(idr_for_each(&idr, record, &s), -5);
	check_seen(&s, ids, 1);
	s = (struct seen){ .stop_at = 3, .ret = 1 };
	CHECK_EQ(idr_for_each(&idr, record, &s), 1);
	check_seen(&s, ids, 4);
	CHECK_EQ(idr_count(&idr), 5);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void api_for_each_remove_self(void)
{
	struct idr idr;
	struct remover r = { &idr, 0 };

	idr_init(&idr);
	fill(&idr, 0, 2 * S + 3);
	CHECK_EQ(idr_for_each(&idr, remove_self, &r), 0);
	CHECK_EQ(r.n, 2 * S + 3);
	check_empty(&idr);
	idr_destroy(&idr);
}

static void api_for_each_remove_next(void)
{
	struct idr idr;
	struct remover r = { &idr, 0 };
	int id;

	idr_init(&idr);
	fill(&idr, 0, 2 * S + 3);
	CHECK_EQ(idr_for_each(&idr, remove_next, &r), 0);
	CHECK_EQ(r.n, S + 2);
	CHECK_EQ(idr_count(&idr), S + 2);
	for (id = 0; id < 2 * S + 3; id++)
		CHECK_EQ(idr_find(&idr, (unsigned long)id),
			 id % 2 ? NULL : tag(id));
	idr_destroy(&idr);
}

static void api_for_each_entry(void)
{
	static const int want[] = { 0, 2, S + 1, INT_MAX };
	struct idr idr;
	void *entry;
	int id, n = 0;

	idr_init(&idr);
	alloc_at(&idr, tag(0), 0);
	alloc_at(&idr, NULL, 1);
	alloc_at(&idr, tag(2), 2);
	alloc_at(&idr, tag(S + 1), S + 1);
	alloc_at(&idr, tag(INT_MAX), INT_MAX);
	/* Past INT_MAX, id wraps negative and the loop must end. */
	idr_for_each_entry(&idr, entry, id) {
		if (!CHECK(n < 4))
			break;
		CHECK_EQ(id, want[n]);
		CHECK_EQ(entry, tag((unsigned long)id));
		n++;
	}
	CHECK_EQ(n, 4);
	CHECK_EQ(entry, NULL);
	idr_destroy(&idr);
}

static void api_for_each_entry_remove(void)
{
	struct idr idr;
	void *entry;
	int id, n = 0;

	idr_init(&idr);
	fill(&idr, 0, 2 * S + 3);
	idr_for_each_entry(&idr, entry, id) {
		CHECK_EQ(id, n);
		CHECK_EQ(idr_remove(&idr, (unsigned long)id), entry);
		CHECK_SOUND(&idr);
		n++;
	}
	CHECK_EQ(n, 2 * S + 3);
	check_empty(&idr);
	idr_destroy(&idr);
}

/* Two loops a line, as a caller's macro makes them: each its own
 * iterator (the build's -Wshadow -Werror fails on one name). */
#define EACH_PAIR(idr, entry, i, j, n)            \
	idr_for_each_entry(idr, entry, i)         \
		idr_for_each_entry(idr, entry, j) \
			n++;

static void api_for_each_entry_nested(void)
{
	struct idr idr;
	void *entry;
	int i = 0, j = 0, n = 0;

	idr_init(&idr);
	fill(&idr, 0, 3);
	EACH_PAIR(&idr, entry, i, j, n)
	/* Each loop starts from ID 0, as the kernel's: 3 by 3 pairs. */
	CHECK_EQ(n, 9);
	idr_destroy(&idr);
}

/* Every IDth of the leaf cursor_in_thinned_leaf() keeps: few enough that
 * a removal would pack the leaf, were the cursor not in it. */
#define KEPT_EVERY ((int)IDR_SLOTS / 8 > 2 ? (int)IDR_SLOTS / 8 : 2)

/* A leaf's IDs handed out cyclically, all but each KEPT_EVERYth removed
 * while the cursor is back in their leaf, which removals then do not
 * pack. */
static void cursor_in_thinned_leaf(struct idr *idr)
{
	int i;

	idr_init(idr);
	for (i = 0; i < (int)IDR_SLOTS; i++)
		CHECK_EQ(idr_alloc_cyclic(idr, tag((unsigned long)i), 0, 0,
					  GFP_KERNEL),
			 i);
	idr_set_cursor(idr, 1);
	for (i = 0; i < (int)IDR_SLOTS; i++)
		if (i % KEPT_EVERY)
			idr_remove(idr, (unsigned long)i);
}

static struct idr *cursor_idr;

static int cursor_away(int id, void *entry, void *data)
{
	int *n = data;

	CHECK_EQ(id, KEPT_EVERY * *n);
	CHECK_EQ(entry, tag((unsigned long)id));
	if ((*n)++ == 0)
		idr_set_cursor(cursor_idr, 5000);
	return 0;
}

/*
 * idr_set_cursor() in a loop's body packs the leaf the cursor leaves:
 * the loop reads the leaf's new block, not the one realloc freed (ASan
 * and valgrind saw the old one read when packing counted as no change).
 */
static void api_for_each_entry_set_cursor(void)
{
	struct idr idr;
	void *entry;
	int id, n = 0;

	cursor_in_thinned_leaf(&idr);
	idr_for_each_entry(&idr, entry, id) {
		CHECK_EQ(id, KEPT_EVERY * n);
		CHECK_EQ(entry, tag((unsigned long)id));
		if (n++ == 0)
			idr_set_cursor(&idr, 5000);
	}
	CHECK_EQ(n, (int)IDR_SLOTS / KEPT_EVERY);
	CHECK(idr_check(&idr) == 0);
	idr_destroy(&idr);

	cursor_in_thinned_leaf(&idr);
	cursor_idr = &idr;
	n = 0;
	CHECK_EQ(idr_for_each(&idr, cursor_away, &n), 0);
	CHECK_EQ(n, (int)IDR_SLOTS / KEPT_EVERY);
	idr_destroy(&idr);
}

/* idr_for_each_entry_continue() from @from must visit @want, in order. */
static void check_continue(const struct idr *idr, int from, const int *want,
			   int n)
{
	void *entry;
	int id = from, i = 0;

	idr_for_each_entry_continue(idr, entry, id) {
		if (!CHECK(i < n))
			break;
		CHECK_EQ(id, want[i]);
		CHECK_EQ(entry, tag((unsigned long)id));
		i++;
	}
	CHECK_EQ(i, n);
	CHECK_EQ(entry, NULL);
}

static void api_for_each_entry_continue(void)
{
	static const int ids[] = { 1, 4, 6, S + 2 };
	struct idr idr;
	void *entry;
	int id;

	setup_four(&idr, ids);
	check_continue(&idr, 4, ids + 1, 3);
	check_continue(&idr, 5, ids + 2, 2);
	check_continue(&idr, 0, ids, 4);
	check_continue(&idr, S + 3, NULL, 0);
	check_continue(&idr, -1, NULL, 0);
	/* After a break, continuing starts at the entry broken at. */
	idr_for_each_entry(&idr, entry, id)
		if (id == 4)
			break;
	CHECK_EQ(id, 4);
	check_continue(&idr, id, ids + 1, 3);
	idr_destroy(&idr);
}

static void api_for_each_entry_ul(void)
{
	static const uint32_t want[] = { 0, 7, INT_MAX, (uint32_t)INT_MAX + 1,
					 UINT32_MAX };
	unsigned long tmp, id;
	struct idr idr;
	void *entry;
	int i, n = 0;

	idr_init(&idr);
	for (i = 4; i >= 0; i--)
		alloc_at(&idr, tag(want[i]), want[i]);
	alloc_at(&idr, NULL, 8);
	idr_for_each_entry_ul(&idr, entry, tmp, id) {
		if (!CHECK(n < 5))
			break;
		CHECK(id == want[n]);
		CHECK_EQ(entry, tag(id));
		n++;
	}
	CHECK_EQ(n, 5);
	CHECK_EQ(entry, NULL);
	idr_destroy(&idr);
}

static void api_is_empty_count(void)
{
	struct idr idr;

	idr_init(&idr);
	CHECK(idr_is_empty(&idr));
	CHECK_EQ(idr_count(&idr), 0);
	CHECK_EQ(idr_alloc(&idr, tag(0), -1, 0, GFP), -EINVAL);
	CHECK(idr_is_empty(&idr));
	CHECK_EQ(idr_alloc(&idr, NULL, 0, 0, GFP), 0);
	CHECK(!idr_is_empty(&idr));
	CHECK_EQ(idr_count(&idr), 1);
	CHECK_EQ(idr_alloc(&idr, tag(1), 0, 0, GFP), 1);
	CHECK_EQ(idr_alloc(&idr, tag(S * S), S * S, 0, GFP), S * S);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_count(&idr), 3);
	CHECK_EQ(idr_alloc(&idr, tag(1), 1, 2, GFP), -ENOSPC);
	CHECK_EQ(idr_count(&idr), 3);
	CHECK_EQ(idr_replace(&idr, alt(1), 1), tag(1));
	CHECK_EQ(idr_count(&idr), 3);
	remove_ok(&idr, S * S, tag(S * S));
	remove_ok(&idr, 1, alt(1));
	CHECK(!idr_is_empty(&idr));
	remove_ok(&idr, 0, NULL);
	CHECK(idr_is_empty(&idr));
	CHECK_EQ(idr_count(&idr), 0);
	idr_destroy(&idr);
}

static void api_alloc_u32_basic(void)
{
	struct idr idr;
	struct idr_snap was;
	uint32_t id = 0;

	idr_init(&idr);
	CHECK_EQ(idr_alloc_u32(&idr, tag(0), &id, 0, GFP), 0);
	CHECK_EQ(id, 0);
	CHECK_SOUND(&idr);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc_u32(&idr, tag(1), &id, 0, GFP), -ENOSPC);
	CHECK_EQ(id, 0);
	id = 5;
	CHECK_EQ(idr_alloc_u32(&idr, tag(5), &id, 4, GFP), -ENOSPC);
	CHECK_EQ(id, 5);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(idr_alloc_u32(&idr, tag(5), &id, 5, GFP), 0);
	CHECK_EQ(id, 5);
	CHECK_SOUND(&idr);
	id = 3;
	CHECK_EQ(idr_alloc_u32(&idr, tag(3), &id, 10, GFP), 0);
	CHECK_EQ(id, 3);
	CHECK_EQ(idr_alloc_u32(&idr, tag(4), &id, ULONG_MAX, GFP), 0);
	CHECK_EQ(id, 4);
	CHECK_SOUND(&idr);
	was = idr_snap_of(&idr);
	id = 3;
	CHECK_EQ(idr_alloc_u32(&idr, tag(6), &id, 5, GFP), -ENOSPC);
	CHECK_EQ(id, 3);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(idr_find(&idr, 4), tag(4));
	CHECK_EQ(idr_find(&idr, 5), tag(5));
	idr_destroy(&idr);
}

static void api_alloc_u32_high(void)
{
	uint32_t above = (uint32_t)INT_MAX + 1, id = above;
	struct idr idr;
	struct idr_snap was;

	idr_init(&idr);
	CHECK_EQ(idr_alloc_u32(&idr, tag(above), &id, UINT32_MAX, GFP), 0);
	CHECK_EQ(id, above);
	CHECK_SOUND(&idr);
	id = UINT32_MAX;
	CHECK_EQ(idr_alloc_u32(&idr, tag(UINT32_MAX), &id, ULONG_MAX, GFP), 0);
	CHECK(id == UINT32_MAX);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr__height(&idr), levels(UINT32_MAX));
	was = idr_snap_of(&idr);
	/* max is clamped: nothing lies above UINT32_MAX. */
	CHECK_EQ(idr_alloc_u32(&idr, tag(0), &id, ULONG_MAX, GFP), -ENOSPC);
	CHECK(id == UINT32_MAX);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(idr_find(&idr, above), tag(above));
	CHECK_EQ(idr_find(&idr, UINT32_MAX), tag(UINT32_MAX));
	CHECK_EQ(idr_find(&idr, INT_MAX), NULL);
	check_next_ul(&idr, 0, above);
	check_next_ul(&idr, above, above);
	check_next_ul(&idr, (unsigned long)above + 1, UINT32_MAX);
	check_next_ul(&idr, UINT32_MAX, UINT32_MAX);
#if ULONG_MAX > UINT32_MAX
	check_next_ul(&idr, 1UL << 32, -1);
#endif
	/* The int API cannot name these IDs. */
	check_next(&idr, 0, -1);
	check_next(&idr, INT_MAX, -1);
	idr_destroy(&idr);
}

static void api_alloc_u32_for_each(void)
{
	static const int want[] = { 0, 6 };
	struct seen s = { .stop_at = -1 };
	struct idr idr;

	idr_init(&idr);
	alloc_at(&idr, tag(0), 0);
	alloc_at(&idr, tag(6), 6);
	alloc_at(&idr, tag((uint32_t)INT_MAX + 1), (uint32_t)INT_MAX + 1);
	alloc_at(&idr, tag(UINT32_MAX), UINT32_MAX);
	/* As in the kernel, idr_for_each stops short of IDs above INT_MAX. */
	CHECK_EQ(idr_for_each(&idr, record, &s), 0);
	check_seen(&s, want, 2);
	check_next(&idr, 1, 6);
	check_next(&idr, 7, -1);
	remove_ok(&idr, UINT32_MAX, tag(UINT32_MAX));
	remove_ok(&idr, (uint32_t)INT_MAX + 1, tag((uint32_t)INT_MAX + 1));
	CHECK_EQ(idr__height(&idr), 1);
	idr_destroy(&idr);
}

static void api_cyclic_basic(void)
{
	struct idr idr;

	idr_init(&idr);
	CHECK_EQ(idr_get_cursor(&idr), 0);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(0), 0, 0, GFP), 0);
	CHECK_EQ(idr_get_cursor(&idr), 1);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(1), 0, 0, GFP), 1);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(2), 0, 0, GFP), 2);
	CHECK_EQ(idr_get_cursor(&idr), 3);
	CHECK_SOUND(&idr);
	remove_ok(&idr, 1, tag(1));
	/* Freed IDs are not reused at once. */
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(3), 0, 0, GFP), 3);
	CHECK_EQ(idr_get_cursor(&idr), 4);
	CHECK_SOUND(&idr);
	/* Plain idr_alloc ignores the cursor and leaves it alone. */
	CHECK_EQ(idr_alloc(&idr, tag(1), 0, 0, GFP), 1);
	CHECK_EQ(idr_get_cursor(&idr), 4);
	CHECK_EQ(idr_find(&idr, 3), tag(3));
	idr_destroy(&idr);
}

static void api_cyclic_wrap(void)
{
	struct idr idr;
	struct idr_snap was;
	int id;

	idr_init(&idr);
	for (id = 0; id < 4; id++)
		CHECK_EQ(idr_alloc_cyclic(&idr, tag(id), 0, 4, GFP), id);
	CHECK_EQ(idr_get_cursor(&idr), 4);
	remove_ok(&idr, 1, tag(1));
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(1), 0, 4, GFP), 1);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_get_cursor(&idr), 2);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(9), 0, 4, GFP), -ENOSPC);
	CHECK_EQ(idr_get_cursor(&idr), 2);
	CHECK_UNCHANGED(&idr, was);
	remove_ok(&idr, 0, tag(0));
	remove_ok(&idr, 3, tag(3));
	/* From the cursor first: 3 before the lower free 0. */
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(3), 0, 4, GFP), 3);
	CHECK_EQ(idr_get_cursor(&idr), 4);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(0), 0, 4, GFP), 0);
	CHECK_EQ(idr_get_cursor(&idr), 1);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void api_cyclic_cursor(void)
{
	struct idr idr;

	idr_init(&idr);
	idr_set_cursor(&idr, 100);
	CHECK_EQ(idr_get_cursor(&idr), 100);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(10), 10, 20, GFP), 10);
	CHECK_EQ(idr_get_cursor(&idr), 11);
	idr_set_cursor(&idr, 5);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(11), 10, 20, GFP), 11);
	CHECK_EQ(idr_get_cursor(&idr), 12);
	idr_set_cursor(&idr, 15);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(15), 10, 20, GFP), 15);
	CHECK_EQ(idr_get_cursor(&idr), 16);
	idr_set_cursor(&idr, 20);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(12), 10, 20, GFP), 12);
	CHECK_EQ(idr_get_cursor(&idr), 13);
	idr_set_cursor(&idr, (unsigned int)INT_MAX + 1);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(13), 10, 0, GFP), 13);
	CHECK_EQ(idr_get_cursor(&idr), 14);
	CHECK_SOUND(&idr);
	idr_set_cursor(&idr, UINT_MAX);
	CHECK(idr_get_cursor(&idr) == UINT_MAX);
	idr_destroy(&idr);
}

static void api_cyclic_int_max(void)
{
	struct idr idr;

	idr_init(&idr);
	idr_set_cursor(&idr, INT_MAX);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(INT_MAX), 0, 0, GFP), INT_MAX);
	CHECK_SOUND(&idr);
	CHECK(idr_get_cursor(&idr) == (unsigned int)INT_MAX + 1);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(0), 0, 0, GFP), 0);
	CHECK_EQ(idr_get_cursor(&idr), 1);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_find(&idr, INT_MAX), tag(INT_MAX));
	idr_destroy(&idr);
}

static void api_cyclic_errors(void)
{
	struct idr idr;
	struct idr_snap was;

	idr_init(&idr);
	fill(&idr, 0, 3);
	idr_set_cursor(&idr, 7);
	was = idr_snap_of(&idr);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(0), -1, 0, GFP), -EINVAL);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(0), INT_MIN, 5, GFP), -EINVAL);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(5), 5, 5, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(9), 9, 4, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(0), 0, 3, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(1), 1, 3, GFP), -ENOSPC);
	CHECK_EQ(idr_get_cursor(&idr), 7);
	CHECK_UNCHANGED(&idr, was);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(3), 0, 4, GFP), 3);
	CHECK_EQ(idr_get_cursor(&idr), 4);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void api_base_find(void)
{
	struct idr idr;
	struct idr_snap was;

	idr_init_base(&idr, 5);
	CHECK_EQ(idr_alloc(&idr, tag(5), 0, 0, GFP), 5);
	CHECK_EQ(idr_alloc(&idr, tag(6), 2, 0, GFP), 6);
	CHECK_EQ(idr_alloc(&idr, tag(10), 10, 0, GFP), 10);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr__height(&idr), 1);
	CHECK_EQ(idr_find(&idr, 5), tag(5));
	CHECK_EQ(idr_find(&idr, 10), tag(10));
	CHECK_EQ(idr_find(&idr, 0), NULL);
	CHECK_EQ(idr_find(&idr, 4), NULL);
	was = idr_snap_of(&idr);
	check_absent(&idr, 0);
	check_absent(&idr, 1);
	check_absent(&idr, 4);
	check_absent(&idr, 7);
	/* No ID below the base, and [0, 5) holds none. */
	CHECK_EQ(idr_alloc(&idr, tag(0), 0, 5, GFP), -ENOSPC);
	CHECK_EQ(idr_alloc(&idr, tag(0), 0, 6, GFP), -ENOSPC);
	CHECK_UNCHANGED(&idr, was);
	check_next(&idr, 0, 5);
	check_next(&idr, 6, 6);
	check_next(&idr, 7, 10);
	check_next_ul(&idr, 0, 5);
	check_next_ul(&idr, 11, -1);
	remove_ok(&idr, 5, tag(5));
	CHECK_EQ(idr_alloc(&idr, tag(5), 0, 0, GFP), 5);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

static void api_base_alloc(void)
{
	static const int want[] = { 3, 4 };
	struct seen s = { .stop_at = -1 };
	struct idr idr;
	uint32_t id = 0;

	idr_init_base(&idr, 3);
	CHECK_EQ(idr_alloc_u32(&idr, tag(3), &id, ULONG_MAX, GFP), 0);
	CHECK_EQ(id, 3);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(4), 0, 0, GFP), 4);
	CHECK_EQ(idr_get_cursor(&idr), 5);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_for_each(&idr, record, &s), 0);
	check_seen(&s, want, 2);
	/* Height follows ID - base: S + 2 is still in the first leaf. */
	CHECK_EQ(idr_alloc(&idr, tag(S + 2), S + 2, 0, GFP), S + 2);
	CHECK_EQ(idr__height(&idr), 1);
	CHECK_EQ(idr_alloc(&idr, tag(S + 3), S + 2, 0, GFP), S + 3);
	CHECK_EQ(idr__height(&idr), 2);
	CHECK_SOUND(&idr);
	id = UINT32_MAX;
	CHECK_EQ(idr_alloc_u32(&idr, tag(id), &id, ULONG_MAX, GFP), 0);
	CHECK(id == UINT32_MAX);
	CHECK_EQ(idr_find(&idr, UINT32_MAX), tag(UINT32_MAX));
	CHECK_EQ(idr__height(&idr), levels(UINT32_MAX - 3));
	remove_ok(&idr, UINT32_MAX, tag(UINT32_MAX));
	remove_ok(&idr, S + 3, tag(S + 3));
	CHECK_EQ(idr__height(&idr), 1);
	idr_destroy(&idr);
}

/* The lowest ID, and the highest, that make a tree of @k levels. */
static uint32_t low_id(unsigned int k)
{
	return k == 1 ? 0 : (uint32_t)1 << ((k - 1) * IDR_BITS);
}

static uint32_t high_id(unsigned int k)
{
	uint64_t id = ((uint64_t)1 << (k * IDR_BITS)) - 1;

	return id > UINT32_MAX ? UINT32_MAX : (uint32_t)id;
}

static void check_alone(uint32_t id, unsigned int k)
{
	struct idr idr;

	idr_init(&idr);
	CHECK_EQ(levels(id), k);
	alloc_at(&idr, tag(id), id);
	CHECK_EQ(idr__height(&idr), k);
	CHECK_EQ(idr_find(&idr, id), tag(id));
	check_next_ul(&idr, 0, id);
	remove_ok(&idr, id, tag(id));
	check_empty(&idr);
	idr_destroy(&idr);
}

static void api_height_each_level(void)
{
	unsigned int k;

	if (IDR_BITS == 6)
		CHECK_EQ(MAX_K, 6);
	if (IDR_BITS == 3)
		CHECK_EQ(MAX_K, 11);
	for (k = 1; k <= MAX_K; k++) {
		check_alone(low_id(k), k);
		check_alone(high_id(k), k);
	}
	if (INT_MAX >= (1L << ((MAX_K - 1) * IDR_BITS)))
		CHECK_EQ(levels(INT_MAX), MAX_K);
}

static void api_height_grow_shrink(void)
{
	struct idr idr;
	unsigned int k;

	idr_init(&idr);
	alloc_at(&idr, tag(0), 0);
	CHECK_EQ(idr__height(&idr), 1);
	for (k = 2; k <= MAX_K; k++) {
		alloc_at(&idr, tag(low_id(k)), low_id(k));
		CHECK_EQ(idr__height(&idr), k);
	}
	for (k = 1; k <= MAX_K; k++)
		CHECK_EQ(idr_find(&idr, low_id(k)), tag(low_id(k)));
	for (k = MAX_K; k >= 2; k--) {
		remove_ok(&idr, low_id(k), tag(low_id(k)));
		CHECK_EQ(idr__height(&idr), k - 1);
	}
	remove_ok(&idr, 0, tag(0));
	check_empty(&idr);
	idr_destroy(&idr);
}

static void api_height_keeps(void)
{
	uint32_t top = low_id(MAX_K);
	struct idr idr;

	idr_init(&idr);
	alloc_at(&idr, tag(0), 0);
	alloc_at(&idr, tag(top), top);
	/* Removing a low ID leaves the height to the high one. */
	remove_ok(&idr, 0, tag(0));
	CHECK_EQ(idr__height(&idr), MAX_K);
	CHECK_EQ(idr_alloc(&idr, tag(0), 0, 0, GFP), 0);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr__height(&idr), MAX_K);
	remove_ok(&idr, top, tag(top));
	CHECK_EQ(idr__height(&idr), 1);
	idr_destroy(&idr);
}

static const uint32_t mixed[] = {
	0,	 1,	     IDR_SLOTS, IDR_SLOTS *IDR_SLOTS, 12345,
	INT_MAX, UINT32_MAX, 2,		IDR_SLOTS + 1
};
#define MIXED (sizeof(mixed) / sizeof(mixed[0]))

/* Every third of the mixed IDs is a NULL entry. */
static void *mixed_val(size_t i)
{
	return i % 3 ? tag(mixed[i]) : NULL;
}

static void api_shrink_to_empty(void)
{
	struct idr idr;
	size_t i, j;

	idr_init(&idr);
	for (i = 0; i < MIXED; i++)
		alloc_at(&idr, mixed_val(i), mixed[i]);
	CHECK_EQ(idr_count(&idr), MIXED);
	/* 4 is prime to MIXED (9): a scattered order of them all. */
	for (i = 0; i < MIXED; i++) {
		j = i * 4 % MIXED;
		remove_ok(&idr, mixed[j], mixed_val(j));
	}
	check_empty(&idr);
	CHECK_EQ(idr_alloc(&idr, tag(0), 0, 0, GFP), 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/*
 * An idr or IDA emptied by removals owns no memory, as the kernel's (an
 * empty IDA needs no ida_destroy()): the nodes removals freed into its
 * cache go too.  One whose cache idr_pre_get() filled keeps it.
 */
static void api_emptied_owns_nothing(void)
{
	unsigned int far = 3 * IDR_SLOTS * IDR_SLOTS;
	struct seam_mem_stats before, after;
	DEFINE_IDR(idr);
	DEFINE_IDR(old);
	DEFINE_IDA(ida);

	seam_mem_stats(&before);
	CHECK_EQ(idr_alloc(&idr, &idr, 0, 0, GFP_KERNEL), 0);
	/* Preloaded: whole nodes, which removals cache (a lone ID's are
	 * packed, and go back to malloc). */
	idr_preload(GFP_KERNEL);
	CHECK_EQ(idr_alloc(&idr, &idr, (int)far, 0, GFP_NOWAIT), (int)far);
	idr_preload_end();
	CHECK_EQ(ida_alloc(&ida, GFP_KERNEL), 0);
	CHECK_EQ(ida_alloc_min(&ida, far * 64, GFP_KERNEL), (int)far * 64);
	/* The far branches go to the caches, the tree still in use. */
	CHECK(idr_remove(&idr, far) == &idr);
	CHECK_EQ(ida_free(&ida, far * 64), 0);
	CHECK(idr_cache_count(&idr) > 0 && idr_cache_count(&ida.ida_rt) > 0);
	CHECK(idr_remove(&idr, 0) == &idr);
	CHECK_EQ(ida_free(&ida, 0), 0);
	seam_mem_stats(&after);
	CHECK_EQ(after.bytes, before.bytes);
	CHECK_EQ(idr_cache_count(&idr) + idr_cache_count(&ida.ida_rt), 0);
	CHECK(idr_pre_get(&old, GFP_KERNEL));
	CHECK_EQ(idr_alloc(&old, &old, 0, 0, GFP_KERNEL), 0);
	CHECK(idr_remove(&old, 0) == &old);
	CHECK(idr_cache_count(&old) > 0);
	idr_destroy(&old);
}

static void api_destroy(void)
{
	struct idr idr;

	idr_init_base(&idr, 2);
	CHECK_EQ(idr_alloc(&idr, tag(2), 0, 0, GFP), 2);
	CHECK_EQ(idr_alloc(&idr, NULL, 0, 0, GFP), 3);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(S * S + 2), S * S + 2, 0, GFP),
		 S * S + 2);
	CHECK_SOUND(&idr);
	idr_set_cursor(&idr, 42);
	idr_destroy(&idr);
	check_empty(&idr);
	CHECK_EQ(idr_find(&idr, 2), NULL);
	CHECK_EQ(idr_get_cursor(&idr), 42);
	idr_destroy(&idr);
	check_empty(&idr);
	CHECK_EQ(idr_get_cursor(&idr), 42);
	/* Reusable, with the base kept. */
	CHECK_EQ(idr_alloc(&idr, tag(2), 0, 0, GFP), 2);
	CHECK_EQ(idr_alloc_cyclic(&idr, tag(42), 0, 0, GFP), 42);
	CHECK_SOUND(&idr);
	CHECK_EQ(idr_find(&idr, 2), tag(2));
	idr_destroy(&idr);
	idr_destroy(&idr);
	check_empty(&idr);
}

#define DENSE 100000
#define SCATTER 7919UL /* prime to DENSE: i * SCATTER % DENSE permutes */
/* idr_check is O(nodes): checking every 1024th step keeps this fast. */
#define SOUND_EVERY 1024

static bool dense_fill(struct idr *idr)
{
	int id;

	for (id = 0; id < DENSE; id++) {
		if (!CHECK_EQ(idr_alloc(idr, tag(id), 0, 0, GFP), id))
			return false;
		if (id % SOUND_EVERY == 0)
			CHECK_SOUND(idr);
	}
	CHECK_SOUND(idr);
	CHECK_EQ(idr_count(idr), DENSE);
	CHECK_EQ(idr__height(idr), levels(DENSE - 1));
	for (id = 0; id < DENSE; id++)
		if (!CHECK_EQ(idr_find(idr, (unsigned long)id), tag(id)))
			return false;
	CHECK_EQ(idr_find(idr, DENSE), NULL);
	return true;
}

/* Remove the permutation's steps [@from, @to); false on a mismatch. */
static bool dense_remove(struct idr *idr, unsigned char *gone,
			 unsigned long from, unsigned long to)
{
	unsigned long i, id;

	for (i = from; i < to; i++) {
		id = i * SCATTER % DENSE;
		if (!CHECK_EQ(idr_remove(idr, id), tag(id)))
			return false;
		gone[id] = 1;
		if (i % SOUND_EVERY == 0)
			CHECK_SOUND(idr);
	}
	CHECK_SOUND(idr);
	return true;
}

/* Half removed: the rest is intact and the lowest hole is reused. */
static void dense_check_half(struct idr *idr, const unsigned char *gone)
{
	unsigned long id, low = DENSE;

	for (id = DENSE; id-- > 0;) {
		if (gone[id])
			low = id;
		if (!CHECK_EQ(idr_find(idr, id), gone[id] ? NULL : tag(id)))
			return;
	}
	CHECK_EQ(idr_count(idr), DENSE - DENSE / 2);
	CHECK_EQ(idr_alloc(idr, alt(low), 0, 0, GFP), low);
	CHECK_SOUND(idr);
	CHECK_EQ(idr_remove(idr, low), alt(low));
	CHECK_SOUND(idr);
}

static void api_dense(void)
{
	static unsigned char gone[DENSE];
	struct idr idr;

	memset(gone, 0, sizeof(gone));
	idr_init(&idr);
	if (dense_fill(&idr) && dense_remove(&idr, gone, 0, DENSE / 2)) {
		dense_check_half(&idr, gone);
		dense_remove(&idr, gone, DENSE / 2, DENSE);
		check_empty(&idr);
	}
	idr_destroy(&idr);
}

static void *iter_val(int k)
{
	return (void *)(uintptr_t)(8 * k + 8);
}

/*
 * A body that destroys the idr, initialises it again @inits times and
 * then changes it as often as it had been changed: the loop goes on in
 * the new tree from the next ID, as the kernel's loop of idr_get_next()
 * calls does, and never reads the freed leaf (ASan and valgrind see it
 * if it does).
 */
static void iter_across_inits(long inits)
{
	struct idr idr;
	void *entry;
	int id, k, seen = 0, want = 2;
	long n;

	idr_init(&idr);
	for (k = 0; k < 10; k++)
		CHECK_EQ(idr_alloc(&idr, iter_val(k), 0, 0, GFP), k);
	idr_for_each_entry(&idr, entry, id) {
		if (id == 0) {
			idr_destroy(&idr);
			for (n = 0; n < inits; n++)
				idr_init(&idr);
			for (k = 2; k < 12; k++)
				CHECK_EQ(idr_alloc(&idr, iter_val(100 + k), k,
						   0, GFP),
					 k);
			continue;
		}
		CHECK_EQ(id, want);
		CHECK(entry == iter_val(100 + id));
		want++;
		seen++;
	}
	CHECK_EQ(seen, 10);
	idr_destroy(&idr);
}

static void iter_survives_destroy_and_init(void)
{
	iter_across_inits(1);
}

/*
 * The same after 65536 idr_init()s: counts of changes that each init
 * spaced 2^48 apart wrapped there, and the new tree's count, once it
 * changed as often as the old one, was the old one's again (ASan saw
 * the inline iterator read the freed leaf).
 */
static void iter_survives_many_inits(void)
{
	iter_across_inits(65536);
}

void suite_api(void)
{
	RUN(iter_survives_destroy_and_init);
	RUN(iter_survives_many_inits);
	RUN(api_err_ptr);
	RUN(api_init);
	RUN(api_empty);
	RUN(api_alloc_lowest);
	RUN(api_alloc_bad_ranges);
	RUN(api_alloc_int_max);
	RUN(api_alloc_full_range);
	RUN(api_fill_leaf);
	RUN(api_fill_two_levels);
	RUN(api_absent_ids);
	RUN(api_replace);
	RUN(api_null_entries);
	RUN(api_get_next);
	RUN(api_get_next_ul);
	RUN(api_for_each);
	RUN(api_for_each_remove_self);
	RUN(api_for_each_remove_next);
	RUN(api_for_each_entry);
	RUN(api_for_each_entry_remove);
	RUN(api_for_each_entry_nested);
	RUN(api_for_each_entry_set_cursor);
	RUN(api_for_each_entry_continue);
	RUN(api_for_each_entry_ul);
	RUN(api_is_empty_count);
	RUN(api_alloc_u32_basic);
	RUN(api_alloc_u32_high);
	RUN(api_alloc_u32_for_each);
	RUN(api_cyclic_basic);
	RUN(api_cyclic_wrap);
	RUN(api_cyclic_cursor);
	RUN(api_cyclic_int_max);
	RUN(api_cyclic_errors);
	RUN(api_base_find);
	RUN(api_base_alloc);
	RUN(api_height_each_level);
	RUN(api_height_grow_shrink);
	RUN(api_height_keeps);
	RUN(api_shrink_to_empty);
	RUN(api_emptied_owns_nothing);
	RUN(api_destroy);
	RUN(api_dense);
}
