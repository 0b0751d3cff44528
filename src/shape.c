/* SPDX-License-Identifier: MIT */
/*
 * shape.c - the tree's shape, for tree.c's insertions and removals: the
 * top, a new node put in a path's place, the nodes a removal empties
 * pruned and the tree lowered, and keyed blocks linked in and out (their
 * blocks are keyed.c's).  A node is let go of only once no slot leads to
 * it, and on an RCU idr after readers (defer.c).
 */
#include <string.h>

#include "defer.h"
#include "keyed.h"
#include "node.h"
#include "nodes.h"
#include "pack.h"
#include "shape.h"
#include "tree.h"

/* A node left the tree: say so, and where its memory went. */
static void trace_gone(const struct idr *idr, uint64_t index,
		       unsigned int shift, bool cached)
{
	if (idr__tracing(idr)) {
		idr__trace_at(idr, IDR_TRACE_NODE_FREE, index, shift,
			      digit(index, shift), 0);
		idr__trace_at(idr,
			      cached ? IDR_TRACE_CACHE_PUT : IDR_TRACE_FREE,
			      index, shift, digit(index, shift), 0);
	}
}

/* Make the node @link leads to, at @shift, the top (NULL: the tree is
 * empty), for the writer (idr_rt, idr_shift) and then for readers
 * (idr_top). */
void idr__set_top(struct idr *idr, void *link, unsigned int shift)
{
	idr->idr_rt = linked(link);
	idr->idr_shift = (unsigned char)shift;
	if (link && !shift)
		link = (void *)((uintptr_t)link | TOP_LEAF);
	idr__publish(&idr->idr_top, link);
}

/* Point the parent (or the idr) of the node at @shift on @index's path,
 * path[@depth - 1], at the node @link leads to, which takes its place. */
void idr__relink(struct idr *idr, struct idr_node **path, unsigned int depth,
		 uint64_t index, unsigned int shift, void *link)
{
	if (depth == 1)
		idr__set_top(idr, link, shift);
	else
		idr__publish(child_slot(path[depth - 2],
					digit(index, shift + IDR_BITS)),
			     link);
	path[depth - 1] = linked(link);
}

/*
 * Put the node @link leads to, new, in the place of path[@depth - 1] (at
 * @shift), which it copies, and free the old one: node-new, attach,
 * node-free, free.  The new node.
 */
struct idr_node *idr__replace_node(struct idr *idr, struct idr_node **path,
				   unsigned int depth, uint64_t index,
				   unsigned int shift, void *link)
{
	void *old = path_link(idr, path, depth, index, shift);
	size_t size = link_size(old, shift);

	node_trace(idr, IDR_TRACE_NODE_NEW, index, shift, linked(link));
	idr__relink(idr, path, depth, index, shift, link);
	if (depth > 1)
		node_trace(idr, IDR_TRACE_ATTACH, index, shift + IDR_BITS,
			   path[depth - 2]);
	idr__retire(idr, linked(old), size, !link_packed(old));
	trace_gone(idr, index, shift, false);
	return linked(link);
}

/* Publish keyed block @with below @parent in the place of @k, which
 * goes (after readers, on an RCU idr). */
static void keyed_replace(struct idr *idr, struct idr_node *parent,
			  uint64_t index, struct idr_keyed *k,
			  struct idr_keyed *with)
{
	if (idr__tracing(idr))
		idr__trace_at(idr, IDR_TRACE_NODE_NEW, index, IDR_BITS,
			      digit(index, IDR_BITS), keyed_full(with));
	idr__publish(child_slot(parent, digit(index, KEYED_SHIFT)),
		     link_to_keyed(with));
	node_trace(idr, IDR_TRACE_ATTACH, index, KEYED_SHIFT, parent);
	idr__retire(idr, k, keyed_size(k->cap), false);
	trace_gone(idr, index, IDR_BITS, false);
}

/* The slot-set event of @index, stored in keyed block @k. */
static void trace_keyed_set(const struct idr *idr, uint64_t index,
			    const struct idr_keyed *k)
{
	unsigned int first;

	if (idr__tracing(idr))
		idr__trace_at(idr, IDR_TRACE_SLOT_SET, index, 0,
			      digit(index, 0),
			      keyed_run(k, digit(index, IDR_BITS), &first));
}

/* A new leaf at @first, for the trace: node-new, attach. */
static void trace_leaf_made(const struct idr *idr, uint64_t first,
			    const struct idr_node *node)
{
	idr__trace_at(idr, IDR_TRACE_NODE_NEW, first, 0, 0, 0);
	idr__trace_at(idr, IDR_TRACE_ATTACH, first, IDR_BITS,
		      digit(first, IDR_BITS), node->full);
}

/* The trace of a split or an unkeying: the level-1 node @node made, at
 * @index, and the leaves that take the block's keys; then attach, and
 * the block gone; then the leaf of a run the block did not have (@fresh:
 * a split's new ID alone), made as any new leaf is. */
static void trace_unkeyed(const struct idr *idr, const struct idr_node *parent,
			  uint64_t index, const struct idr_node *node,
			  uint64_t fresh)
{
	uint64_t set, first = index & ~(uint64_t)(KEYED_SPAN - 1);

	if (!idr__tracing(idr))
		return;
	node_trace(idr, IDR_TRACE_NODE_NEW, index, IDR_BITS, node);
	for (set = node->present & ~fresh; set; set &= set - 1)
		trace_leaf_made(
			idr, first + ((uint64_t)lowest(set) << IDR_BITS), node);
	node_trace(idr, IDR_TRACE_ATTACH, index, KEYED_SHIFT, parent);
	trace_gone(idr, index, IDR_BITS, false);
	if (fresh)
		trace_leaf_made(idr,
				first + ((uint64_t)lowest(fresh) << IDR_BITS),
				node);
}

/* idr__keyed_put() into a block that holds KEYED_MAX: a packed level-1
 * node and leaves take its IDs and @index's (idr__keyed_split()). */
static int keyed_split(struct idr *idr, struct idr_node *parent, uint64_t index,
		       const void *link, void *entry)
{
	struct idr_keyed *k = keyed_of(link);
	void *split = idr__keyed_split(k, index, entry);
	unsigned int leaves;

	if (!split)
		return IDR__NEEDS_NODES;
	leaves = count_of(linked(split)->present);
	if (idr__tracing(idr))
		idr__trace_supply(idr, IDR_TRACE_MALLOC, 1 + leaves);
	idr->idr_mods++;
	idr__publish(child_slot(parent, digit(index, KEYED_SHIFT)), split);
	idr->idr_nodes += leaves;
	trace_unkeyed(idr, parent, index, linked(split),
		      linked(split)->present & ~keyed_runs(k));
	node_trace(idr, IDR_TRACE_SLOT_SET, index, 0,
		   child_of(linked(split), digit(index, IDR_BITS)));
	idr__retire(idr, k, keyed_size(k->cap), false);
	idr->idr_count++;
	return IDR__STORED;
}

/*
 * Store @entry at the free @index in the keyed block @link leads to,
 * below @parent: a copy with it, or past KEYED_MAX a split.
 * IDR__NEEDS_NODES (nothing changed) when malloc refuses: whole nodes
 * then take its IDs (idr__insert()).
 */
int idr__keyed_put(struct idr *idr, struct idr_node *parent, uint64_t index,
		   const void *link, void *entry)
{
	struct idr_keyed *k = keyed_of(link), *with;

	if (k->n >= KEYED_MAX)
		return keyed_split(idr, parent, index, link, entry);
	with = idr__keyed_with(k, index, entry);
	if (!with)
		return IDR__NEEDS_NODES;
	if (idr__tracing(idr))
		idr__trace_supply(idr, IDR_TRACE_MALLOC, 1);
	idr->idr_mods++;
	keyed_replace(idr, parent, index, k, with);
	trace_keyed_set(idr, index, with);
	idr->idr_count++;
	return IDR__STORED;
}

/* Hang the new keyed block @k, holding @index alone, below @node, at
 * KEYED_SHIFT, where it has room. */
void idr__keyed_hang(struct idr *idr, struct idr_node *node, uint64_t index,
		     struct idr_keyed *k)
{
	idr->idr_mods++;
	if (idr__tracing(idr))
		idr__trace_at(idr, IDR_TRACE_NODE_NEW, index, IDR_BITS,
			      digit(index, IDR_BITS), 0);
	idr__pack_child_put(node, digit(index, KEYED_SHIFT), link_to_keyed(k));
	idr->idr_nodes++;
	node_trace(idr, IDR_TRACE_ATTACH, index, KEYED_SHIFT, node);
	trace_keyed_set(idr, index, k);
	idr->idr_count++;
}

/* Put a whole level-1 node and its whole leaves, from @spare, in the
 * place of the keyed block @link leads to, below @parent: its link. */
void *idr__unkeyed(struct idr *idr, struct idr_node *parent, uint64_t index,
		   const void *link, struct idr__nodes *spare)
{
	struct idr_keyed *k = keyed_of(link);
	struct idr_node *node = idr__keyed_unkey(k, spare);

	idr->idr_nodes += count_of(node->present);
	idr__publish(child_slot(parent, digit(index, KEYED_SHIFT)), node);
	trace_unkeyed(idr, parent, index, node, 0);
	idr__retire(idr, k, keyed_size(k->cap), false);
	return node;
}

/* The node @link leads to, at @shift, of an untagged tree (a tagged one
 * keeps its leaves: idr__prune()), out of it: to the idr's cache or freed,
 * after readers if RCU. */
static void node_release_at(struct idr *idr, void *link, uint64_t index,
			    unsigned int shift)
{
	bool cached = idr__retire(idr, linked(link), link_size(link, shift),
				  !link_packed(link));

	idr->idr_nodes--;
	trace_gone(idr, index, shift, cached);
}

/* Clear @off in interior @node: no longer present, so no longer full.
 * On an RCU idr, a packed @node only when @off is its one child. */
static void clear_slot(struct idr_node *node, unsigned int off)
{
	void **s = child_slot(node, off);

	if (is_packed(node)) {
		void **end = node->slots + count_of(node->present);

		memmove(s, s + 1, (size_t)(end - s - 1) * sizeof(*s));
	} else {
		idr__publish(s, NULL);
	}
	idr__clear_bits(&node->present, bit(off));
	idr__clear_bits(&node->full, bit(off));
}

/*
 * Take @index's slot at @shift out of path[@depth - 1].  In place, but
 * on an RCU idr a packed node with more than that slot is replaced by a
 * copy without it (in place, the slots after it would move under the
 * readers' feet), of @cap.  False, with nothing changed, when no block
 * for the copy can be had.
 */
bool idr__take_out(struct idr *idr, struct idr_node **path, unsigned int depth,
		   uint64_t index, unsigned int shift, unsigned int cap)
{
	void *link = path_link(idr, path, depth, index, shift), *copy;
	struct idr_node *node = linked(link), *whole;
	unsigned int off = digit(index, shift);

	if (!idr__rcu(idr) || !link_packed(link) ||
	    count_of(shift ? node->present : node->full) == 1) {
		if (shift)
			clear_slot(node, off);
		return true;
	}
	/* No memory for that: a whole node from the idr's cache. */
	copy = idr__pack_copy(link, shift, off, cap);
	if (!copy && (whole = idr__cache_take_one(idr))) {
		idr__unpack_into(whole, link, shift, off);
		copy = link_to(whole);
	}
	if (!copy)
		return false;
	idr__replace_node(idr, path, depth, index, shift, copy);
	return true;
}

void idr__drop_tree(struct idr *idr)
{
	void *top = writer_top(idr);
	unsigned int shift = idr->idr_shift;

	idr__set_top(idr, NULL, 0);
	if (top)
		idr__retire_subtree(idr, top, shift);
	idr->idr_nodes = 0;
	idr->idr_mods++;
}

/* Lower the tree while its top node only keeps slot 0 (it does). */
void idr__shrink_top(struct idr *idr)
{
	struct idr_node *top = idr->idr_rt;

	while (top && idr->idr_shift && top->present == bit(0)) {
		void *child = child_link(top, 0);
		unsigned int shift = idr->idr_shift;

		/* Never a keyed block, which could not be the top: range 0
		 * has none (idr__insert_lone()).  An empty node: a copy an
		 * RCU idr could not have left it in place (idr__take_out()),
		 * and the tree holds no ID. */
		if (!present_in(child, shift - IDR_BITS)) {
			idr__drop_tree(idr);
			idr__tree_emptied(idr);
			return;
		}
		/* An RCU reader still in the old top goes on down its slot
		 * 0 to the child, which lives on: the top keeps it, and goes
		 * after a grace period.  (The top is never an entry, so no
		 * reader there finds an entry that moved.) */
		if (!idr__rcu(idr))
			clear_slot(top, 0);
		node_trace(idr, IDR_TRACE_DETACH, 0, shift, top);
		idr__set_top(idr, child, shift - IDR_BITS);
		node_release_at(idr, link_to(top), 0, shift);
		top = linked(child);
		node_trace(idr, IDR_TRACE_SHRINK, 0, idr->idr_shift, top);
	}
}

/*
 * After a removal at @index: a node left empty goes, and its slot in the
 * parent with it; then the tree lowers while it can.  @path and @depth
 * are the removal's descent, to the node at @shift it emptied, if any.
 * A node is let go of only once no slot leads to it.  @rcu:
 * idr__rcu(idr), a constant where this is inlined.
 */
void idr__prune_empty(struct idr *idr, struct idr_node **path,
		      unsigned int depth, uint64_t index, unsigned int shift,
		      bool rcu)
{
	void *empty;

	for (; empty = path_link(idr, path, depth, index, shift),
	       !present_in(empty, shift);
	     depth--) {
		struct idr_node *parent;

		if (depth == 1) {
			idr__set_top(idr, NULL, 0);
			node_release_at(idr, empty, index, shift);
			idr__tree_emptied(idr);
			return;
		}
		shift += IDR_BITS;
		parent = path[depth - 2];
		/* RCU, no memory for the parent's copy: the empty node stays,
		 * sound for readers and writer alike. */
		if (!rcu)
			clear_slot(parent, digit(index, shift));
		else if (!idr__take_out(idr, path, depth - 1, index, shift,
					is_packed(parent) ? pack_cap(parent)
							  : 0))
			return;
		node_trace(idr, IDR_TRACE_DETACH, index, shift,
			   path[depth - 2]);
		node_release_at(idr, empty, index, shift - IDR_BITS);
	}
	idr__lower(idr);
}

/* The slot-clear of @index, a key leaving its keyed block: told once
 * nothing can fail, so that a removal with no memory tells nothing. */
static void trace_key_out(const struct idr *idr, uint64_t index)
{
	if (idr__tracing(idr))
		idr__trace_at(idr, IDR_TRACE_SLOT_CLEAR, index, 0,
			      digit(index, 0), 0);
}

/*
 * Take the keyed block path[@depth - 1], holding @index alone, out of
 * its parent; then idr__prune() from the parent.  On an RCU idr the parent
 * may need a copy: false, with nothing changed, when no block for it
 * can be had.
 */
static bool keyed_out(struct idr *idr, struct idr_node **path,
		      unsigned int depth, uint64_t index, bool rcu)
{
	struct idr_keyed *k = (struct idr_keyed *)path[depth - 1];
	struct idr_node *parent = path[depth - 2];

	if (!rcu)
		clear_slot(parent, digit(index, KEYED_SHIFT));
	else if (!idr__take_out(idr, path, depth - 1, index, KEYED_SHIFT,
				is_packed(parent) ? pack_cap(parent) : 0))
		return false;
	trace_key_out(idr, index);
	node_trace(idr, IDR_TRACE_DETACH, index, KEYED_SHIFT, path[depth - 2]);
	idr__retire(idr, k, keyed_size(k->cap), false);
	idr->idr_nodes--;
	trace_gone(idr, index, IDR_BITS, false);
	idr__prune(idr, path, depth - 1, index, KEYED_SHIFT, rcu);
	return true;
}

/*
 * Take the ID of rank @i out of the keyed block path[@depth - 1], which
 * holds @index: a copy without it, or no block if it was the last.
 * With no memory for the copy a plain idr's block gives it up in place;
 * false if an RCU idr's cannot (nothing changed).
 */
static bool keyed_take(struct idr *idr, struct idr_node **path,
		       unsigned int depth, uint64_t index, unsigned int i,
		       bool rcu)
{
	struct idr_keyed *k = (struct idr_keyed *)path[depth - 1], *without;

	if (k->n == 1)
		return keyed_out(idr, path, depth, index, rcu);
	if (!rcu) {
		/* No reader: in place, and no malloc, as any removal. */
		trace_key_out(idr, index);
		idr__keyed_take(k, i);
		without = idr__keyed_shrink(k);
		if (without != k)
			*child_slot(path[depth - 2],
				    digit(index, KEYED_SHIFT)) =
				link_to_keyed(without);
		return true;
	}
	without = idr__keyed_without(k, i);
	if (!without)
		return false;
	trace_key_out(idr, index);
	keyed_replace(idr, path[depth - 2], index, k, without);
	return true;
}

/* idr__delete() of @index from the keyed block path[@depth - 1].  An
 * RCU idr's with no memory for the change clears the entry in place: the
 * ID stays allocated, holding NULL, and untraced (as entry_out()). */
bool idr__keyed_delete(struct idr *idr, struct idr_node **path,
		       unsigned int depth, uint64_t index, void **entry)
{
	struct idr_keyed *k = (struct idr_keyed *)path[depth - 1];
	void **slot = keyed_slot(k, index);

	if (!slot)
		return false;
	*entry = *slot;
	idr->idr_mods++;
	if (keyed_take(idr, path, depth, index,
		       (unsigned int)(slot - keyed_entries(k)), idr__rcu(idr)))
		idr->idr_count--;
	else
		idr__publish(slot, NULL);
	return true;
}
