/* SPDX-License-Identifier: MIT */
/*
 * keyed.h - keyed blocks (keyed.c): making one, copying one with an ID
 * more or less, and the level-1 node and leaves it becomes past
 * KEYED_MAX IDs.  These work on one block; tree.c links them in.  The
 * layout is node.h's.
 */
#ifndef IDR_KEYED_H
#define IDR_KEYED_H

#include "node.h"
#include "nodes.h"
#include "pack.h"

/* Unkeying takes a level-1 node and a leaf for each of KEYED_MAX + 1
 * IDs at most: no more than a preload, or idr_pre_get(), holds. */
_Static_assert(KEYED_MAX + 2 <= IDR__INSERT_NODES_MAX,
	       "an insertion that unkeys a block needs more nodes");

/* A block holding @index's @entry alone, or NULL when malloc refuses. */
IDR__HIDDEN struct idr_keyed *idr__keyed_new(uint64_t index, void *entry);
/* A copy of @k with @entry at @index (absent) too; NULL when malloc
 * refuses. */
IDR__HIDDEN struct idr_keyed *idr__keyed_with(const struct idr_keyed *k,
					      uint64_t index, void *entry);
/* A copy of @k without its ID of rank @i; NULL when malloc refuses. */
IDR__HIDDEN struct idr_keyed *idr__keyed_without(const struct idr_keyed *k,
						 unsigned int i);
/* Take @k's ID of rank @i out in place (a plain idr's: no reader can be
 * in it): the block keeps its room. */
IDR__HIDDEN void idr__keyed_take(struct idr_keyed *k, unsigned int i);
/* A packed level-1 node and its packed leaves, each fitted to what it
 * holds, in @k's place: @k's IDs and @entry at @index (absent).  The
 * link to it, ready for readers; NULL (nothing made) when malloc
 * refuses any block. */
IDR__HIDDEN void *idr__keyed_split(const struct idr_keyed *k, uint64_t index,
				   void *entry);
/* @k, after idr__keyed_take(), in a block of room for what it holds if
 * that is a smaller chunk (realloc): the block, moved or not; @k as it
 * was when realloc refuses. */
IDR__HIDDEN struct idr_keyed *idr__keyed_shrink(struct idr_keyed *k);
/* The whole nodes that turning @k into a level-1 node takes, with a
 * leaf for @index as well. */
IDR__HIDDEN unsigned int idr__keyed_nodes(const struct idr_keyed *k,
					  uint64_t index);
/* A whole level-1 node and its whole leaves, from @spare, holding what
 * @k holds: readers may reach it once it is returned. */
IDR__HIDDEN struct idr_node *idr__keyed_unkey(const struct idr_keyed *k,
					      struct idr__nodes *spare);

#endif /* IDR_KEYED_H */
