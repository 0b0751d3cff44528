/* SPDX-License-Identifier: MIT */
/*
 * tree.h - the radix tree under struct idr and struct ida (tree.c).
 *
 * The node layout lives in node.h, for tree.c, check.c and walk.c alone;
 * the other files see indices, slots and bitmaps.  An index is an ID minus
 * the idr's base (an idr) or a bitmap number (an IDA).  Insertions take their nodes from a list that
 * nodes.c filled beforehand with exactly idr__nodes_needed() of them.
 */
#ifndef IDR_TREE_H
#define IDR_TREE_H

#include "geom.h"
#include "trace.h"

/* Whether a leaf slot counts as full: an idr's always does; an IDA's
 * when its bitmap has no free bit. */
enum idr__fill {
	IDR__SLOT_OPEN,
	IDR__SLOT_FULL,
};

/* idr__alloc_fast(): stored, or the index needs new nodes first. */
enum {
	IDR__STORED = 0,
	IDR__NEEDS_NODES = 1,
};

/* {==================== Tracing (the rest is trace.h's) ==================== */

/* node-free, then cache-put (@cached) or free, of such a node. */
IDR__HIDDEN void idr__trace_gone(const struct idr *idr, uint64_t index,
				 unsigned int aux, bool cached);
/* The visits of a lookup of @index, when tracing: a removal's path. */
IDR__HIDDEN void idr__trace_path(const struct idr *idr, uint64_t index);

/* }==================== Tracing ==================== */

/* {==================== Finding ==================== */

/* The lowest free index in [@start, @max]: 0, or -ENOSPC; also the
 * nodes that lead there, into @path, and how many (see seek.c). */
IDR__HIDDEN int idr__find_free_path(
	const struct idr *idr, uint64_t start, uint64_t max, uint64_t *index,
	struct idr_node **path, unsigned int *depth);
/* The lowest free index in [@start, @max] (0, or -ENOSPC), and what its
 * leaf slot holds (NULL: nothing, or no leaf yet): an IDA's bitmap. */
IDR__HIDDEN int idr__find_free(const struct idr *idr, uint64_t start,
			       uint64_t max, uint64_t *index, void **entry);
/* The leaf slot of a present index, or NULL; its visits reported. */
IDR__HIDDEN void **idr__lookup(const struct idr *idr, uint64_t index);
/* The same, reporting nothing: the caller reports the path. */
IDR__HIDDEN void **idr__lookup_quiet(const struct idr *idr, uint64_t index);
/* The entry at @index, or NULL if absent or reserved; reporting nothing. */
IDR__HIDDEN void *idr__find(const struct idr *idr, uint64_t index);
/* The first present index at or above @start, and its entry. */
IDR__HIDDEN bool idr__next_present(const struct idr *idr, uint64_t start,
				   uint64_t *index, void **entry);
/* The first non-NULL entry at or above @start; @it keeps its leaf. */
IDR__HIDDEN void *idr__iter_find(struct idr__iter *it, uint64_t start,
				 uint64_t *index);
/* A tagged idr's generation counter for @index, or NULL if no leaf; and
 * with @slot, in the same descent, the entry's slot (idr__lookup_quiet()). */
IDR__HIDDEN uint64_t *idr__gen(const struct idr *idr, uint64_t index,
			       void ***slot);

/* }==================== Finding ==================== */

/* {==================== Changing ==================== */

/* How many nodes inserting @index takes. */
IDR__HIDDEN unsigned int idr__nodes_needed(const struct idr *idr,
					   uint64_t index);
/* Store @entry at the free @index, with the nodes in @spare. */
IDR__HIDDEN void idr__insert(struct idr *idr, uint64_t index, void *entry,
			     enum idr__fill fill, struct idr__nodes *spare);
/* The lowest free index in [@start, @max], and @entry stored there when
 * that takes no node: IDR__STORED, IDR__NEEDS_NODES or -ENOSPC. */
IDR__HIDDEN int idr__alloc_fast(struct idr *idr, void *entry, uint64_t start,
				uint64_t max, uint64_t *index);
/* idr__insert() for a lone ID (see lone() in idr.c), in packed nodes
 * malloc'd first: IDR__STORED, or IDR__NEEDS_NODES (nothing changed). */
IDR__HIDDEN int idr__insert_lone(struct idr *idr, uint64_t index, void *entry);
IDR__HIDDEN void idr__set_full(struct idr *idr, uint64_t index,
			       enum idr__fill fill);
/* Free @index; false (and nothing changed) if it is not present.  The
 * caller reports the path (idr__trace_path()). */
IDR__HIDDEN bool idr__delete(struct idr *idr, uint64_t index, void **entry);
/* idr__delete() on an untraced idr, the usual case in one descent: the
 * entry at @index, or NULL if absent. */
IDR__HIDDEN void *idr__remove(struct idr *idr, uint64_t index);
/* The tree index of idr_alloc_cyclic()'s cursor: past the tree when the
 * cursor is below the base. */
static inline uint64_t idr__cursor_index(const struct idr *idr)
{
	return (uint64_t)idr->idr_next - idr->idr_base;
}
/* idr_alloc_cyclic()'s cursor has left the leaf of @index, where
 * removals did not pack (see at_cursor()): pack it now if it is due. */
IDR__HIDDEN void idr__cursor_left(struct idr *idr, uint64_t index);
/* Free every node of the tree (not the cache: see nodes.h). */
IDR__HIDDEN void idr__free_all(struct idr *idr);

/* }==================== Changing ==================== */

/* {==================== Nodes as IDA bitmaps ==================== */

/* A node's words as one bitmap of IDR__CHUNK bits. */
IDR__HIDDEN uint64_t *idr__node_bits(struct idr_node *node);
/* Bit w set: word w of the bitmap is all ones (full), or not zero (used). */
IDR__HIDDEN uint64_t *idr__node_words_full(struct idr_node *node);
IDR__HIDDEN uint64_t *idr__node_words_used(struct idr_node *node);

/* }==================== Nodes as IDA bitmaps ==================== */

#endif /* IDR_TREE_H */
