/* SPDX-License-Identifier: MIT */
/*
 * rcu_shim.h - the RCU calls of libidr-rcu and of the tests that drive
 * an RCU idr, under one set of names: liburcu's (memb), or with
 * IDR_RCU_SHIM (the ThreadSanitizer build) a pthread rwlock in their
 * place (rcu.c), whose ordering TSan understands.
 */
#ifndef IDR_RCU_SHIM_H
#define IDR_RCU_SHIM_H

#ifdef IDR_RCU_SHIM
void idr__shim_read_lock(void);
void idr__shim_read_unlock(void);
void idr__shim_synchronize(void);
#define idr__rcu_register() ((void)0)
#define idr__rcu_unregister() ((void)0)
#define idr__rcu_read_lock() idr__shim_read_lock()
#define idr__rcu_read_unlock() idr__shim_read_unlock()
#define idr__rcu_synchronize() idr__shim_synchronize()
/* Every deferred free has run already, in the writer. */
#define idr__rcu_barrier() ((void)0)
#else
#include <urcu.h>
#define idr__rcu_register() rcu_register_thread()
#define idr__rcu_unregister() rcu_unregister_thread()
#define idr__rcu_read_lock() rcu_read_lock()
#define idr__rcu_read_unlock() rcu_read_unlock()
#define idr__rcu_synchronize() synchronize_rcu()
#define idr__rcu_barrier() rcu_barrier()
#ifdef IDR_RCU_WINDOWS
/* Tests: free right after a grace period, in the writer. */
extern bool idr__rcu_eager;
#endif
#endif

#endif /* IDR_RCU_SHIM_H */
