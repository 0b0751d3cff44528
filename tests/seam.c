/* SPDX-License-Identifier: MIT */
/*
 * seam.c - the tests' counting, failing allocator (seam.h).  Counters are
 * atomic because preloading threads allocate outside the caller's lock.
 * realloc, which the library only shrinks with, is neither counted as an
 * allocation nor failed: it gives bytes back; each thread counts its
 * calls, which no allocation under idr_preload() may make.  It wraps
 * the library's default allocator (its pool of cells, then malloc), so
 * that every suite runs on what a program gets.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "idr.h"
#include "seam.h"

static struct idr_allocator next;
static atomic_size_t bytes_in_use;
static atomic_ulong allocs, frees, failed;
static atomic_ulong fault_skip, fault_count;
static _Thread_local unsigned long thread_allocs, thread_reallocs;
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

static void *seam_malloc(size_t size, void *ctx)
{
	void *ptr;

	(void)ctx;
	if (fault_now()) {
		atomic_fetch_add_explicit(&failed, 1, memory_order_relaxed);
		return NULL;
	}
	ptr = next.malloc(size, next.ctx);
	if (!ptr)
		return NULL;
	atomic_fetch_add_explicit(&bytes_in_use, size, memory_order_relaxed);
	atomic_fetch_add_explicit(&allocs, 1, memory_order_relaxed);
	thread_allocs++;
	return ptr;
}

static void *seam_realloc(void *ptr, size_t old_size, size_t new_size,
			  void *ctx)
{
	void *moved = next.realloc(ptr, old_size, new_size, next.ctx);

	(void)ctx;
	thread_reallocs++;
	if (moved) {
		atomic_fetch_add_explicit(&bytes_in_use, new_size,
					  memory_order_relaxed);
		atomic_fetch_sub_explicit(&bytes_in_use, old_size,
					  memory_order_relaxed);
	}
	return moved;
}

static void seam_free(void *ptr, size_t size, void *ctx)
{
	(void)ctx;
	atomic_fetch_sub_explicit(&bytes_in_use, size, memory_order_relaxed);
	atomic_fetch_add_explicit(&frees, 1, memory_order_relaxed);
	next.free(ptr, size, next.ctx);
}

/* Before main(), so that no block the library holds came from malloc. */
__attribute__((constructor)) static void seam_install(void)
{
	static const struct idr_allocator seam = {
		.malloc = seam_malloc,
		.realloc = seam_realloc,
		.free = seam_free,
	};

	idr_get_allocator(&next);
	if (idr_set_allocator(&seam)) {
		fputs("seam: the library already holds memory\n", stderr);
		abort();
	}
}

void seam_default(struct idr_allocator *a)
{
	*a = next;
}

void seam_mem_stats(struct seam_mem_stats *stats)
{
	stats->bytes = atomic_load(&bytes_in_use);
	stats->allocs = atomic_load(&allocs);
	stats->frees = atomic_load(&frees);
	stats->failed = atomic_load(&failed);
	stats->thread_allocs = thread_allocs;
	stats->thread_reallocs = thread_reallocs;
}

void seam_fault_hold(bool hold)
{
	fault_held = hold;
}

void seam_fault_inject(unsigned long skip, unsigned long count)
{
	atomic_store(&fault_count, 0);
	atomic_store(&fault_skip, skip);
	atomic_store(&fault_count, count);
}
