/* SPDX-License-Identifier: MIT */
/*
 * ida.c - IDs without pointers, one bit each.
 *
 * The IDA's tree is indexed by bitmap number: leaf slot n points to a
 * node whose words are the bitmap of IDs n * CHUNK .. n * CHUNK + CHUNK-1.
 * A leaf slot is "full" when its bitmap is, so the tree's lowest-free
 * search finds the first bitmap with room in O(height); a bitmap that
 * empties is freed.  Bitmaps are nodes, so they come from the same
 * preload and cache as the tree's own nodes, and fail the same way.
 */
#include <limits.h>

#include "tree.h"

#define CHUNK (IDR_SLOTS * 64u)
#define WORDS IDR_SLOTS

const unsigned int IDA_BITMAP_BITS = CHUNK;

static uint64_t *bitmap_of(const struct ida *ida, uint64_t chunk)
{
	void **slot = idr__lookup(&ida->ida_rt, chunk);

	return slot ? idr__node_bits(*slot) : NULL;
}

static bool test_bit(const uint64_t *map, unsigned int n)
{
	return map[n / 64] >> (n % 64) & 1;
}

/* The first bit at or above @n that is @value, or CHUNK. */
static unsigned int find_bit(const uint64_t *map, unsigned int n, bool value)
{
	unsigned int w = n / 64;
	uint64_t word;

	if (n >= CHUNK)
		return CHUNK;
	word = (value ? map[w] : ~map[w]) & (~(uint64_t)0 << (n % 64));
	while (!word) {
		if (++w == WORDS)
			return CHUNK;
		word = value ? map[w] : ~map[w];
	}
	return w * 64 + (unsigned int)__builtin_ctzll(word);
}

static bool bitmap_full(const uint64_t *map, unsigned int last_set)
{
	/* Most calls stop here: the word just changed still has room. */
	return map[last_set / 64] == ~(uint64_t)0 &&
	       find_bit(map, 0, false) == CHUNK;
}

void ida_init(struct ida *ida)
{
	*ida = (struct ida)IDA_INIT(*ida);
}

/* Start a new bitmap at @chunk holding @id alone. */
static int bitmap_new(struct ida *ida, uint64_t chunk, uint64_t id)
{
	struct idr *tree = &ida->ida_rt;
	struct idr__nodes spare = { NULL, 0 };
	struct idr_node *node;
	int err;

	err = idr__reserve(tree, &spare, idr__nodes_needed(tree, chunk) + 1);
	if (err)
		return err;
	node = idr__node_take(&spare);
	idr__node_bits(node)[id % CHUNK / 64] = (uint64_t)1 << (id % 64);
	idr__insert(tree, chunk, node, false, &spare);
	return (int)id;
}

/* Take bit @n of the bitmap at @chunk. */
static int bitmap_take(struct ida *ida, uint64_t chunk, uint64_t *map,
		       unsigned int n)
{
	map[n / 64] |= (uint64_t)1 << (n % 64);
	if (bitmap_full(map, n))
		idr__set_full(&ida->ida_rt, chunk, true);
	return (int)(chunk * CHUNK + n);
}

int ida_alloc_range(struct ida *ida, unsigned int min, unsigned int max,
		    gfp_t gfp)
{
	uint64_t id = min, chunk;

	(void)gfp;
	if (max > INT_MAX)
		max = INT_MAX;
	if (min > max)
		return -ENOSPC;
	for (;;) {
		uint64_t *map;
		unsigned int n;

		if (idr__find_free(&ida->ida_rt, id / CHUNK, max / CHUNK,
				   &chunk) < 0)
			return -ENOSPC;
		if (chunk != id / CHUNK)
			id = chunk * CHUNK;
		map = bitmap_of(ida, chunk);
		if (!map)
			return bitmap_new(ida, chunk, id);
		n = find_bit(map, (unsigned int)(id % CHUNK), false);
		if (n < CHUNK)
			return chunk * CHUNK + n > max
				       ? -ENOSPC
				       : bitmap_take(ida, chunk, map, n);
		/* Only the first bitmap can be full above @min: go on. */
		id = (chunk + 1) * CHUNK;
	}
}

int ida_alloc(struct ida *ida, gfp_t gfp)
{
	return ida_alloc_range(ida, 0, UINT_MAX, gfp);
}

int ida_alloc_min(struct ida *ida, unsigned int min, gfp_t gfp)
{
	return ida_alloc_range(ida, min, UINT_MAX, gfp);
}

int ida_alloc_max(struct ida *ida, unsigned int max, gfp_t gfp)
{
	return ida_alloc_range(ida, 0, max, gfp);
}

int ida_free(struct ida *ida, unsigned int id)
{
	uint64_t chunk = id / CHUNK, *map = bitmap_of(ida, chunk);
	unsigned int n = id % CHUNK;
	void *node;

	if (id > INT_MAX || !map || !test_bit(map, n))
		return -ENOENT;
	if (bitmap_full(map, n))
		idr__set_full(&ida->ida_rt, chunk, false);
	map[n / 64] &= ~((uint64_t)1 << (n % 64));
	if (find_bit(map, 0, true) == CHUNK) {
		idr__delete(&ida->ida_rt, chunk, &node);
		idr__node_release(&ida->ida_rt, node);
	}
	return 0;
}

bool ida_exists(const struct ida *ida, unsigned int id)
{
	const uint64_t *map = bitmap_of(ida, id / CHUNK);

	return id <= INT_MAX && map && test_bit(map, id % CHUNK);
}

int ida_find_first_range(const struct ida *ida, unsigned int min,
			 unsigned int max)
{
	uint64_t chunk = min / CHUNK, id = min;
	void *node;

	if (min > INT_MAX)
		return -EINVAL;
	if (max > INT_MAX)
		max = INT_MAX;
	while (id <= max &&
	       idr__next_present(&ida->ida_rt, id / CHUNK, &chunk, &node)) {
		unsigned int start = chunk == id / CHUNK ? id % CHUNK : 0;
		unsigned int n = find_bit(idr__node_bits(node), start, true);

		if (n < CHUNK)
			return chunk * CHUNK + n > max ? -ENOENT
						       : (int)(chunk * CHUNK + n);
		id = (chunk + 1) * CHUNK;
	}
	return -ENOENT;
}

int ida_find_first(const struct ida *ida)
{
	return ida_find_first_range(ida, 0, UINT_MAX);
}

bool ida_is_empty(const struct ida *ida)
{
	return idr_is_empty(&ida->ida_rt);
}

unsigned long ida_count(const struct ida *ida)
{
	uint64_t chunk = 0;
	unsigned long count = 0;
	unsigned int w;
	void *node;

	while (idr__next_present(&ida->ida_rt, chunk, &chunk, &node)) {
		for (w = 0; w < WORDS; w++)
			count += (unsigned long)__builtin_popcountll(
				idr__node_bits(node)[w]);
		chunk++;
	}
	return count;
}

void ida_destroy(struct ida *ida)
{
	idr__free_all(&ida->ida_rt);
}

const struct idr *ida_tree(const struct ida *ida)
{
	return &ida->ida_rt;
}

int ida_check(const struct ida *ida)
{
	return idr_check(&ida->ida_rt);
}
