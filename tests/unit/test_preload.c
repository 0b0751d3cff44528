/* SPDX-License-Identifier: MIT */
/*
 * test_preload.c - idr_preload(): an allocation after it needs no
 * malloc, leftovers are freed by idr_preload_end(), and threads that
 * preload outside one shared lock get unique IDs.
 */
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "nodes.h"
#include "seam.h"
#include "tree.h"

/* The deepest path there is, on an empty tree: no malloc under "lock". */
static void preload_covers_worst_case(void)
{
	struct seam_mem_stats before, after;
	uint32_t id = UINT32_MAX;
	DEFINE_IDR(idr);

	idr_preload(GFP_KERNEL);
	seam_mem_stats(&before);
	seam_fault_inject(0, ULONG_MAX);
	CHECK_EQ(idr_alloc_u32(&idr, &idr, &id, UINT32_MAX, GFP_NOWAIT), 0);
	seam_fault_inject(0, 0);
	seam_mem_stats(&after);
	CHECK_EQ(after.allocs, before.allocs);
	CHECK_EQ(id, UINT32_MAX);
	CHECK_EQ(idr__height(&idr), (32 + IDR_BITS - 1) / IDR_BITS);
	CHECK_SOUND(&idr);
	idr_preload_end();
	idr_destroy(&idr);
}

/* {==================== The worst case, from any tree ==================== */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* An ID of a random bit length below @max: every height of tree. */
static unsigned long rnd_id(unsigned long max)
{
	unsigned int bits = (unsigned int)(rnd() % 33);
	unsigned long id = bits ? (unsigned long)(rnd() >> (64 - bits)) : 0;

	return id > max ? max : id;
}

/*
 * Nodes one preloaded allocation took from the preload, with every malloc
 * set to fail: -ENOMEM (or a malloc counted) means the preload fell short.
 */
struct one_alloc {
	long ret;		/* the allocation's result */
	unsigned long mallocs;	/* this thread's mallocs meanwhile */
	unsigned long reallocs; /* and reallocs */
	unsigned int took;	/* preloaded nodes it used */
};

static struct one_alloc preloaded_alloc(struct idr *idr, struct ida *ida,
					unsigned long start)
{
	struct seam_mem_stats before, after;
	struct one_alloc r;
	unsigned int had;

	idr_preload(GFP_KERNEL);
	had = idr__preloaded();
	seam_mem_stats(&before);
	seam_fault_inject(0, ULONG_MAX);
	if (ida)
		r.ret = ida_alloc_range(ida, (unsigned int)start, INT_MAX,
					GFP_NOWAIT);
	else if (idr->idr_id_bits)
		r.ret = idr_alloc_tagged(idr, idr, (int)start, 0, GFP_NOWAIT);
	else {
		uint32_t id = (uint32_t)start;

		r.ret = idr_alloc_u32(idr, idr, &id, UINT32_MAX, GFP_NOWAIT);
		if (!r.ret)
			r.ret = id;
	}
	seam_fault_inject(0, 0);
	seam_mem_stats(&after);
	r.mallocs = after.thread_allocs - before.thread_allocs;
	r.reallocs = after.thread_reallocs - before.thread_reallocs;
	r.took = had - idr__preloaded();
	idr_preload_end();
	return r;
}

/* A tree of one leaf, then an ID at the top's last slot: the worst. */
static void preload_worst_case_is_exact(void)
{
	unsigned int tag_bits[] = { 0, 30 };
	unsigned int most = 0, i;
	struct one_alloc r;
	DEFINE_IDA(ida);

	for (i = 0; i < 2; i++) {
		DEFINE_IDR(idr);
		unsigned long max = tag_bits[i] ? (1ul << tag_bits[i]) - 1
						: UINT32_MAX;

		if (tag_bits[i])
			CHECK_EQ(idr_tag_init(&idr, tag_bits[i], 0), 0);
		CHECK_EQ(idr_alloc(&idr, &idr, 0, 1, GFP_KERNEL), 0);
		r = preloaded_alloc(&idr, NULL, tag_bits[i] ? max : max - 1);
		CHECK(r.ret >= 0);
		CHECK_EQ(r.mallocs, 0);
		CHECK_EQ(r.took, tag_bits[i] ? IDR__GROW_NODES(30) + 1
					     : IDR__GROW_NODES(32));
		most = r.took > most ? r.took : most;
		CHECK_SOUND(&idr);
		idr_destroy(&idr);
	}
	CHECK_EQ(ida_alloc_range(&ida, 0, 0, GFP_KERNEL), 0);
	r = preloaded_alloc(NULL, &ida, INT_MAX);
	CHECK_EQ(r.ret, INT_MAX);
	CHECK_EQ(r.mallocs, 0);
	CHECK_EQ(r.took, IDR__GROW_NODES(31 - IDR_BITS - 6) + 1);
	most = r.took > most ? r.took : most;
	ida_destroy(&ida);
	/* The constant is the largest of the three, not more. */
	CHECK_EQ(most, IDR__INSERT_NODES_MAX);
}

/* Random trees of every kind, then random IDs: a preload always does. */
static void preload_suffices_from_random_trees(void)
{
	unsigned int round, n;
	struct one_alloc r;

	rng_state = 0x9e3779b97f4a7c15u;
	for (round = 0; round < 2000; round++) {
		unsigned int kind = (unsigned int)(rnd() % 3);
		unsigned int bits = 1 + (unsigned int)(rnd() % 30);
		unsigned long max = kind == 1	? (1ul << bits) - 1
				    : kind == 2 ? INT_MAX
						: UINT32_MAX;
		DEFINE_IDR(idr);
		DEFINE_IDA(ida);

		if (kind == 1)
			idr_tag_init(&idr, bits,
				     (unsigned int)(rnd() & 1) *
					     IDR_TAG_RETIRE);
		for (n = (unsigned int)(rnd() % 12); n > 0; n--) {
			unsigned long id = rnd_id(max);
			uint32_t u = (uint32_t)id;

			if (kind == 2)
				ida_alloc_range(&ida, (unsigned int)id, INT_MAX,
						GFP_KERNEL);
			else if (kind == 1)
				idr_alloc_tagged(&idr, &idr, (int)id, 0,
						 GFP_KERNEL);
			else
				idr_alloc_u32(&idr, &idr, &u, UINT32_MAX,
					      GFP_KERNEL);
		}
		r = preloaded_alloc(&idr, kind == 2 ? &ida : NULL,
				    rnd() & 1 ? max : rnd_id(max));
		if (!CHECK(r.ret >= 0 || r.ret == -ENOSPC) ||
		    !CHECK_EQ(r.mallocs, 0) || !CHECK_EQ(r.reallocs, 0) ||
		    !CHECK(r.took <= IDR__INSERT_NODES_MAX))
			printf("# round %u, kind %u, bits %u\n", round, kind,
			       bits);
		CHECK_SOUND(kind == 2 ? &ida.ida_rt : &idr);
		ida_destroy(&ida);
		idr_destroy(&idr);
	}
}

/*
 * A cyclic allocation under a preload that moves the cursor out of a
 * leaf removals thinned while it was there: that leaf packs later (at
 * its next removal), since packing calls the allocator (realloc, or
 * malloc on an RCU idr).
 */
static void preload_cyclic_leaves_leaf_whole(void)
{
	struct seam_mem_stats before, after;
	unsigned int i;
	DEFINE_IDR(idr);

	for (i = 0; i < 10; i++)
		CHECK_EQ(idr_alloc_cyclic(&idr, &idr, 0, 0, GFP_KERNEL), i);
	for (i = 10; i < IDR_SLOTS; i++)
		CHECK_EQ(idr_alloc(&idr, &idr, 0, 0, GFP_KERNEL), i);
	for (i = 10; i + 4 < IDR_SLOTS; i++)
		CHECK(idr_remove(&idr, i) == &idr);
	idr_preload(GFP_KERNEL);
	seam_mem_stats(&before);
	CHECK_EQ(idr_alloc_cyclic(&idr, &idr, 2 * IDR_SLOTS, 0, GFP_NOWAIT),
		 2 * IDR_SLOTS);
	seam_mem_stats(&after);
	idr_preload_end();
	CHECK_EQ(after.thread_allocs - before.thread_allocs, 0);
	CHECK_EQ(after.thread_reallocs - before.thread_reallocs, 0);
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* }==================== The worst case, from any tree ==================== */

/* Leftover nodes go back at idr_preload_end(); twice is harmless. */
static void preload_end_frees_leftovers(void)
{
	struct seam_mem_stats before, mid, after;
	DEFINE_IDR(idr);

	seam_mem_stats(&before);
	idr_preload(GFP_KERNEL);
	seam_mem_stats(&mid);
	CHECK(mid.bytes > before.bytes);
	CHECK_EQ(idr_alloc(&idr, NULL, 5, 6, GFP_NOWAIT), 5);
	idr_preload_end();
	idr_preload_end();
	idr_destroy(&idr);
	seam_mem_stats(&after);
	CHECK_EQ(after.bytes, before.bytes);
}

/* A preload that runs short is not an error: idr_alloc() mallocs. */
static void preload_short_falls_back(void)
{
	DEFINE_IDR(idr);

	seam_fault_inject(1, 1);
	idr_preload(GFP_KERNEL);
	seam_fault_inject(0, 0);
	CHECK_EQ(idr_alloc(&idr, &idr, INT_MAX, 0, 0), INT_MAX);
	CHECK_SOUND(&idr);
	idr_preload_end();
	idr_destroy(&idr);
}

#define THREADS 4
#define ROUNDS 20000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static DEFINE_IDR(shared);
static unsigned long mallocs_under_lock;

/* Each thread owns the IDs it allocated and frees half of them again. */
static void *worker(void *arg)
{
	uintptr_t me = (uintptr_t)arg;
	int mine[64], n = 0, i;
	bool ok = true;

	for (i = 0; i < ROUNDS && ok; i++) {
		struct seam_mem_stats a, b;
		int id;

		idr_preload(GFP_KERNEL);
		pthread_mutex_lock(&lock);
		seam_mem_stats(&a);
		id = idr_alloc(&shared, (void *)(me * 8 + 8), 0, 0, GFP_NOWAIT);
		seam_mem_stats(&b);
		if (b.thread_allocs != a.thread_allocs)
			mallocs_under_lock++;
		ok = id >= 0 && n < 64;
		if (ok)
			mine[n++] = id;
		if (n == 64 || (i & 1)) {
			void *p = idr_remove(&shared, (unsigned long)mine[--n]);

			ok = ok && p == (void *)(me * 8 + 8);
		}
		pthread_mutex_unlock(&lock);
		idr_preload_end();
	}
	while (n > 0) {
		pthread_mutex_lock(&lock);
		ok = ok && idr_remove(&shared, (unsigned long)mine[--n]) ==
				   (void *)(me * 8 + 8);
		pthread_mutex_unlock(&lock);
	}
	return ok ? NULL : (void *)1;
}

static void preload_threads_share_one_lock(void)
{
	pthread_t t[THREADS];
	uintptr_t i;
	void *ret;

	mallocs_under_lock = 0;
	for (i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, worker, (void *)i), 0);
	for (i = 0; i < THREADS; i++) {
		CHECK_EQ(pthread_join(t[i], &ret), 0);
		CHECK(ret == NULL);
	}
	CHECK_EQ(mallocs_under_lock, 0);
	CHECK(idr_is_empty(&shared));
	CHECK_SOUND(&shared);
	idr_destroy(&shared);
}

void suite_preload(void)
{
	RUN(preload_covers_worst_case);
	RUN(preload_worst_case_is_exact);
	RUN(preload_suffices_from_random_trees);
	RUN(preload_cyclic_leaves_leaf_whole);
	RUN(preload_end_frees_leftovers);
	RUN(preload_short_falls_back);
	RUN(preload_threads_share_one_lock);
}
