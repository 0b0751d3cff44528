/* SPDX-License-Identifier: MIT */
/*
 * shape.h - the tree's shape (shape.c): the top, nodes linked in a
 * path's place, pruning and lowering after a removal, and keyed blocks
 * linked in and out.  For tree.c, which inserts and removes.
 */
#ifndef IDR_SHAPE_H
#define IDR_SHAPE_H

#include "node.h"

/* Make the node @link leads to, at @shift, the top (NULL: empty). */
IDR__HIDDEN void idr__set_top(struct idr *idr, void *link, unsigned int shift);
/* Point the parent (or the idr) of path[@depth - 1], at @shift on
 * @index's path, at the node @link leads to, which takes its place. */
IDR__HIDDEN void idr__relink(struct idr *idr, struct idr_node **path,
			     unsigned int depth, uint64_t index,
			     unsigned int shift, void *link);
/* The same for a copy of path[@depth - 1], which goes: the new node. */
IDR__HIDDEN struct idr_node *
idr__replace_node(struct idr *idr, struct idr_node **path, unsigned int depth,
		  uint64_t index, unsigned int shift, void *link);
/* Take @index's slot at @shift out of path[@depth - 1] (an RCU idr's
 * packed node by a copy of room @cap): false, nothing changed, if no
 * block for the copy can be had. */
IDR__HIDDEN bool idr__take_out(struct idr *idr, struct idr_node **path,
			       unsigned int depth, uint64_t index,
			       unsigned int shift, unsigned int cap);
/* idr__prune() when path[@depth - 1] is empty. */
IDR__HIDDEN void idr__prune_empty(struct idr *idr, struct idr_node **path,
				  unsigned int depth, uint64_t index,
				  unsigned int shift, bool rcu);
IDR__HIDDEN void idr__shrink_top(struct idr *idr);
/* Every node of the tree goes, once readers can no longer reach it (the
 * counts of IDs are the caller's). */
IDR__HIDDEN void idr__drop_tree(struct idr *idr);

/* Lower the tree while its top node only keeps slot 0. */
static inline void idr__lower(struct idr *idr)
{
	struct idr_node *top = idr->idr_rt;

	if (top && idr->idr_shift && top->present == bit(0))
		idr__shrink_top(idr);
}

/* After a removal from path[@depth - 1], at @shift: the nodes it emptied
 * go, and the tree lowers while it can.  Inline: most empty nothing. */
static inline void idr__prune(struct idr *idr, struct idr_node **path,
			      unsigned int depth, uint64_t index,
			      unsigned int shift, bool rcu)
{
	if (present_in(path_link(idr, path, depth, index, shift), shift))
		idr__lower(idr);
	else
		idr__prune_empty(idr, path, depth, index, shift, rcu);
}

/* {==================== Keyed blocks ==================== */

/* Store @entry at the free @index in the keyed block @link leads to,
 * below @parent: IDR__STORED, or IDR__NEEDS_NODES (nothing changed). */
IDR__HIDDEN int idr__keyed_put(struct idr *idr, struct idr_node *parent,
			       uint64_t index, const void *link, void *entry);
/* Hang new keyed block @k, holding @index alone, below @node. */
IDR__HIDDEN void idr__keyed_hang(struct idr *idr, struct idr_node *node,
				 uint64_t index, struct idr_keyed *k);
/* Whole nodes from @spare in the place of the keyed block @link leads
 * to, below @parent: the link to the level-1 node. */
IDR__HIDDEN void *idr__unkeyed(struct idr *idr, struct idr_node *parent,
			       uint64_t index, const void *link,
			       struct idr__nodes *spare);
/* Free @index from the keyed block path[@depth - 1]; false if absent. */
IDR__HIDDEN bool idr__keyed_delete(struct idr *idr, struct idr_node **path,
				   unsigned int depth, uint64_t index,
				   void **entry);

/* }==================== Keyed blocks ==================== */

#endif /* IDR_SHAPE_H */
