/* SPDX-License-Identifier: MIT */
/*
 * idr.c - today's kernel idr API on top of the radix tree in tree.c.
 *
 * Conventions in this file: an @id is what callers see; the tree is
 * indexed by @id minus the idr's base.
 */
#include <limits.h>

#include "api.h"
#include "defer.h"
#include "gen.h"
#include "nodes.h"
#include "tag.h"
#include "tree.h"

/*
 * Above every count of changes an idr_destroy() has left behind.  An
 * idr_init() starts there, so that an idr_for_each_entry() whose body
 * destroys and re-initialises its idr never finds the count it saw
 * before (it would step on through the freed leaf).  64 bits, counting
 * one a change: no loop wraps it.
 */
static uint64_t mods_high;

static void mods_leave(uint64_t mods)
{
	uint64_t high = __atomic_load_n(&mods_high, __ATOMIC_RELAXED);

	while (high < mods &&
	       !__atomic_compare_exchange_n(&mods_high, &high, mods, true,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static uint64_t fresh_mods(void)
{
	return __atomic_add_fetch(&mods_high, 1, __ATOMIC_RELAXED);
}

void idr_init_base(struct idr *idr, int base)
{
	*idr = (struct idr)IDR_INIT_BASE(*idr, base < 0 ? 0 : base);
	idr->idr_mods = fresh_mods();
}

void idr_init(struct idr *idr)
{
	idr_init_base(idr, 0);
}

void idr_set_trace(struct idr *idr, idr_trace_fn *fn, void *data)
{
	idr->idr_trace = fn;
	idr->idr_trace_data = data;
}

/*
 * Whether free @index, found from @from (<= @max) and needing nodes, is
 * a lone ID: asked for by itself (a range of one), or found at the
 * start asked for with nothing just below it, as random starts in a wide
 * range are.  A run of allocations (from 0, or cyclic) reaches a new
 * leaf from the leaf below, which it filled: those get whole nodes.
 */
static bool lone(const struct idr *idr, uint64_t from, uint64_t max,
		 uint64_t index)
{
	if (from == max)
		return true;
	return index == from && (!index || !idr__lookup_quiet(idr, index - 1));
}

int idr__alloc_id(struct idr *idr, void *ptr, uint64_t start, uint64_t max,
		  enum idr__supply supply, uint64_t *id)
{
	struct idr__nodes spare = { NULL, 0 };
	uint64_t base = idr->idr_base, from, index;
	unsigned int need;
	int err;

	if (max > idr__id_max(idr))
		max = idr__id_max(idr);
	if (max < base)
		return -ENOSPC;
	from = start < base ? 0 : start - base;
	err = idr__alloc_fast(idr, ptr, from, max - base, &index);
	if (err == IDR__STORED)
		*id = index + base;
	if (err != IDR__NEEDS_NODES)
		return err;
	/* A lone ID (see lone()), with nodes malloc'd to its size: not
	 * from the 2004 API's cache, nor with a preload, whose callers may
	 * not malloc. */
	if (supply == IDR__ANY_NODES && !idr__preloaded() &&
	    lone(idr, from, max - base, index) &&
	    idr__insert_lone(idr, index, ptr) == IDR__STORED) {
		*id = index + base;
		return 0;
	}
	need = idr__nodes_needed(idr, index);
	err = idr__reserve(idr, &spare, need, supply);
	if (err)
		return err;
	idr__insert(idr, index, ptr, IDR__SLOT_FULL, &spare);
	*id = index + base;
	return 0;
}

static int alloc_u32(struct idr *idr, void *ptr, uint32_t *nextid,
		     unsigned long max)
{
	uint64_t id;
	int err = idr__alloc_id(idr, ptr, *nextid, max, IDR__ANY_NODES, &id);

	if (!err)
		*nextid = (uint32_t)id;
	return err;
}

/* Out of line, as alloc_traced() below. */
__attribute__((cold, noinline)) static int
u32_traced(struct idr *idr, void *ptr, uint32_t *nextid, unsigned long max)
{
	bool op = idr__op(idr, "alloc_u32", *nextid,
			  max > INT64_MAX ? INT64_MAX : (int64_t)max, 0);
	int err = alloc_u32(idr, ptr, nextid, max);

	idr__done(idr, op, err ? err : (int64_t)*nextid);
	return err;
}

int idr_alloc_u32(struct idr *idr, void *ptr, uint32_t *nextid,
		  unsigned long max, gfp_t gfp)
{
	(void)gfp;
	if (idr__tracing(idr))
		return u32_traced(idr, ptr, nextid, max);
	return alloc_u32(idr, ptr, nextid, max);
}

static unsigned long range_max(int end)
{
	return end > 0 ? (unsigned long)end - 1 : INT_MAX;
}

/* Out of line, so that idr_alloc()'s untraced path saves no registers. */
__attribute__((cold, noinline)) static int
alloc_traced(struct idr *idr, void *ptr, int start, int end, gfp_t gfp)
{
	bool op = idr__op(idr, "alloc", start, end, 0);
	uint32_t id = (uint32_t)start;
	int err = -EINVAL;

	if (start >= 0)
		err = idr_alloc_u32(idr, ptr, &id, range_max(end), gfp);
	return (int)idr__done(idr, op, err ? err : (int)id);
}

/*
 * Untraced, the same without the op events' bookkeeping, which costs a
 * fifth of a dense allocation's instructions (332 against 260 at 10^5)
 * even when the one branch that skips it is predicted.
 */
int idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp)
{
	uint64_t id;
	int err;

	if (idr__tracing(idr))
		return alloc_traced(idr, ptr, start, end, gfp);
	if (start < 0)
		return -EINVAL;
	err = idr__alloc_id(idr, ptr, (uint64_t)start, range_max(end),
			    IDR__ANY_NODES, &id);
	return err ? err : (int)id;
}

int idr_alloc_tagged(struct idr *idr, void *ptr, int start, int end, gfp_t gfp)
{
	bool op = idr__op(idr, "alloc_tagged", start, end, 0);
	int id = -EINVAL;

	if (idr__tagged(idr))
		id = idr_alloc(idr, ptr, start, end, gfp);
	if (id >= 0)
		id = idr__tag_of(idr, (uint64_t)id - idr->idr_base);
	return (int)idr__done(idr, op, id);
}

/* The cursor to @next: the leaf it leaves, kept whole for it once
 * idr_alloc_cyclic() has allocated (tree.c's at_cursor()), may be due. */
static inline void cursor_to(struct idr *idr, unsigned int next)
{
	uint64_t was = idr__cursor_index(idr);

	idr->idr_next = next;
	if (idr->idr_flags & IDR__CYCLIC &&
	    (was ^ idr__cursor_index(idr)) >> IDR_BITS)
		idr__cursor_left(idr, was);
}

/* The cursor to @next, the ID after the one allocated.  The flag is
 * stored once: it shares a cache line with the top, which RCU readers
 * load. */
static inline void cursor_moved(struct idr *idr, unsigned int next)
{
	if (idr->idr_flags & IDR__CYCLIC) {
		cursor_to(idr, next);
		return;
	}
	idr->idr_flags |= IDR__CYCLIC;
	idr->idr_next = next;
}

/* The cursor's allocation: at or after it, then from @start, as the
 * kernel's; the op events are the caller's. */
static int alloc_cyclic(struct idr *idr, void *ptr, int start, int end)
{
	uint64_t first = idr->idr_next, max = range_max(end), id;
	int err;

	if (start < 0)
		return -EINVAL;
	if (first < (uint64_t)start || first > INT_MAX)
		first = (uint64_t)start;
	err = idr__alloc_id(idr, ptr, first, max, IDR__ANY_NODES, &id);
	if (err == -ENOSPC && first > (uint64_t)start)
		err = idr__alloc_id(idr, ptr, (uint64_t)start, max,
				    IDR__ANY_NODES, &id);
	if (err)
		return err;
	cursor_moved(idr, (unsigned int)id + 1);
	return (int)id;
}

__attribute__((cold, noinline)) static int
alloc_cyclic_traced(struct idr *idr, void *ptr, int start, int end)
{
	bool op = idr__op(idr, "alloc_cyclic", start, end, idr->idr_next);

	return (int)idr__done(idr, op, alloc_cyclic(idr, ptr, start, end));
}

/* Untraced, as idr_alloc(): a PID allocator's every call. */
int idr_alloc_cyclic(struct idr *idr, void *ptr, int start, int end, gfp_t gfp)
{
	(void)gfp;
	if (idr__tracing(idr))
		return alloc_cyclic_traced(idr, ptr, start, end);
	return alloc_cyclic(idr, ptr, start, end);
}

unsigned int idr_get_cursor(const struct idr *idr)
{
	return idr->idr_next;
}

void idr_set_cursor(struct idr *idr, unsigned int val)
{
	bool op = idr__op(idr, "set_cursor", 0, 0, val);

	cursor_to(idr, val);
	idr__done(idr, op, 0);
}

/*
 * The tree index of @id, or false if @id lies below the base.  A tagged
 * idr ignores the generation bits above the ID, as the seed describes.
 */
static bool to_index(const struct idr *idr, unsigned long id, uint64_t *index)
{
	if (idr__tagged(idr))
		id &= idr__id_max(idr);
	if (id < idr->idr_base)
		return false;
	*index = id - idr->idr_base;
	return true;
}

__attribute__((cold, noinline)) static void *find_traced(const struct idr *idr,
							 unsigned long id)
{
	bool op = idr__op(idr, "find", 0, 0, id);
	uint64_t index;
	void **slot = NULL;

	if (to_index(idr, id, &index))
		slot = idr__lookup(idr, index);
	idr__done(idr, op, slot ? (int64_t)id : -ENOENT);
	return slot ? *slot : NULL;
}

/* Untraced, as idr_alloc(): no op events, no path reported. */
void *idr_find(const struct idr *idr, unsigned long id)
{
	uint64_t index;

	if (idr__tracing(idr))
		return find_traced(idr, id);
	if (!to_index(idr, id, &index))
		return NULL;
	return idr__find(idr, index);
}

static void *remove_id(struct idr *idr, unsigned long id, bool *gone)
{
	uint64_t index;
	void *entry = NULL;

	*gone = false;
	if (!to_index(idr, id, &index))
		return NULL;
	if (idr__tagged(idr))
		return idr__tag_remove(idr, index, gone);
	idr__trace_path(idr, index);
	*gone = idr__delete(idr, index, &entry);
	return entry;
}

__attribute__((cold, noinline)) static void *remove_traced(struct idr *idr,
							   unsigned long id)
{
	bool op = idr__op(idr, "remove", 0, 0, id), gone;
	void *entry = remove_id(idr, id, &gone);

	idr__done(idr, op, gone ? (int64_t)id : -ENOENT);
	return entry;
}

/* Untraced, as idr_alloc(); a plain idr's in one call below. */
void *idr_remove(struct idr *idr, unsigned long id)
{
	bool gone;

	if (idr__tracing(idr))
		return remove_traced(idr, id);
	if (idr__tagged(idr))
		return remove_id(idr, id, &gone);
	if (id < idr->idr_base)
		return NULL;
	return idr__remove(idr, id - idr->idr_base);
}

void *idr_replace(struct idr *idr, void *ptr, unsigned long id)
{
	bool op = idr__op(idr, "replace", 0, 0, id);
	uint64_t index;
	void **slot = NULL;
	void *old;

	if (to_index(idr, id, &index))
		slot = idr__lookup(idr, index);
	if (!slot || (idr__tagged(idr) && idr__tag_retired(idr, index))) {
		idr__done(idr, op, -ENOENT);
		return ERR_PTR(-ENOENT);
	}
	old = *slot;
	__atomic_store_n(slot, ptr, __ATOMIC_RELEASE);
	idr__done(idr, op, (int64_t)id);
	return old;
}

void *idr_get_next_ul(const struct idr *idr, unsigned long *nextid)
{
	bool op = idr__op(idr, "get_next_ul", 0, 0, *nextid);
	uint64_t index, start;
	void *entry = NULL;

	start = 0;
	if (*nextid > idr->idr_base)
		start = *nextid - idr->idr_base;
	/* NULL entries are reserved IDs: iteration steps over them. */
	while (idr__next_present(idr, start, &index, &entry) && !entry)
		start = index + 1;
	if (entry)
		*nextid = (unsigned long)(index + idr->idr_base);
	idr__done(idr, op, entry ? (int64_t)*nextid : -ENOENT);
	return entry;
}

void *idr_get_next(const struct idr *idr, int *nextid)
{
	bool op = idr__op(idr, "get_next", 0, 0, (unsigned long)*nextid);
	unsigned long id = (unsigned long)*nextid;
	void *entry = NULL;

	if (*nextid >= 0)
		entry = idr_get_next_ul(idr, &id);
	if (entry && id > INT_MAX)
		entry = NULL;
	if (entry)
		*nextid = (int)id;
	idr__done(idr, op, entry ? (int64_t)id : -ENOENT);
	return entry;
}

/* idr_iter_step()'s search from *@id + 1: false at the end. */
static bool iter_find(struct idr__iter *it, int *id, uint64_t *index)
{
	unsigned long base = it->idr->idr_base;

	it->entry = NULL;
	*id = (int)((unsigned int)*id + 1U);
	if (*id < 0)
		return false;
	*index = (unsigned int)*id < base ? 0 : (unsigned int)*id - base;
	it->entry = idr__iter_find(it, *index, index);
	if (!it->entry || *index + base > INT_MAX) {
		it->entry = NULL;
		return false;
	}
	return true;
}

/*
 * idr_for_each_entry()'s step when idr__iter_next() cannot take it.
 * Traced as the idr_get_next() it is (the inline steps within a leaf
 * read no node), unless idr_for_each() reports the loop.
 */
struct idr__iter idr_iter_step(struct idr__iter it, int *id)
{
	bool op = idr__op(it.idr, "get_next", 0, 0, (unsigned int)*id + 1U);
	unsigned long base = it.idr->idr_base, room;
	uint64_t index;
	bool found = iter_find(&it, id, &index);

	idr__done(it.idr, op, found ? (int64_t)(index + base) : -ENOENT);
	if (!found)
		return it;
	/*
	 * The rest of the leaf, as far as IDs go (INT_MAX).  The rest never
	 * holds slot 0 (the ID found comes first), so the mask's bit 0 does
	 * not matter.
	 */
	it.first += base;
	room = (unsigned long)INT_MAX - it.first + 1;
	if (room < 64)
		it.rest &= ((uint64_t)1 << room) - 1;
	*id = (int)(index + base);
	/* An RCU idr's loop never takes idr__iter_next()'s fast path, whose
	 * plain loads of idr_mods and the leaf race with the writer: every
	 * step is a descent of atomic loads, as idr_get_next()'s. */
	it.last = idr__rcu(it.idr) ? -2 : *id;
	return it;
}

int idr_for_each(const struct idr *idr, int (*fn)(int id, void *p, void *data),
		 void *data)
{
	bool op = idr__op(idr, "for_each", 0, 0, 0);
	void *entry;
	int id, ret = 0;

	idr_for_each_entry(idr, entry, id) {
		ret = fn(id, entry, data);
		if (ret)
			break;
	}
	return (int)idr__done(idr, op, ret);
}

bool idr_is_empty(const struct idr *idr)
{
	return idr->idr_count == 0;
}

unsigned long idr_count(const struct idr *idr)
{
	return idr->idr_count;
}

/* Its nodes go untraced, all at once: the "op" and "done" say so. */
void idr_destroy(struct idr *idr)
{
	bool op = idr__op(idr, "destroy", 0, 0, 0);

	idr__free_all(idr);
	idr__cache_drain(idr);
	mods_leave(idr->idr_mods);
	idr__done(idr, op, 0);
}
