/* SPDX-License-Identifier: MIT */
/*
 * alloc.c - the allocator seam: every byte idr allocates passes here.
 *
 * Counters are atomic because preloading threads allocate outside the
 * caller's lock.  Fault injection lets tests fail the n-th allocation.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "alloc.h"

static atomic_size_t bytes_in_use;
static atomic_ulong allocs, frees, failed;
static atomic_ulong fault_skip, fault_count;
static _Thread_local unsigned long thread_allocs;
static _Thread_local bool fault_held;

/* Whether fault injection refuses this allocation. */
static bool fault_now(void)
{
	unsigned long skip, count;

	if (fault_held ||
	    !atomic_load_explicit(&fault_count, memory_order_relaxed))
		return false;
	skip = atomic_load(&fault_skip);
	while (skip > 0)
		if (atomic_compare_exchange_weak(&fault_skip, &skip, skip - 1))
			return false;
	count = atomic_load(&fault_count);
	while (count > 0)
		if (atomic_compare_exchange_weak(&fault_count, &count,
						 count - 1))
			return true;
	return false;
}

void *idr__malloc(size_t size)
{
	void *ptr;

	if (fault_now()) {
		atomic_fetch_add_explicit(&failed, 1, memory_order_relaxed);
		return NULL;
	}
	ptr = malloc(size);
	if (!ptr)
		return NULL;
	atomic_fetch_add_explicit(&bytes_in_use, size, memory_order_relaxed);
	atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
	thread_allocs++;
	return ptr;
}

void idr__free(void *ptr, size_t size)
{
	if (!ptr)
		return;
	atomic_fetch_sub_explicit(&bytes_in_use, size, memory_order_relaxed);
	atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
	free(ptr);
}

void *idr__shrink(void *ptr, size_t size, size_t new_size)
{
	void *small = realloc(ptr, new_size);

	if (small)
		atomic_fetch_sub_explicit(&bytes_in_use, size - new_size,
					  memory_order_relaxed);
	return small;
}

void idr_mem_stats(struct idr_mem_stats *stats)
{
	stats->bytes = atomic_load(&bytes_in_use);
	stats->allocs = atomic_load(&allocs);
	stats->frees = atomic_load(&frees);
	stats->failed = atomic_load(&failed);
	stats->thread_allocs = thread_allocs;
}

void idr__fault_hold(bool hold)
{
	fault_held = hold;
}

void idr_fault_inject(unsigned long skip, unsigned long count)
{
	atomic_store(&fault_count, 0);
	atomic_store(&fault_skip, skip);
	atomic_store(&fault_count, count);
}
