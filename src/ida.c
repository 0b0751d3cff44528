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
 * Two words of each bitmap's node say which of its words are all ones and
 * which are not zero, so that finding a bit takes two ctz, not a scan.
 */
#include <limits.h>

#include "nodes.h"
#include "tree.h"

#define CHUNK (IDR_SLOTS * 64u)
#define WORDS IDR_SLOTS
#define ALL_WORDS \
	(WORDS == 64 ? ~(uint64_t)0 : ((uint64_t)1 << (WORDS & 63)) - 1)

unsigned int ida_bitmap_bits(void)
{
	return CHUNK;
}

/* A bitmap: its words, and which of them are all ones, which not zero. */
struct bitmap {
	uint64_t *word, *ones, *used;
};

/* The bitmap @node (NULL: none) as a struct bitmap in @map. */
static bool bitmap_at(void *node, struct bitmap *map)
{
	if (!node)
		return false;
	map->word = idr__node_bits(node);
	map->ones = idr__node_words_full(node);
	map->used = idr__node_words_used(node);
	return true;
}

/* The bitmap at @chunk, if any; its path is the caller's to report.  A
 * present slot holds its bitmap, an absent one NULL: a find's read. */
static bool bitmap_of(const struct ida *ida, uint64_t chunk, struct bitmap *map)
{
	return bitmap_at(idr__find(&ida->ida_rt, chunk), map);
}

static bool test_bit(const struct bitmap *map, unsigned int n)
{
	return map->word[n / 64] >> (n % 64) & 1;
}

static void set_bit(const struct bitmap *map, unsigned int n)
{
	unsigned int w = n / 64;

	map->word[w] |= (uint64_t)1 << (n % 64);
	*map->used |= (uint64_t)1 << w;
	if (map->word[w] == ~(uint64_t)0)
		*map->ones |= (uint64_t)1 << w;
}

static void clear_bit(const struct bitmap *map, unsigned int n)
{
	unsigned int w = n / 64;

	map->word[w] &= ~((uint64_t)1 << (n % 64));
	*map->ones &= ~((uint64_t)1 << w);
	if (!map->word[w])
		*map->used &= ~((uint64_t)1 << w);
}

/* The first bit at or above @n that is @value, or CHUNK. */
static unsigned int find_bit(const struct bitmap *map, unsigned int n,
			     bool value)
{
	unsigned int w = n / 64;
	uint64_t word, words;

	if (n >= CHUNK)
		return CHUNK;
	word = value ? map->word[w] : ~map->word[w];
	word &= ~(uint64_t)0 << (n % 64);
	if (!word) {
		/* The next word with such a bit, from the summary. */
		words = value ? *map->used : ~*map->ones;
		words &= ~(uint64_t)0 << w << 1;
		if (w + 1 == WORDS || !(words & ALL_WORDS))
			return CHUNK;
		w = (unsigned int)__builtin_ctzll(words);
		word = value ? map->word[w] : ~map->word[w];
	}
	return w * 64 + (unsigned int)__builtin_ctzll(word);
}

static bool bitmap_full(const struct bitmap *map)
{
	return *map->ones == ALL_WORDS;
}

/*
 * The kernel's IDA takes a lock of its own (xa_lock), so that callers
 * need none: each public call here holds the tree's idr_ida_lock, a
 * byte.  It is the IDA's own state, a const IDA's too.
 */
static void ida_lock(const struct ida *ida)
{
	idr__byte_lock((unsigned char *)&ida->ida_rt.idr_ida_lock);
}

static void ida_unlock(const struct ida *ida)
{
	idr__byte_unlock((unsigned char *)&ida->ida_rt.idr_ida_lock);
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
	struct bitmap map;
	int err;

	err = idr__reserve(tree, &spare, idr__nodes_needed(tree, chunk) + 1,
			   IDR__ANY_NODES);
	if (err)
		return err;
	node = idr__node_take(&spare);
	map = (struct bitmap){ idr__node_bits(node), idr__node_words_full(node),
			       idr__node_words_used(node) };
	set_bit(&map, (unsigned int)(id % CHUNK));
	idr__insert(tree, chunk, node, IDR__SLOT_OPEN, &spare);
	if (idr__tracing(tree)) {
		idr__trace_node(tree, IDR_TRACE_NODE_NEW, chunk,
				IDR_AUX_BITMAP);
		idr__trace_bit(tree, IDR_TRACE_BIT_SET, chunk,
			       (unsigned int)(id % CHUNK), *map.ones);
	}
	return (int)id;
}

/* Take bit @n of the bitmap at @chunk. */
static int bitmap_take(struct ida *ida, uint64_t chunk,
		       const struct bitmap *map, unsigned int n)
{
	set_bit(map, n);
	if (idr__tracing(&ida->ida_rt))
		idr__trace_bit(&ida->ida_rt, IDR_TRACE_BIT_SET, chunk, n,
			       *map->ones);
	if (bitmap_full(map))
		idr__set_full(&ida->ida_rt, chunk, IDR__SLOT_FULL);
	return (int)(chunk * CHUNK + n);
}

static int alloc_range(struct ida *ida, unsigned int min, unsigned int max)
{
	uint64_t id = min, chunk;

	if (max > INT_MAX)
		max = INT_MAX;
	if (min > max)
		return -ENOSPC;
	for (;;) {
		struct bitmap map;
		unsigned int n;
		void *bitmap;

		if (idr__find_free(&ida->ida_rt, id / CHUNK, max / CHUNK,
				   &chunk, &bitmap) < 0)
			return -ENOSPC;
		if (chunk != id / CHUNK)
			id = chunk * CHUNK;
		if (!bitmap_at(bitmap, &map))
			return bitmap_new(ida, chunk, id);
		n = find_bit(&map, (unsigned int)(id % CHUNK), false);
		if (n < CHUNK)
			return chunk * CHUNK + n > max
				       ? -ENOSPC
				       : bitmap_take(ida, chunk, &map, n);
		/* Only the first bitmap can be full above @min: go on. */
		id = (chunk + 1) * CHUNK;
	}
}

int ida_alloc_range(struct ida *ida, unsigned int min, unsigned int max,
		    gfp_t gfp)
{
	const struct idr *tree = &ida->ida_rt;
	bool op;
	int id;

	(void)gfp;
	ida_lock(ida);
	op = idr__op(tree, "ida_alloc_range", min, max, 0);
	id = (int)idr__done(tree, op, alloc_range(ida, min, max));
	ida_unlock(ida);
	return id;
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

static int free_id(struct ida *ida, unsigned int id)
{
	uint64_t chunk = id / CHUNK;
	unsigned int n = id % CHUNK;
	struct bitmap map;
	void *node;
	bool full;

	if (id <= INT_MAX)
		idr__trace_path(&ida->ida_rt, chunk);
	if (id > INT_MAX || !bitmap_of(ida, chunk, &map) || !test_bit(&map, n))
		return -ENOENT;
	full = bitmap_full(&map);
	clear_bit(&map, n);
	if (idr__tracing(&ida->ida_rt))
		idr__trace_bit(&ida->ida_rt, IDR_TRACE_BIT_CLEAR, chunk, n,
			       *map.ones);
	if (full)
		idr__set_full(&ida->ida_rt, chunk, IDR__SLOT_OPEN);
	if (!*map.used) {
		idr__delete(&ida->ida_rt, chunk, &node);
		idr__trace_gone(&ida->ida_rt, chunk, IDR_AUX_BITMAP,
				idr__node_release(&ida->ida_rt, node));
	}
	return 0;
}

int ida_free(struct ida *ida, unsigned int id)
{
	bool op;
	int err;

	ida_lock(ida);
	op = idr__op(&ida->ida_rt, "ida_free", 0, 0, id);
	err = free_id(ida, id);
	idr__done(&ida->ida_rt, op, err ? err : (int64_t)id);
	ida_unlock(ida);
	return err;
}

bool ida_exists(const struct ida *ida, unsigned int id)
{
	struct bitmap map;
	bool op, yes;

	ida_lock(ida);
	op = idr__op(&ida->ida_rt, "ida_exists", 0, 0, id);
	if (id <= INT_MAX)
		idr__trace_path(&ida->ida_rt, id / CHUNK);
	yes = id <= INT_MAX && bitmap_of(ida, id / CHUNK, &map) &&
	      test_bit(&map, id % CHUNK);

	idr__done(&ida->ida_rt, op, yes ? (int64_t)id : -ENOENT);
	ida_unlock(ida);
	return yes;
}

static int find_first_range(const struct ida *ida, unsigned int min,
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
		struct bitmap map = { idr__node_bits(node),
				      idr__node_words_full(node),
				      idr__node_words_used(node) };
		unsigned int n = find_bit(&map, start, true);

		if (n < CHUNK)
			return chunk * CHUNK + n > max
				       ? -ENOENT
				       : (int)(chunk * CHUNK + n);
		id = (chunk + 1) * CHUNK;
	}
	return -ENOENT;
}

int ida_find_first_range(const struct ida *ida, unsigned int min,
			 unsigned int max)
{
	bool op;
	int id;

	ida_lock(ida);
	op = idr__op(&ida->ida_rt, "ida_find_first_range", min, max, 0);
	id = (int)idr__done(&ida->ida_rt, op, find_first_range(ida, min, max));
	ida_unlock(ida);
	return id;
}

int ida_find_first(const struct ida *ida)
{
	return ida_find_first_range(ida, 0, UINT_MAX);
}

bool ida_is_empty(const struct ida *ida)
{
	bool empty;

	ida_lock(ida);
	empty = idr_is_empty(&ida->ida_rt);
	ida_unlock(ida);
	return empty;
}

unsigned long ida_count(const struct ida *ida)
{
	uint64_t chunk = 0;
	unsigned long count = 0;
	unsigned int w;
	void *node;
	bool op;

	ida_lock(ida);
	op = idr__op(&ida->ida_rt, "ida_count", 0, 0, 0);
	while (idr__next_present(&ida->ida_rt, chunk, &chunk, &node)) {
		for (w = 0; w < WORDS; w++)
			count += (unsigned long)__builtin_popcountll(
				idr__node_bits(node)[w]);
		chunk++;
	}
	idr__done(&ida->ida_rt, op, (int64_t)count);
	ida_unlock(ida);
	return count;
}

void ida_destroy(struct ida *ida)
{
	bool op;

	ida_lock(ida);
	op = idr__op(&ida->ida_rt, "ida_destroy", 0, 0, 0);
	idr__free_all(&ida->ida_rt);
	idr__cache_drain(&ida->ida_rt);
	idr__done(&ida->ida_rt, op, 0);
	ida_unlock(ida);
}

const struct idr *ida_tree(const struct ida *ida)
{
	return &ida->ida_rt;
}

int ida_check(const struct ida *ida)
{
	int err;

	ida_lock(ida);
	err = idr_check(&ida->ida_rt);
	ida_unlock(ida);
	return err;
}
