/* SPDX-License-Identifier: MIT */
/*
 * tree.h - the radix tree under struct idr and struct ida (tree.c).
 *
 * The node layout lives in tree.c alone; the other files see indices,
 * slots and bitmaps.  An index is an ID minus the idr's base (an idr) or
 * a bitmap number (an IDA).  Insertions take their nodes from a list that
 * nodes.c filled beforehand with exactly idr__nodes_needed() of them.
 */
#ifndef IDR_TREE_H
#define IDR_TREE_H

#include "geom.h"

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

/* {==================== Tracing ==================== */

/*
 * Whether to report events: one branch, read once so that a loop tests a
 * register.  IDR_NO_TRACE makes it false at compile time, and with it
 * every check of the library, so that make bench can show what the
 * branches cost.
 */
static inline bool idr__tracing(const struct idr *idr)
{
#ifdef IDR_NO_TRACE
	(void)idr;
	return false;
#else
	return __builtin_expect(idr->idr_trace != NULL, 0);
#endif
}

/* Report node-new, node-free, cache-put or free (@event) for a node a
 * leaf keeps at @index: its generations, or the IDA bitmap (IDR_AUX_*). */
IDR__HIDDEN void idr__trace_node(const struct idr *idr,
				 enum idr_trace_event event, uint64_t index,
				 unsigned int aux);
/* node-free, then cache-put (@cached) or free, of such a node. */
IDR__HIDDEN void idr__trace_gone(const struct idr *idr, uint64_t index,
				 unsigned int aux, bool cached);
/* The visits of a lookup of @index, when tracing: a removal's path. */
IDR__HIDDEN void idr__trace_path(const struct idr *idr, uint64_t index);

/* Report @event (bit-set, bit-clear) for bit @n of IDA bitmap @chunk. */
IDR__HIDDEN void idr__trace_bit(const struct idr *idr,
				enum idr_trace_event event, uint64_t chunk,
				unsigned int n, uint64_t words_full);

/*
 * The "op" event of public operation @op (@start, @end: the range asked
 * for; @id: the ID asked about), unless one is under way on @idr in this
 * thread (a public function calling another): true if it was reported,
 * and so the "done" event must follow.
 */
IDR__HIDDEN bool idr__op_begin(const struct idr *idr, const char *op,
			       int64_t start, int64_t end, unsigned long id);
/* The "done" event of the operation idr__op_begin() reported. */
IDR__HIDDEN void idr__op_done(const struct idr *idr, int64_t result);

/* Begin an operation: off, one predictable branch. */
static inline bool idr__op(const struct idr *idr, const char *op, int64_t start,
			   int64_t end, unsigned long id)
{
	return idr__tracing(idr) && idr__op_begin(idr, op, start, end, id);
}

/* End it: @result (the ID concerned, or -errno) when @op began it. */
static inline int64_t idr__done(const struct idr *idr, bool op, int64_t result)
{
	if (__builtin_expect(op, 0))
		idr__op_done(idr, result);
	return result;
}

/* }==================== Tracing ==================== */

/* {==================== Finding ==================== */

/* The lowest free index in [@start, @max]: 0, or -ENOSPC. */
IDR__HIDDEN int idr__find_free(const struct idr *idr, uint64_t start,
			       uint64_t max, uint64_t *index);
/* The leaf slot of a present index, or NULL; its visits reported. */
IDR__HIDDEN void **idr__lookup(const struct idr *idr, uint64_t index);
/* The same, reporting nothing: the caller reports the path. */
IDR__HIDDEN void **idr__lookup_quiet(const struct idr *idr, uint64_t index);
/* The first present index at or above @start, and its entry. */
IDR__HIDDEN bool idr__next_present(const struct idr *idr, uint64_t start,
				   uint64_t *index, void **entry);
/* The first non-NULL entry at or above @start; @it keeps its leaf. */
IDR__HIDDEN void *idr__iter_find(struct idr__iter *it, uint64_t start,
				 uint64_t *index);
/* A tagged idr's generation counter for @index, or NULL if no leaf. */
IDR__HIDDEN uint64_t *idr__gen(const struct idr *idr, uint64_t index);

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
/* idr__insert() for an ID asked for by itself, in packed nodes malloc'd
 * first: IDR__STORED, or IDR__NEEDS_NODES (nothing changed). */
IDR__HIDDEN int idr__insert_lone(struct idr *idr, uint64_t index, void *entry);
IDR__HIDDEN void idr__set_full(struct idr *idr, uint64_t index,
			       enum idr__fill fill);
/* Free @index; false (and nothing changed) if it is not present.  The
 * caller reports the path (idr__trace_path()). */
IDR__HIDDEN bool idr__delete(struct idr *idr, uint64_t index, void **entry);
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

/* {==================== Looking inside ==================== */

/* The IDs from tree index @first on, for @n indices (an IDA's: bitmaps). */
IDR__HIDDEN void idr__range(const struct idr *idr, uint64_t first, uint64_t n,
			    unsigned long *lo, unsigned long *hi);
/* Fill @views with the nodes on @index's path, top first; how many. */
IDR__HIDDEN unsigned int idr__path_views(const struct idr *idr, uint64_t index,
					 struct idr_view *views);
/* The bytes the node behind @view takes. */
IDR__HIDDEN size_t idr__view_size(const struct idr_view *view);

/* }==================== Looking inside ==================== */

#endif /* IDR_TREE_H */
