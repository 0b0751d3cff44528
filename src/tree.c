/* SPDX-License-Identifier: MIT */
/*
 * tree.c - nodes, bitmaps, insertion and removal, growing and shrinking
 * (the searches are seek.c's).
 *
 * Conventions in this file:
 *   @index  an ID minus the idr's base (or an IDA's bitmap number); at
 *           most IDR_INDEX_MAX.
 *   @shift  the index bits below a node's digit: 0 for a leaf, and
 *           IDR_BITS more for each level up.  A node with shift s covers
 *           IDR_SLOTS << s consecutive indices.  Nodes do not store it:
 *           the idr keeps the top's, and each walk counts down from it.
 *   @off    a slot number in a node, 0 .. IDR_SLOTS - 1.
 *   full    bit @off set: leaf, the slot is taken (an IDA's: its bitmap
 *           is full); interior, the child has no free index left.
 *   present bit @off set: the slot holds an entry (leaf) or a child.
 *
 * Packed nodes (blocks just big enough for what a node holds) are
 * pack.c's; this file links them into the tree.
 *
 * Every operation that adds nodes is told beforehand how many it needs
 * (idr__nodes_needed) and is handed exactly that many (a lone insertion
 * mallocs its packed blocks first, all or none), so the tree is never
 * left half changed by a failed allocation.
 */
#include <string.h>

#include "alloc.h"
#include "defer.h"
#include "keyed.h"
#include "node.h"
#include "nodes.h"
#include "pack.h"
#include "shape.h"
#include "tree.h"

/* {==================== Tracing ==================== */

/* Whether to report events: see idr__tracing() in tree.h. */
static inline bool tracing(const struct idr *idr)
{
	return idr__tracing(idr);
}

/* Event @leaf_event at a leaf, or @subtree_event higher up. */
static inline enum idr_trace_event by_level(unsigned int shift,
					    enum idr_trace_event leaf_event,
					    enum idr_trace_event subtree_event)
{
	return shift ? subtree_event : leaf_event;
}

/* Why a leaf slot's full bit changed: the slot, or an IDA's bitmap. */
static enum idr_trace_event leaf_bit_event(const struct idr *idr, bool set)
{
	if (idr->idr_flags & IDR__IDA)
		return set ? IDR_TRACE_BITMAP_FULL : IDR_TRACE_BITMAP_OPEN;
	return set ? IDR_TRACE_FULL : IDR_TRACE_OPEN;
}

/* }==================== Tracing ==================== */

/* {==================== The top and the path ==================== */

#define RECORD(node) (path[depth++] = (node))
#define BELOW(n) (above = node, node = (n))

/*
 * Record the nodes from the top down to the leaf that holds @index in
 * @path; the number of them, or 0 if the path ends before a leaf.  One
 * less if it ends at a keyed block, the last of @path (as a node).
 */
static inline __attribute__((always_inline)) unsigned int
descend(const struct idr *idr, uint64_t index, struct idr_node **path)
{
	struct idr_node *node = idr->idr_rt;
	unsigned int depth = 0, shift = idr->idr_shift;
	void *link;

	if (!node || index >= capacity(shift))
		return 0;
	link = writer_top(idr);
	DESCEND(RECORD, return 0)
	if (__builtin_expect(link_keyed(link), 0)) {
		path[depth - 2] = (struct idr_node *)keyed_of(link);
		return depth - 1;
	}
	return depth;
}

/* }==================== The top and the path ==================== */

/* {==================== Insertion ==================== */

/*
 * Whether an insertion at @off of the node @link leads to, at @shift,
 * must first move it to a whole node: a packed one with no room; on an
 * RCU idr also one where the new entry or child would not go last, since
 * making room in place moves entries under the readers' feet.  (Going
 * last moves nothing: the slot is set, then the bit that lets readers
 * see it.)  Nor may it go in place into an empty packed node (one that
 * idr__prune() could not take out): its slot 0 still holds what a reader that
 * loaded the old bitmap takes for the entry or child that was there.
 */
static inline bool must_move(const struct idr *idr, const void *link,
			     unsigned int shift, unsigned int off)
{
	const struct idr_node *node = linked(link);
	uint64_t set = shift ? node->present : node->full;

	return no_room(link, shift) ||
	       (idr__rcu(idr) && link_packed(link) && (!set || set >> off));
}

/*
 * How many nodes inserting @index takes: every new level on top (each
 * holds the old top at slot 0), then every node missing on the path
 * down, and a whole node for the packed one with no room that must take
 * the first of them (or the entry).  Above the old top, the path leaves
 * the slot-0 chain at the highest new level whose digit of @index is not
 * 0, so it meets no old node there.
 */
static unsigned int path_needed(const struct idr *idr, uint64_t index)
{
	const void *link = writer_top(idr);
	unsigned int top = shift_for(index), shift = idr->idr_shift;
	unsigned int s;

	if (!link)
		return top / IDR_BITS + 1;
	for (s = top; s > shift; s -= IDR_BITS)
		if (digit(index, s))
			return (top - shift) / IDR_BITS + s / IDR_BITS;
	for (; shift; shift -= IDR_BITS) {
		const void *child = child_link(linked(link),
					       digit(index, shift));

		if (!child)
			return shift / IDR_BITS +
			       must_move(idr, link, shift, digit(index, shift));
		if (link_keyed(child))
			return idr__keyed_nodes(keyed_of(child), index);
		link = child;
	}
	return must_move(idr, link, 0, digit(index, 0));
}

/* A new leaf of a tagged idr also takes a node for its generations. */
unsigned int idr__nodes_needed(const struct idr *idr, uint64_t index)
{
	unsigned int need = path_needed(idr, index);

	return need && idr__tagged(idr) ? need + 1 : need;
}

static struct idr_node *leaf_new(struct idr *idr, struct idr__nodes *spare)
{
	struct idr_node *leaf = idr__node_take(spare);
	unsigned int off;

	if (idr__tagged(idr)) {
		leaf->aux = idr__node_take(spare);
		for (off = 0; off < IDR_SLOTS; off++)
			leaf->aux->bits[off] = idr->idr_gen_seed;
	}
	return leaf;
}

static struct idr_node *node_new_at(struct idr *idr, unsigned int shift,
				    struct idr__nodes *spare)
{
	struct idr_node *node;

	if (!shift)
		return leaf_new(idr, spare);
	node = idr__node_take(spare);
	node->pack = whole_word(shift);
	return node;
}

/* node-new for @node, made at @shift; a tagged leaf's gens node next. */
static void trace_made(const struct idr *idr, uint64_t index,
		       unsigned int shift, const struct idr_node *node)
{
	node_trace(idr, IDR_TRACE_NODE_NEW, index, shift, node);
	if (tracing(idr) && !shift && idr__tagged(idr))
		idr__trace_node(idr, IDR_TRACE_NODE_NEW, index, IDR_AUX_GENS);
}

/* path[@depth - 1], at @shift, ready to take one more: unpacked into a
 * whole node from @spare if it is packed with no room.  Its link. */
static void *room_made(struct idr *idr, struct idr_node **path,
		       unsigned int depth, uint64_t index, unsigned int shift,
		       struct idr__nodes *spare)
{
	void *link = path_link(idr, path, depth, index, shift);
	struct idr_node *whole;

	if (!must_move(idr, link, shift, digit(index, shift)))
		return link;
	whole = idr__node_take(spare);
	idr__unpack_into(whole, link, shift, IDR_SLOTS);
	idr__replace_node(idr, path, depth, index, shift, link_to(whole));
	return link_to(whole);
}

/* Store @entry at @index's free slot in its leaf, path[@depth - 1],
 * which @link leads to and which has room. */
static inline void leaf_put(struct idr *idr, struct idr_node **path,
			    unsigned int depth, uint64_t index,
			    const void *link, void *entry)
{
	struct idr_node *leaf = linked(link);
	unsigned int off = digit(index, 0);

	idr->idr_mods++;
	if (link_packed(link)) {
		if (idr__pack_put(link, off, entry))
			set_no_room(path_home(idr, path, depth, index, 0),
				    true);
		return;
	}
	idr__publish(&leaf->slots[off], entry);
	idr__set_bits(&leaf->present, bit(off));
}

/* The new top @top, the old one at its slot 0, its bit, the height. */
static void trace_grow(const struct idr *idr, const struct idr_node *top)
{
	unsigned int shift = idr->idr_shift;

	idr__trace_at(idr, IDR_TRACE_NODE_NEW, 0, shift, 0, 0);
	idr__trace_at(idr, IDR_TRACE_ATTACH, 0, shift, 0, 0);
	if (top->full)
		idr__trace_at(idr, IDR_TRACE_SUBTREE_FULL, 0, shift, 0,
			      top->full);
	idr__trace_at(idr, IDR_TRACE_GROW, 0, shift, 0, top->full);
}

/* @node, new, at @shift, the top over the old one at its slot 0:
 * complete before readers can reach it. */
static void put_on_top(struct idr *idr, struct idr_node *node,
		       unsigned int shift)
{
	node->slots[0] = writer_top(idr);
	node->present = bit(0);
	node->full = idr->idr_rt->full == ALL_SLOTS ? bit(0) : 0;
	idr__set_top(idr, link_to(node), shift);
	idr->idr_nodes++;
	if (tracing(idr))
		trace_grow(idr, node);
}

/* Add levels on top until the tree covers @index. */
static void grow(struct idr *idr, uint64_t index, struct idr__nodes *spare)
{
	unsigned int top = shift_for(index);

	if (!idr->idr_rt) {
		idr__set_top(idr, link_to(node_new_at(idr, top, spare)), top);
		idr->idr_nodes++;
		trace_made(idr, index, top, idr->idr_rt);
		return;
	}
	while (idr->idr_shift < top) {
		unsigned int shift = idr->idr_shift + IDR_BITS;

		put_on_top(idr, node_new_at(idr, shift, spare), shift);
	}
}

/* Set @index's leaf bit and each ancestor's that is now full. */
static inline void mark_full(const struct idr *idr, struct idr_node **path,
			     unsigned int depth, uint64_t index)
{
	bool traced = tracing(idr);
	unsigned int shift = 0;

	do {
		struct idr_node *node = path[--depth];

		idr__set_bits(&node->full, bit(digit(index, shift)));
		if (traced)
			idr__trace_at(idr,
				      by_level(shift, leaf_bit_event(idr, true),
					       IDR_TRACE_SUBTREE_FULL),
				      index, shift, digit(index, shift),
				      node->full);
		if (node->full != ALL_SLOTS)
			return;
		shift += IDR_BITS;
	} while (depth > 0);
}

/*
 * Clear @index's full bit at every level: each now has a free index.
 * A level whose bit was clear already had one, and so has every level
 * above it (a parent's bit is set only when its child is all full): the
 * clearing stops there, which for most removals is past the leaf.
 */
static inline void mark_open_at(const struct idr *idr, struct idr_node **path,
				unsigned int depth, uint64_t index,
				unsigned int shift)
{
	bool traced = tracing(idr);

	while (depth > 0) {
		struct idr_node *node = path[--depth];
		uint64_t b = bit(digit(index, shift));

		if (!(node->full & b))
			return;
		idr__clear_bits(&node->full, b);
		if (traced)
			idr__trace_at(
				idr,
				by_level(shift, leaf_bit_event(idr, false),
					 IDR_TRACE_SUBTREE_OPEN),
				index, shift, digit(index, shift), node->full);
		shift += IDR_BITS;
	}
}

/* The same from the leaf, path[@depth - 1], up. */
static inline void mark_open(const struct idr *idr, struct idr_node **path,
			     unsigned int depth, uint64_t index)
{
	mark_open_at(idr, path, depth, index, 0);
}

/*
 * Store @entry at the free index @index, taking the nodes it needs from
 * @spare, which holds exactly idr__nodes_needed() of them.  @fill says
 * whether the leaf slot is full (an idr's always is).
 */
void idr__insert(struct idr *idr, uint64_t index, void *entry,
		 enum idr__fill fill, struct idr__nodes *spare)
{
	struct idr_node *path[IDR__LEVELS];
	struct idr_node *node, *child;
	unsigned int depth = 0, shift, off;
	bool unkey = false;
	void *link;

	grow(idr, index, spare);
	node = idr->idr_rt;
	for (shift = idr->idr_shift; shift; shift -= IDR_BITS) {
		off = digit(index, shift);
		path[depth++] = node;
		link = child_link(node, off);
		if (link_keyed(link)) {
			link = idr__unkeyed(idr, node, index, link, spare);
			unkey = true;
		}
		child = linked(link);
		if (!child) {
			node = linked(room_made(idr, path, depth, index, shift,
						spare));
			child = node_new_at(idr, shift - IDR_BITS, spare);
			idr__pack_child_put(node, off, link_to(child));
			idr->idr_nodes++;
			trace_made(idr, index, shift - IDR_BITS, child);
			node_trace(idr, IDR_TRACE_ATTACH, index, shift, node);
		}
		node = child;
	}
	path[depth++] = node;
	link = room_made(idr, path, depth, index, 0, spare);
	leaf_put(idr, path, depth, index, link, entry);
	node_trace(idr, IDR_TRACE_SLOT_SET, index, 0, linked(link));
	if (fill == IDR__SLOT_FULL)
		mark_full(idr, path, depth, index);
	idr->idr_count++;
	/* A keyed block the top kept, with no memory to shrink past it. */
	if (unkey)
		idr__lower(idr);
}

/* {==================== Lone IDs ==================== */

/* The levels a lone ID adds above the top, bottom up (see lone_up()). */
struct lone_up {
	struct idr_node *node[IDR__LEVELS];
	unsigned int n;
};

/* The room of each: the old top at slot 0 and the ID's path. */
#define LONE_UP_SIZE pack_size(idr__room_fitted(2, true), true)

static void lone_up_free(struct lone_up *up)
{
	while (up->n)
		idr__free(up->node[--up->n], LONE_UP_SIZE);
}

/*
 * The levels that a lone ID at @index, above the top (or in an empty
 * tree), adds: packed, as the nodes below them will be, where grow()
 * makes whole ones; malloc'd, not yet linked.  All or none.  An empty
 * tree's first ID below IDR_SLOTS (usually 0, the start of a run) gets
 * a whole leaf as before: false, as when malloc refuses.
 */
static bool lone_up(struct lone_up *up, const struct idr *idr, uint64_t index)
{
	unsigned int top = shift_for(index), cap = idr__room_fitted(2, true),
		     shift = top;

	if (idr->idr_rt)
		shift = idr->idr_shift + IDR_BITS;
	up->n = 0;
	if (!top)
		return false;
	for (; shift <= top; shift += IDR_BITS) {
		struct idr_node *node = idr__malloc(LONE_UP_SIZE);

		if (!node) {
			lone_up_free(up);
			return false;
		}
		node->full = 0;
		node->present = 0;
		node->pack = pack_word(cap, false, shift);
		up->node[up->n++] = node;
	}
	return true;
}

/* Put @up's levels on top, each over the one before at its slot 0, as
 * grow() does for @index. */
static void lone_up_link(struct idr *idr, const struct lone_up *up,
			 uint64_t index)
{
	unsigned int i, shift = shift_of(up->node[0]);

	for (i = 0; i < up->n; i++, shift += IDR_BITS) {
		if (idr->idr_rt) {
			put_on_top(idr, up->node[i], shift);
			continue;
		}
		idr__set_top(idr, link_to(up->node[i]), shift);
		idr->idr_nodes++;
		trace_made(idr, index, shift, up->node[i]);
	}
}

/*
 * Store @entry at the free @index, a lone ID (lone() in idr.c says which).
 * Such IDs are usually scattered (handles, keys), and a whole node for
 * each, with one slot used, is what made a sparse idr cost 771 bytes an
 * ID.  So the nodes it adds are born packed with room for one, and a
 * packed node on its path with no room moves to a block with room for
 * twice what it will hold (each as much as malloc's block holds anyway).
 * An ID above the top adds packed levels on top (lone_up()).  Every
 * block is malloc'd before the tree changes, all or none.
 * IDR__NEEDS_NODES (nothing changed) when malloc refuses, or a packed
 * node would grow past PACK_MAX: the caller then reserves whole nodes
 * as for any insertion.
 */
int idr__insert_lone(struct idr *idr, uint64_t index, void *entry)
{
	struct idr_node *path[IDR__LEVELS], *node = idr->idr_rt, *child;
	unsigned int depth = 0, shift = idr->idr_shift, i;
	struct idr__lone_blocks b;
	struct lone_up up = { { NULL }, 0 };
	struct idr_keyed *k = NULL;
	void *link;

	if (!packable(idr))
		return IDR__NEEDS_NODES;
	if (!node || index >= capacity(shift)) {
		if (!lone_up(&up, idr, index))
			return IDR__NEEDS_NODES;
		/* The new top, with nothing yet at the ID's slot. */
		node = up.node[up.n - 1];
		shift = shift_for(index);
		path[depth++] = node;
		link = link_to(node);
	} else {
		for (;; shift -= IDR_BITS) {
			path[depth++] = node;
			if (!shift ||
			    !(link = child_link(node, digit(index, shift))))
				break;
			if (link_keyed(link))
				return idr__keyed_put(idr, node, index, link,
						      entry);
			node = linked(link);
		}
		link = path_link(idr, path, depth, index, shift);
		/* An RCU idr's packed node takes an ID in place only last,
		 * and whole nodes take the rest (a copy would be published
		 * before the insertion into it). */
		if (idr__rcu(idr) &&
		    must_move(idr, link, shift, digit(index, shift)))
			return IDR__NEEDS_NODES;
	}
	/* A level-1 node's range with no node yet: a keyed block.  Not
	 * range 0, the one a shrinking tree lowers into (a keyed block is
	 * no top, and whole nodes to take its place are not to be had in a
	 * removal): packed nodes down to a leaf there. */
	if (shift >= KEYED_SHIFT && index >= KEYED_SPAN &&
	    !(k = idr__keyed_new(index, entry))) {
		lone_up_free(&up);
		return IDR__NEEDS_NODES;
	}
	if (!idr__lone_malloc(&b, link, shift, k ? KEYED_SHIFT : 0)) {
		idr__free(k, k ? keyed_size(1) : 0);
		lone_up_free(&up);
		return IDR__NEEDS_NODES;
	}
	if (tracing(idr))
		idr__trace_supply(idr, IDR_TRACE_MALLOC,
				  up.n + b.n_made + !!b.grown + !!k);
	if (up.n)
		lone_up_link(idr, &up, index);
	if (b.grown) {
		link = idr__lone_grow(&b, link, shift);
		node = idr__replace_node(idr, path, depth, index, shift, link);
	}
	for (i = 0; i < b.n_made; i++, shift -= IDR_BITS) {
		child = b.made[i];
		/* A new leaf has room: it takes the entry below. */
		link = shift > IDR_BITS
			       ? link_to(child)
			       : link_to_leaf(child, idr__room_fitted(1, false),
					      0);
		idr__pack_child_put(node, digit(index, shift), link);
		idr->idr_nodes++;
		trace_made(idr, index, shift - IDR_BITS, child);
		node_trace(idr, IDR_TRACE_ATTACH, index, shift, node);
		path[depth++] = node = child;
	}
	if (k) {
		idr__keyed_hang(idr, node, index, k);
		return IDR__STORED;
	}
	leaf_put(idr, path, depth, index, link, entry);
	node_trace(idr, IDR_TRACE_SLOT_SET, index, 0, node);
	mark_full(idr, path, depth, index);
	idr->idr_count++;
	return IDR__STORED;
}

/* }==================== Lone IDs ==================== */

/* idr__alloc_fast() for any tree and search: the general descent. */
static int alloc_slow(struct idr *idr, void *entry, uint64_t start,
		      uint64_t max, uint64_t *index)
{
	struct idr_node *path[IDR__LEVELS];
	unsigned int depth;
	int err = idr__find_free_path(idr, start, max, index, path, &depth);
	void *link;

	if (err)
		return err;
	if (!depth || depth != idr__height(idr))
		return IDR__NEEDS_NODES;
	link = path_link(idr, path, depth, *index, 0);
	if (must_move(idr, link, 0, digit(*index, 0)))
		return IDR__NEEDS_NODES;
	leaf_put(idr, path, depth, *index, link, entry);
	node_trace(idr, IDR_TRACE_SLOT_SET, *index, 0, linked(link));
	mark_full(idr, path, depth, *index);
	idr->idr_count++;
	return IDR__STORED;
}

/*
 * The common allocation in one descent: find the lowest free index in
 * [@start, @max] and, when it is in a leaf with room, store @entry
 * there.  0 when stored; 1 when the index needs nodes first (idr__insert
 * after a reservation); -ENOSPC.  The loop below is the usual case, with
 * no trace and no going back up; anything else takes alloc_slow().
 */
int idr__alloc_fast(struct idr *idr, void *entry, uint64_t start, uint64_t max,
		    uint64_t *index)
{
	struct idr_node *path[IDR__LEVELS], *node = idr->idr_rt;
	unsigned int shift = idr->idr_shift, depth, off;
	uint64_t at = start;
	void *link;

	/* Tagged too: retired slots stay full, and a worn-out idr's missing
	 * children (no free ID there) end the descent in alloc_slow(). */
	if (tracing(idr) || !node || start >= capacity(shift))
		return alloc_slow(idr, entry, start, max, index);
	depth = free_descent(node, shift, &at, path, &link, &off);
	if (!depth)
		return alloc_slow(idr, entry, start, max, index);
	*index = at;
	if (at > max)
		return -ENOSPC;
	if (depth == 1)
		link = writer_top(idr);
	if (must_move(idr, link, 0, off))
		return IDR__NEEDS_NODES;
	leaf_put(idr, path, depth, at, link, entry);
	mark_full(idr, path, depth, at);
	idr->idr_count++;
	return IDR__STORED;
}

/* }==================== Insertion ==================== */

/* {==================== Deletion ==================== */

void idr__set_full(struct idr *idr, uint64_t index, enum idr__fill fill)
{
	struct idr_node *path[IDR__LEVELS];
	unsigned int depth = descend(idr, index, path);

	if (fill == IDR__SLOT_FULL)
		mark_full(idr, path, depth, index);
	else
		mark_open(idr, path, depth, index);
}

/*
 * Take the entry at @off out of the leaf @link leads to, which holds @n
 * entries (counted once by the caller, which compacts the leaf with it);
 * mark_open() then clears its bit.  A packed leaf's pack word moves down
 * a slot (if it had no room, the caller clears LINK_NO_ROOM), into
 * *@word too (0 for a whole leaf).  On an RCU idr a packed leaf holds
 * @off alone, and its entry stays for readers: an empty leaf keeps its
 * word in slot 1 (word_at()).
 */
static inline __attribute__((always_inline)) void *
leaf_take(const void *link, unsigned int off, unsigned int n, uintptr_t *word)
{
	struct idr_node *leaf = linked(link);
	void **s = leaf_slot(link, off), *entry = *s;

	if (link_packed(link)) {
		void **end = pack_slots(leaf) + n;

		*word = packed_word(link, n);
		memmove(s, s + 1, (size_t)(end - s - 1) * sizeof(*s));
		*word_at(leaf, n - 1) = *word;
	} else {
		*word = 0;
		idr__publish(s, NULL);
		idr__clear_bits(&leaf->present, bit(off));
	}
	return entry;
}

/*
 * Whether the whole leaf @link leads to, due to be packed after the
 * removal of @index, is the leaf where idr_alloc_cyclic() allocates next
 * (once it has): a removal does not pack that one.  A PID allocator's removals hit the
 * leaf it is filling, and packing it made the next allocations unpack it
 * again.  When the cursor moves on, idr__cursor_left() packs the leaf.
 */
static bool at_cursor(const struct idr *idr, const void *link, uint64_t index)
{
	return !link_packed(link) && idr->idr_flags & IDR__CYCLIC &&
	       !((index ^ idr__cursor_index(idr)) >> IDR_BITS);
}

/* After a removal left @n entries in path[@depth - 1]: pack it, or shrink
 * it if packed (pack.c says when), in its place; on an RCU idr into a
 * new block, the old one freed after readers. */
static inline __attribute__((always_inline)) void
leaf_compact(struct idr *idr, struct idr_node **path, unsigned int depth,
	     uint64_t index, unsigned int n, bool copy)
{
	void *old = path_link(idr, path, depth, index, 0), *small;
	uintptr_t word = leaf_word(old);

	if (!idr__pack_due(word, n) || at_cursor(idr, old, index))
		return;
	small = idr__pack_leaf(old, n, copy);
	if (!small)
		return;
	/* The leaf moved: an iterator must not read its old block. */
	idr->idr_mods++;
	idr__relink(idr, path, depth, index, 0, small);
	if (copy)
		idr__retire(idr, linked(old), leaf_size(word), !(word & 1));
	node_trace(idr, IDR_TRACE_PACK, index, 0, linked(small));
}

void idr__cursor_left(struct idr *idr, uint64_t index)
{
	struct idr_node *path[IDR__LEVELS];
	unsigned int depth = descend(idr, index, path);
	void *link;

	if (!depth || depth != idr__height(idr) || !packable(idr))
		return;
	/* Packing calls the allocator (realloc; on an RCU idr, malloc for
	 * a new block), which an allocation under idr_preload() may not.
	 * The leaf packs at its next removal instead. */
	if (idr__preloaded())
		return;
	link = path_link(idr, path, depth, index, 0);
	if (!link_packed(link))
		leaf_compact(idr, path, depth, index,
			     count_of(linked(link)->present), idr__rcu(idr));
}

/* @index's entry out of its leaf, path[@depth - 1], of @n entries.  On an
 * RCU idr a packed leaf is copied without it, tight if it is due to
 * shrink; with no memory for that, the entry is cleared in place and
 * the ID stays allocated, holding NULL (false). */
static inline __attribute__((always_inline)) bool
entry_out(struct idr *idr, struct idr_node **path, unsigned int depth,
	  uint64_t index, unsigned int n, void **entry, bool rcu)
{
	void *link = path_link(idr, path, depth, index, 0);
	unsigned int off = digit(index, 0), cap;
	uintptr_t word;
	bool full;

	if (!rcu || !link_packed(link) || n == 1) {
		*entry = leaf_take(link, off, n, &word);
		return true;
	}
	*entry = *leaf_slot(link, off);
	word = leaf_word(link);
	cap = idr__pack_due(word, n - 1) ? idr__room_fitted(n - 1, false)
					 : word_cap(word);
	/* The copy has the bit clear: mark_open() would stop at it.  A
	 * full leaf (packed loose, with room for every slot: not at 6
	 * bits a level) had its parent's set. */
	full = linked(link)->full == ALL_SLOTS;
	if (idr__take_out(idr, path, depth, index, 0, cap)) {
		if (full)
			mark_open_at(idr, path, depth - 1, index, IDR_BITS);
		return true;
	}
	idr__publish(leaf_slot(link, off), NULL);
	return false;
}

/* idr__delete() after the descent to the present @index, in @path of
 * @depth; @rcu as for idr__prune(). */
static inline __attribute__((always_inline)) void
delete_at(struct idr *idr, struct idr_node **path, unsigned int depth,
	  uint64_t index, void **entry, bool rcu)
{
	void *was = path_link(idr, path, depth, index, 0);
	unsigned int n = count_of(leaf_present(was));

	idr->idr_mods++;
	if (!entry_out(idr, path, depth, index, n, entry, rcu))
		return;
	node_trace(idr, IDR_TRACE_SLOT_CLEAR, index, 0, path[depth - 1]);
	/* An RCU idr's copy has the bit clear already (see entry_out()). */
	mark_open(idr, path, depth, index);
	/* Taken out in place from a leaf with no room: it has some now, but
	 * not before its bit is clear, lest a trace callback that reads the
	 * tree look for its pack word past its block. */
	if ((uintptr_t)was & LINK_NO_ROOM && path[depth - 1] == linked(was))
		set_no_room(path_home(idr, path, depth, index, 0), false);
	if (n > 1 && packable(idr))
		leaf_compact(idr, path, depth, index, n - 1, rcu);
	/* A tagged idr keeps its leaves: they hold the generations. */
	if (!idr__tagged(idr))
		idr__prune(idr, path, depth, index, 0, rcu);
	idr->idr_count--;
}

/* An RCU idr's: out of line, so that a plain idr's stays as it was. */
static __attribute__((noinline)) void
delete_rcu(struct idr *idr, struct idr_node **path, unsigned int depth,
	   uint64_t index, void **entry)
{
	delete_at(idr, path, depth, index, entry, true);
}

/* The link to the leaf that holds @index below the top, its parent in
 * @parent, or NULL: the usual removal's descent (the writer's: plain
 * loads). */
static inline __attribute__((always_inline)) void *
leaf_below(const struct idr *idr, uint64_t index, struct idr_node **parent)
{
	unsigned int shift = idr->idr_shift;
	void *link = idr->idr_top;
	struct idr_node *above = NULL, *node = NULL;

	if (!shift || index >= capacity(shift))
		return NULL;
	DESCEND(BELOW, return NULL)
	*parent = above;
	return link;
}

/* The usual removal's leaf, which @link leads to, of @n entries after
 * it, packed or shrunk (pack.c says when) and linked in its place below
 * @parent. */
static __attribute__((noinline)) void
compact_below(struct idr_node *parent, uint64_t index, const void *link,
	      unsigned int n)
{
	void *small = idr__pack_leaf(link, n, false);

	if (small)
		idr__publish(child_slot(parent, digit(index, IDR_BITS)), small);
}

/*
 * The usual removal, in one descent that records only the leaf's parent:
 * an untraced plain idr, a leaf below the top that neither was full (no
 * ancestor's full bit changes) nor empties (no node goes), so no path.
 * False when it is not that (or @index is absent): idr__delete() then
 * does it all.
 */
static inline __attribute__((always_inline)) bool
delete_usual(struct idr *idr, uint64_t index, void **entry)
{
	struct idr_node *parent;
	void *link = leaf_below(idr, index, &parent);
	unsigned int off = digit(index, 0), n;
	uintptr_t word;
	uint64_t set;

	if (!link)
		return false;
	if (link_packed(link)) {
		if (link_keyed(link))
			return false;
		set = linked(link)->full;
	} else {
		set = linked(link)->present;
	}
	n = count_of(set);
	if (!(set & bit(off)) || n - 2 > IDR_SLOTS - 3) /* n is 1 or all */
		return false;
	idr->idr_mods++;
	*entry = leaf_take(link, off, n, &word);
	if (__builtin_expect((uintptr_t)link & LINK_NO_ROOM, 0)) {
		link = (void *)((uintptr_t)link & ~LINK_NO_ROOM);
		idr__publish(child_slot(parent, digit(index, IDR_BITS)), link);
	}
	idr__clear_bits(&linked(link)->full, bit(off));
	if (idr__pack_due(word, n - 1) && !at_cursor(idr, link, index))
		compact_below(parent, index, link, n - 1);
	idr->idr_count--;
	return true;
}

/* Free @index; false (and nothing changed) if it is not present. */
bool idr__delete(struct idr *idr, uint64_t index, void **entry)
{
	struct idr_node *path[IDR__LEVELS];
	unsigned int depth = descend(idr, index, path);

	if (depth && depth < idr__height(idr))
		return idr__keyed_delete(idr, path, depth, index, entry);
	if (!depth || !(leaf_present(path_link(idr, path, depth, index, 0)) &
			bit(digit(index, 0))))
		return false;
	if (__builtin_expect(idr__rcu(idr), 0)) {
		delete_rcu(idr, path, depth, index, entry);
		return true;
	}
	delete_at(idr, path, depth, index, entry, false);
	return true;
}

/* Out of line: then the usual removal needs no stack slot for @entry. */
static __attribute__((noinline)) void *remove_any(struct idr *idr,
						  uint64_t index)
{
	void *entry = NULL;

	idr__delete(idr, index, &entry);
	return entry;
}

/* An untraced idr's removal of @index: its entry, or NULL if absent. */
void *idr__remove(struct idr *idr, uint64_t index)
{
	void *entry;

	if (idr__rcu(idr) || !packable(idr) ||
	    !delete_usual(idr, index, &entry))
		return remove_any(idr, index);
	return entry;
}

/* Free every node of the tree, once readers can no longer reach it.
 * Generations keep moving forward. */
void idr__free_all(struct idr *idr)
{
	idr__drop_tree(idr);
	idr->idr_count = 0;
	idr->idr_retired = 0;
}

/* }==================== Deletion ==================== */
