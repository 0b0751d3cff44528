/* SPDX-License-Identifier: MIT */
/*
 * idr_rcu.h - idrs whose readers take no lock, under RCU (libidr-rcu).
 *
 * The kernel's idr_find() and iteration may run under rcu_read_lock(),
 * beside one writer that holds the caller's lock.  An idr made with
 * idr_init_rcu() allows the same in userspace, with liburcu's default
 * flavour (memb: #include <urcu.h>, link -lurcu):
 *
 *	reader thread                      writer (one at a time: the lock)
 *	rcu_register_thread();             rcu_register_thread();
 *	rcu_read_lock();                   pthread_mutex_lock(&lock);
 *	obj = idr_find(&idr, id);          obj = idr_remove(&idr, id);
 *	if (obj)                           pthread_mutex_unlock(&lock);
 *		use(obj);                  if (obj)
 *	rcu_read_unlock();                         call_rcu(&obj->rcu, obj_free);
 *
 * Safe inside a read-side section, beside the writer's idr_alloc*(),
 * idr_remove(), idr_replace(), idr_destroy() and the rest: idr_find(),
 * idr_find_tagged(), idr_get_next(), idr_get_next_ul(), idr_for_each()
 * and idr_for_each_entry().  A reader sees each entry as it was at some
 * moment of its call; iteration may miss entries added and may return
 * entries removed meanwhile, but never skips an entry present throughout
 * nor returns one that was never at its ID.  Everything else (the
 * introspection of <idr_view.h>, idr_count(), tracing) is the writer's.
 *
 * The rules:
 *   - every thread that reads or changes the idr is registered
 *     (rcu_register_thread(); call_rcu() needs it of the writer too);
 *   - the caller serialises writers, as for any idr, and calls the
 *     writer's functions outside read-side sections: one that lets go of
 *     a node and finds no memory for the record of its deferred free
 *     waits for a grace period (synchronize_rcu()) there and then, which
 *     inside the writer's own read-side section never ends;
 *   - the library frees its own nodes after a grace period (call_rcu());
 *     the caller does the same for its objects: free an object removed
 *     from the idr with call_rcu() (or after synchronize_rcu()), or take a
 *     reference to it inside the read-side section;
 *   - before the struct idr itself is freed (or initialised again): take
 *     it out of the readers' reach, idr_destroy() it, synchronize_rcu()
 *     so that no reader is inside, and rcu_barrier() so that every free
 *     the library deferred has run (each one still updates the idr).
 *
 * idr_stats() (<idr_view.h>) counts the blocks waiting for their grace
 * period.  Plain idrs need none of this, and libidr none of liburcu:
 * the RCU calls are made here, through hooks the idr keeps.
 */
#ifndef IDR_RCU_H
#define IDR_RCU_H

#include "idr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* private: liburcu's calls, as an RCU idr's hooks (DEFINE_IDR_RCU). */
extern IDR_API const struct idr_rcu_hooks idr_rcu_urcu;

#define IDR_INIT_RCU_BASE(name, base) IDR__INIT_RCU(base, 0, &idr_rcu_urcu)
#define IDR_INIT_RCU(name) IDR_INIT_RCU_BASE(name, 0)
#define DEFINE_IDR_RCU(name) struct idr name = IDR_INIT_RCU(name)

/**
 * idr_init_rcu() - Initialise an idr whose readers may take no lock.
 * @idr: idr handle.
 *
 * As idr_init(), and from then on idr_find(), idr_find_tagged(),
 * idr_get_next() and iteration may run inside rcu_read_lock() beside the
 * one writer the caller's lock admits, and every node the tree lets go
 * of is freed after a grace period (call_rcu()).  idr_tag_init() may
 * follow, before the idr is shared.
 *
 * Context: any; allocates nothing.  Link with -lidr-rcu -lidr -lurcu.
 */
IDR_API void idr_init_rcu(struct idr *idr);

/**
 * idr_init_rcu_base() - idr_init_rcu() for an idr whose IDs start at @base.
 * @idr: idr handle.
 * @base: as for idr_init_base(), whose idr is a plain one: called after
 *        idr_init_rcu(), it would make the idr plain again, and its
 *        readers unsafe.
 *
 * Context: any; allocates nothing.  Inline, on the calls libidr-rcu has
 * exported since 0.2.0.
 */
static inline void idr_init_rcu_base(struct idr *idr, int base)
{
	idr_init_base(idr, base);
	idr->idr_rcu = &idr_rcu_urcu;
}

#ifdef __cplusplus
}
#endif

#endif /* IDR_RCU_H */
