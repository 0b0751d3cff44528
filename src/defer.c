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
 * allocator seam; when malloc refuses, the writer waits for a grace
 * period there and then (hooks->wait) and frees the block at once.  A
 * whole node waiting for its grace period goes to the idr's cache only
 * if the idr has not been destroyed meanwhile (its epoch is the same):
 * else it would stay in the cache of an idr its owner may be about to
 * free.  The idr counts what waits, for idr_stats().
 */
#include "alloc.h"
#include "defer.h"
#include "nodes.h"

#ifdef IDR_RCU_WINDOWS
void (*idr__reader_pause)(void);
#endif

struct deferred {
	struct idr_rcu_work work; /* first: the hooks see only this */
	struct idr *idr;
	void *block;
	size_t size;
	uint64_t epoch;
	bool whole;
};

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

bool idr__retire(struct idr *idr, void *block, size_t size, bool whole)
{
	struct deferred *d;

	if (!idr__rcu(idr))
		return reclaim(idr, block, size, whole, idr->idr_epoch);
	d = idr__malloc(sizeof(*d));
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
