/* SPDX-License-Identifier: MIT */
/*
 * impl_flat.c - the physical limit for dense IDs: a pointer array of
 * fixed capacity and a two-level bitmap of its free slots (bitmap.h);
 * for the set, the bitmap alone.  Nothing grows, so it cannot take
 * sparse IDs, and its bytes are its arrays' sizes.
 */
#include <stdlib.h>

#include "bench.h"
#include "bitmap.h"

struct flat {
	void **slot;
	struct bits free;
	unsigned long cursor; /* cyclic */
};

static struct flat *bench_flat_new(unsigned long cap)
{
	struct flat *f = malloc(sizeof(*f));

	if (!f)
		abort();
	f->slot = calloc(cap ? cap : 1, sizeof(void *));
	if (!f->slot)
		abort();
	bits_init(&f->free, cap);
	f->cursor = 0;
	return f;
}

static void bench_flat_del(struct flat *f)
{
	bits_fini(&f->free);
	free(f->slot);
	free(f);
}

static long flat_take(struct flat *f, long id, void *p)
{
	if (id >= 0) {
		bits_take(&f->free, (unsigned long)id);
		f->slot[id] = p;
	}
	return id;
}

static long bench_flat_alloc(struct flat *f, void *p)
{
	return flat_take(f, bits_first(&f->free, 0), p);
}

static void *bench_flat_find(struct flat *f, unsigned long id)
{
#ifdef BENCH_BREAK
	/* tests/bench.bats builds this: one wrong answer must stop the run. */
	if (id == BENCH_BREAK)
		return NULL;
#endif
	return id < f->free.cap ? f->slot[id] : NULL;
}

static bool bench_flat_remove(struct flat *f, unsigned long id, void *p)
{
	void *e;

	if (!bits_used(&f->free, id))
		return false;
	e = f->slot[id];
	f->slot[id] = NULL;
	bits_give(&f->free, id);
	return e == p;
}

/* IDs wrap at the capacity, which the scenario sets to @end. */
static long bench_flat_cyclic(struct flat *f, void *p, unsigned long start,
			      unsigned long end)
{
	long id = bits_first(&f->free, f->cursor < start ? start : f->cursor);

	(void)end;
	if (id < 0)
		id = bits_first(&f->free, start);
#ifdef BENCH_BREAK_CYCLIC
	/* tests/bench.bats: a skipped ID, which only the PID run reaches. */
	if (id == BENCH_BREAK_CYCLIC)
		id++;
#endif
	if (id >= 0)
		f->cursor = (unsigned long)id + 1;
	return flat_take(f, id, p);
}

/* A scan of the bitmap's words: the set bits of ~free, in order. */
static unsigned long bench_flat_iterate(struct flat *f)
{
	const struct bits *b = &f->free;
	unsigned long n = 0, w, id;
	uint64_t used;

	for (w = 0; w < b->nw; w++) {
		used = ~b->w[w];
		if (w == b->nw - 1 && b->cap % 64)
			used &= bit(b->cap) - 1;
		for (; used; used &= used - 1) {
			id = w * 64 + (unsigned long)__builtin_ctzll(used);
			if (f->slot[id] != val(id) || id != n)
				bench_fail("flat", "iterate", id,
					   "wrong entry");
			n++;
		}
	}
	return n;
}

static size_t bench_flat_bytes(struct flat *f)
{
	return f->free.cap * sizeof(void *) + bits_bytes(&f->free);
}

/* Its arrays are made once, by new. */
static double bench_flat_mallocs(struct flat *f)
{
	(void)f;
	return 0;
}

#define IMPL flat
#define IMPL_NAME "flat"
#define IMPL_T struct flat
#define IMPL_SPARSE 0
#include "map.h"

/* {==================== The bitmap set ==================== */

static struct bits *bench_bitmap_new(unsigned long cap)
{
	struct bits *b = malloc(sizeof(*b));

	if (!b)
		abort();
	bits_init(b, cap);
	return b;
}

static void bench_bitmap_del(struct bits *b)
{
	bits_fini(b);
	free(b);
}

static long bench_bitmap_get(struct bits *b)
{
	long id = bits_first(b, 0);

	if (id >= 0)
		bits_take(b, (unsigned long)id);
	return id;
}

static bool bench_bitmap_put(struct bits *b, unsigned long id)
{
	if (!bits_used(b, id))
		return false;
	bits_give(b, id);
	return true;
}

static size_t bench_bitmap_bytes(struct bits *b)
{
	return bits_bytes(b);
}

#define IMPL bitmap
#define IMPL_NAME "bitmap"
#define IMPL_T struct bits
#include "set.h"

/* }==================== The bitmap set ==================== */
