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
#include "tree.h"

/* The deepest path there is, on an empty tree: no malloc under "lock". */
static void preload_covers_worst_case(void)
{
	struct idr_mem_stats before, after;
	uint32_t id = UINT32_MAX;
	DEFINE_IDR(idr);

	idr_preload(GFP_KERNEL);
	idr_mem_stats(&before);
	idr_fault_inject(0, ULONG_MAX);
	CHECK_EQ(idr_alloc_u32(&idr, &idr, &id, UINT32_MAX, GFP_NOWAIT), 0);
	idr_fault_inject(0, 0);
	idr_mem_stats(&after);
	CHECK_EQ(after.allocs, before.allocs);
	CHECK_EQ(id, UINT32_MAX);
	CHECK_EQ(idr__height(&idr), (32 + IDR_BITS - 1) / IDR_BITS);
	CHECK_SOUND(&idr);
	idr_preload_end();
	idr_destroy(&idr);
}

/* Leftover nodes go back at idr_preload_end(); twice is harmless. */
static void preload_end_frees_leftovers(void)
{
	struct idr_mem_stats before, mid, after;
	DEFINE_IDR(idr);

	idr_mem_stats(&before);
	idr_preload(GFP_KERNEL);
	idr_mem_stats(&mid);
	CHECK(mid.bytes > before.bytes);
	CHECK_EQ(idr_alloc(&idr, NULL, 5, 6, GFP_NOWAIT), 5);
	idr_preload_end();
	idr_preload_end();
	idr_destroy(&idr);
	idr_mem_stats(&after);
	CHECK_EQ(after.bytes, before.bytes);
}

/* A preload that runs short is not an error: idr_alloc() mallocs. */
static void preload_short_falls_back(void)
{
	DEFINE_IDR(idr);

	idr_fault_inject(1, 1);
	idr_preload(GFP_KERNEL);
	idr_fault_inject(0, 0);
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
		struct idr_mem_stats a, b;
		int id;

		idr_preload(GFP_KERNEL);
		pthread_mutex_lock(&lock);
		idr_mem_stats(&a);
		id = idr_alloc(&shared, (void *)(me * 8 + 8), 0, 0, GFP_NOWAIT);
		idr_mem_stats(&b);
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
	RUN(preload_end_frees_leftovers);
	RUN(preload_short_falls_back);
	RUN(preload_threads_share_one_lock);
}
