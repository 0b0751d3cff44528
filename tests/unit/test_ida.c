/* SPDX-License-Identifier: MIT */
/*
 * test_ida.c - the IDA: IDs without pointers, a bit each when dense.
 * Edges at word, bitmap and leaf boundaries and at INT_MAX, errors that
 * change nothing, memory per ID, fault injection, a long random
 * sequence held to model.c's sorted array (NULL values), and threads
 * with no lock of their own, as the kernel's IDA allows.
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "model.h"
#include "seam.h"
#include "tree.h"

#define GFP GFP_KERNEL
#define BITS IDA_BITMAP_BITS
#define CHECK_IDA(ida) CHECK_EQ(ida_check(ida), 0)

/* What "the IDA is unchanged" compares, cheaply. */
struct ida_snap {
	unsigned long count;
	int first;
	size_t bytes;
};

static struct ida_snap ida_snap_of(const struct ida *ida)
{
	struct seam_mem_stats m;
	struct ida_snap s;

	seam_mem_stats(&m);
	s.count = ida_count(ida);
	s.first = ida_find_first(ida);
	s.bytes = m.bytes;
	return s;
}

static bool ida_same(const struct ida *ida, struct ida_snap was)
{
	struct ida_snap now = ida_snap_of(ida);

	return now.count == was.count && now.first == was.first &&
	       now.bytes == was.bytes && ida_check(ida) == 0;
}

#define CHECK_IDA_UNCHANGED(ida, was) CHECK(ida_same((ida), (was)))

/* Allocate exactly @id, which must be free. */
static bool alloc_at(struct ida *ida, unsigned int id)
{
	return CHECK_EQ(ida_alloc_range(ida, id, id, GFP), id) &&
	       CHECK(ida_exists(ida, id)) && CHECK_IDA(ida);
}

static void ida_bitmap_size(void)
{
	CHECK_EQ(IDA_BITMAP_BITS, IDR_SLOTS * 64);
}

static void ida_empty_and_basics(void)
{
	struct ida ida2;
	DEFINE_IDA(ida);
	int i;

	CHECK(ida_is_empty(&ida));
	CHECK_EQ(ida_count(&ida), 0);
	CHECK_EQ(ida_find_first(&ida), -ENOENT);
	CHECK_EQ(ida_find_first_range(&ida, 0, UINT_MAX), -ENOENT);
	CHECK(!ida_exists(&ida, 0));
	CHECK(!ida_exists(&ida, INT_MAX));
	CHECK(!ida_exists(&ida, UINT_MAX));
	CHECK_IDA(&ida);

	for (i = 0; i < 10; i++) {
		CHECK_EQ(ida_alloc(&ida, GFP), i);
		CHECK_IDA(&ida);
	}
	CHECK_EQ(ida_count(&ida), 10);
	CHECK(!ida_is_empty(&ida));
	CHECK_EQ(ida_find_first(&ida), 0);

	/* Freed IDs come back lowest first. */
	CHECK_EQ(ida_free(&ida, 3), 0);
	CHECK_IDA(&ida);
	CHECK(!ida_exists(&ida, 3));
	CHECK_EQ(ida_alloc(&ida, GFP), 3);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_free(&ida, 5), 0);
	CHECK_EQ(ida_free(&ida, 0), 0);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_find_first(&ida), 1);
	CHECK_EQ(ida_count(&ida), 8);
	CHECK_EQ(ida_alloc(&ida, GFP), 0);
	CHECK_EQ(ida_alloc(&ida, GFP), 5);
	CHECK_EQ(ida_alloc(&ida, GFP), 10);
	CHECK_EQ(ida_alloc_min(&ida, 4, GFP), 11);
	CHECK_EQ(ida_alloc_max(&ida, 100, GFP), 12);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_count(&ida), 13);

	/* Destroyed, it is empty and works again. */
	ida_destroy(&ida);
	CHECK_IDA(&ida);
	CHECK(ida_is_empty(&ida));
	CHECK_EQ(ida_count(&ida), 0);
	CHECK(!ida_exists(&ida, 0));
	CHECK_EQ(ida_find_first(&ida), -ENOENT);
	CHECK_EQ(ida_alloc(&ida, GFP), 0);
	CHECK_IDA(&ida);
	ida_destroy(&ida);
	ida_destroy(&ida);
	CHECK_IDA(&ida);

	ida_init(&ida2);
	CHECK(ida_is_empty(&ida2));
	CHECK_EQ(ida_alloc_min(&ida2, 7, GFP), 7);
	CHECK_EQ(ida_find_first(&ida2), 7);
	CHECK_IDA(&ida2);
	ida_destroy(&ida2);
	CHECK(ida_is_empty(&ida2));
}

/* The range arguments: inclusive, clamped at INT_MAX, empty ranges. */
static void ida_range_arguments(void)
{
	struct ida_snap was;
	DEFINE_IDA(ida);

	CHECK_EQ(ida_alloc_range(&ida, 5, 5, GFP), 5);
	CHECK_IDA(&ida);
	was = ida_snap_of(&ida);
	CHECK_EQ(ida_alloc_range(&ida, 5, 5, GFP), -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, 6, 5, GFP), -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, 100, 0, GFP), -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, (unsigned int)INT_MAX + 1, UINT_MAX, GFP),
		 -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, UINT_MAX, UINT_MAX, GFP), -ENOSPC);
	CHECK_EQ(ida_alloc_min(&ida, (unsigned int)INT_MAX + 1, GFP), -ENOSPC);
	CHECK_EQ(ida_alloc_min(&ida, UINT_MAX, GFP), -ENOSPC);
	CHECK_IDA_UNCHANGED(&ida, was);

	CHECK_EQ(ida_alloc_range(&ida, 4, 6, GFP), 4);
	CHECK_EQ(ida_alloc_range(&ida, 4, 6, GFP), 6);
	CHECK_IDA(&ida);
	was = ida_snap_of(&ida);
	CHECK_EQ(ida_alloc_range(&ida, 4, 6, GFP), -ENOSPC);
	CHECK_IDA_UNCHANGED(&ida, was);

	CHECK_EQ(ida_alloc_max(&ida, 0, GFP), 0);
	CHECK_IDA(&ida);
	was = ida_snap_of(&ida);
	CHECK_EQ(ida_alloc_max(&ida, 0, GFP), -ENOSPC);
	CHECK_IDA_UNCHANGED(&ida, was);
	CHECK_EQ(ida_alloc_max(&ida, 6, GFP), 1);
	CHECK_EQ(ida_alloc_max(&ida, UINT_MAX, GFP), 2);

	/* A max above INT_MAX means INT_MAX. */
	CHECK_EQ(ida_alloc_range(&ida, INT_MAX, UINT_MAX, GFP), INT_MAX);
	CHECK_IDA(&ida);
	was = ida_snap_of(&ida);
	CHECK_EQ(ida_alloc_range(&ida, INT_MAX, UINT_MAX, GFP), -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, INT_MAX, (unsigned int)INT_MAX + 1, GFP),
		 -ENOSPC);
	CHECK_IDA_UNCHANGED(&ida, was);
	CHECK(!ida_exists(&ida, (unsigned int)INT_MAX + 1));
	CHECK_EQ(ida_count(&ida), 7);
	ida_destroy(&ida);
}

/* Bad frees return -ENOENT and change nothing. */
static void ida_bad_free(void)
{
	struct ida_snap was;
	DEFINE_IDA(ida);

	was = ida_snap_of(&ida);
	CHECK_EQ(ida_free(&ida, 0), -ENOENT);
	CHECK_EQ(ida_free(&ida, INT_MAX), -ENOENT);
	CHECK_EQ(ida_free(&ida, UINT_MAX), -ENOENT);
	CHECK_IDA_UNCHANGED(&ida, was);

	alloc_at(&ida, 1);
	alloc_at(&ida, BITS + 1);
	was = ida_snap_of(&ida);
	/* In a bitmap, in none, and beyond what the tree covers. */
	CHECK_EQ(ida_free(&ida, 0), -ENOENT);
	CHECK_EQ(ida_free(&ida, 2), -ENOENT);
	CHECK_EQ(ida_free(&ida, BITS), -ENOENT);
	CHECK_EQ(ida_free(&ida, 2 * BITS + 1), -ENOENT);
	CHECK_EQ(ida_free(&ida, 1u << 30), -ENOENT);
	CHECK_EQ(ida_free(&ida, (unsigned int)INT_MAX + 2), -ENOENT);
	CHECK_EQ(ida_free(&ida, UINT_MAX), -ENOENT);
	CHECK_IDA_UNCHANGED(&ida, was);
	CHECK(ida_exists(&ida, 1));
	CHECK(ida_exists(&ida, BITS + 1));

	CHECK_EQ(ida_free(&ida, 1), 0);
	CHECK_IDA(&ida);
	was = ida_snap_of(&ida);
	CHECK_EQ(ida_free(&ida, 1), -ENOENT); /* twice */
	CHECK_IDA_UNCHANGED(&ida, was);
	CHECK_EQ(ida_count(&ida), 1);
	CHECK_EQ(ida_free(&ida, BITS + 1), 0);
	CHECK_IDA(&ida);
	CHECK(ida_is_empty(&ida));
	was = ida_snap_of(&ida);
	CHECK_EQ(ida_free(&ida, BITS + 1), -ENOENT);
	CHECK_IDA_UNCHANGED(&ida, was);
	ida_destroy(&ida);
}

/* Both sides of boundary @b (b - 1 and b), from empty. */
static void boundary(unsigned int b)
{
	DEFINE_IDA(ida);

	alloc_at(&ida, b);
	CHECK(!ida_exists(&ida, b - 1));
	CHECK(!ida_exists(&ida, b + 1));
	CHECK_EQ(ida_find_first(&ida), b);
	CHECK_EQ(ida_find_first_range(&ida, b, b), b);
	CHECK_EQ(ida_find_first_range(&ida, 0, b - 1), -ENOENT);
	CHECK_EQ(ida_find_first_range(&ida, b + 1, UINT_MAX), -ENOENT);
	CHECK_EQ(ida_find_first_range(&ida, b - 1, b + 1), b);

	/* The lowest free in [b - 1, b + 1], across the boundary. */
	CHECK_EQ(ida_alloc_range(&ida, b - 1, b + 1, GFP), b - 1);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_alloc_range(&ida, b - 1, b + 1, GFP), b + 1);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_alloc_range(&ida, b - 1, b + 1, GFP), -ENOSPC);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_count(&ida), 3);
	CHECK_EQ(ida_find_first_range(&ida, 0, UINT_MAX), b - 1);

	CHECK_EQ(ida_free(&ida, b - 1), 0);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_find_first(&ida), b);
	CHECK_EQ(ida_alloc_min(&ida, b - 1, GFP), b - 1);
	CHECK_EQ(ida_free(&ida, b), 0);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_find_first_range(&ida, b, UINT_MAX), b + 1);
	CHECK_EQ(ida_alloc_min(&ida, b - 1, GFP), b);
	CHECK_EQ(ida_free(&ida, b + 1), 0);
	CHECK_EQ(ida_free(&ida, b - 1), 0);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_find_first(&ida), b);
	CHECK_EQ(ida_free(&ida, b), 0);
	CHECK_IDA(&ida);
	CHECK(ida_is_empty(&ida));
	CHECK_EQ(ida_find_first(&ida), -ENOENT);
	ida_destroy(&ida);
}

static void ida_boundaries(void)
{
	unsigned int bs[] = {
		64,
		128,
		1024,
		BITS - 64,
		BITS,
		2 * BITS,
		BITS * IDR_SLOTS,
		BITS * IDR_SLOTS * IDR_SLOTS,
		1u << 24,
		1u << 30,
		INT_MAX - 1,
	};
	size_t i;

	for (i = 0; i < sizeof(bs) / sizeof(bs[0]); i++)
		boundary(bs[i]);
}

/* The top of the range: INT_MAX is an ID, INT_MAX + 1 is not. */
static void ida_int_max(void)
{
	struct ida_snap was;
	DEFINE_IDA(ida);

	CHECK_EQ(ida_alloc_min(&ida, INT_MAX, GFP), INT_MAX);
	CHECK_IDA(&ida);
	was = ida_snap_of(&ida);
	CHECK_EQ(ida_alloc_min(&ida, INT_MAX, GFP), -ENOSPC);
	CHECK_IDA_UNCHANGED(&ida, was);
	CHECK(ida_exists(&ida, INT_MAX));
	CHECK(!ida_exists(&ida, (unsigned int)INT_MAX + 1));
	CHECK(!ida_exists(&ida, UINT_MAX));
	CHECK_EQ(ida_find_first(&ida), INT_MAX);
	CHECK_EQ(ida_find_first_range(&ida, INT_MAX, INT_MAX), INT_MAX);
	CHECK_EQ(ida_find_first_range(&ida, INT_MAX, UINT_MAX), INT_MAX);
	CHECK_EQ(ida_find_first_range(&ida, 0, INT_MAX - 1), -ENOENT);
	CHECK_EQ(ida_find_first_range(&ida, (unsigned int)INT_MAX + 1, UINT_MAX),
		 -EINVAL);
	CHECK_EQ(ida_find_first_range(&ida, UINT_MAX, UINT_MAX), -EINVAL);
	CHECK_EQ(ida_find_first_range(&ida, INT_MAX, 0), -ENOENT);

	CHECK_EQ(ida_alloc_min(&ida, INT_MAX - 1, GFP), INT_MAX - 1);
	CHECK_EQ(ida_alloc(&ida, GFP), 0);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_count(&ida), 3);
	CHECK_EQ(ida_find_first_range(&ida, 1, UINT_MAX), INT_MAX - 1);
	CHECK_EQ(ida_free(&ida, INT_MAX), 0);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_alloc_min(&ida, INT_MAX - 1, GFP), INT_MAX);
	CHECK_EQ(ida_free(&ida, 0), 0);
	CHECK_EQ(ida_free(&ida, INT_MAX - 1), 0);
	CHECK_EQ(ida_free(&ida, INT_MAX), 0);
	CHECK_IDA(&ida);
	CHECK(ida_is_empty(&ida));
	ida_destroy(&ida);
}

/* A full bitmap is skipped; a range inside it has nothing free. */
static void ida_full_bitmap(void)
{
	struct ida_snap was;
	DEFINE_IDA(ida);
	unsigned int i;

	for (i = 0; i < BITS; i++) {
		CHECK_EQ(ida_alloc(&ida, GFP), i);
		CHECK_IDA(&ida);
	}
	CHECK_EQ(ida_count(&ida), BITS);
	was = ida_snap_of(&ida);
	CHECK_EQ(ida_alloc_range(&ida, 0, BITS - 1, GFP), -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, 100, BITS - 1, GFP), -ENOSPC);
	CHECK_EQ(ida_alloc_max(&ida, BITS - 1, GFP), -ENOSPC);
	CHECK_IDA_UNCHANGED(&ida, was);

	CHECK_EQ(ida_alloc_range(&ida, 100, UINT_MAX, GFP), BITS);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_alloc_range(&ida, 5, BITS + 1, GFP), BITS + 1);
	CHECK_EQ(ida_alloc_range(&ida, BITS - 1, BITS + 3, GFP), BITS + 2);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_free(&ida, 77), 0);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_alloc_range(&ida, 100, UINT_MAX, GFP), BITS + 3);
	CHECK_EQ(ida_alloc(&ida, GFP), 77);
	CHECK_EQ(ida_alloc(&ida, GFP), BITS + 4);
	CHECK_IDA(&ida);

	/* The second bitmap full too, the search goes on to the third. */
	for (i = BITS + 5; i < 2 * BITS; i++)
		CHECK_EQ(ida_alloc_min(&ida, BITS / 2, GFP), i);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_count(&ida), 2 * BITS);
	CHECK_EQ(ida_alloc_min(&ida, 1, GFP), 2 * BITS);
	CHECK_EQ(ida_alloc_range(&ida, BITS - 1, 2 * BITS + 5, GFP),
		 2 * BITS + 1);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_free(&ida, BITS - 1), 0);
	CHECK_EQ(ida_free(&ida, BITS), 0);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_alloc_min(&ida, 2, GFP), BITS - 1);
	CHECK_EQ(ida_alloc_min(&ida, 2, GFP), BITS);
	CHECK_EQ(ida_alloc_min(&ida, 2, GFP), 2 * BITS + 2);
	CHECK_EQ(ida_count(&ida), 2 * BITS + 3);
	CHECK_IDA(&ida);
	ida_destroy(&ida);
}

/* Free bits below @min do not count: the search goes on past them. */
static void ida_free_below_min(void)
{
	struct ida_snap was;
	DEFINE_IDA(ida);
	unsigned int i;

	for (i = 100; i < BITS; i++)
		CHECK_EQ(ida_alloc_min(&ida, 100, GFP), i);
	CHECK_IDA(&ida);
	was = ida_snap_of(&ida);
	CHECK_EQ(ida_alloc_range(&ida, 100, BITS - 1, GFP), -ENOSPC);
	CHECK_EQ(ida_alloc_range(&ida, BITS - 1, BITS - 1, GFP), -ENOSPC);
	CHECK_IDA_UNCHANGED(&ida, was);
	CHECK_EQ(ida_alloc_range(&ida, 100, UINT_MAX, GFP), BITS);
	CHECK_EQ(ida_alloc_range(&ida, 99, UINT_MAX, GFP), 99);
	CHECK_EQ(ida_alloc(&ida, GFP), 0);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_find_first_range(&ida, 1, BITS), 99);
	CHECK_EQ(ida_find_first_range(&ida, 1, 98), -ENOENT);
	CHECK_EQ(ida_count(&ida), BITS - 100 + 3);
	ida_destroy(&ida);
}

/* A whole leaf of full bitmaps: the full bits reach the next level. */
static void ida_full_leaf(void)
{
	unsigned int i, n = BITS * IDR_SLOTS;
	DEFINE_IDA(ida);

	for (i = 0; i < n; i++)
		if (!CHECK_EQ(ida_alloc(&ida, GFP), i) ||
		    (i % BITS == 0 && !CHECK_IDA(&ida)))
			break;
	CHECK_IDA(&ida);
	CHECK_EQ(ida_count(&ida), n);
	CHECK_EQ(ida_alloc_max(&ida, n - 1, GFP), -ENOSPC);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_alloc(&ida, GFP), n);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_free(&ida, n / 2 + 3), 0);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_alloc(&ida, GFP), n / 2 + 3);
	CHECK_EQ(ida_alloc(&ida, GFP), n + 1);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_find_first_range(&ida, n - 1, UINT_MAX), n - 1);
	CHECK_EQ(ida_count(&ida), n + 2);
	ida_destroy(&ida);
	CHECK(ida_is_empty(&ida));
}

/* About one bit per ID when dense. */
static void ida_dense_memory(void)
{
	struct seam_mem_stats before, after;
	unsigned int i, n = 100000;
	double per_id;
	DEFINE_IDA(ida);

	seam_mem_stats(&before);
	for (i = 0; i < n; i++)
		if (!CHECK_EQ(ida_alloc(&ida, GFP), i))
			break;
	CHECK_IDA(&ida);
	CHECK_EQ(ida_count(&ida), n);
	seam_mem_stats(&after);
	per_id = (double)(after.bytes - before.bytes) / n;
	printf("# ida: %u dense IDs, %.3f bytes per ID\n", n, per_id);
#if IDR_BITS == 6
	CHECK(per_id < 0.2);
#else
	CHECK(per_id < 1.0);
#endif
	for (i = 0; i < n; i += 2)
		CHECK_EQ(ida_free(&ida, i), 0);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_count(&ida), n / 2);
	CHECK_EQ(ida_find_first(&ida), 1);
	ida_destroy(&ida);
	seam_mem_stats(&after);
	CHECK_EQ(after.bytes, before.bytes);
}

/* With every malloc failing, an allocation that needs memory fails. */
static void ida_fault_enomem(void)
{
	struct ida_snap was;
	DEFINE_IDA(ida);
	unsigned int i;

	was = ida_snap_of(&ida);
	seam_fault_inject(0, ULONG_MAX);
	CHECK_EQ(ida_alloc(&ida, GFP), -ENOMEM);
	seam_fault_inject(0, 0);
	CHECK_IDA_UNCHANGED(&ida, was);
	CHECK(ida_is_empty(&ida));
	CHECK(!ida_exists(&ida, 0));

	for (i = 0; i < BITS; i++)
		CHECK_EQ(ida_alloc(&ida, GFP), i);
	CHECK_IDA(&ida);
	was = ida_snap_of(&ida);
	seam_fault_inject(0, ULONG_MAX);
	CHECK_EQ(ida_alloc(&ida, GFP), -ENOMEM);
	CHECK_EQ(ida_alloc_min(&ida, INT_MAX, GFP), -ENOMEM);
	CHECK_EQ(ida_alloc_range(&ida, 5 * BITS, 6 * BITS, GFP), -ENOMEM);
	seam_fault_inject(0, 0);
	CHECK_IDA_UNCHANGED(&ida, was);
	CHECK_EQ(ida_count(&ida), BITS);
	CHECK(!ida_exists(&ida, BITS));
	CHECK(!ida_exists(&ida, INT_MAX));
	CHECK(!ida_exists(&ida, 5 * BITS));
	CHECK(ida_exists(&ida, BITS - 1));

	/* Allowed again, the same calls succeed. */
	CHECK_EQ(ida_alloc(&ida, GFP), BITS);
	CHECK_EQ(ida_alloc_min(&ida, INT_MAX, GFP), INT_MAX);
	CHECK_EQ(ida_alloc_range(&ida, 5 * BITS, 6 * BITS, GFP), 5 * BITS);
	CHECK_IDA(&ida);
	CHECK_EQ(ida_count(&ida), BITS + 3);
	ida_destroy(&ida);
}

/* idr_preload() covers an IDA allocation: no malloc under the "lock". */
static void ida_preload(void)
{
	struct seam_mem_stats a, b;
	DEFINE_IDA(ida);

	idr_preload(GFP_KERNEL);
	seam_mem_stats(&a);
	seam_fault_inject(0, ULONG_MAX);
	CHECK_EQ(ida_alloc_min(&ida, INT_MAX, GFP_NOWAIT), INT_MAX);
	seam_fault_inject(0, 0);
	seam_mem_stats(&b);
	CHECK_EQ(b.allocs, a.allocs);
	CHECK_IDA(&ida);
	idr_preload_end();
	CHECK(ida_exists(&ida, INT_MAX));
	ida_destroy(&ida);
}

/* {==================== Fault injection, each allocation ================ */

#define FAULT_STEPS 400

struct fscene {
	struct ida ida;
	struct model model;
	uint64_t rng;
	unsigned long enomem;
};

static unsigned int fscene_id(struct fscene *s)
{
	static const unsigned int anchors[] = {
		0, 60, 1000, 70000, 1u << 22, 1u << 28, INT_MAX - 40,
	};

	if (rnd_below(&s->rng, 3) == 0)
		return (unsigned int)(rnd_next(&s->rng) & INT_MAX);
	return anchors[rnd_below(&s->rng, 7)] +
	       (unsigned int)rnd_below(&s->rng, 40);
}

static bool fscene_step(struct fscene *s, unsigned long i)
{
	unsigned int min, max;
	int got;

	if (i % 3 == 2 && s->model.n) {
		unsigned int id = s->model.ids[rnd_below(&s->rng, s->model.n)];

		return CHECK_EQ(ida_free(&s->ida, id),
				model_ida_free(&s->model, id));
	}
	min = fscene_id(s);
	max = rnd_below(&s->rng, 2) ? UINT_MAX : min + 50;
	got = ida_alloc_range(&s->ida, min, max, GFP);
	if (got == -ENOMEM) {
		s->enomem++;
		return CHECK(model_ida_matches(&s->model, &s->ida));
	}
	return CHECK_EQ(got, model_ida_alloc(&s->model, min, max));
}

/*
 * The scenario, with allocations after @skip failing @count times.  IDs
 * are spread so that allocations add bitmaps and paths, and frees empty
 * them again.
 */
static unsigned long fscene_run(unsigned long skip, unsigned long count)
{
	struct fscene s = { .rng = 7 };
	unsigned long i;

	ida_init(&s.ida);
	seam_fault_inject(skip, count);
	for (i = 0; i < FAULT_STEPS; i++)
		if (!fscene_step(&s, i) || !CHECK_IDA(&s.ida)) {
			fprintf(stderr, "ida fault: skip %lu: step %lu\n", skip,
				i);
			break;
		}
	seam_fault_inject(0, 0);
	CHECK(model_ida_matches(&s.model, &s.ida));
	ida_destroy(&s.ida);
	model_free(&s.model);
	return s.enomem;
}

/* The n-th allocation fails, for every n: one -ENOMEM, nothing lost. */
static void ida_fault_each_allocation(void)
{
	fault_each_allocation_of("ida fault", fscene_run);
}

/* }==================== Fault injection, each allocation ================ */

/* {==================== The differential test ==================== */

#define STEPS_PER_SEED 100000

struct drun {
	struct ida ida;
	struct model model;
	uint64_t rng;
	unsigned long step;
	size_t live_cap;
	bool filling; /* frees wait until live_cap IDs live */
	unsigned int anchors[10];
};

/* Near 0, near word, bitmap and leaf boundaries, and around INT_MAX. */
static unsigned int pick_id(struct drun *r)
{
	unsigned int a = r->anchors[rnd_below(&r->rng, 10)];

	if (rnd_below(&r->rng, 4) == 0)
		a = 0;
	return a + (unsigned int)rnd_below(&r->rng, 300);
}

static unsigned int pick_live(struct drun *r)
{
	if (r->model.n && rnd_below(&r->rng, 4))
		return r->model.ids[rnd_below(&r->rng, r->model.n)];
	return pick_id(r);
}

static unsigned int pick_max(struct drun *r, unsigned int min)
{
	switch (rnd_below(&r->rng, 6)) {
	case 0:
		return UINT_MAX;
	case 1:
		return INT_MAX;
	case 2:
		return min - (unsigned int)rnd_below(&r->rng, 3);
	case 3:
		return min;
	default:
		return min + (unsigned int)rnd_below(&r->rng, 400);
	}
}

static bool step_alloc(struct drun *r)
{
	unsigned int min = pick_id(r), max = pick_max(r, min);

	switch (rnd_below(&r->rng, 8)) {
	case 0:
		return CHECK_EQ(ida_alloc(&r->ida, GFP),
				model_ida_alloc(&r->model, 0, INT_MAX));
	case 1:
		return CHECK_EQ(ida_alloc_min(&r->ida, min, GFP),
				model_ida_alloc(&r->model, min, INT_MAX));
	case 2:
		return CHECK_EQ(ida_alloc_max(&r->ida, max, GFP),
				model_ida_alloc(&r->model, 0, max));
	default:
		return CHECK_EQ(ida_alloc_range(&r->ida, min, max, GFP),
				model_ida_alloc(&r->model, min, max));
	}
}

static bool step_free(struct drun *r)
{
	unsigned int id = pick_live(r);

	return CHECK_EQ(ida_free(&r->ida, id), model_ida_free(&r->model, id));
}

static bool step_exists(struct drun *r)
{
	unsigned int id = pick_live(r) + (unsigned int)rnd_below(&r->rng, 2);

	return CHECK_EQ(ida_exists(&r->ida, id), model_has(&r->model, id));
}

static bool step_first(struct drun *r)
{
	unsigned int min = pick_live(r), max = pick_max(r, min);

	if (rnd_below(&r->rng, 10) == 0)
		return CHECK_EQ(ida_find_first(&r->ida),
				model_ida_first(&r->model, 0, INT_MAX));
	return CHECK_EQ(ida_find_first_range(&r->ida, min, max),
			model_ida_first(&r->model, min, max));
}

static bool step_destroy(struct drun *r)
{
	ida_destroy(&r->ida);
	r->model.n = 0;
	return CHECK(ida_is_empty(&r->ida));
}

typedef bool (*dstep_fn)(struct drun *);

static const dstep_fn dsteps[] = {
	step_alloc, step_alloc, step_alloc,  step_free,
	step_free,  step_free,	step_exists, step_first,
};

/*
 * The live count rises to a random cap with frees held back, then falls
 * to a quarter of it: dense runs fill whole bitmaps now and then.
 */
static bool dstep(struct drun *r)
{
	dstep_fn fn =
		dsteps[rnd_below(&r->rng, sizeof(dsteps) / sizeof(dsteps[0]))];
	bool changes;

	if (r->filling && fn == step_free)
		fn = step_alloc;
	else if (!r->filling && fn == step_alloc && rnd_below(&r->rng, 2))
		fn = step_free;
	if (r->filling && r->model.n >= r->live_cap) {
		r->filling = false;
	} else if (!r->filling && r->model.n <= r->live_cap / 4) {
		r->filling = true;
		r->live_cap = 16u << rnd_below(&r->rng, 10);
	}
	if (rnd_below(&r->rng, 50000) == 0)
		fn = step_destroy;
	changes = fn == step_alloc || fn == step_free || fn == step_destroy;
	if (!fn(r) || (changes && !CHECK_IDA(&r->ida)))
		return false;
	return r->step % 2048 || CHECK(model_ida_matches(&r->model, &r->ida));
}

static void ida_seed(uint64_t seed)
{
	struct drun r = { .rng = seed, .live_cap = 256, .filling = true };
	const unsigned int a[10] = {
		0,
		50,
		1000,
		BITS - 150,
		2 * BITS - 150,
		5 * BITS - 150,
		BITS * IDR_SLOTS - 150,
		1u << 24,
		INT_MAX - 400,
		INT_MAX - 200,
	};

	memcpy(r.anchors, a, sizeof(a));
	ida_init(&r.ida);
	for (r.step = 0; r.step < STEPS_PER_SEED; r.step++)
		if (!dstep(&r)) {
			fprintf(stderr,
				"ida model: seed %llu: differs at step "
				"%lu\n",
				(unsigned long long)seed, r.step);
			break;
		}
	CHECK(model_ida_matches(&r.model, &r.ida));
	ida_destroy(&r.ida);
	model_free(&r.model);
}

/* Threads sharing one IDA with no lock of their own (the kernel's IDA
 * takes its own): every ID handed out once, the frees between them. */
#define SHARED_IDS 20000u
#define SHARERS 4u

static struct ida shared = IDA_INIT(shared);

static void *sharer(void *arg)
{
	int *got = arg;
	unsigned int i;

	for (i = 0; i < SHARED_IDS; i++) {
		got[i] = ida_alloc(&shared, GFP);
		/* Every other one back and again: frees race allocations. */
		if (i % 2 && got[i] >= 0 &&
		    !ida_free(&shared, (unsigned int)got[i]))
			got[i] = ida_alloc(&shared, GFP);
		(void)ida_exists(&shared, (unsigned int)i);
	}
	return NULL;
}

static void ida_threads_need_no_lock(void)
{
	static int got[SHARERS][SHARED_IDS];
	static unsigned char seen[SHARERS * SHARED_IDS];
	pthread_t t[SHARERS];
	unsigned int k, i, dups = 0;

	for (k = 0; k < SHARERS; k++)
		CHECK_EQ(pthread_create(&t[k], NULL, sharer, got[k]), 0);
	for (k = 0; k < SHARERS; k++)
		CHECK_EQ(pthread_join(t[k], NULL), 0);
	for (k = 0; k < SHARERS; k++)
		for (i = 0; i < SHARED_IDS; i++) {
			int id = got[k][i];

			if (!CHECK(id >= 0 && id < (int)sizeof(seen)))
				return;
			dups += seen[id]++ != 0;
		}
	CHECK_EQ(dups, 0);
	CHECK_EQ(ida_count(&shared), SHARERS * SHARED_IDS);
	CHECK_IDA(&shared);
	ida_destroy(&shared);
}

static void ida_model_seed1(void)
{
	ida_seed(1);
}

static void ida_model_seed2(void)
{
	ida_seed(2);
}

static void ida_model_seed3(void)
{
	ida_seed(3);
}

/* }==================== The differential test ==================== */

void suite_ida(void)
{
	RUN(ida_bitmap_size);
	RUN(ida_empty_and_basics);
	RUN(ida_range_arguments);
	RUN(ida_bad_free);
	RUN(ida_boundaries);
	RUN(ida_int_max);
	RUN(ida_full_bitmap);
	RUN(ida_free_below_min);
	RUN(ida_full_leaf);
	RUN(ida_dense_memory);
	RUN(ida_fault_enomem);
	RUN(ida_preload);
	RUN(ida_fault_each_allocation);
	RUN(ida_threads_need_no_lock);
	RUN(ida_model_seed1);
	RUN(ida_model_seed2);
	RUN(ida_model_seed3);
}
