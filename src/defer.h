/* SPDX-License-Identifier: MIT */
/*
 * defer.h - letting go of a block of the tree (defer.c): at once, or on
 * an RCU idr only after every reader that may hold it has left its
 * read-side section.
 */
#ifndef IDR_DEFER_H
#define IDR_DEFER_H

#include "geom.h"

/* {==================== Words RCU readers share ====================
 *
 * On an RCU idr (idr_init_rcu()) readers walk the tree while the writer
 * changes it.  Every word a reader loads is loaded atomically, and every
 * word the writer changes in a node a reader can reach is stored
 * atomically: pointers a reader follows with a dependency-ordered load
 * (idr__deref), bitmaps with an acquire load (the slot read after a bit
 * must be the one stored before it), and both published with a release
 * store, after everything they lead to is complete.  On x86 each is the
 * plain mov it replaces; on every idr, so that the find path is one.
 */
#define idr__deref(p) __atomic_load_n((p), __ATOMIC_CONSUME)
#define idr__acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define idr__publish(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define idr__set_bits(p, b) idr__publish((p), *(p) | (b))
#define idr__clear_bits(p, b) idr__publish((p), *(p) & ~(b))
/* }==================== Words RCU readers share ==================== */

/* Whether @idr's readers may run beside its writer (idr_init_rcu()). */
static inline bool idr__rcu(const struct idr *idr)
{
	return idr->idr_rcu != NULL;
}

/* A block waiting for its grace period: a work item of its own. */
struct deferred {
	struct idr_rcu_work work; /* first: the hooks see only this */
	struct idr *idr;
	void *block;
	size_t size;
	uint64_t epoch;
	bool whole;
};

/*
 * @block (@size bytes; @whole: a whole node) has left @idr's tree, and
 * no pointer to it is reachable from the top any more: free it, or put
 * a whole node in the idr's cache (true: it went there now).  On an RCU
 * idr that happens after a grace period, and a whole node goes to the
 * cache only if idr_destroy() has not run meanwhile.  The caller reads
 * nothing of @block afterwards.
 */
IDR__HIDDEN bool idr__retire(struct idr *idr, void *block, size_t size,
			     bool whole);

/* Let go of the node @link leads to, at @shift, of a tree being freed
 * whole, and of all below it, children first (after readers if RCU;
 * never to a cache). */
IDR__HIDDEN void idr__retire_subtree(struct idr *idr, void *link,
				     unsigned int shift);

#ifdef IDR_RCU_WINDOWS
/* Tests: called where a reader has loaded a pointer and not yet used it,
 * to widen the window in which a block freed too early is read. */
extern IDR__HIDDEN void (*idr__reader_pause)(void);
#define READER_PAUSE()                       \
	do {                                 \
		if (idr__reader_pause)       \
			idr__reader_pause(); \
	} while (0)
#else
#define READER_PAUSE() ((void)0)
#endif

#endif /* IDR_DEFER_H */
