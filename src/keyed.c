/* SPDX-License-Identifier: MIT */
/*
 * keyed.c - keyed blocks: a level-1 node's few IDs in one block (node.h
 * says why and how they are laid out), and what they become past
 * KEYED_MAX: packed nodes fitted to their IDs (a lone ID's insertion,
 * which mallocs), or whole ones (any other, from reserved nodes).  A
 * block readers can reach changes only by an entry replaced in place:
 * each other change is a new block, made here, that shape.c publishes
 * in the old one's place; but a plain idr's removal, which has no
 * reader and may not malloc, works in place.  Each block is exactly as
 * big as its IDs: a sparse idr's blocks hold one to three IDs, in
 * glibc's 32- and 48-byte chunks.
 */
#include <string.h>

#include "alloc.h"
#include "keyed.h"

/* A block with room for @n, holding none yet. */
static struct idr_keyed *keyed_alloc(unsigned int n)
{
	struct idr_keyed *k = idr__malloc(keyed_size(n));

	if (k) {
		k->n = (uint8_t)n;
		k->cap = (uint8_t)n;
	}
	return k;
}

struct idr_keyed *idr__keyed_new(uint64_t index, void *entry)
{
	struct idr_keyed *k = keyed_alloc(1);

	if (k) {
		k->key[0] = (uint16_t)key_of(index);
		keyed_entries(k)[0] = entry;
	}
	return k;
}

/* Copy @from's IDs of rank [@lo, @hi) to @to, from rank @at on. */
static void keyed_copy(struct idr_keyed *to, unsigned int at,
		       const struct idr_keyed *from, unsigned int lo,
		       unsigned int hi)
{
	memcpy(&to->key[at], &from->key[lo], (hi - lo) * sizeof(*to->key));
	memcpy(keyed_entries(to) + at, keyed_entries(from) + lo,
	       (hi - lo) * sizeof(void *));
}

struct idr_keyed *idr__keyed_with(const struct idr_keyed *k, uint64_t index,
				  void *entry)
{
	unsigned int i = keyed_rank(k, key_of(index));
	struct idr_keyed *with = keyed_alloc(k->n + 1u);

	if (!with)
		return NULL;
	keyed_copy(with, 0, k, 0, i);
	with->key[i] = (uint16_t)key_of(index);
	keyed_entries(with)[i] = entry;
	keyed_copy(with, i + 1, k, i, k->n);
	return with;
}

struct idr_keyed *idr__keyed_without(const struct idr_keyed *k, unsigned int i)
{
	struct idr_keyed *without = keyed_alloc(k->n - 1u);

	if (!without)
		return NULL;
	keyed_copy(without, 0, k, 0, i);
	keyed_copy(without, i, k, i + 1, k->n);
	return without;
}

void idr__keyed_take(struct idr_keyed *k, unsigned int i)
{
	void **entries = keyed_entries(k);
	unsigned int rest = k->n - i - 1u;

	memmove(&k->key[i], &k->key[i + 1], rest * sizeof(*k->key));
	memmove(entries + i, entries + i + 1, rest * sizeof(void *));
	k->n--;
}

struct idr_keyed *idr__keyed_shrink(struct idr_keyed *k)
{
	unsigned int cap = k->cap, n = k->n;
	void **from = keyed_entries(k), **to;
	struct idr_keyed *small;

	if (block_bytes(keyed_size(n)) >= block_bytes(keyed_size(cap)))
		return k;
	/* The entries go where a block of room n keeps them, then the
	 * block shrinks; if it cannot, they go back. */
	k->cap = (uint8_t)n;
	to = keyed_entries(k);
	memmove(to, from, n * sizeof(void *));
	small = idr__shrink(k, keyed_size(cap), keyed_size(n));
	if (small)
		return small;
	memmove(from, to, n * sizeof(void *));
	k->cap = (uint8_t)cap;
	return k;
}

unsigned int idr__keyed_nodes(const struct idr_keyed *k, uint64_t index)
{
	uint64_t runs = keyed_runs(k) | bit(digit(index, IDR_BITS));

	return 1 + count_of(runs);
}

/* The whole leaf, from @spare, of @k's run @d (a leaf's bitmap @set,
 * from rank @first on). */
static struct idr_node *leaf_of_run(const struct idr_keyed *k, uint64_t set,
				    unsigned int first,
				    struct idr__nodes *spare)
{
	struct idr_node *leaf = idr__node_take(spare);
	void **entries = keyed_entries(k) + first;

	leaf->present = leaf->full = set;
	for (; set; set &= set - 1)
		leaf->slots[lowest(set)] = *entries++;
	return leaf;
}

struct idr_node *idr__keyed_unkey(const struct idr_keyed *k,
				  struct idr__nodes *spare)
{
	struct idr_node *node = idr__node_take(spare);
	uint64_t runs;

	node->pack = whole_word(IDR_BITS);
	for (runs = keyed_runs(k); runs; runs &= runs - 1) {
		unsigned int d = lowest(runs), first;
		uint64_t set = keyed_run(k, d, &first);

		node->slots[d] = leaf_of_run(k, set, first, spare);
		node->present |= bit(d);
		if (set == ALL_SLOTS)
			node->full |= bit(d);
	}
	return node;
}

/* The packed leaf of @k's run @d, with @index's @entry too if @index is
 * in that run, in a block fitted to its entries: the link to it, or NULL
 * when malloc refuses. */
static void *run_packed(const struct idr_keyed *k, unsigned int d,
			uint64_t index, void *entry)
{
	unsigned int first, n, cap, i;
	uint64_t set = keyed_run(k, d, &first);
	bool ours = digit(index, IDR_BITS) == d;
	void *const *from = keyed_entries(k) + first;
	struct idr_node *leaf;
	void **to;

	if (ours)
		set |= bit(digit(index, 0));
	n = count_of(set);
	cap = idr__room_fitted(n, false);
	leaf = idr__malloc(pack_size(cap, false));
	if (!leaf)
		return NULL;
	leaf->full = set;
	to = pack_slots(leaf);
	for (i = 0; set; set &= set - 1, i++)
		to[i] = ours && lowest(set) == digit(index, 0) ? entry
							       : *from++;
	if (n < cap)
		*word_at(leaf, n) = pack_word(cap, false, 0);
	return link_to_leaf(leaf, cap, n);
}

/* Free @node's first @n children and @node, a packed level-1 node the
 * split below could not finish. */
static void split_undo(struct idr_node *node, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		idr__free(linked(node->slots[i]), link_size(node->slots[i], 0));
	idr__free(node, pack_size(pack_cap(node), true));
}

void *idr__keyed_split(const struct idr_keyed *k, uint64_t index, void *entry)
{
	uint64_t runs = keyed_runs(k) | bit(digit(index, IDR_BITS));
	unsigned int cap = idr__room_fitted(count_of(runs), true), i = 0;
	struct idr_node *node = idr__malloc(pack_size(cap, true));

	if (!node)
		return NULL;
	node->full = 0;
	node->present = runs;
	node->pack = pack_word(cap, false, IDR_BITS);
	for (; runs; runs &= runs - 1, i++) {
		void *leaf = run_packed(k, lowest(runs), index, entry);

		if (!leaf) {
			split_undo(node, i);
			return NULL;
		}
		node->slots[i] = leaf;
		if (linked(leaf)->full == ALL_SLOTS)
			node->full |= bit(lowest(runs));
	}
	return link_to(node);
}
