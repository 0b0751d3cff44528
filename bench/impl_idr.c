/* SPDX-License-Identifier: MIT */
/*
 * impl_idr.c - the library under test, through its public API only: the
 * idr as a map and the IDA as a set.  Its bytes are the allocator seam's
 * (seam_mem_stats), counted from when the structure was made.
 */
#include <limits.h>
#include <stdlib.h>

#include "idr.h"
#include "seam.h"

#include "bench.h"

struct idr_box {
	struct idr idr;
	size_t base; /* seam bytes when it was made */
};

struct ida_box {
	struct ida ida;
	size_t base;
};

static size_t seam_bytes(void)
{
	struct seam_mem_stats st;

	seam_mem_stats(&st);
	return st.bytes;
}

static void *box(size_t size)
{
	void *b = calloc(1, size);

	if (!b)
		abort();
	return b;
}

/* {==================== The idr ==================== */

static struct idr_box *bench_idr_new(unsigned long cap)
{
	struct idr_box *b = box(sizeof(*b));

	(void)cap;
	idr_init(&b->idr);
	b->base = seam_bytes();
	return b;
}

static void bench_idr_del(struct idr_box *b)
{
	idr_destroy(&b->idr);
	free(b);
}

static long bench_idr_alloc(struct idr_box *b, void *p)
{
	return idr_alloc(&b->idr, p, 0, 0, GFP_KERNEL);
}

static void *bench_idr_find(struct idr_box *b, unsigned long id)
{
	return idr_find(&b->idr, id);
}

static bool bench_idr_remove(struct idr_box *b, unsigned long id, void *p)
{
	return idr_remove(&b->idr, id) == p;
}

static long bench_idr_cyclic(struct idr_box *b, void *p, unsigned long start,
			     unsigned long end)
{
	return idr_alloc_cyclic(&b->idr, p, (int)start, (int)end, GFP_KERNEL);
}

/* [id, id + 1), where an end of 0 means "up to INT_MAX". */
static bool bench_idr_insert(struct idr_box *b, unsigned long id, void *p)
{
	int end = id == INT_MAX ? 0 : (int)id + 1;

	return idr_alloc(&b->idr, p, (int)id, end, GFP_KERNEL) == (long)id;
}

static unsigned long bench_idr_iterate(struct idr_box *b)
{
	unsigned long n = 0;
	void *e;
	int id;

	idr_for_each_entry(&b->idr, e, id) {
		if (e != val((unsigned long)id) || (unsigned long)id != n)
			bench_fail("idr", "iterate", (unsigned long)id,
				   "wrong entry");
		n++;
	}
	return n;
}

static size_t bench_idr_bytes(struct idr_box *b)
{
	return seam_bytes() - b->base;
}

/* The seam's count, for every idr at once: the bench runs one at a time. */
static double bench_idr_mallocs(struct idr_box *b)
{
	struct seam_mem_stats st;

	(void)b;
	seam_mem_stats(&st);
	return (double)st.allocs;
}

#define IMPL idr
#define IMPL_NAME "idr"
#define IMPL_T struct idr_box
#define IMPL_SPARSE 1
#include "map.h"

/* }==================== The idr ==================== */

/* {==================== The IDA ==================== */

static struct ida_box *bench_ida_new(unsigned long cap)
{
	struct ida_box *b = box(sizeof(*b));

	(void)cap;
	ida_init(&b->ida);
	b->base = seam_bytes();
	return b;
}

static void bench_ida_del(struct ida_box *b)
{
	ida_destroy(&b->ida);
	free(b);
}

static long bench_ida_get(struct ida_box *b)
{
	return ida_alloc(&b->ida, GFP_KERNEL);
}

static bool bench_ida_put(struct ida_box *b, unsigned long id)
{
	return ida_free(&b->ida, (unsigned int)id) == 0;
}

static size_t bench_ida_bytes(struct ida_box *b)
{
	return seam_bytes() - b->base;
}

#define IMPL ida
#define IMPL_NAME "ida"
#define IMPL_T struct ida_box
#include "set.h"

/* }==================== The IDA ==================== */
