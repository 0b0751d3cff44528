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

/* A packed node (pack word @word, holding @n) is of a packable idr, of
 * its kind and level, with room enough; a leaf with room for 2 at least
 * (word_at()). */
static bool packed_sound(const struct idr *idr, uintptr_t word,
			 unsigned int shift, unsigned int n)
{
	unsigned int cap = word_cap(word);
	bool interior = shift != 0;

	return packable(idr) && (word & 1) &&
	       !!(word & PACK_INTERIOR) == interior &&
	       (word >> 8 & 0xff) == shift && (word & 0xf0) == 0 &&
	       !(interior && (word & PACK_GROWN)) && cap >= n &&
	       cap <= IDR_SLOTS && (interior || cap >= 2);
}

/* A packed leaf's pack word is in place and sound, unless the link says
 * it has no room. */
static bool packed_leaf_sound(const struct idr *idr, const void *link)
{
	unsigned int n = count_of(linked(link)->full);
	uintptr_t word = leaf_word(link);

	if (!((uintptr_t)link & LINK_NO_ROOM) && word_cap(word) <= n)
		return false;
	return packed_sound(idr, word, 0, n);
}

static bool leaf_sound(const struct idr *idr, const void *link)
{
	const struct idr_node *leaf = linked(link);
	bool ida = idr->idr_flags & IDR__IDA;
	unsigned int off;

	if (link_packed(link))
		return packed_leaf_sound(idr, link);
	if ((uintptr_t)link & LINK_NO_ROOM)
		return false;
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

/* A keyed block's IDs, or -1: a packable idr's, below a node at
 * KEYED_SHIFT, with room for its IDs (KEYED_MAX at most), keys in order. */
static long keyed_sound(const struct idr *idr, const void *link,
			unsigned int shift)
{
	const struct idr_keyed *k = keyed_of(link);
	unsigned int i;

	if (!packable(idr) || shift != IDR_BITS || !link_packed(link) ||
	    (uintptr_t)link & LINK_NO_ROOM || !k->n || k->n > k->cap ||
	    k->cap > KEYED_MAX)
		return -1;
	for (i = 0; i < k->n; i++)
		if (k->key[i] >= KEYED_SPAN ||
		    (i && k->key[i] <= k->key[i - 1]))
			return -1;
	return k->n;
}

/* Count the entries under the node @link leads to; -1 if any invariant
 * is broken. */
static long check_node(const struct idr *idr, const void *link,
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
		if (link_keyed(link)) {
			/* Never full: KEYED_MAX is below its range. */
			n = keyed_sound(idr, link, shift - IDR_BITS);
			if (n < 0 || node->full & bit(off))
				return -1;
			entries += n;
			continue;
		}
		/* An interior child's layout is in its pack word too. */
		if (shift > IDR_BITS && link != link_to(child))
			return -1;
		n = check_node(idr, link, shift - IDR_BITS);
		if (n < 0) /* -1 or > 0 */
			return -1;
		if ((child->full == ALL_SLOTS) != !!(node->full & bit(off)))
			return -1;
		entries += n;
	}
	return entries;
}

static long check_node(const struct idr *idr, const void *link,
		       unsigned int shift)
{
	const struct idr_node *node = linked(link);
	uint64_t present = present_in(link, shift);
	/* Only a tagged idr's leaf may be empty (it keeps its generations),
	 * or any node of an RCU idr's that a removal could not take out, with
	 * no memory for its parent's copy (prune() in tree.c). */
	bool kept = (shift == 0 && idr__tagged(idr)) || idr__rcu(idr);

	if ((!present && !kept) || (present & ~ALL_SLOTS) ||
	    (node->full & ~present))
		return -1;
	if (shift == 0)
		return leaf_sound(idr, link) ? (long)count_of(present) : -1;
	/* An interior node's pack word says its shift. */
	if (is_packed(node)
		    ? !packed_sound(idr, node->pack, shift, count_of(present))
		    : node->pack != whole_word(shift))
		return -1;
	return check_children(idr, node, shift);
}

/* The nodes of the subtree under interior @node (at @shift) or a leaf,
 * its own included. */
static unsigned long nodes_under(const struct idr_node *node,
				 unsigned int shift)
{
	unsigned long n = 1;
	uint64_t set;

	for (set = shift ? node->present : 0; set; set &= set - 1) {
		const void *link = child_link(node, lowest(set));

		n += link_keyed(link)
			     ? 1
			     : nodes_under(linked(link), shift - IDR_BITS);
	}
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
	/* The tree is no taller than it must be: but a keyed block is
	 * never the top. */
	if (shift && !(top->present & ~bit(0)) &&
	    !(shift == KEYED_SHIFT && link_keyed(child_link(top, 0))))
		return -EUCLEAN;
	/* The writer's pointer: tags are links' */
	if ((uintptr_t)top & (LINK_PACKED | TOP_LEAF | LINK_NO_ROOM))
		return -EUCLEAN;
	/* The readers' word: the top's link, TOP_LEAF for a leaf (whose
	 * link's tags check_node() checks). */
	if (!((uintptr_t)idr->idr_top & TOP_LEAF) != !!shift ||
	    linked(writer_top(idr)) != top ||
	    (shift && writer_top(idr) != link_to(top)))
		return -EUCLEAN;
	entries = check_node(idr, writer_top(idr), shift);
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
