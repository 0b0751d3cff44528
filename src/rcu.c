/* SPDX-License-Identifier: MIT */
/*
 * rcu.c - libidr-rcu: the hooks an RCU idr calls to wait for readers,
 * made of liburcu's calls (the default flavour, memb).  libidr calls
 * them through the idr (struct idr_rcu_hooks) and links no RCU library;
 * only a program that makes an RCU idr links this one, and liburcu.
 *
 * The ThreadSanitizer build (IDR_RCU_SHIM) puts a shim in liburcu's
 * place, since TSan cannot see liburcu's ordering: a read-side section
 * holds a pthread rwlock for reading, a grace period takes it for
 * writing and lets it go, and a deferred free runs right after one.
 * The tests' widened windows (IDR_RCU_WINDOWS) may also ask for that
 * eager free with liburcu, to free as early as the rules allow.
 */
#include "idr_rcu.h"
#include "rcu_shim.h"

#ifdef IDR_RCU_SHIM
#include <pthread.h>
#include <sched.h>

static pthread_rwlock_t shim_lock = PTHREAD_RWLOCK_INITIALIZER;
/* Readers wait while a grace period does: glibc's rwlock prefers them. */
static int shim_waiting;

void idr__shim_read_lock(void)
{
	while (__atomic_load_n(&shim_waiting, __ATOMIC_ACQUIRE))
		sched_yield();
	pthread_rwlock_rdlock(&shim_lock);
}

void idr__shim_read_unlock(void)
{
	pthread_rwlock_unlock(&shim_lock);
}

void idr__shim_synchronize(void)
{
	__atomic_fetch_add(&shim_waiting, 1, __ATOMIC_ACQ_REL);
	pthread_rwlock_wrlock(&shim_lock);
	pthread_rwlock_unlock(&shim_lock);
	__atomic_fetch_sub(&shim_waiting, 1, __ATOMIC_ACQ_REL);
}

static void defer(struct idr_rcu_work *work)
{
	idr__shim_synchronize();
	work->idr_fn(work);
}
#else
_Static_assert(sizeof(struct rcu_head) <=
		       sizeof(((struct idr_rcu_work *)0)->idr_head),
	       "struct idr_rcu_work keeps liburcu's struct rcu_head");

#ifdef IDR_RCU_WINDOWS
bool idr__rcu_eager;
#endif

static void run(struct rcu_head *head)
{
	struct idr_rcu_work *work = (struct idr_rcu_work *)(void *)head;

	work->idr_fn(work);
}

static void defer(struct idr_rcu_work *work)
{
#ifdef IDR_RCU_WINDOWS
	if (__atomic_load_n(&idr__rcu_eager, __ATOMIC_RELAXED)) {
		synchronize_rcu();
		work->idr_fn(work);
		return;
	}
#endif
	call_rcu((struct rcu_head *)(void *)work->idr_head, run);
}
#endif

static void wait_readers(void)
{
	idr__rcu_synchronize();
}

const struct idr_rcu_hooks idr_rcu_urcu = { defer, wait_readers };

void idr_init_rcu(struct idr *idr)
{
	idr_init_rcu_base(idr, 0);
}
