/* SPDX-License-Identifier: MIT */
/*
 * check.c - idr_check(): every invariant of a tree, read node by node.
 * The tests run it after every change; it changes nothing.
 */
#include "node.h"
#include "nodes.h"
#include "tree.h"

/*
 * An IDA bitmap is never empty, full exactly when its bit says, and its
 * summaries (full: words all ones; present: words not zero) are right.
 */
static bool bitmap_sound(const struct idr_node *map, bool full)
{
	uint64_t ones = 0, used = 0;
	unsigned int w;

	for (w = 0; w < IDR_SLOTS; w++) {
		ones |= (uint64_t)(map->bits[w] == ~(uint64_t)0) << w;
		used |= (uint64_t)(map->bits[w] != 0) << w;
	}
	return used && (ones == ALL_SLOTS) == full && ones == map->full &&
	       used == map->present;
}

/* A packed node is of a packable idr, of its kind and level, with room
 * enough. */
static bool packed_sound(const struct idr *idr, const struct idr_node *node,
			 unsigned int shift)
{
	unsigned int cap = pack_cap(node);
	bool interior = shift != 0;

	return packable(idr) && !!(node->pack & PACK_INTERIOR) == interior &&
	       shift_of(node) == shift && (node->pack & 0xf0) == 0 &&
	       !(interior && (node->pack & PACK_GROWN)) &&
	       cap >= count_of(present_of(node)) && cap <= IDR_SLOTS;
}

static bool leaf_sound(const struct idr *idr, const struct idr_node *leaf)
{
	bool ida = idr->idr_flags & IDR__IDA;
	unsigned int off;

	if (is_packed(leaf))
		return packed_sound(idr, leaf, 0);
	if (idr__tagged(idr) != (leaf->aux != NULL))
		return false;
	if (!ida && leaf->full != leaf->present)
		return false;
	for (off = 0; off < IDR_SLOTS; off++) {
		bool present = leaf->present & bit(off);

		/* idr__find() reads a whole leaf's slot alone. */
		if (!present && leaf->slots[off])
			return false;
		if (ida && present &&
		    !bitmap_sound(leaf->slots[off], leaf->full & bit(off)))
			return false;
	}
	return true;
}

/* Count the entries under @node; -1 if any invariant is broken. */
static long check_node(const struct idr *idr, const struct idr_node *node,
		       unsigned int shift);

/* An interior node's children, and how many entries are under them. */
static long check_children(const struct idr *idr, const struct idr_node *node,
			   unsigned int shift)
{
	long entries = 0;
	unsigned int off;

	for (off = 0; off < IDR_SLOTS; off++) {
		const void *link = link_at(node, off, is_packed(node));
		const struct idr_node *child = linked(link);
		long n;

		if (!!(node->present & bit(off)) != (child != NULL))
			return -1;
		if (!child)
			continue;
		if (link != link_to(child))
			return -1;
		n = check_node(idr, child, shift - IDR_BITS);
		if (n < 0) /* -1 or > 0 */
			return -1;
		if ((child->full == ALL_SLOTS) != !!(node->full & bit(off)))
			return -1;
		entries += n;
	}
	return entries;
}

static long check_node(const struct idr *idr, const struct idr_node *node,
		       unsigned int shift)
{
	uint64_t present = present_of(node);
	/* Only a tagged idr's leaf may be empty: it keeps its generations. */
	bool kept = shift == 0 && idr__tagged(idr);

	if ((!present && !kept) || (present & ~ALL_SLOTS) ||
	    (node->full & ~present))
		return -1;
	if (shift == 0)
		return leaf_sound(idr, node) ? (long)count_of(present) : -1;
	/* An interior node's pack word says its shift. */
	if (is_packed(node) ? !packed_sound(idr, node, shift)
			    : node->pack != whole_word(shift))
		return -1;
	return check_children(idr, node, shift);
}

/* The nodes of the subtree under @node, its own included. */
static unsigned long nodes_under(const struct idr_node *node,
				 unsigned int shift)
{
	unsigned long n = 1;
	uint64_t set;

	for (set = shift ? present_of(node) : 0; set; set &= set - 1)
		n += nodes_under(child_of(node, lowest(set)), shift - IDR_BITS);
	return n;
}

int idr_check(const struct idr *idr)
{
	const struct idr_node *top = idr->idr_rt;
	unsigned int shift = idr->idr_shift;
	long entries;

	if (!top) {
		bool empty = !idr->idr_count && !idr->idr_retired &&
			     !idr->idr_nodes && !shift && !idr->idr_top;

		return empty ? 0 : -EUCLEAN;
	}
	if (shift % IDR_BITS || shift / IDR_BITS >= IDR__LEVELS)
		return -EUCLEAN;
	/* The tree is no taller than it must be. */
	if (shift && !(top->present & ~bit(0)))
		return -EUCLEAN;
	if ((uintptr_t)top & 1) /* the writer's pointer: tags are links' */
		return -EUCLEAN;
	/* The readers' word: the top's link, TOP_LEAF for a leaf. */
	if ((uintptr_t)idr->idr_top !=
	    ((uintptr_t)link_to(top) | (shift ? 0 : TOP_LEAF)))
		return -EUCLEAN;
	entries = check_node(idr, top, shift);
	if (entries < 0) /* -1 or > 0 */
		return -EUCLEAN;
	if ((unsigned long)entries != idr->idr_count + idr->idr_retired)
		return -EUCLEAN;
	if (nodes_under(top, shift) != idr->idr_nodes)
		return -EUCLEAN;
	if (idr_cache_count(idr) > IDR__CACHE_NODES)
		return -EUCLEAN;
	return 0;
}
