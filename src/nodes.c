/* SPDX-License-Identifier: MIT */
/*
 * nodes.c - where the tree's nodes come from.
 *
 * An insertion is told beforehand how many nodes it needs (tree.c's
 * idr__nodes_needed) and reserves them all here before it changes the
 * tree, so a failure changes nothing.  Nodes come from three places:
 *
 *   this thread's preload  idr_preload() fills it outside the caller's
 *                          lock; idr_preload_end() frees what is left;
 *   the idr's cache        idr_pre_get() fills it, and nodes the tree
 *                          lets go of return to it while it has room;
 *   malloc                 through the allocator seam (alloc.c).
 *
 * The locking rule: every list changes under the caller's lock (or in
 * one thread), except the idr's cache, which idr_pre_get() fills without
 * that lock.  So the cache has a lock of its own (a spinlock that
 * yields), held by every change to it and never across a malloc or
 * free; its count is stored atomically, so that idr_cache_count() and
 * idr_pre_get() may read it without the lock.
 *
 * Here a spare node is a block of IDR__NODE_SIZE bytes whose first word
 * links it into its list; the IDA's words of a node are named at the end.
 */
#include <sched.h>
#include <string.h>

#include "alloc.h"
#include "node.h"
#include "nodes.h"
#include "trace.h"
#include "tree.h"

/* {==================== Lists of spare nodes ==================== */

static struct idr_node **link_of(struct idr_node *node)
{
	return (struct idr_node **)(void *)node;
}

static void push(struct idr__nodes *list, struct idr_node *node)
{
	*link_of(node) = list->head;
	list->head = node;
	__atomic_store_n(&list->nr, list->nr + 1, __ATOMIC_RELAXED);
}

static struct idr_node *pop(struct idr__nodes *list)
{
	struct idr_node *node = list->head;

	list->head = *link_of(node);
	__atomic_store_n(&list->nr, list->nr - 1, __ATOMIC_RELAXED);
	return node;
}

static struct idr_node *node_new(void)
{
	return idr__malloc(IDR__NODE_SIZE);
}

/*
 * Add malloc'd nodes until @list holds @want; false if malloc fails
 * first (@list keeps what it has).
 */
static bool fill(struct idr__nodes *list, unsigned int want)
{
	while (list->nr < want) {
		struct idr_node *node = node_new();

		if (!node)
			return false;
		push(list, node);
	}
	return true;
}

static void move(struct idr__nodes *to, struct idr__nodes *from, unsigned int n)
{
	while (n-- > 0)
		push(to, pop(from));
}

static void drain(struct idr__nodes *list, unsigned int keep)
{
	while (list->nr > keep)
		idr__free(pop(list), IDR__NODE_SIZE);
}

struct idr_node *idr__node_take(struct idr__nodes *spare)
{
	struct idr_node *node = pop(spare);

	memset(node, 0, IDR__NODE_SIZE);
	return node;
}

/* }==================== Lists of spare nodes ==================== */

/* {==================== The idr's cache ==================== */

/*
 * Reads of a held lock before a waiter yields: some microseconds, where
 * a running holder keeps it for tens of nanoseconds, so that a waiter
 * yields only behind a holder that was preempted.  At 128, waiters
 * yielded behind running holders too: bench/contend.c's pairs took 2 to
 * 10 times as long as with spinning alone; at 8192 they take as long.
 */
#define CACHE_SPINS 8192

/*
 * The lock is held for a few pointer moves.  In userspace its holder
 * can be preempted all the same (there is no preempt_disable()), and a
 * waiter that only spun would then burn its whole time slice: so it
 * spins a little, reading rather than writing the flag, then yields.
 */
void idr__byte_lock_wait(unsigned char *lock)
{
	unsigned int spins = 0;

	while (__atomic_test_and_set(lock, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(lock, __ATOMIC_RELAXED))
			if (++spins % CACHE_SPINS == 0)
				sched_yield();
}

static void cache_lock(struct idr *idr)
{
	idr__byte_lock(&idr->idr_lock);
}

static void cache_unlock(struct idr *idr)
{
	idr__byte_unlock(&idr->idr_lock);
}

/* Push @node if the cache has room and (@epoch not NULL) the idr has not
 * been destroyed since *@epoch; false if not.  The epoch is read under
 * the lock: idr_destroy() changes it there, beside idr_pre_get(). */
static bool cache_push(struct idr *idr, struct idr_node *node,
		       const uint64_t *epoch)
{
	bool room;

	cache_lock(idr);
	room = idr->idr_cache.nr < IDR__CACHE_NODES &&
	       (!epoch || idr->idr_epoch == *epoch);
	if (room)
		push(&idr->idr_cache, node);
	cache_unlock(idr);
	return room;
}

bool idr__cache_put_from(struct idr *idr, struct idr_node *node, uint64_t epoch)
{
	return cache_push(idr, node, &epoch);
}

static bool cache_put(struct idr *idr, struct idr_node *node)
{
	return cache_push(idr, node, NULL);
}

/* An idr emptied by removals owns nothing, as the kernel's: its cache
 * goes too, unless idr_pre_get() filled it. */
void idr__tree_emptied(struct idr *idr)
{
	if (!idr__keeps_nodes(idr) && idr_cache_count(idr))
		idr__cache_drain(idr);
}

/* Fill the cache to capacity; malloc runs outside the spinlock. */
int idr__cache_fill(struct idr *idr)
{
	unsigned int made = 0;
	int err = 0;

	__atomic_store_n(&idr->idr_legacy, 1, __ATOMIC_RELAXED);

	while (idr_cache_count(idr) < IDR__CACHE_NODES) {
		struct idr_node *node = node_new();

		if (!node) {
			err = -ENOMEM;
			break;
		}
		if (!cache_put(idr, node)) {
			idr__free(node, IDR__NODE_SIZE);
			break;
		}
		made++;
	}
	/* The nodes went from malloc into the cache: say how many. */
	if (idr->idr_trace)
		idr__trace_supply(idr, IDR_TRACE_MALLOC, made);
	return err;
}

/* Take exactly @n nodes, or none (false) if the cache holds fewer. */
static bool cache_take(struct idr *idr, struct idr__nodes *spare,
		       unsigned int n)
{
	bool enough;

	cache_lock(idr);
	enough = idr->idr_cache.nr >= n;
	if (enough)
		move(spare, &idr->idr_cache, n);
	cache_unlock(idr);
	return enough;
}

/* Take up to @n nodes; how many were taken. */
static unsigned int cache_take_some(struct idr *idr, struct idr__nodes *spare,
				    unsigned int n)
{
	unsigned int got;

	cache_lock(idr);
	got = n < idr->idr_cache.nr ? n : idr->idr_cache.nr;
	move(spare, &idr->idr_cache, got);
	cache_unlock(idr);
	return got;
}

/* The list is taken whole under the spinlock and freed outside it. */
void idr__cache_drain(struct idr *idr)
{
	struct idr__nodes all;

	cache_lock(idr);
	all = idr->idr_cache;
	idr->idr_epoch++;
	idr->idr_cache.head = NULL;
	__atomic_store_n(&idr->idr_cache.nr, 0, __ATOMIC_RELAXED);
	cache_unlock(idr);
	drain(&all, 0);
}

struct idr_node *idr__cache_take_one(struct idr *idr)
{
	struct idr__nodes one = { NULL, 0 };

	if (!cache_take(idr, &one, 1))
		return NULL;
	return idr__node_take(&one);
}

unsigned int idr_cache_count(const struct idr *idr)
{
	return __atomic_load_n(&idr->idr_cache.nr, __ATOMIC_RELAXED);
}

bool idr__node_release(struct idr *idr, struct idr_node *node)
{
	if (idr__keeps_nodes(idr) && cache_put(idr, node))
		return true;
	idr__free(node, IDR__NODE_SIZE);
	return false;
}

/* }==================== The idr's cache ==================== */

/* {==================== Preload and reservation ==================== */

/* Nodes idr_preload() set aside for this thread's next allocation, and
 * a work item for the block it may let go of (see defer.c). */
static _Thread_local struct idr__nodes preloaded;
static _Thread_local struct deferred *preload_work;

void idr_preload(idr_gfp_t gfp)
{
	(void)gfp;
	/* A short preload is not an error: idr_alloc() mallocs the rest. */
	(void)fill(&preloaded, IDR__INSERT_NODES_MAX);
	if (!preload_work)
		preload_work = idr__malloc(sizeof(*preload_work));
}

void idr_preload_end(void)
{
	drain(&preloaded, 0);
	if (preload_work)
		idr__free(preload_work, sizeof(*preload_work));
	preload_work = NULL;
}

struct deferred *idr__preload_work(void)
{
	struct deferred *work = preload_work;

	preload_work = NULL;
	return work;
}

unsigned int idr__preloaded(void)
{
	return preloaded.nr;
}

void idr__trace_supply(const struct idr *idr, enum idr_trace_event event,
		       unsigned int n)
{
	struct idr_trace ev = { .event = event,
				.nodes = n,
				.height = idr__height(idr) };

	if (n)
		idr__emit(idr, &ev);
}

/* Give back what a failed reservation took: malloc'd nodes on top. */
static void unreserve(struct idr *idr, struct idr__nodes *spare,
		      unsigned int from_cache)
{
	drain(spare, from_cache);
	while (spare->nr)
		idr__node_release(idr, pop(spare));
}

/* The 2004 API's rule: nodes come from the idr's cache, or not at all. */
static int reserve_cached(struct idr *idr, struct idr__nodes *spare,
			  unsigned int need)
{
	if (!cache_take(idr, spare, need))
		return -EAGAIN;
	if (idr->idr_trace)
		idr__trace_supply(idr, IDR_TRACE_CACHE_TAKE, need);
	return 0;
}

/*
 * Preloaded nodes first, then the idr's cache, then malloc.  The
 * preload is touched only once all can be had, so a failure leaves
 * everything as it was.
 */
int idr__reserve(struct idr *idr, struct idr__nodes *spare, unsigned int need,
		 enum idr__supply supply)
{
	unsigned int from_preload = need < preloaded.nr ? need : preloaded.nr;
	unsigned int from_cache;

	if (supply == IDR__CACHED_NODES)
		return reserve_cached(idr, spare, need);
	from_cache = cache_take_some(idr, spare, need - from_preload);
	if (!fill(spare, need - from_preload)) {
		unreserve(idr, spare, from_cache);
		return -ENOMEM;
	}
	move(spare, &preloaded, from_preload);
	if (idr->idr_trace) {
		idr__trace_supply(idr, IDR_TRACE_PRELOAD_TAKE, from_preload);
		idr__trace_supply(idr, IDR_TRACE_CACHE_TAKE, from_cache);
		idr__trace_supply(idr, IDR_TRACE_MALLOC,
				  need - from_preload - from_cache);
	}
	return 0;
}

/* }==================== Preload and reservation ==================== */

/* {==================== Nodes as IDA bitmaps ==================== */

uint64_t *idr__node_bits(struct idr_node *node)
{
	return node->bits;
}

/* A bitmap's header words are free: they summarise its words. */
uint64_t *idr__node_words_full(struct idr_node *node)
{
	return &node->full;
}

uint64_t *idr__node_words_used(struct idr_node *node)
{
	return &node->present;
}

void idr__trace_gone(const struct idr *idr, uint64_t index, unsigned int aux,
		     bool cached)
{
	if (idr__tracing(idr)) {
		idr__trace_node(idr, IDR_TRACE_NODE_FREE, index, aux);
		idr__trace_node(idr,
				cached ? IDR_TRACE_CACHE_PUT : IDR_TRACE_FREE,
				index, aux);
	}
}

/* }==================== Nodes as IDA bitmaps ==================== */
