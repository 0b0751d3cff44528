/* SPDX-License-Identifier: MIT */
/*
 * defer.c - letting go of the tree's blocks, at once or after readers.
 *
 * A plain idr frees a block the moment the tree lets go of it (a whole
 * node goes to the idr's cache while it has room).  On an RCU idr a
 * reader may still be inside the block: the writer first makes it
 * unreachable (every pointer to it gone from the tree), then hands it
 * here, and it is freed only after a grace period, through the hooks
 * libidr-rcu set (struct idr_rcu_hooks).  So this file, and the rest of
 * libidr, needs no RCU library: the hooks are called, never linked.
 *
 * Each block waits in a work item of its own, malloc'd through the
 * allocator seam, or set aside by idr_preload(): an insertion lets go
 * of one block at most (the node it copies whole), and under a preload
 * it may not malloc.  When malloc refuses, the writer waits for a grace
 * period there and then (hooks->wait) and frees the block at once.  A
 * whole node waiting for its grace period goes to the idr's cache only
 * if the idr has not been destroyed meanwhile (its epoch is the same):
 * else it would stay in the cache of an idr its owner may be about to
 * free.  The idr counts what waits, for idr_stats().
 */
#include "alloc.h"
#include "defer.h"
#include "node.h"
#include "nodes.h"

#ifdef IDR_RCU_WINDOWS
void (*idr__reader_pause)(void);
#endif

static bool reclaim(struct idr *idr, void *block, size_t size, bool whole,
		    uint64_t epoch)
{
	if (whole && idr__cache_put_from(idr, block, epoch))
		return true;
	idr__free(block, size);
	return false;
}

static void deferred_run(struct idr_rcu_work *work)
{
	struct deferred *d = (struct deferred *)(void *)work;
	struct idr *idr = d->idr;
	size_t size = d->size;

	reclaim(idr, d->block, size, d->whole, d->epoch);
	idr__free(d, sizeof(*d));
	/* The last touch of the idr: after rcu_barrier() there is none. */
	__atomic_fetch_sub(&idr->idr_rcu_pending_bytes, size, __ATOMIC_RELAXED);
	__atomic_fetch_sub(&idr->idr_rcu_pending, 1, __ATOMIC_RELEASE);
}

/* This thread's work item from idr_preload() (nodes.c), or a new one. */
static struct deferred *work_new(void)
{
	struct deferred *d = idr__preload_work();

	return d ? d : idr__malloc(sizeof(*d));
}

bool idr__retire(struct idr *idr, void *block, size_t size, bool whole)
{
	struct deferred *d;

	if (!idr__rcu(idr))
		return reclaim(idr, block, size, whole && idr__keeps_nodes(idr),
			       idr->idr_epoch);
	d = work_new();
	if (!d) {
		idr->idr_rcu->wait();
		return reclaim(idr, block, size, whole, idr->idr_epoch);
	}
	*d = (struct deferred){ .idr = idr,
				.block = block,
				.size = size,
				.epoch = idr->idr_epoch,
				.whole = whole };
	d->work.idr_fn = deferred_run;
	__atomic_fetch_add(&idr->idr_rcu_pending, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&idr->idr_rcu_pending_bytes, size, __ATOMIC_RELAXED);
	idr->idr_rcu->defer(&d->work);
	return false;
}

/* {==================== A whole tree ==================== */

/* A tagged leaf freed by idr_destroy() hands its generations on to the
 * seed: see idr__gen_pass_on(). */
static void absorb_gens(struct idr *idr, const struct idr_node *leaf)
{
	unsigned int off;

	/* A live slot (idr_destroy) is freed now: one more. */
	for (off = 0; off < IDR_SLOTS; off++)
		idr__gen_pass_on(idr, leaf->aux->bits[off] +
					      (leaf->present >> off & 1));
}

/* A block of a tree being freed whole: on an RCU idr, after readers
 * (and to no cache: the idr is being destroyed). */
static void let_go(struct idr *idr, void *block, size_t size)
{
	if (idr__rcu(idr))
		idr__retire(idr, block, size, false);
	else
		idr__free(block, size);
}

void idr__retire_subtree(struct idr *idr, void *link, unsigned int shift)
{
	struct idr_node *node = linked(link);
	uint64_t set;

	if ((shift == 0 && link_packed(link)) || link_keyed(link)) {
		let_go(idr, link_keyed(link) ? (void *)keyed_of(link) : node,
		       link_size(link, shift));
		return;
	}
	for (set = node->present; set; set &= set - 1) {
		unsigned int off = lowest(set);

		if (shift)
			idr__retire_subtree(idr, child_link(node, off),
					    shift - IDR_BITS);
		else if (idr->idr_flags & IDR__IDA)
			idr__free(node->slots[off], sizeof(*node));
	}
	if (shift == 0 && node->aux) {
		absorb_gens(idr, node);
		let_go(idr, node->aux, sizeof(*node));
	}
	let_go(idr, node, link_size(link, shift));
}

/* }==================== A whole tree ==================== */
