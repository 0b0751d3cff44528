/* SPDX-License-Identifier: MIT */
/*
 * alloc.c - the allocator seam: every byte idr allocates passes here, to
 * the one process-wide allocator a caller may set (idr_set_allocator()).
 *
 * The library counts only the blocks it holds, so that a new allocator
 * is refused while memory from the current one is still out; counting
 * bytes, failing the n-th allocation and the like are the business of
 * an allocator the caller sets (the tests' and the Lua binding's).  The
 * count is atomic because preloading threads allocate outside the
 * caller's lock.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "node.h"
#include "pool.h"

/* The default allocator: malloc(3), but blocks of a pool cell's size or
 * less, which glibc would give twice their bytes, come from pool.c.  Not
 * under AddressSanitizer, whose redzones and leak check see only what
 * malloc hands out. */
static bool pooled(size_t size)
{
#if defined(__SANITIZE_ADDRESS__)
	(void)size;
	return false;
#else
	return size <= IDR__POOL_CELL;
#endif
}

static void *std_malloc(size_t size, void *ctx)
{
	(void)ctx;
	return pooled(size) ? idr__pool_take(true) : malloc(size);
}

/* A shrink to a cell's size: into a free cell, as a shrink is part of a
 * removal, which takes no new page; NULL if none is free. */
__attribute__((noinline)) static void *
shrink_to_cell(void *ptr, size_t old_size, size_t new_size)
{
	void *cell;

	if (pooled(old_size))
		return ptr;
	cell = idr__pool_take(false);
	if (cell) {
		memcpy(cell, ptr, new_size);
		free(ptr);
	}
	return cell;
}

/* Only ever a shrink: none is asked of glibc that would keep the chunk
 * (it does nothing then, in about 50 instructions).  Both calls are
 * tail calls: a removal's shrink costs what it did before the pool. */
static void *std_realloc(void *ptr, size_t old_size, size_t new_size, void *ctx)
{
	(void)ctx;
	if (pooled(new_size))
		return shrink_to_cell(ptr, old_size, new_size);
	if (malloc_chunk(new_size) == malloc_chunk(old_size))
		return ptr;
	return realloc(ptr, new_size);
}

static void std_free(void *ptr, size_t size, void *ctx)
{
	(void)ctx;
	if (pooled(size))
		idr__pool_give(ptr);
	else
		free(ptr);
}

/* clang-format off */
#define STD_ALLOCATOR { std_malloc, std_realloc, std_free, NULL }
/* clang-format on */

static const struct idr_allocator std_allocator = STD_ALLOCATOR;
static struct idr_allocator allocator = STD_ALLOCATOR;
static atomic_ulong blocks_held;

void *idr__malloc(size_t size)
{
	void *ptr = allocator.malloc(size, allocator.ctx);

	if (ptr)
		atomic_fetch_add_explicit(&blocks_held, 1,
					  memory_order_relaxed);
	return ptr;
}

void idr__free(void *ptr, size_t size)
{
	if (!ptr)
		return;
	atomic_fetch_sub_explicit(&blocks_held, 1, memory_order_relaxed);
	allocator.free(ptr, size, allocator.ctx);
}

void *idr__shrink(void *ptr, size_t size, size_t new_size)
{
	return allocator.realloc(ptr, size, new_size, allocator.ctx);
}

#ifdef IDR__POPCNT_PROBE
/* node.h's: here, in the lowest layer, since every layer counts bits. */
bool idr__popcnt;

__attribute__((constructor)) static void probe_popcnt(void)
{
	__builtin_cpu_init();
	idr__popcnt = __builtin_cpu_supports("popcnt");
}
#endif

int idr_set_allocator(const struct idr_allocator *a)
{
	if (a && (!a->malloc || !a->realloc || !a->free))
		return -EINVAL;
	if (atomic_load(&blocks_held))
		return -EBUSY;
	allocator = a ? *a : std_allocator;
	return 0;
}

void idr_get_allocator(struct idr_allocator *a)
{
	*a = allocator;
}
