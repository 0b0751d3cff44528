/* SPDX-License-Identifier: MIT */
/*
 * test_pool.c - the default allocator's cells of 16 bytes (pool.c):
 * distinct and reused, a page given back when its last cell is, a
 * shrink into a cell only from a free one, threads, the sanitizer's
 * view of a cell, and the keyed blocks of one ID that live in them.
 */
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "idr_view.h"
#include "pool.h"
#include "seam.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#define PAGES_OF_CELLS ((int)(3 * IDR__POOL_CELLS + 7))

static size_t pool_pages(void)
{
	size_t pages, cells;

	idr__pool_count(&pages, &cells);
	return pages;
}

static size_t pool_cells(void)
{
	size_t pages, cells;

	idr__pool_count(&pages, &cells);
	return cells;
}

static int by_address(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (void *const *)a;
	uintptr_t y = (uintptr_t) * (void *const *)b;

	return (x > y) - (x < y);
}

/* Cells are aligned, apart, hold what is written, and come back. */
static void pool_cells_distinct_then_given_back(void)
{
	static void *cell[PAGES_OF_CELLS];
	size_t cells = pool_cells();
	int i;

	for (i = 0; i < PAGES_OF_CELLS; i++) {
		cell[i] = idr__pool_take(true);
		if (!CHECK(cell[i]))
			return;
		CHECK_EQ((uintptr_t)cell[i] % IDR__POOL_CELL, 0);
		memset(cell[i], i & 0xff, IDR__POOL_CELL);
	}
	CHECK_EQ(pool_cells(), cells + PAGES_OF_CELLS);
	CHECK(pool_pages() >= 4);
	for (i = 0; i < PAGES_OF_CELLS; i++)
		CHECK_EQ(((unsigned char *)cell[i])[IDR__POOL_CELL - 1],
			 i & 0xff);
	qsort(cell, PAGES_OF_CELLS, sizeof(*cell), by_address);
	for (i = 1; i < PAGES_OF_CELLS; i++)
		CHECK((uintptr_t)cell[i] - (uintptr_t)cell[i - 1] >=
		      IDR__POOL_CELL);
	for (i = 0; i < PAGES_OF_CELLS; i += 2)
		idr__pool_give(cell[i]);
	for (i = 1; i < PAGES_OF_CELLS; i += 2)
		idr__pool_give(cell[i]);
	CHECK_EQ(pool_cells(), cells);
	if (!cells)
		CHECK_EQ(pool_pages(), 1);
}

/* The one page with room is kept when its last cell comes back, so a
 * cell taken and given back in turn takes no new page each time; a
 * second empty page is not kept. */
static void pool_keeps_one_empty_page(void)
{
	void *cell[IDR__POOL_CELLS + 1];
	void *held = idr__pool_take(true), *again;
	size_t pages = pool_pages();
	unsigned int i;

	idr__pool_give(held);
	CHECK_EQ(pool_pages(), pages);
	again = idr__pool_take(false);
	CHECK(again);
	idr__pool_give(again);
	for (i = 0; i < IDR__POOL_CELLS + 1; i++)
		cell[i] = idr__pool_take(true);
	CHECK(pool_pages() > pages);
	for (i = 0; i < IDR__POOL_CELLS + 1; i++)
		idr__pool_give(cell[i]);
	CHECK_EQ(pool_pages(), pages);
}

/* Without growing, a cell comes only from a page with a free one. */
static void pool_take_without_growing(void)
{
	static void *cell[PAGES_OF_CELLS];
	void *anchor = idr__pool_take(true);
	size_t pages = pool_pages();
	int n = 0, i;

	while (n < PAGES_OF_CELLS && (cell[n] = idr__pool_take(false)))
		n++;
	CHECK(n > 0);
	CHECK(n <= (int)IDR__POOL_CELLS * (int)pages);
	CHECK_EQ(pool_pages(), pages);
	CHECK(!idr__pool_take(false));
	idr__pool_give(cell[--n]);
	cell[n] = idr__pool_take(false);
	CHECK(cell[n++]);
	for (i = 0; i < n; i++)
		idr__pool_give(cell[i]);
	idr__pool_give(anchor);
}

#if !defined(__SANITIZE_ADDRESS__)
/* Under ASan the default allocator leaves the pool out (alloc.c), so the
 * tests of what goes into a cell are for the other builds. */

/* The default allocator's shrink into a cell's size moves the block to
 * a free cell, or says NULL and keeps it; a cell stays where it is. */
static void pool_shrink_into_cell(void)
{
	static void *cell[PAGES_OF_CELLS];
	struct idr_allocator std;
	char *block, *moved, *small;
	size_t cells = pool_cells();
	int n = 0, i;

	seam_default(&std);
	block = std.malloc(24, std.ctx);
	small = std.malloc(16, std.ctx);
	if (!CHECK(block && small))
		return;
	CHECK_EQ(pool_cells(), cells + 1);
	memcpy(block, "0123456789abcdefXYZ", 20);
	CHECK(std.realloc(small, 16, 8, std.ctx) == small);
	while (n < PAGES_OF_CELLS && (cell[n] = idr__pool_take(false)))
		n++;
	CHECK(!std.realloc(block, 24, 16, std.ctx));
	CHECK(!memcmp(block, "0123456789abcdefXYZ", 20));
	for (i = 0; i < n; i++)
		idr__pool_give(cell[i]);
	moved = std.realloc(block, 24, 16, std.ctx);
	if (CHECK(moved)) {
		CHECK(!memcmp(moved, "0123456789abcdef", 16));
		CHECK_EQ(pool_cells(), cells + 2);
		std.free(moved, 16, std.ctx);
	}
	std.free(small, 8, std.ctx);
	CHECK_EQ(pool_cells(), cells);
}

#endif

#define THREAD_STEPS 100000
#define THREAD_LIVE 300

/* Each thread keeps a window of cells, each holding its own mark, and
 * finds the mark intact when it gives the cell back. */
static void *churn_cells(void *arg)
{
	uintptr_t mark = (uintptr_t)arg, bad = 0;
	void *live[THREAD_LIVE] = { NULL };
	int i, k;

	for (i = 0; i < THREAD_STEPS; i++) {
		k = i % THREAD_LIVE;
		if (live[k]) {
			bad += *(uintptr_t *)live[k] != mark + (uintptr_t)k;
			idr__pool_give(live[k]);
		}
		live[k] = idr__pool_take(true);
		if (!live[k])
			return (void *)(bad + 1);
		*(uintptr_t *)live[k] = mark + (uintptr_t)k;
	}
	for (k = 0; k < THREAD_LIVE; k++) {
		bad += *(uintptr_t *)live[k] != mark + (uintptr_t)k;
		idr__pool_give(live[k]);
	}
	return (void *)bad;
}

static void pool_threads(void)
{
	pthread_t t[3];
	void *bad;
	size_t cells = pool_cells();
	int i;

	for (i = 0; i < 3; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, churn_cells,
					(void *)((uintptr_t)(i + 1) << 20)),
			 0);
	for (i = 0; i < 3; i++) {
		pthread_join(t[i], &bad);
		CHECK_EQ((uintptr_t)bad, 0);
	}
	CHECK_EQ(pool_cells(), cells);
}

#if !defined(__SANITIZE_ADDRESS__)
/* Not under ASan: its own allocator (gcc 12's) is not safe across fork;
 * a child of a thread in aligned_alloc() waits for good. */
static atomic_bool churning;

static void *churn_until_stopped(void *arg)
{
	(void)arg;
	while (atomic_load_explicit(&churning, memory_order_relaxed))
		idr__pool_give(idr__pool_take(true));
	return NULL;
}

/* Whether a child forked now can take and give back a cell: it says so
 * through a pipe (its exit status may be memcheck's, which finds lost
 * the cell the other thread held at the fork); if it waits for the
 * lock for good, the alarm ends it and the pipe says nothing. */
static bool child_can_allocate(void)
{
	int fd[2];
	char said = 0;
	pid_t pid;

	if (pipe(fd))
		return false;
	pid = fork();
	if (!pid) {
		void *cell;

		alarm(5);
		cell = idr__pool_take(true);
		idr__pool_give(cell);
		_exit(cell && write(fd[1], "y", 1) == 1 ? 0 : 1);
	}
	close(fd[1]);
	if (pid > 0 && read(fd[0], &said, 1) != 1)
		said = 0;
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return said == 'y';
}

/* A child forked while another thread is inside the pool can use it. */
static void pool_fork_while_busy(void)
{
	pthread_t t;
	int i;

	atomic_store(&churning, true);
	if (!CHECK_EQ(pthread_create(&t, NULL, churn_until_stopped, NULL), 0))
		return;
	for (i = 0; i < 200; i++)
		if (!CHECK(child_can_allocate()))
			break;
	atomic_store(&churning, false);
	pthread_join(t, NULL);
}
#endif

#if defined(__SANITIZE_ADDRESS__)
/* AddressSanitizer sees a free cell as freed memory. */
static void pool_cell_poisoned_when_free(void)
{
	char *cell = idr__pool_take(true), *next;

	if (!CHECK(cell))
		return;
	CHECK(!__asan_region_is_poisoned(cell, IDR__POOL_CELL));
	CHECK(__asan_address_is_poisoned(cell + IDR__POOL_CELL));
	next = idr__pool_take(true);
	idr__pool_give(cell);
	CHECK(__asan_address_is_poisoned(cell));
	CHECK(__asan_address_is_poisoned(cell + IDR__POOL_CELL - 1));
	idr__pool_give(next);
}
#endif

#if !defined(__SANITIZE_ADDRESS__)
static int count_single(const struct idr_view *view, void *data)
{
	if (view->level == 1 && view->keyed == 1) {
		unsigned long *n = data;

		if (!n[0]++)
			n[1] = view->first;
	}
	return 0;
}

/* The keyed blocks of one ID in @idr; @first: the first one's range. */
static size_t singles(const struct idr *idr, unsigned long *first)
{
	unsigned long n[2] = { 0, 0 };

	idr_walk(idr, count_single, n);
	*first = n[1];
	return n[0];
}

/* A keyed block of one ID (a lone ID far from the others) is a cell,
 * and so is a block that a removal brings down to one. */
static void pool_holds_lone_ids(void)
{
	DEFINE_IDR(idr);
	size_t cells = pool_cells(), n;
	unsigned long first;
	int i, id;

	for (i = 0; i <= 100; i++) {
		id = INT_MAX / 101 * i;
		CHECK_EQ(idr_alloc(&idr, &idr, id, id + 1, GFP_KERNEL), id);
	}
	n = singles(&idr, &first);
	CHECK(n >= 90);
	CHECK_EQ(pool_cells(), cells + n);
	id = idr_get_next_ul(&idr, &first) ? (int)first : -1;
	CHECK_EQ(idr_alloc(&idr, &idr, id + 1, id + 2, GFP_KERNEL), id + 1);
	CHECK_EQ(singles(&idr, &first), n - 1);
	CHECK_EQ(pool_cells(), cells + n - 1);
	CHECK(idr_remove(&idr, id + 1) == &idr);
	CHECK_EQ(pool_cells(), cells + n);
	CHECK_SOUND(&idr);
	for (i = 1; i <= 50; i++)
		CHECK(idr_remove(&idr, INT_MAX / 101 * i) == &idr);
	CHECK_EQ(pool_cells(), cells + singles(&idr, &first));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
	CHECK_EQ(pool_cells(), cells);
}
#endif

void suite_pool(void)
{
	RUN(pool_cells_distinct_then_given_back);
	RUN(pool_keeps_one_empty_page);
	RUN(pool_take_without_growing);
	RUN(pool_threads);
#if defined(__SANITIZE_ADDRESS__)
	RUN(pool_cell_poisoned_when_free);
#else
	RUN(pool_shrink_into_cell);
	/* Memcheck runs one thread at a time, and a spinning one for long:
	 * 200 forks took it over 10 minutes. */
	if (RUNNING_ON_VALGRIND)
		puts("# pool_fork_while_busy: not under memcheck");
	else
		RUN(pool_fork_while_busy);
	RUN(pool_holds_lone_ids);
#endif
}
