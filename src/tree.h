/* SPDX-License-Identifier: MIT */
/*
 * tree.h - the radix tree under struct idr and struct ida, private to
 * the library.
 *
 * The node layout lives in tree.c alone; the API files see indices,
 * slots, bitmaps and lists of spare nodes.  An index is an ID minus the
 * idr's base (an idr) or a bitmap number (an IDA).
 */
#ifndef IDR_TREE_H
#define IDR_TREE_H

#include "idr.h"

/* Bits of the index per level; tests also build with 3 for deep trees. */
#ifndef IDR_BITS
#define IDR_BITS 6
#endif
#if IDR_BITS < 1 || IDR_BITS > 6
#error "IDR_BITS must be 1..6: a node's bitmap is 64 bits"
#endif

#define IDR_SLOTS (1u << IDR_BITS)
#define IDR__CHUNK (IDR_SLOTS * 64u)	/* IDs in one IDA bitmap */
#define IDR_INDEX_MAX UINT32_MAX	/* the largest index the tree holds */

#define IDR__HIDDEN __attribute__((visibility("hidden")))

/* {==================== Nodes ==================== */

/* The most nodes one insertion can need: a whole path, plus one. */
IDR__HIDDEN unsigned int idr__max_levels(void);
IDR__HIDDEN unsigned int idr__cache_capacity(void);

IDR__HIDDEN int idr__nodes_fill(struct idr__nodes *list, unsigned int want);
IDR__HIDDEN void idr__nodes_move(struct idr__nodes *to,
				 struct idr__nodes *from, unsigned int n);
IDR__HIDDEN void idr__nodes_drain(struct idr__nodes *list, unsigned int keep);
/* A zeroed node from @spare, used as a bitmap of IDR_SLOTS words. */
IDR__HIDDEN struct idr_node *idr__node_take(struct idr__nodes *spare);
IDR__HIDDEN uint64_t *idr__node_bits(struct idr_node *node);
/* Bit w set: word w of the bitmap is all ones (full), or not zero (used). */
IDR__HIDDEN uint64_t *idr__node_words_full(struct idr_node *node);
IDR__HIDDEN uint64_t *idr__node_words_used(struct idr_node *node);
IDR__HIDDEN void idr__node_release(struct idr *idr, struct idr_node *node);

/* The idr's own cache, which idr_pre_get() fills outside the lock. */
IDR__HIDDEN int idr__cache_fill(struct idr *idr);
IDR__HIDDEN bool idr__cache_take(struct idr *idr, struct idr__nodes *spare,
				 unsigned int n);
IDR__HIDDEN unsigned int idr__cache_take_some(struct idr *idr,
					      struct idr__nodes *spare,
					      unsigned int n);

/* Gather @need nodes: this thread's preload, the idr's cache, malloc. */
IDR__HIDDEN int idr__reserve(struct idr *idr, struct idr__nodes *spare,
			     unsigned int need);
/* Give back nodes reserved but not used: @from_cache of them to the cache. */
IDR__HIDDEN void idr__unreserve(struct idr *idr, struct idr__nodes *spare,
				unsigned int from_cache);

/* }==================== Nodes ==================== */

/* {==================== The tree ==================== */

IDR__HIDDEN int idr__find_free(const struct idr *idr, uint64_t start,
			       uint64_t max, uint64_t *index);
IDR__HIDDEN unsigned int idr__nodes_needed(const struct idr *idr,
					   uint64_t index);
IDR__HIDDEN void idr__insert(struct idr *idr, uint64_t index, void *entry,
			     bool full, struct idr__nodes *spare);
IDR__HIDDEN int idr__alloc_fast(struct idr *idr, void *entry, uint64_t start,
				uint64_t max, uint64_t *index);
IDR__HIDDEN void **idr__lookup(const struct idr *idr, uint64_t index);
IDR__HIDDEN uint64_t *idr__gen(const struct idr *idr, uint64_t index);
IDR__HIDDEN bool idr__next_present(const struct idr *idr, uint64_t start,
				   uint64_t *index, void **entry);
/* The first non-NULL entry at or above @start; @it keeps its leaf. */
IDR__HIDDEN void *idr__iter_find(struct idr__iter *it, uint64_t start,
				 uint64_t *index);
IDR__HIDDEN void idr__set_full(struct idr *idr, uint64_t index, bool full);
IDR__HIDDEN bool idr__delete(struct idr *idr, uint64_t index, void **entry);
IDR__HIDDEN void idr__free_all(struct idr *idr);
IDR__HIDDEN unsigned int idr__height(const struct idr *idr);

/* {==================== Looking inside ==================== */

/* The IDs from tree index @first on, for @n indices (an IDA's: bitmaps). */
IDR__HIDDEN void idr__range(const struct idr *idr, uint64_t first, uint64_t n,
			    unsigned long *lo, unsigned long *hi);
/* Fill @views with the nodes on @index's path, top first; how many. */
IDR__HIDDEN unsigned int idr__path_views(const struct idr *idr, uint64_t index,
					 struct idr_view *views);
IDR__HIDDEN void idr__trace_nodes(const struct idr *idr,
				  enum idr_trace_event event, unsigned int n);
IDR__HIDDEN unsigned int idr__preloaded(void);
IDR__HIDDEN size_t idr__node_size(void);
/* The bytes the node behind @view takes. */
IDR__HIDDEN size_t idr__view_size(const struct idr_view *view);

/* }==================== Looking inside ==================== */

/* {==================== Shared by the API files ==================== */

/* The largest ID @idr may hand out: 2^id_bits - 1 when tagged. */
IDR__HIDDEN uint64_t idr__id_max(const struct idr *idr);
/* Allocate the lowest free ID in [@start, @max]; nodes from the cache only
 * (-EAGAIN when short) if @cache_only. */
IDR__HIDDEN int idr__alloc_id(struct idr *idr, void *ptr, uint64_t start,
			      uint64_t max, bool cache_only, uint64_t *id);
/* A tagged idr's removal: the generation advances, or the slot retires. */
IDR__HIDDEN void *idr__tag_remove(struct idr *idr, uint64_t index);
/* Undo an allocation not yet handed out: no generation advances. */
IDR__HIDDEN void *idr__tag_unalloc(struct idr *idr, unsigned long id);
IDR__HIDDEN bool idr__tag_retired(const struct idr *idr, uint64_t index);

/* }==================== The tree ==================== */

IDR__HIDDEN void *idr__malloc(size_t size);
IDR__HIDDEN void idr__free(void *ptr, size_t size);
/* Shrink a block to @new_size; NULL (the block unchanged) on failure.
 * Neither an allocation nor fault-injected: it only gives memory back. */
IDR__HIDDEN void *idr__shrink(void *ptr, size_t size, size_t new_size);

#endif /* IDR_TREE_H */
