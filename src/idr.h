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
 * One exception, on an RCU idr (<idr_rcu.h>): see idr_remove().
 *
 * Locking is the caller's, as in the kernel: serialise every call that
 * changes an idr with one lock; idr_preload() and idr_pre_get() may be
 * called outside it, so that an allocation under the lock needs no malloc.
 *
 * This header is the allocator.  Looking inside (walking the nodes, the
 * path of an ID, statistics, dumps and the trace callback) is declared in
 * <idr_view.h>, which includes this one.
 */
#ifndef IDR_H
#define IDR_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define IDR_API __attribute__((visibility("default")))
#else
#define IDR_API
#endif

#define IDR_VERSION "0.2.0"

/* Allocation flags: userspace cannot sleep or reclaim, so they are ignored. */
typedef unsigned int idr_gfp_t;

/* Errors folded into pointers, as the kernel's <linux/err.h> does. */
#define IDR_MAX_ERRNO 4095

static inline void *idr_err_ptr(long error)
{
	return (void *)(intptr_t)error;
}

static inline long idr_ptr_err(const void *ptr)
{
	return (long)(intptr_t)ptr;
}

static inline bool idr_is_err(const void *ptr)
{
	return (uintptr_t)ptr >= (uintptr_t)-IDR_MAX_ERRNO;
}

/*
 * The kernel's own names for the above, so that kernel code builds as it
 * is.  A program that has them from elsewhere defines IDR_NO_KERNEL_NAMES
 * before including this header and uses the idr_ names; a GFP_ flag or
 * MAX_ERRNO defined already is left alone.
 */
#ifndef IDR_NO_KERNEL_NAMES
typedef idr_gfp_t gfp_t;
#ifndef GFP_KERNEL
#define GFP_KERNEL 0x0cc0u
#endif
#ifndef GFP_ATOMIC
#define GFP_ATOMIC 0x0820u
#endif
#ifndef GFP_NOWAIT
#define GFP_NOWAIT 0x0800u
#endif
#ifndef MAX_ERRNO
#define MAX_ERRNO IDR_MAX_ERRNO
#endif

static inline void *ERR_PTR(long error)
{
	return idr_err_ptr(error);
}

static inline long PTR_ERR(const void *ptr)
{
	return idr_ptr_err(ptr);
}

static inline bool IS_ERR(const void *ptr)
{
	return idr_is_err(ptr);
}
#endif /* IDR_NO_KERNEL_NAMES */

struct idr_node;
struct idr;
struct idr_trace;

/* A trace callback: see idr_set_trace() in <idr_view.h>. */
typedef void idr_trace_fn(const struct idr *idr, const struct idr_trace *ev,
			  void *data);

/*
 * private: what an RCU idr (<idr_rcu.h>: idr_init_rcu()) hands to the
 * RCU library.  A block the tree lets go of is kept in a work item, and
 * freed (or a whole node cached) by idr_fn only after a grace period.
 */
struct idr_rcu_work {
	void *idr_head[2]; /* the RCU library's (liburcu: struct rcu_head) */
	void (*idr_fn)(struct idr_rcu_work *work);
};

struct idr_rcu_hooks {
	/* Call work->idr_fn(work) once every reader now in a read-side
	 * section has left it (call_rcu()). */
	void (*defer)(struct idr_rcu_work *work);
	/* Wait for that (synchronize_rcu()): when no work item can be had. */
	void (*wait)(void);
};

/* private: a list of spare nodes */
struct idr__nodes {
	struct idr_node *head;
	unsigned int nr;
};

/*
 * First the words an RCU reader reads (<idr_rcu.h>), which the writer
 * changes only at init, tagging and tracing; then words the writer
 * seldom changes; then, from idr_count on, those it changes at every
 * call.  The middle keeps the last a cache line (64 bytes) from the
 * first wherever an 8-byte aligned struct lies, so that a writer's
 * stores do not take the readers' line away at every lookup.
 */
struct idr {
	/* private: use the functions below */
	void *idr_top; /* the readers' word: the top's link and height */
	idr_trace_fn *idr_trace;	     /* NULL unless tracing */
	const struct idr_rcu_hooks *idr_rcu; /* RCU idrs: the hooks */
	unsigned int idr_base;		     /* the lowest ID handed out */
	unsigned char idr_id_bits; /* tagged: bits of the ID; else 0 */
	unsigned char idr_flags;   /* IDR_TAG_RETIRE, and private ones */
	unsigned char idr_shift;   /* the top node's shift */
	void *idr_trace_data;
	struct idr_node *idr_rt;   /* top node, NULL when empty */
	uint64_t idr_gen_seed;	   /* tagged: a new leaf's generation */
	uint64_t idr_epoch;	   /* idr_destroy()s: see idr__retire() */
	unsigned long idr_retired; /* tagged: slots used up for good */
	unsigned char idr__apart[16];
	unsigned long idr_count;     /* IDs allocated, NULL entries too */
	unsigned long idr_nodes;     /* nodes in the tree */
	uint64_t idr_mods;	     /* changes that may move a leaf, so far */
	struct idr__nodes idr_cache; /* idr_pre_get()'s and freed nodes */
	/* RCU idrs: blocks waiting for a grace period, and their bytes. */
	unsigned long idr_rcu_pending;
	unsigned long idr_rcu_pending_bytes;
	unsigned int idr_next;	    /* idr_alloc_cyclic's cursor */
	unsigned char idr_lock;	    /* guards idr_cache against pre_get */
	unsigned char idr_ida_lock; /* an IDA's own lock (was padding) */
	unsigned char idr_legacy;   /* idr_pre_get() has filled the cache */
};

/* private: idr_flags of an IDA's tree: its leaves hold bitmaps */
#define IDR__IDA 0x80u
/* private: idr_alloc_cyclic() has allocated (removals leave the leaf of
 * its cursor whole: tree.c's at_cursor()) */
#define IDR__CYCLIC 0x40u

/* Every field in order, so that C++ (before C++20) takes it too. */
/* clang-format off */
#define IDR__INIT_RCU(base, flags, rcu)                                      \
	{ NULL, NULL, (rcu), (base), 0, (flags), 0, NULL, NULL, 0, 0, 0,     \
	  { 0 }, 0, 0, 0, { NULL, 0 }, 0, 0, 0, 0, 0, 0 }
#define IDR__INIT(base, flags) IDR__INIT_RCU(base, flags, NULL)
/* clang-format on */
#define IDR_INIT_BASE(name, base) IDR__INIT(base, 0)
#define IDR_INIT(name) IDR_INIT_BASE(name, 0)
#define DEFINE_IDR(name) struct idr name = IDR_INIT(name)

/**
 * idr_init_base() - Initialise an idr whose IDs start at @base.
 * @idr: idr handle.
 * @base: the lowest ID idr_alloc() may hand out; a negative base is
 * taken as 0.
 *
 * The idr is a plain one, whatever it was: an RCU idr with a base is
 * idr_init_rcu_base()'s (<idr_rcu.h>).
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
		      idr_gfp_t gfp);

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
			  unsigned long max, idr_gfp_t gfp);

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
			     idr_gfp_t gfp);

/**
 * idr_get_cursor() - The ID idr_alloc_cyclic() will try first.
 * @idr: idr handle.
 */
IDR_API unsigned int idr_get_cursor(const struct idr *idr);

/**
 * idr_set_cursor() - Set the ID idr_alloc_cyclic() will try first.
 * @idr: idr handle.
 * @val: the new cursor.
 *
 * Once idr_alloc_cyclic() has allocated, the leaf the cursor leaves may
 * be packed, as when an allocation moves it (see idr(3), packed nodes):
 * a malloc, and nothing changes if it fails.
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
 * On an RCU idr (<idr_rcu.h>) a removal from a packed node copies the
 * node, since readers may be inside it; when malloc gives no block for
 * the copy, the pointer is cleared in place (readers no longer find it)
 * and the ID stays allocated, holding NULL: idr_remove() of the ID again,
 * once memory allows, frees it (and returns NULL).  A removal never
 * fails, as the kernel's.
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
 * empty and may be used again; calling this twice is harmless.  The base,
 * the cyclic cursor and a tagged idr's tagging are kept, and its
 * generations leave a seed behind (see "Generation-tagged IDs" below).
 *
 * Context: under the caller's lock; idr_pre_get() may run in another
 * thread meanwhile (the idr's cache is emptied under its own lock).
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
IDR_API void idr_preload(idr_gfp_t gfp);

/**
 * idr_preload_end() - End a preload section.
 *
 * Frees the nodes the section did not use, so nothing stays cached
 * behind a thread that exits.
 */
IDR_API void idr_preload_end(void);

/*
 * private: idr_for_each_entry()'s place in the tree.  It behaves as the
 * kernel's loop of idr_get_next() calls, but steps through a leaf without
 * going down from the top each time, for as long as the idr has had no
 * insertion or removal (the body may make them: the next step then goes
 * down again, from the ID after @id).  idr_init() starts the count of
 * changes above every count an idr_destroy() left, and the count is 64
 * bits wide everywhere, so a body that destroys and re-initialises the
 * idr, any number of times, is seen too.
 */
struct idr__iter {
	const struct idr *idr;
	void *const *slots;  /* the last ID's leaf's entries */
	uint64_t rest;	     /* its present slots after that ID */
	unsigned long first; /* the ID of its slot 0 */
	uint64_t mods;	     /* idr->idr_mods then */
	unsigned long rank;  /* packed: where the next entry is */
	long last;	     /* the ID returned last */
	void *entry;	     /* what the slow step found */
	bool packed;	     /* slots holds present entries only */
};
/**
 * idr_iter_step() - idr_for_each_entry()'s step when the leaf it read
 * last cannot give the next entry: a search from *@id + 1.
 * @it: the iterator, by value, so that its address never escapes the
 * loop and the compiler may keep it in registers.
 * @id: the ID returned last; set to the next one's.
 *
 * Part of the ABI because the inline loop calls it from users' code; not
 * meant to be called otherwise.
 * Return: @it advanced; its entry is NULL when no ID is left.
 */
IDR_API struct idr__iter idr_iter_step(struct idr__iter it, int *id);

/* Before the first step: *@id + 1 is where the search starts. */
static inline struct idr__iter idr__iter_start(const struct idr *idr, int *id)
{
	struct idr__iter it;

	it.idr = idr;
	it.slots = NULL;
	it.rest = 0;
	it.first = 0;
	it.mods = 0;
	it.rank = 0;
	it.last = -2;
	it.entry = NULL;
	it.packed = false;
	*id = -1;
	return it;
}

/* The next entry of the leaf, if the body left @id and the idr alone. */
static inline void *idr__iter_next(struct idr__iter *it, int *id)
{
	if (*id == it->last && it->mods == it->idr->idr_mods) {
		while (it->rest) {
			uint64_t rest = it->rest;
			unsigned int i = (unsigned int)__builtin_ctzll(rest);
			void *entry = it->slots[it->packed ? it->rank++ : i];

			it->rest &= it->rest - 1;
			if (entry) {
				it->last = (long)(it->first + i);
				*id = (int)it->last;
				return entry;
			}
		}
	}
	*it = idr_iter_step(*it, id);
	return it->entry;
}
#define IDR__CAT2(a, b) a##b
#define IDR__CAT(a, b) IDR__CAT2(a, b)
/* The iterator's name: one per loop, even two loops a line (a macro of
 * the caller's), lest the inner shadow the outer (-Wshadow). */
#define IDR__FOR_EACH(idrp, entry, id, it)                         \
	for (struct idr__iter it = idr__iter_start((idrp), &(id)); \
	     ((entry) = idr__iter_next(&it, &(id))) != NULL;)

#define idr_for_each_entry(idrp, entry, id) \
	IDR__FOR_EACH(idrp, entry, id, IDR__CAT(idr__it_, __COUNTER__))

#define idr_for_each_entry_continue(idr, entry, id)                 \
	for ((entry) = idr_get_next((idr), &(id)); (entry) != NULL; \
	     (id) = (int)((unsigned int)(id) + 1U),                 \
	    (entry) = idr_get_next((idr), &(id)))

/* @tmp guards against @id wrapping past ULONG_MAX. */
#define idr_for_each_entry_ul(idr, entry, tmp, id)              \
	for ((tmp) = 0, (id) = 0;                               \
	     (tmp) <= (id) &&                                   \
	     ((entry) = idr_get_next_ul((idr), &(id))) != NULL; \
	     (tmp) = (id), ++(id))

/* ==================== The 2004 API ==================== */

/*
 * The kernel's idr as it was in 2.6.8 - 2.6.10: each idr keeps its own
 * cache of free nodes.  idr_pre_get() fills it, outside the caller's
 * lock; idr_get_new() takes nodes only from it, under the lock, and says
 * -EAGAIN when another thread drained it first:
 *
 *	again:
 *		if (!idr_pre_get(&idr, GFP_KERNEL))
 *			return -ENOMEM;
 *		lock(&lock);
 *		err = idr_get_new(&idr, ptr, &id);
 *		unlock(&lock);
 *		if (err == -EAGAIN)
 *			goto again;
 *
 * Nodes freed by idr_remove() go back to this cache, up to its capacity;
 * idr_alloc() takes from it too, so the two APIs mix on one idr.
 */

/**
 * idr_pre_get() - Fill the idr's node cache for the next allocation.
 * @idr: idr handle.
 * @gfp: ignored.
 *
 * Fills the cache to its capacity, which is more than the most nodes one
 * allocation can need (at 6 bits a level: 14 nodes, where the worst
 * allocation takes 10).
 *
 * Context: may be called without the caller's lock; calls malloc.
 * Return: nonzero on success; 0 if memory ran out (the nodes obtained
 * stay cached).
 */
IDR_API int idr_pre_get(struct idr *idr, idr_gfp_t gfp);

/**
 * idr_get_new_above() - Store a pointer at the lowest free ID >= a start.
 * @idr: idr handle.
 * @ptr: pointer to store; NULL reserves the ID.
 * @starting_id: the lowest ID wanted, 0 .. INT_MAX.
 * @id: set to the new ID on success.
 *
 * Context: never calls malloc: it takes nodes from idr_pre_get()'s cache.
 * Return: 0; -EAGAIN if the cache lacks a node this allocation needs
 * (call idr_pre_get() and retry); -ENOSPC if no ID at or above
 * @starting_id is free (lower ones may be); -EINVAL if @starting_id is
 * negative.  On error the idr is unchanged.
 */
IDR_API int idr_get_new_above(struct idr *idr, void *ptr, int starting_id,
			      int *id);

/**
 * idr_get_new() - Store a pointer at the lowest free ID.
 * @idr: idr handle.
 * @ptr: pointer to store; NULL reserves the ID.
 * @id: set to the new ID on success.
 *
 * Context: never calls malloc.
 * Return: as idr_get_new_above() with @starting_id 0.
 */
IDR_API int idr_get_new(struct idr *idr, void *ptr, int *id);

/**
 * idr_cache_count() - How many free nodes the idr's cache holds now.
 * @idr: idr handle.
 */
IDR_API unsigned int idr_cache_count(const struct idr *idr);

/* ==================== Generation-tagged IDs ==================== */

/*
 * The seed's trick, made safe.  An idr limited to @id_bits low bits
 * leaves the other 31 - @id_bits bits of a non-negative int for a
 * generation: tagged = (generation << id_bits) | id.
 *
 * On such an idr, idr_find() and idr_remove() ignore the bits above
 * @id_bits, for callers that keep the full ID in their object and compare
 * it after the lookup (POSIX timers did this).  The checked calls below
 * keep a generation per slot instead and refuse a stale tagged ID: one
 * whose slot was freed, and maybe reused, since it was handed out.
 *
 * A slot's generation advances by one each time its ID is freed.  With
 * g = 31 - id_bits generation bits, generations wrap modulo 2^g by
 * default: a stale tagged ID is detected unless its slot was reused 2^g
 * times since.  With IDR_TAG_RETIRE a slot whose 2^g generations are
 * used up is retired, never handed out again, so no tagged ID is ever
 * handed out twice.
 *
 * So that every slot keeps its own count, a tagged idr keeps each leaf
 * it makes, with its generations, until idr_destroy(): its memory is
 * that of the most IDs it has held, not of the IDs it holds.
 * idr_destroy() frees them and keeps one number, the seed: one past the
 * highest generation any slot reached, where every slot starts from then
 * on.  With IDR_TAG_RETIRE no tag from before idr_destroy() is ever live
 * again (generations never wrap, and all of them are below the seed).
 * Without it, a slot whose generation lagged the highest can show an
 * old tag again after fewer than 2^g reuses: hold no tag of a wrapping
 * idr across its idr_destroy().  idr_init() forgets all of it: the
 * tagging, the generations and the seed.
 */
#define IDR_TAG_RETIRE 0x1u

/**
 * idr_tag_init() - Limit IDs to @id_bits bits and tag them.
 * @idr: an empty idr (initialised with idr_init()).
 * @id_bits: bits of the ID, 1 .. 30; the rest of an int is generation.
 * @flags: 0 or IDR_TAG_RETIRE.
 *
 * Every allocation on the idr then stays below 2^@id_bits: a range that
 * starts at or above it has no ID in it (-ENOSPC).  On an idr tagged
 * before and emptied, the same @id_bits and @flags keep its leaves and
 * their generations; other @flags with the same @id_bits free the leaves
 * and keep the seed, as idr_destroy() does (see above); other @id_bits
 * start the generations afresh, as idr_init() does.
 *
 * Return: 0; -EINVAL if @id_bits or @flags is out of range, or the idr's
 * base (idr_init_base()) is not below 2^@id_bits; -EBUSY if the idr
 * holds IDs, or (IDR_TAG_RETIRE) slots retired for good, which stay
 * until idr_destroy() although idr_is_empty() is true.
 */
IDR_API int idr_tag_init(struct idr *idr, unsigned int id_bits,
			 unsigned int flags);

/**
 * idr_alloc_tagged() - idr_alloc(), returning a tagged ID.
 * @idr: a tagged idr.
 * @ptr: pointer to store; NULL reserves the ID.
 * @start: the lowest ID wanted (inclusive, untagged).
 * @end: the first ID not wanted, or <= 0 for no limit.
 * @gfp: ignored.
 *
 * Return: (generation << id_bits) | id, never negative; -EINVAL if the
 * idr is not tagged or @start is negative; -ENOSPC if no ID in the range
 * is free (with IDR_TAG_RETIRE, retired IDs are never free); -ENOMEM.
 */
IDR_API int idr_alloc_tagged(struct idr *idr, void *ptr, int start, int end,
			     idr_gfp_t gfp);

/**
 * idr_find_tagged() - The pointer at a tagged ID, if it is still live.
 * @idr: a tagged idr.
 * @tagged: a tagged ID from idr_alloc_tagged().
 *
 * Return: the pointer if the ID is allocated and its generation is the
 * tag's; otherwise NULL.
 */
IDR_API void *idr_find_tagged(const struct idr *idr, int tagged);

/**
 * idr_remove_tagged() - Free a tagged ID, if it is still live.
 * @idr: a tagged idr.
 * @tagged: a tagged ID from idr_alloc_tagged().
 *
 * Return: the pointer that was stored; NULL if the tag is stale or not
 * allocated (the idr is then unchanged).
 */
IDR_API void *idr_remove_tagged(struct idr *idr, int tagged);

/**
 * idr_tag_check() - Say whether a tagged ID is live, and if not, why.
 * @idr: a tagged idr.
 * @tagged: a tagged ID.
 *
 * Return: 0 if it is live; -ESTALE if its generation is not its slot's
 * current one (freed or reused since, or one the slot has not reached);
 * -ENOENT if the generation is current but the slot is free (so it was
 * never handed out with this tag); -EINVAL if the idr is not tagged or
 * @tagged is negative.
 */
IDR_API int idr_tag_check(const struct idr *idr, int tagged);

/**
 * idr_tag_id() - The ID part of a tagged ID.
 * @idr: a tagged idr.
 * @tagged: a tagged ID.
 *
 * Return: the ID; -EINVAL if the idr is not tagged or @tagged is negative.
 */
IDR_API int idr_tag_id(const struct idr *idr, int tagged);

/**
 * idr_tag_gen() - The generation part of a tagged ID.
 * @idr: a tagged idr.
 * @tagged: a tagged ID.
 *
 * Return: the generation; -EINVAL if the idr is not tagged or @tagged is
 * negative.
 */
IDR_API int idr_tag_gen(const struct idr *idr, int tagged);

/**
 * idr_unalloc() - Give back an ID that no one was given.
 * @idr: idr handle (tagged or not).
 * @id: the ID just allocated (a tagged idr: plain or tagged; the bits
 *      above id_bits are ignored).
 *
 * Only for an ID allocated a moment ago and not yet handed to anyone, to
 * roll back an allocation whose caller failed to publish it.  The ID is
 * removed as idr_remove() would, but a tagged slot's generation does not
 * advance (and the slot does not retire): the next allocation of the ID
 * returns the same tagged ID, which no one can hold.  Giving back an ID
 * that was handed out defeats the stale-ID check.
 *
 * Context: under the caller's lock; frees nodes, never allocates.
 * Return: the pointer that was stored, or NULL if @id was not allocated
 * (or held NULL).
 */
IDR_API void *idr_unalloc(struct idr *idr, unsigned long id);

/*
 * Saving a tagged idr and building it again (idrsh's save and load): a
 * slot's counter is the generation its next occupant gets (its current
 * one's, if allocated), before it wraps modulo 2^(31 - id_bits); a slot
 * with no leaf shows the seed.  Build in this order: the seed (unless it
 * is at the limit of an IDR_TAG_RETIRE idr: then last), the counters,
 * then the IDs.  Setting a counter back can make old tags live again:
 * these calls are for restoring what was read, not for allocating.
 */

/**
 * idr_tag_get_seed() - The generation a tagged idr's new leaves start at.
 * @idr: idr handle.
 *
 * Return: the seed (see "Generation-tagged IDs" above); 0 on an idr that
 * is not tagged or was never emptied by idr_destroy().
 */
IDR_API uint64_t idr_tag_get_seed(const struct idr *idr);

/**
 * idr_tag_set_seed() - Set the generation new leaves start at.
 * @idr: a tagged idr.
 * @seed: the seed; with IDR_TAG_RETIRE at most 2^(31 - id_bits), where
 *        no new leaf can be made (every ID outside the leaves kept is
 *        retired).
 *
 * Leaves kept keep their counters.
 * Return: 0; -EINVAL if @idr is not tagged or @seed is above the limit.
 */
IDR_API int idr_tag_set_seed(struct idr *idr, uint64_t seed);

/**
 * idr_tag_get_gen() - The generation counter of an ID's slot.
 * @idr: a tagged idr.
 * @id: a plain ID (no generation bits).
 * @gen: set to the counter; the seed if the slot has no leaf.
 *
 * Return: 0; -ENOENT if the slot has no leaf (*@gen is the seed then);
 * -EINVAL if @idr is not tagged or @id is below the base or above
 * 2^id_bits - 1 (*@gen is untouched).
 */
IDR_API int idr_tag_get_gen(const struct idr *idr, unsigned long id,
			    uint64_t *gen);

/**
 * idr_tag_set_gen() - Set the generation counter of an ID's slot.
 * @idr: a tagged idr.
 * @id: a plain ID, allocated or free.
 * @gen: the counter.  With IDR_TAG_RETIRE at most 2^(31 - id_bits), and
 *       exactly that retires a free slot for good (as its last removal
 *       would have).
 *
 * Makes the slot's leaf if it has none, its other slots at the seed (the
 * leaf stays, as a tagged idr's leaves do).  An allocated ID's tagged ID
 * then shows @gen.
 *
 * Context: may call malloc (a new leaf).
 * Return: 0; -EINVAL if @idr is not tagged, @id is out of range or @gen
 * above the limit; -EBUSY if @gen would retire an allocated ID, or the
 * slot is retired and @gen is not the limit; -ENOSPC if a leaf is needed
 * and the idr is worn out (IDR_TAG_RETIRE, the seed at the limit: set it
 * last); -ENOMEM.  On error the idr is unchanged.
 */
IDR_API int idr_tag_set_gen(struct idr *idr, unsigned long id, uint64_t gen);

/* ==================== The IDA ==================== */

/*
 * An IDA hands out IDs without pointers, at about one bit per ID when
 * dense: its leaves point to bitmaps of IDA_BITMAP_BITS IDs each (4096
 * with the default tree; the kernel's are 1024).  IDs are 0 .. INT_MAX.
 * As the kernel's, each ida_*() call takes the IDA's own lock: callers
 * need none, and a trace callback on its tree must not call them.
 */
struct ida {
	/* private: */
	struct idr ida_rt; /* index: bitmap number; entry: the bitmap */
};

/* clang-format off */
#define IDA_INIT(name) { IDR__INIT(0, IDR__IDA) }
/* clang-format on */
#define DEFINE_IDA(name) struct ida name = IDA_INIT(name)

/**
 * ida_bitmap_bits() - How many IDs one IDA bitmap holds.
 *
 * Return: 4096 with the default tree (64 slots of 64 bits); the library
 * as built says, which a header's constant could not.
 */
IDR_API unsigned int ida_bitmap_bits(void);
/* The kernel's name for it; not a constant expression. */
#define IDA_BITMAP_BITS (ida_bitmap_bits())

/**
 * ida_init() - Initialise an empty IDA.
 * @ida: IDA handle.
 */
IDR_API void ida_init(struct ida *ida);

/**
 * ida_alloc_range() - Allocate the lowest free ID in [@min, @max].
 * @ida: IDA handle.
 * @min: the lowest ID wanted.
 * @max: the highest ID wanted (inclusive); above INT_MAX means INT_MAX.
 * @gfp: ignored.
 *
 * Context: may call malloc unless preloaded with idr_preload().
 * Return: the ID; -ENOSPC if none is free, or if @min > INT_MAX or
 * @min > @max; -ENOMEM.  On error the IDA is unchanged.
 */
IDR_API int ida_alloc_range(struct ida *ida, unsigned int min, unsigned int max,
			    idr_gfp_t gfp);

/**
 * ida_alloc() - Allocate the lowest free ID.
 * @ida: IDA handle.
 * @gfp: ignored.
 *
 * Return: the ID; -ENOSPC if every ID up to INT_MAX is taken; -ENOMEM.
 */
IDR_API int ida_alloc(struct ida *ida, idr_gfp_t gfp);

/**
 * ida_alloc_min() - Allocate the lowest free ID at or above @min.
 * @ida: IDA handle.
 * @min: the lowest ID wanted.
 * @gfp: ignored.
 *
 * Return: the ID; -ENOSPC if none is free there or @min > INT_MAX;
 * -ENOMEM.
 */
IDR_API int ida_alloc_min(struct ida *ida, unsigned int min, idr_gfp_t gfp);

/**
 * ida_alloc_max() - Allocate the lowest free ID at or below @max.
 * @ida: IDA handle.
 * @max: the highest ID wanted; above INT_MAX means INT_MAX.
 * @gfp: ignored.
 *
 * Return: the ID; -ENOSPC if none is free there; -ENOMEM.
 */
IDR_API int ida_alloc_max(struct ida *ida, unsigned int max, idr_gfp_t gfp);

/**
 * ida_free() - Free an ID.
 * @ida: IDA handle.
 * @id: an allocated ID.
 *
 * Return: 0; -ENOENT if @id is not allocated (the kernel warns here);
 * the IDA is then unchanged.
 */
IDR_API int ida_free(struct ida *ida, unsigned int id);

/**
 * ida_exists() - Whether an ID is allocated.
 * @ida: IDA handle.
 * @id: the ID.
 */
IDR_API bool ida_exists(const struct ida *ida, unsigned int id);

/**
 * ida_find_first_range() - The lowest allocated ID in [@min, @max].
 * @ida: IDA handle.
 * @min: the lowest ID to consider.
 * @max: the highest (inclusive); above INT_MAX means INT_MAX.
 *
 * Return: the ID; -EINVAL if @min is above INT_MAX (negative as an int);
 * -ENOENT if none is allocated there.
 */
IDR_API int ida_find_first_range(const struct ida *ida, unsigned int min,
				 unsigned int max);

/**
 * ida_find_first() - The lowest allocated ID.
 * @ida: IDA handle.
 *
 * Return: the ID; -ENOENT if the IDA is empty.
 */
IDR_API int ida_find_first(const struct ida *ida);

/**
 * ida_is_empty() - Whether no ID is allocated.
 * @ida: IDA handle.
 */
IDR_API bool ida_is_empty(const struct ida *ida);

/**
 * ida_count() - How many IDs are allocated.  O(bitmaps); not in the kernel.
 * @ida: IDA handle.
 */
IDR_API unsigned long ida_count(const struct ida *ida);

/**
 * ida_destroy() - Free every ID and all memory; the IDA stays usable.
 * @ida: IDA handle.
 */
IDR_API void ida_destroy(struct ida *ida);

/**
 * ida_check() - Verify the IDA's invariants (see idr_check()).
 * @ida: IDA handle.
 *
 * Return: 0 if it is sound, -EUCLEAN if not.
 */
IDR_API int ida_check(const struct ida *ida);

/* ==================== The allocator seam ==================== */

/*
 * Every byte the library allocates, in every idr and IDA and in every
 * thread's preload cache, comes from one process-wide allocator: one,
 * because idr_preload() takes no idr.  It is the default unless the
 * caller sets another before the library holds any memory: malloc(3),
 * realloc(3) and free(3), but for blocks of 16 bytes or less (a keyed
 * block of one ID), which it cuts from pages of 4 KiB, as glibc would
 * give them 32.  So an allocator that wraps the default (from
 * idr_get_allocator()) must give its free and realloc the size the
 * block was allocated or last shrunk with, and call realloc only to
 * shrink: the default tells a cell from a malloc'd block by its size.  Sizes are given back to free and realloc, so an allocator
 * can count bytes without headers of its own; ctx is passed to each call.
 * Counting allocations, making the n-th one fail (as the project's tests
 * and idrsh's "fail" do) and the like are written on this seam.
 */
struct idr_allocator {
	/* @size bytes, or NULL: the library's call then fails with
	 * -ENOMEM (or 0 from idr_pre_get()) and changes nothing. */
	void *(*malloc)(size_t size, void *ctx);
	/* Resize the block @ptr of @old_size bytes to @new_size; NULL
	 * leaves the block as it was.  The library only shrinks with it,
	 * and keeps the larger block when it says NULL. */
	void *(*realloc)(void *ptr, size_t old_size, size_t new_size,
			 void *ctx);
	/* Give back a block of @size bytes (never NULL). */
	void (*free)(void *ptr, size_t size, void *ctx);
	void *ctx;
};

/**
 * idr_set_allocator() - Set the allocator of all the library's memory.
 * @a: the allocator, copied; NULL for the default (above).
 *
 * Context: before other threads use the library (the check and the
 * change are not atomic against their allocations).
 * Return: 0 when set; -EBUSY while the library holds memory from the
 * current allocator (the nodes of an idr or IDA not yet destroyed, its
 * idr_pre_get() cache included, or a thread's idr_preload() nodes before
 * idr_preload_end()): the allocator is unchanged then; -EINVAL if one of
 * @a's functions is NULL.
 */
IDR_API int idr_set_allocator(const struct idr_allocator *a);

/**
 * idr_get_allocator() - Read the allocator in use.
 * @a: filled in: the last one set, or the default (above,
 * ctx NULL), so that a caller can wrap it.
 */
IDR_API void idr_get_allocator(struct idr_allocator *a);

/* ==================== Checking ==================== */

/**
 * idr_check() - Verify the tree's invariants.
 * @idr: idr handle.
 *
 * Checks that each bitmap bit matches its slot or subtree, that the
 * count matches, that no empty node is kept (but on an RCU idr, one a
 * removal could not take out, with no memory for its parent's copy) and
 * that the tree is no taller than its highest ID needs.  A debugging aid: O(nodes).
 *
 * Return: 0 if the tree is sound, -EUCLEAN if it is not.
 */
IDR_API int idr_check(const struct idr *idr);

#ifdef __cplusplus
}
#endif

#endif /* IDR_H */
