/* SPDX-License-Identifier: MIT */
/*
 * pool.c - the default allocator's cells of 16 bytes.
 *
 * glibc's least chunk is 32 bytes, 8 of them its own header, so a keyed
 * block of one ID (a key and an entry: 16 bytes, the library's only
 * block that small) took twice its size, and in a sparse tree most
 * blocks are such.  The default allocator (alloc.c) takes them from
 * pages of 4 KiB cut into cells instead, as the kernel takes its nodes
 * from a slab cache.  A page is aligned to its size, so a cell finds
 * its page by masking its address; its header keeps the free cells in
 * a list threaded through them, and the pages with a free cell are on
 * one list.  A page whose last cell comes back is freed, unless it is
 * the only one with room: so an ID taken and given back in turn does
 * not malloc and free a page each time.
 *
 * Writers of different idrs and the RCU thread that frees blocks after
 * readers all come here, hence the mutex.  Memcheck sees each cell as a
 * block of a mempool: a leaked cell, a use after free and a write into
 * a free cell are reported, not an overrun into the next cell in use.
 * Under AddressSanitizer the default allocator leaves the pool out, so
 * that each small block keeps its redzones and LeakSanitizer's eye; a
 * free cell is poisoned all the same, for the pool's own tests.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "pool.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define cell_closed(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define cell_opened(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define cell_closed(p, n) ((void)(p), (void)(n))
#define cell_opened(p, n) ((void)(p), (void)(n))
#endif

#if defined(__has_include) && !defined(__SANITIZE_ADDRESS__)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define POOL_MEMCHECK 1
#endif
#endif
#ifndef POOL_MEMCHECK
#define VALGRIND_CREATE_MEMPOOL(pool, rz, zeroed) ((void)0)
#define VALGRIND_MEMPOOL_ALLOC(pool, p, n) ((void)0)
#define VALGRIND_MEMPOOL_FREE(pool, p) ((void)0)
#define VALGRIND_MAKE_MEM_NOACCESS(p, n) ((void)0)
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)0)
#endif

struct pool_page {
	struct pool_page *next, *prev; /* pages with a free cell */
	void *free;		       /* a free cell, holding the next */
	uint32_t used;		       /* cells handed out */
	uint32_t fresh;		       /* cells from here on never were */
};

#define POOL_PAGE IDR__POOL_PAGE
#define POOL_CELLS IDR__POOL_CELLS

_Static_assert(sizeof(struct pool_page) ==
		       POOL_PAGE - POOL_CELLS * IDR__POOL_CELL,
	       "cells start right after a page's header");

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct pool_page *roomy; /* the list of pages with a free cell */
static size_t pages, cells;	/* held, handed out: idr__pool_count() */

/* A child forked while another thread held the lock would find it held
 * for good: the fork waits for the lock, as glibc's malloc does. */
static void fork_prepare(void)
{
	pthread_mutex_lock(&lock);
}

static void fork_done(void)
{
	pthread_mutex_unlock(&lock);
}

__attribute__((constructor)) static void pool_init(void)
{
	VALGRIND_CREATE_MEMPOOL(&roomy, 0, 0);
	pthread_atfork(fork_prepare, fork_done, fork_done);
}

static void *cell_at(struct pool_page *p, uint32_t i)
{
	return (char *)(p + 1) + (size_t)i * IDR__POOL_CELL;
}

static struct pool_page *page_of(void *cell)
{
	return (struct pool_page *)((uintptr_t)cell &
				    ~(uintptr_t)(POOL_PAGE - 1));
}

static void roomy_push(struct pool_page *p)
{
	p->prev = NULL;
	p->next = roomy;
	if (roomy)
		roomy->prev = p;
	roomy = p;
}

static void roomy_drop(struct pool_page *p)
{
	if (p->prev)
		p->prev->next = p->next;
	else
		roomy = p->next;
	if (p->next)
		p->next->prev = p->prev;
}

static struct pool_page *page_new(void)
{
	struct pool_page *p = aligned_alloc(POOL_PAGE, POOL_PAGE);

	if (!p)
		return NULL;
	p->free = NULL;
	p->used = 0;
	p->fresh = 0;
	cell_closed(cell_at(p, 0), POOL_CELLS * IDR__POOL_CELL);
	VALGRIND_MAKE_MEM_NOACCESS(cell_at(p, 0), POOL_CELLS * IDR__POOL_CELL);
	return p;
}

/* A cell of @p, which has one free; with the lock held. */
static void *page_take(struct pool_page *p)
{
	void *cell = p->free;

	if (cell) {
		cell_opened(cell, sizeof(void *));
		VALGRIND_MAKE_MEM_DEFINED(cell, sizeof(void *));
		p->free = *(void **)cell;
	} else {
		cell = cell_at(p, p->fresh++);
	}
	if (++p->used == POOL_CELLS)
		roomy_drop(p);
	cells++;
	cell_opened(cell, IDR__POOL_CELL);
	VALGRIND_MEMPOOL_ALLOC(&roomy, cell, IDR__POOL_CELL);
	return cell;
}

void *idr__pool_take(bool grow)
{
	struct pool_page *p = NULL;
	void *cell;

	pthread_mutex_lock(&lock);
	if (!roomy && grow) {
		pthread_mutex_unlock(&lock);
		p = page_new();
		pthread_mutex_lock(&lock);
		if (p) {
			roomy_push(p);
			pages++;
		}
	}
	cell = roomy ? page_take(roomy) : NULL;
	pthread_mutex_unlock(&lock);
	return cell;
}

void idr__pool_give(void *cell)
{
	struct pool_page *p = page_of(cell), *empty = NULL;

	pthread_mutex_lock(&lock);
	*(void **)cell = p->free;
	p->free = cell;
	VALGRIND_MEMPOOL_FREE(&roomy, cell);
	cell_closed(cell, IDR__POOL_CELL);
	cells--;
	if (p->used-- == POOL_CELLS)
		roomy_push(p);
	else if (!p->used && (roomy != p || p->next)) {
		roomy_drop(p);
		empty = p;
		pages--;
	}
	pthread_mutex_unlock(&lock);
	free(empty);
}

void idr__pool_count(size_t *held_pages, size_t *held_cells)
{
	pthread_mutex_lock(&lock);
	*held_pages = pages;
	*held_cells = cells;
	pthread_mutex_unlock(&lock);
}
