/* SPDX-License-Identifier: MIT */
/*
 * tree.h - the radix tree under struct idr, private to the library.
 *
 * The node layout lives in tree.c alone; the API files see indices,
 * slots and lists of spare nodes.  An index is an ID minus the idr's base.
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
#define IDR_INDEX_MAX UINT32_MAX	/* the largest index the tree holds */

#define IDR__HIDDEN __attribute__((visibility("hidden")))

/* A list of spare nodes: a preload or legacy cache, or a reservation. */
struct idr__nodes {
	struct idr_node *head;
	unsigned int nr;
};

/* The most nodes one insertion can need: a full path from top to leaf. */
IDR__HIDDEN unsigned int idr__max_levels(void);

IDR__HIDDEN int idr__nodes_fill(struct idr__nodes *list, unsigned int want);
IDR__HIDDEN void idr__nodes_move(struct idr__nodes *to,
				 struct idr__nodes *from, unsigned int n);
IDR__HIDDEN void idr__nodes_drain(struct idr__nodes *list, unsigned int keep);

IDR__HIDDEN int idr__find_free(const struct idr *idr, uint64_t start,
			       uint64_t max, uint64_t *index);
IDR__HIDDEN unsigned int idr__nodes_needed(const struct idr *idr,
					   uint64_t index);
IDR__HIDDEN void idr__insert(struct idr *idr, uint64_t index, void *entry,
			     struct idr__nodes *spare);
IDR__HIDDEN void **idr__lookup(const struct idr *idr, uint64_t index);
IDR__HIDDEN bool idr__next_present(const struct idr *idr, uint64_t start,
				   uint64_t *index, void **entry);
IDR__HIDDEN bool idr__delete(struct idr *idr, uint64_t index, void **entry);
IDR__HIDDEN void idr__free_all(struct idr *idr);
IDR__HIDDEN unsigned int idr__height(const struct idr *idr);

IDR__HIDDEN void *idr__malloc(size_t size);
IDR__HIDDEN void idr__free(void *ptr, size_t size);

#endif /* IDR_TREE_H */
