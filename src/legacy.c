/* SPDX-License-Identifier: MIT */
/*
 * legacy.c - the 2004 API: idr_pre_get(), idr_get_new(),
 * idr_get_new_above(), as the kernel had them in 2.6.8 - 2.6.10.
 *
 * Each idr keeps a cache of free nodes (nodes.c).  idr_pre_get() fills it
 * outside the caller's lock; the get_new calls take from it alone and
 * never malloc, so a caller under a spinlock never sleeps.  When another
 * thread drained the cache between the two, get_new says -EAGAIN and
 * the caller goes round again.
 */
#include <limits.h>

#include "api.h"
#include "tree.h"

int idr_pre_get(struct idr *idr, gfp_t gfp)
{
	bool op = idr__op(idr, "pre_get", 0, 0, 0);
	int err = idr__cache_fill(idr);

	(void)gfp;
	idr__done(idr, op, err);
	return err == 0;
}

int idr_get_new_above(struct idr *idr, void *ptr, int starting_id, int *id)
{
	bool op = idr__op(idr, "get_new_above", starting_id, 0, 0);
	uint64_t got;
	int err = -EINVAL;

	if (starting_id >= 0)
		err = idr__alloc_id(idr, ptr, (uint64_t)starting_id, INT_MAX,
				    IDR__CACHED_NODES, &got);
	if (!err)
		*id = (int)got;
	idr__done(idr, op, err ? err : (int64_t)got);
	return err;
}

int idr_get_new(struct idr *idr, void *ptr, int *id)
{
	bool op = idr__op(idr, "get_new", 0, 0, 0);
	int err = idr_get_new_above(idr, ptr, 0, id);

	idr__done(idr, op, err ? err : *id);
	return err;
}
