/* SPDX-License-Identifier: MIT */
/*
 * idr.h - the Linux kernel's integer ID allocator, in userspace.
 *
 * An idr maps small non-negative integer IDs to pointers and hands out
 * the lowest free ID on request.  It is a radix tree of 64-slot nodes:
 * each level of the tree consumes 6 bits of the ID (IDR_BITS), leaves
 * hold the pointers, and every node keeps a 64-bit bitmap of "full"
 * slots so that the lowest free ID is found by count-trailing-zeros on
 * the way down, never by scanning slots.
 *
 *   ID 8300 = 0b 000010 000001 101100 = digits 2, 1, 44 (base 64)
 *
 *                  [shift 12]  root: IDs 0 .. 262143
 *                  /   |   \
 *          slot 0  slot 1  slot 2 ---.
 *                                     [shift 6]  IDs 8192 .. 12287
 *                                      |
 *                                     slot 1 ---.
 *                                               [shift 0] leaf: IDs 8256 .. 8319
 *                                                 slot 44 -> the pointer
 *
 *   node:   full    (64 bits)  leaf: slot in use; interior: subtree full
 *           present (64 bits)  slot holds an entry or a child
 *           shift              ID bits below this node's digit
 *           slots[64]          entries (leaf) or children (interior)
 *
 * The tree grows at the top when an ID needs another level and shrinks
 * when the top node only keeps slot 0.  Empty nodes are freed.
 *
 * Error contract, for every function here: a negative errno is returned
 * and the idr is left exactly as it was.  Every allocation is made
 * before the first change to the tree, so -ENOMEM never loses an ID.
 *
 * Locking is the caller's, as in the kernel: serialise every call that
 * changes an idr with one lock; idr_preload() and idr_pre_get() may be
 * called outside it, so that an allocation under the lock needs no malloc.
 */
#ifndef IDR_H
#define IDR_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define IDR_API __attribute__((visibility("default")))
#else
#define IDR_API
#endif

#define IDR_VERSION "0.1.0"

/*
 * Allocation flags.  Userspace cannot sleep or reclaim, so idr accepts
 * these for source compatibility with kernel code and ignores them.
 */
typedef unsigned int gfp_t;
#define GFP_KERNEL 0x0cc0u
#define GFP_ATOMIC 0x0820u
#define GFP_NOWAIT 0x0800u

/* Errors folded into pointers, as the kernel's <linux/err.h> does. */
#define MAX_ERRNO 4095

static inline void *ERR_PTR(long error)
{
	return (void *)(intptr_t)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)(intptr_t)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return (uintptr_t)ptr >= (uintptr_t)-MAX_ERRNO;
}

struct idr_node;

struct idr {
	/* private: use the functions below */
	struct idr_node *idr_rt;	/* top node, NULL when empty */
	unsigned long idr_count;	/* IDs allocated, NULL entries too */
	unsigned int idr_base;		/* the lowest ID handed out */
	unsigned int idr_next;		/* idr_alloc_cyclic's cursor */
};

#define IDR_INIT_BASE(name, base) { NULL, 0, (base), 0 }
#define IDR_INIT(name) IDR_INIT_BASE(name, 0)
#define DEFINE_IDR(name) struct idr name = IDR_INIT(name)

/**
 * idr_init_base() - Initialise an idr whose IDs start at @base.
 * @idr: idr handle.
 * @base: the lowest ID idr_alloc() may hand out.
 *
 * Context: any; allocates nothing.
 */
IDR_API void idr_init_base(struct idr *idr, int base);

/**
 * idr_init() - Initialise an idr whose IDs start at 0.
 * @idr: idr handle.
 */
IDR_API void idr_init(struct idr *idr);

/**
 * idr_alloc() - Allocate the lowest free ID in a range.
 * @idr: idr handle.
 * @ptr: pointer to store; NULL reserves the ID without a value.
 * @start: the lowest ID wanted (inclusive).
 * @end: the first ID not wanted, or <= 0 for "up to INT_MAX".
 * @gfp: ignored.
 *
 * Context: may call malloc unless preloaded with idr_preload().
 * Return: the new ID; -EINVAL if @start is negative; -ENOSPC if no ID in
 * [@start, @end) is free; -ENOMEM if memory ran out.  On error the idr
 * is unchanged.
 */
IDR_API int idr_alloc(struct idr *idr, void *ptr, int start, int end,
		      gfp_t gfp);

/**
 * idr_alloc_u32() - Allocate the lowest free ID at or above *@nextid.
 * @idr: idr handle.
 * @ptr: pointer to store; NULL reserves the ID.
 * @nextid: on entry the lowest ID wanted; on success the ID allocated.
 * @max: the highest ID wanted (inclusive); clamped to UINT32_MAX.
 * @gfp: ignored.
 *
 * Context: may call malloc unless preloaded with idr_preload().
 * Return: 0 on success; -ENOSPC if no ID in [*@nextid, @max] is free;
 * -ENOMEM if memory ran out.  On error *@nextid and the idr are unchanged.
 */
IDR_API int idr_alloc_u32(struct idr *idr, void *ptr, uint32_t *nextid,
			  unsigned long max, gfp_t gfp);

/**
 * idr_alloc_cyclic() - Allocate an ID, searching from where the last ended.
 * @idr: idr handle.
 * @ptr: pointer to store; NULL reserves the ID.
 * @start: the lowest ID wanted (inclusive).
 * @end: the first ID not wanted, or <= 0 for "up to INT_MAX".
 * @gfp: ignored.
 *
 * Searches [max(cursor, @start), @end), then once more from @start.  On
 * success the cursor becomes the new ID plus one, so IDs are not reused
 * at once after they are freed (PIDs work this way).
 *
 * Context: may call malloc unless preloaded with idr_preload().
 * Return: the new ID; -EINVAL if @start is negative; -ENOSPC if no ID in
 * [@start, @end) is free; -ENOMEM if memory ran out.  On error the idr
 * and its cursor are unchanged.
 */
IDR_API int idr_alloc_cyclic(struct idr *idr, void *ptr, int start, int end,
			     gfp_t gfp);

/**
 * idr_get_cursor() - The ID idr_alloc_cyclic() will try first.
 * @idr: idr handle.
 */
IDR_API unsigned int idr_get_cursor(const struct idr *idr);

/**
 * idr_set_cursor() - Set the ID idr_alloc_cyclic() will try first.
 * @idr: idr handle.
 * @val: the new cursor.
 */
IDR_API void idr_set_cursor(struct idr *idr, unsigned int val);

/**
 * idr_find() - The pointer stored at an ID.
 * @idr: idr handle.
 * @id: the ID to look up.
 *
 * Context: reads only; allocates nothing.
 * Return: the pointer, or NULL if @id is not allocated or holds NULL.
 */
IDR_API void *idr_find(const struct idr *idr, unsigned long id);

/**
 * idr_remove() - Free an ID.
 * @idr: idr handle.
 * @id: the ID to free.
 *
 * Frees the nodes the ID alone kept alive and lowers the tree if it can.
 *
 * Return: the pointer that was stored, or NULL if @id was not allocated
 * (the idr is then unchanged) or held NULL.
 */
IDR_API void *idr_remove(struct idr *idr, unsigned long id);

/**
 * idr_replace() - Store a new pointer at an allocated ID.
 * @idr: idr handle.
 * @ptr: the new pointer (NULL keeps the ID reserved).
 * @id: an allocated ID.
 *
 * Return: the old pointer (maybe NULL), or ERR_PTR(-ENOENT) if @id is not
 * allocated; the idr is then unchanged.
 */
IDR_API void *idr_replace(struct idr *idr, void *ptr, unsigned long id);

/**
 * idr_get_next_ul() - The first non-NULL entry at or above an ID.
 * @idr: idr handle.
 * @nextid: on entry the ID to start at; on success the ID found.
 *
 * Return: the entry, or NULL if there is none (*@nextid is then unchanged).
 */
IDR_API void *idr_get_next_ul(const struct idr *idr, unsigned long *nextid);

/**
 * idr_get_next() - The first non-NULL entry at or above an ID.
 * @idr: idr handle.
 * @nextid: on entry the ID to start at; on success the ID found.
 *
 * Return: the entry, or NULL if there is none or *@nextid is negative
 * (*@nextid is then unchanged).
 */
IDR_API void *idr_get_next(const struct idr *idr, int *nextid);

/**
 * idr_for_each() - Call a function on every non-NULL entry, in ID order.
 * @idr: idr handle.
 * @fn: called as fn(id, entry, @data).
 * @data: passed to @fn.
 *
 * Each step finds the next entry afresh, so @fn may remove or add IDs.
 *
 * Return: the first non-zero value @fn returned, or 0.
 */
IDR_API int idr_for_each(const struct idr *idr,
			 int (*fn)(int id, void *p, void *data), void *data);

/**
 * idr_is_empty() - Whether no ID is allocated (not even one holding NULL).
 * @idr: idr handle.
 */
IDR_API bool idr_is_empty(const struct idr *idr);

/**
 * idr_count() - How many IDs are allocated, NULL entries included.
 * @idr: idr handle.
 *
 * Not in the kernel; idr keeps the count so it costs nothing to ask.
 */
IDR_API unsigned long idr_count(const struct idr *idr);

/**
 * idr_destroy() - Free every node.
 * @idr: idr handle.
 *
 * The pointers stored are the caller's to free.  Afterwards the idr is
 * empty and may be used again; calling this twice is harmless.  The base
 * and the cyclic cursor are kept.
 */
IDR_API void idr_destroy(struct idr *idr);

/**
 * idr_preload() - Get nodes for one allocation before taking a lock.
 * @gfp: ignored.
 *
 * Fills this thread's node cache with enough nodes for any one
 * allocation, so that the next idr_alloc*() call in this thread needs
 * no malloc.  If memory runs short the cache holds what could be had,
 * and idr_alloc() will try malloc for the rest.
 *
 * Context: call outside the caller's lock; pair with idr_preload_end().
 */
IDR_API void idr_preload(gfp_t gfp);

/**
 * idr_preload_end() - End a preload section.
 *
 * Frees the nodes the section did not use, so nothing stays cached
 * behind a thread that exits.
 */
IDR_API void idr_preload_end(void);

#define idr_for_each_entry(idr, entry, id)                                   \
	for ((id) = 0; ((entry) = idr_get_next((idr), &(id))) != NULL;        \
	     (id) = (int)((unsigned int)(id) + 1U))

#define idr_for_each_entry_continue(idr, entry, id)                          \
	for ((entry) = idr_get_next((idr), &(id)); (entry) != NULL;           \
	     (id) = (int)((unsigned int)(id) + 1U),                          \
	    (entry) = idr_get_next((idr), &(id)))

/* @tmp guards against @id wrapping past ULONG_MAX. */
#define idr_for_each_entry_ul(idr, entry, tmp, id)                           \
	for ((tmp) = 0, (id) = 0;                                            \
	     (tmp) <= (id) &&                                                \
	     ((entry) = idr_get_next_ul((idr), &(id))) != NULL;              \
	     (tmp) = (id), ++(id))

/* ==================== The allocator seam ==================== */

/*
 * Every byte the library allocates goes through one pair of functions,
 * so tests can make allocations fail and statistics can count bytes.
 */
struct idr_mem_stats {
	size_t bytes;		/* in use now */
	unsigned long allocs;	/* successful allocations so far */
	unsigned long frees;	/* frees so far */
	unsigned long failed;	/* allocations refused by fault injection */
	unsigned long thread_allocs; /* allocations by the calling thread */
};

/**
 * idr_mem_stats() - Read the allocator's counters (all threads together).
 * @stats: filled in.
 */
IDR_API void idr_mem_stats(struct idr_mem_stats *stats);

/**
 * idr_fault_inject() - Make allocations fail, for tests and teaching.
 * @skip: how many allocations succeed first.
 * @count: how many fail after those (0 turns fault injection off).
 */
IDR_API void idr_fault_inject(unsigned long skip, unsigned long count);

/* ==================== Checking ==================== */

/**
 * idr_check() - Verify the tree's invariants.
 * @idr: idr handle.
 *
 * Checks that each bitmap bit matches its slot or subtree, that the
 * count matches, that no empty node is kept and that the tree is no
 * taller than its highest ID needs.  A debugging aid: O(nodes).
 *
 * Return: 0 if the tree is sound, -EUCLEAN if it is not.
 */
IDR_API int idr_check(const struct idr *idr);

#ifdef __cplusplus
}
#endif

#endif /* IDR_H */
