/* SPDX-License-Identifier: MIT */
/*
 * nodes.h - where the tree's nodes come from (nodes.c): lists of spare
 * nodes, each idr's cache (the 2004 API's), this thread's preload, and
 * the reservation an insertion makes before it changes anything.
 */
#ifndef IDR_NODES_H
#define IDR_NODES_H

#include "geom.h"

#define IDR__MAX(a, b) ((a) > (b) ? (a) : (b))

/*
 * The most nodes one insertion can take, which idr_preload() sets aside.
 * The worst case is an index of @bits bits outside slot 0 of the top,
 * into a tree of one leaf: it adds every level above the leaf (height - 1
 * nodes) and then a branch of its own from the new top down to a new leaf
 * (height - 1 more).  An insertion inside the tree adds at most height - 1
 * nodes below the lowest one on its path, and one more if that one is
 * packed with no room (its whole copy): height in all, never more.  A
 * tagged leaf also takes a node for its generations
 * (tagged IDs have at most 30 bits); an IDA's ID, a bitmap (an IDA's index
 * is an ID of 31 bits divided by IDR__CHUNK).  10 nodes with 6 bits per
 * level, 20 with 3.
 */
#define IDR__GROW_NODES(bits) (2 * (IDR__LEVELS_FOR(bits) - 1))
#define IDR__INSERT_NODES_MAX                      \
	IDR__MAX(IDR__GROW_NODES(32),              \
		 IDR__MAX(IDR__GROW_NODES(30) + 1, \
			  IDR__GROW_NODES(31 - IDR_BITS - 6) + 1))
/* What idr_pre_get() keeps in an idr's cache: two nodes a level and two
 * more, over one worst case (14 against 10 at 6 bits, 24 against 20 at 3). */
#define IDR__CACHE_NODES (2 * (IDR__LEVELS + 1))
_Static_assert(IDR__CACHE_NODES >= IDR__INSERT_NODES_MAX,
	       "after idr_pre_get(), idr_get_new() must never need more");

/* A lock in a byte, held for short work (the idr's cache, an IDA's
 * calls): its waiter spins reading it, then yields (nodes.c). */
IDR__HIDDEN void idr__byte_lock_wait(unsigned char *lock);
static inline void idr__byte_lock(unsigned char *lock)
{
	if (__atomic_test_and_set(lock, __ATOMIC_ACQUIRE))
		idr__byte_lock_wait(lock);
}

static inline void idr__byte_unlock(unsigned char *lock)
{
	__atomic_clear(lock, __ATOMIC_RELEASE);
}

/*
 * Whether a node @idr lets go of may wait in its cache: while its tree
 * is not empty, or once idr_pre_get() has filled it.  An emptied idr or
 * IDA owns no memory, as the kernel's (whose ida_destroy() an empty IDA
 * needs not): see idr__tree_emptied().
 */
static inline bool idr__keeps_nodes(const struct idr *idr)
{
	return idr->idr_rt ||
	       __atomic_load_n(&idr->idr_legacy, __ATOMIC_RELAXED);
}

/* The tree of @idr has just become empty: free its cache, unless
 * idr_pre_get() filled it. */
IDR__HIDDEN void idr__tree_emptied(struct idr *idr);

/* Where an insertion may take its nodes from. */
enum idr__supply {
	IDR__ANY_NODES,	   /* the preload, the idr's cache, then malloc */
	IDR__CACHED_NODES, /* the idr's cache alone (-EAGAIN if short) */
};

/* Gather @need nodes into @spare, from @supply; all of them or none. */
IDR__HIDDEN int idr__reserve(struct idr *idr, struct idr__nodes *spare,
			     unsigned int need, enum idr__supply supply);
/* A zeroed node from @spare. */
IDR__HIDDEN struct idr_node *idr__node_take(struct idr__nodes *spare);
/* A node no longer in the tree: to the idr's cache (true), or freed. */
IDR__HIDDEN bool idr__node_release(struct idr *idr, struct idr_node *node);

/* Put @node in @idr's cache if it has room and idr_destroy() has not run
 * since @epoch (see defer.c); false if it did not go there. */
IDR__HIDDEN bool idr__cache_put_from(struct idr *idr, struct idr_node *node,
				     uint64_t epoch);
/* A zeroed node from @idr's cache, or NULL if it is empty. */
IDR__HIDDEN struct idr_node *idr__cache_take_one(struct idr *idr);

/* idr_pre_get(): fill @idr's cache, outside the caller's lock. */
IDR__HIDDEN int idr__cache_fill(struct idr *idr);
/* Free every node of @idr's cache (idr_destroy). */
IDR__HIDDEN void idr__cache_drain(struct idr *idr);
/* Report that @n nodes came from where @event says (none: nothing). */
IDR__HIDDEN void idr__trace_supply(const struct idr *idr,
				   enum idr_trace_event event, unsigned int n);
/* Nodes this thread's idr_preload() holds now. */
IDR__HIDDEN unsigned int idr__preloaded(void);
/* The work item idr_preload() set aside for the one block an insertion
 * may let go of on an RCU idr (defer.c), now the caller's; or NULL. */
IDR__HIDDEN struct deferred *idr__preload_work(void);

#endif /* IDR_NODES_H */
