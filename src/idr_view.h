/* SPDX-License-Identifier: MIT */
/*
 * idr_view.h - looking inside an idr: walk its nodes, follow one ID's
 * path, count what the tree costs, print it as plain text, and watch
 * each operation node by node through a trace callback.
 *
 * <idr.h> is the allocator; this header is the read-only view of it, for
 * teaching, debugging and a C user's own tools.  It includes <idr.h>.
 * Nothing here changes the tree (idr_set_trace() only sets the callback),
 * and the walk, its cursor, paths and statistics allocate nothing.
 *
 * Two ways to walk: idr_walk() calls back for every node; the cursor,
 * idr_view_top() then idr_view_child() or idr_view_next_child() a node's
 * children one at a time, lets the caller stop wherever its budget is
 * spent.  A view holds no lock and no reference: it is valid until the
 * idr next changes.
 */
#ifndef IDR_VIEW_H
#define IDR_VIEW_H

#include "idr.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * idr_info(), idr_path() and idr_stats() fill the structs of their names,
 * as stat() does; in C++ a function hides a struct of its name, which
 * g++ -Wshadow says of each.  A caller writes "struct idr_stats st;".
 */
#if defined(__cplusplus) && defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#endif

/*
 * For teaching and debugging: walk the nodes, print the tree as text,
 * follow the path of one ID, count what the tree costs, and watch each
 * operation node by node.  These work on an idr, a tagged idr
 * and an IDA (through ida_tree()) alike; none changes the tree.
 */

/*
 * Room for one digit of an unsigned long index per entry, at the fewest
 * bits per level the library builds with (3): sizes the arrays below.
 */
#define IDR_LEVELS_MAX 34

/* One node, as idr_walk() shows it.  A keyed block (a level-1 range's
 * few lone IDs as sorted keys) shows as its level-1 node and its runs of
 * keys as leaves, all with @keyed set; the runs are no nodes. */
struct idr_view {
	unsigned int depth;	     /* 0 for the top node */
	unsigned int level;	     /* 0 for a leaf; height - 1 at the top */
	unsigned int shift;	     /* index bits below this node's digit */
	unsigned int slots;	     /* slots per node (64 by default) */
	unsigned int packed;	     /* a packed node: room for this many */
	unsigned int keyed;	     /* in a keyed block: the IDs it holds */
	unsigned long first, last;   /* the IDs it covers */
	uint64_t full;		     /* slots with no free ID below */
	uint64_t present;	     /* slots holding an entry or a child */
	const struct idr_node *node; /* for idr_view_entry() and friends */
};

/**
 * ida_tree() - The tree under an IDA, for the functions below.
 * @ida: IDA handle.
 *
 * An IDA's leaves point to bitmaps: its leaf slots are bitmap numbers and
 * the views count IDs (slot n covers IDs n * IDA_BITMAP_BITS ...).
 */
IDR_API const struct idr *ida_tree(const struct ida *ida);

/**
 * idr_walk() - Visit every node, depth first, in ID order.
 * @idr: idr handle.
 * @fn: called for each node, parent before children; a non-zero return
 *      stops the walk.
 * @data: passed to @fn.
 *
 * Return: the first non-zero value @fn returned, or 0.
 */
IDR_API int idr_walk(const struct idr *idr,
		     int (*fn)(const struct idr_view *view, void *data),
		     void *data);

/**
 * idr_view_top() - The top node, where a walk by cursor begins.
 * @idr: idr handle (or ida_tree()).
 * @top: filled in, at depth 0.
 *
 * Context: reads only; allocates nothing.
 * Return: true; false if the tree has no node (@top is then untouched).
 */
IDR_API bool idr_view_top(const struct idr *idr, struct idr_view *top);

/**
 * idr_view_child() - The node below one slot of an interior node.
 * @idr: the idr @parent was read from.
 * @parent: a view of an interior node (level above 0).
 * @slot: which of its slots, 0 to @parent->slots - 1.
 * @child: filled in, one level down.
 *
 * Context: reads only; allocates nothing.
 * Return: true; false if @parent is a leaf, @slot is out of range or the
 * slot holds no child (@child is then untouched).
 */
IDR_API bool idr_view_child(const struct idr *idr,
			    const struct idr_view *parent, unsigned int slot,
			    struct idr_view *child);

/**
 * idr_view_next_child() - The first child of a node at or after a slot.
 * @idr: the idr @parent was read from.
 * @parent: a view of an interior node.
 * @slot: in: the slot to look from; out: the slot the child hangs from.
 * @child: filled in, one level down.
 *
 * Start with *@slot = 0 and add one after each child to visit the
 * children in ID order, one call each.
 *
 * Context: reads only; allocates nothing.
 * Return: true; false if @parent is a leaf or has no child from *@slot
 * on (*@slot and @child are then untouched).
 */
IDR_API bool idr_view_next_child(const struct idr *idr,
				 const struct idr_view *parent,
				 unsigned int *slot, struct idr_view *child);

/**
 * idr_view_retired() - Whether a tagged leaf's slot is retired for good.
 * @idr: the idr @leaf was read from.
 * @leaf: a view of a leaf.
 * @slot: which of its slots.
 *
 * With IDR_TAG_RETIRE, a slot whose generation ran out is never handed
 * out again; it holds no entry.
 *
 * Return: true if so; false for a slot in use or free, an untagged idr
 * or an IDA.
 */
IDR_API bool idr_view_retired(const struct idr *idr,
			      const struct idr_view *leaf, unsigned int slot);

/** idr_view_entry() - A leaf slot's entry (an IDA's: its bitmap). */
IDR_API void *idr_view_entry(const struct idr_view *view, unsigned int slot);

/** idr_view_gen() - A tagged leaf slot's generation counter, else 0. */
IDR_API uint64_t idr_view_gen(const struct idr *idr,
			      const struct idr_view *view, unsigned int slot);

/** idr_view_bits() - How many IDs an IDA leaf slot's bitmap holds; 0 for
 * any other view's slot (an idr's entries are never read as bitmaps). */
IDR_API unsigned int idr_view_bits(const struct idr_view *view,
				   unsigned int slot);

/** idr_view_bit() - Whether bit @n of an IDA leaf slot's bitmap is set;
 * false for any other view's slot. */
IDR_API bool idr_view_bit(const struct idr_view *view, unsigned int slot,
			  unsigned int n);

/* What an idr is, as idr_info() reads it. */
struct idr_info {
	unsigned int base;     /* the lowest ID it hands out */
	unsigned int id_bits;  /* tagged: bits of the ID; 0 if not tagged */
	bool retire;	       /* tagged with IDR_TAG_RETIRE */
	bool ida;	       /* the tree under an IDA (ida_tree()) */
	unsigned int height;   /* levels of nodes; 0 when empty */
	unsigned int bits;     /* index bits a level, as the library is built */
	unsigned int slots;    /* slots a node: 1 << bits */
	unsigned long retired; /* tagged, IDR_TAG_RETIRE: slots used up */
	unsigned long nodes;   /* nodes in the tree (as idr_stats() counts) */
	bool rcu;	       /* idr_init_rcu() or _rcu_base() (<idr_rcu.h>) */
};

/**
 * idr_info() - Read what an idr was made as, its shape and its height.
 * @idr: idr handle (or ida_tree()).
 * @info: filled in.
 *
 * @info->bits and @info->slots are the library's as built (6 and 64 by
 * default), which no constant in a header could say.
 *
 * Context: reads only; O(1); allocates nothing.
 */
IDR_API void idr_info(const struct idr *idr, struct idr_info *info);

/**
 * idr_next_in_use() - The first allocated ID at or above one, reserved
 * IDs included.
 * @idr: idr handle (not an IDA's tree).
 * @id: in: where to look from; out: the ID found.
 * @entry: out: its pointer; NULL for an ID allocated with a NULL pointer.
 *
 * Unlike idr_get_next_ul(), an ID allocated with a NULL pointer (reserved)
 * is found too; a tagged idr's retired slots are not (no one holds them).
 * A tagged idr's *@id is a plain ID, below 2^id_bits.
 *
 * Context: reads only; allocates nothing.
 * Return: true; false if there is none, or @idr is an IDA's tree (*@id
 * and *@entry are then untouched).
 */
IDR_API bool idr_next_in_use(const struct idr *idr, unsigned long *id,
			     void **entry);

/* Why idr_path() stopped. */
enum idr_path_end {
	IDR_PATH_FOUND,	     /* the ID is allocated */
	IDR_PATH_EMPTY,	     /* the tree has no node */
	IDR_PATH_BELOW_BASE, /* the ID is below the idr's base */
	IDR_PATH_ABOVE_TOP,  /* the ID is beyond what the top covers */
	IDR_PATH_NO_CHILD,   /* an interior slot on the way is empty */
	IDR_PATH_FREE_SLOT,  /* the leaf slot (or IDA bit) is free */
	IDR_PATH_RETIRED,    /* tagged, IDR_TAG_RETIRE: used up for good */
};

/* One level of idr_path(): the node met there and the slot taken. */
struct idr_path_step {
	unsigned int level; /* 0 for a leaf */
	unsigned int shift;
	unsigned long first, last; /* the IDs the node covers */
	unsigned int slot;	   /* the ID's digit at this level */
	bool present;		   /* the slot holds a child or entry */
	bool full;		   /* no free ID below the slot */
};

/* The way down to one ID. */
struct idr_path {
	unsigned long id;    /* as asked */
	unsigned long index; /* the tree index: id - base, tag off */
	unsigned int height; /* of the tree */
	unsigned int digits; /* base-64 digits the top node needs */
	unsigned int digit[IDR_LEVELS_MAX]; /* the index's digits, top first */
	unsigned int steps;		    /* nodes met */
	struct idr_path_step step[IDR_LEVELS_MAX]; /* top first */
	enum idr_path_end end;			   /* why the walk stopped */
	void *entry; /* IDR_PATH_FOUND: the pointer */
	/* A tagged idr: the bits above id_bits, and the slot's generation. */
	unsigned int id_bits; /* 0 if the idr is not tagged */
	unsigned long tag;    /* the bits of @id above id_bits */
	uint64_t gen;	      /* the slot's current generation */
	/* An IDA: @index is the bitmap number, @bit the ID within it. */
	bool ida;
	unsigned int bit;
};

/**
 * idr_path() - Follow one ID down the tree.
 * @idr: idr handle (or ida_tree()).
 * @id: the ID (a tagged idr: a plain or tagged ID; the high bits are
 *      reported, then ignored, as idr_find() does).
 * @path: filled in.
 *
 * Return: 0 (see @path->end for what was found).
 */
IDR_API int idr_path(const struct idr *idr, unsigned long id,
		     struct idr_path *path);

/* What a tree costs, as idr_stats() counts it. */
struct idr_stats {
	unsigned long ids;     /* allocated (an IDA: bits set) */
	unsigned long retired; /* tagged, IDR_TAG_RETIRE */
	unsigned int height;
	unsigned long nodes;			   /* tree nodes */
	unsigned long level_nodes[IDR_LEVELS_MAX]; /* [0]: leaves */
	unsigned long aux_nodes; /* IDA bitmaps, tagged generations */
	unsigned long packed;	 /* nodes packed to fit their entries */
	unsigned int cached;	 /* nodes in the idr's own cache */
	unsigned int preloaded;	 /* nodes in this thread's preload */
	size_t node_bytes;	 /* the size of one node */
	size_t bytes;		 /* all nodes, cache included */
	double bytes_per_id;	 /* @bytes / @ids; 0 when empty */
	long lowest, highest;	 /* IDs; -1 when empty */
	/* An RCU idr's blocks the tree let go of, waiting for readers to
	 * leave before they are freed (not in @bytes): a burst of removals
	 * shows here until the grace period ends. */
	unsigned long rcu_pending;
	size_t rcu_pending_bytes;
};

/**
 * idr_stats() - Count a tree's nodes, bytes and IDs.
 * @idr: idr handle (or ida_tree()).
 * @stats: filled in.
 *
 * Bytes are counted as the allocator seam counts them: whole nodes, and
 * packed leaves at their size.
 * Return: 0.
 */
IDR_API int idr_stats(const struct idr *idr, struct idr_stats *stats);

/* Dump options.  All zero (or a NULL pointer) gives the defaults. */
struct idr_dump_opts {
	unsigned int max_entries; /* a leaf's entries shown; 0: 8 */
	unsigned int max_nodes;	  /* nodes shown; 0: all */
	/* Prints an entry; NULL prints "*".  Returns chars written. */
	int (*print_entry)(FILE *out, unsigned long id, void *entry,
			   void *data);
	void *data;
	unsigned int depth;	/* levels shown from the top; 0: all */
	unsigned int max_lines; /* lines at most (2 or more); 0: all */
};

/**
 * idr_dump() - Print the tree as indented text, node by node: a plain
 * debug dump.
 * @idr: idr handle (or ida_tree()).
 * @out: where to write.
 * @opts: NULL for the defaults.
 *
 * A header line (the IDs, height and nodes), then every node in ID order,
 * parent first, indented by its depth: its level, its range and its slots
 * in use, a map of its slots ('#' full, '+' in use with room below, '.'
 * free, '-' no child, 'x' retired), then a leaf's entries, up to
 * @opts->max_entries, and "(+N more)".  @opts->depth shows that many
 * levels from the top; @opts->max_nodes stops after that many nodes, and
 * @opts->max_lines after that many lines (taken as 2 if less), each
 * saying so on a last line.  Held to them, the dump costs what it shows
 * and allocates nothing.  Collapsed runs of alike siblings, a dump fitted
 * to a screen and the Graphviz picture are the Lua module's (t:dump{},
 * t:dot{}), written on the walk above.
 *
 * Return: 0, or -EIO if writing failed.
 */
IDR_API int idr_dump(const struct idr *idr, FILE *out,
		     const struct idr_dump_opts *opts);

/**
 * idr_path_print() - Explain idr_path() in words, level by level.
 * @idr: idr handle (or ida_tree()).
 * @id: the ID.
 * @out: where to write.
 *
 * Return: 0, or -EIO if writing failed.
 */
IDR_API int idr_path_print(const struct idr *idr, unsigned long id, FILE *out);

/**
 * idr_stats_print() - Print idr_stats() as "name: value" lines.
 * @idr: idr handle (or ida_tree()).
 * @out: where to write.
 *
 * With them, a bar a level: the slots in use of all that level's slots
 * (an IDA: and the bits set of its bitmaps' bits); and the tree's bytes
 * against a flat pointer array (an IDA: and a flat bitmap) of the IDs
 * from the idr's base to the highest, as a ratio ("tree / flat pointer
 * array: 1.06").  A tree that holds no ID shows "none" for the bytes per
 * ID and for the lowest and highest ID, and no flat array.
 *
 * Return: 0, or -EIO if writing failed.
 */
IDR_API int idr_stats_print(const struct idr *idr, FILE *out);

/*
 * What a trace callback is told: one event per step of an operation, in
 * the order the steps happen.  Every event has @height (the tree's, after
 * the step); the node events also say which node (@level, @first..@last)
 * and which of its slots (@slot), with the node's full bitmap after the
 * step (@full).  The glossary:
 *
 * Operations (@op: the public function's name without "idr_", as
 * "alloc", "alloc_cyclic", "find", "get_new_above"; an IDA's keep
 * "ida_": "ida_alloc_range", "ida_free")
 *   op            an operation begins; every other event of it follows.
 *                 @start, @end: the range asked for, as the caller passed
 *                 it (idr_alloc's @end is exclusive, 0 or less for none;
 *                 idr_alloc_u32's and ida_alloc_range's is the inclusive
 *                 max); @id: the ID asked about (find, remove, replace,
 *                 get_next: where it starts; idr_alloc_cyclic: the cursor;
 *                 tagged calls: the tagged ID).
 *   done          it is over: @result is the ID allocated, found, removed
 *                 or replaced (tagged calls: the tagged ID), or a negative
 *                 errno (-ENOSPC, -EAGAIN, -ENOENT, ...); idr_for_each:
 *                 what fn last returned; idr_pre_get: 0 or -ENOMEM.
 *   Each public call that looks up, hands out or gives back IDs reports
 *   one op and one done, also when it calls another public function
 *   (idr_alloc_cyclic calls idr_alloc_u32, once or twice): only the
 *   outer one is reported.  idr_preload() names no idr and reports
 *   nothing; its nodes show as preload-take later.  idr_destroy(),
 *   which ends the tree rather than changes it, idr_check(), the counts
 *   and this header's views report nothing either.
 *
 * Finding
 *   visit         a node on the way down: @slot is the one taken.  Every
 *                 search for a free ID (alloc, the 2004 API, the IDA), a
 *                 find, a removal and a search for the next entry
 *                 (get_next, for_each, the IDA's find_first and count)
 *                 report one per node they go through, once; a search
 *                 that backs up and goes right visits again.
 *   no-room       a search for a free ID read a node's full bitmap and
 *                 found no free slot at or after @slot (the digit it came
 *                 in at): it goes back up to the parent's next slot, or,
 *                 at the top, the tree must grow.
 *
 * Where nodes come from and go to (@nodes: how many; no node fields)
 *   malloc        @nodes were allocated for this operation (for
 *                 idr_pre_get(): allocated into the idr's cache).
 *   cache-take    @nodes came from the idr's cache (the 2004 API's, and
 *                 the nodes earlier removals returned).
 *   preload-take  @nodes came from this thread's idr_preload().
 *
 * Nodes joining and leaving the tree
 *   node-new      a node joined the tree at @level; @slot is the slot the
 *                 operation's ID takes inside it.
 *   attach        the node just made (or the old top, when growing) now
 *                 hangs from slot @slot of its parent, the node @level,
 *                 @first..@last; the parent's present bit for @slot is set.
 *   grow          a level was added on top: the new top (@level) holds
 *                 the old one at slot 0.  Follows node-new and attach.
 *   detach        slot @slot of the node @level no longer holds a child:
 *                 its child (all free below) is about to be freed, or is
 *                 the new top when shrinking.
 *   shrink        the top held only slot 0: it was removed and its child
 *                 (@level) is the top.  Follows detach, node-free.
 *   node-free     a node left the tree (@level, @first..@last).  The next
 *                 event says where its memory went:
 *   cache-put     the node went to the idr's cache, for a later insertion;
 *   free          the node was given back to the allocator (the cache was
 *                 full, or it was a packed node).
 *   pack          a leaf with few entries was packed into a smaller block
 *                 (or a packed one shrunk); same node, same bits.
 *
 * A tree whose first node is made reports node-new alone, at height 1 (or
 * more); a tree whose last node goes reports node-free, at height 0.
 *
 * A leaf's own extra node (@aux set; @level 0, @slot the leaf slot): a
 * tagged leaf's generation counters, made with the leaf (a second
 * node-new after the leaf's) and freed with it (node-free, then
 * cache-put or free); an IDA bitmap, made when its first ID is taken
 * (node-new after slot-set, @first..@last its IDs) and freed when its
 * last ID is (after the leaf's own events, if the leaf goes too).
 *
 * Bits (a node's bitmap of full slots: set means no free ID below)
 *   slot-set      a leaf slot now holds an entry (its present bit set);
 *                 @full is the bitmap before the full bit follows.
 *   slot-clear    a leaf slot was freed (its present bit cleared).
 *   full          leaf slot @slot's full bit was set: the slot is used.
 *   open          leaf slot @slot's full bit was cleared: the slot is free.
 *   subtree-full  interior slot @slot's full bit was set: the child's
 *                 subtree became full (its own bits are all set).
 *   subtree-open  interior slot @slot's full bit was cleared: the child's
 *                 subtree is no longer full (an ID below was freed).
 *
 * The IDA (its leaf slots hold bitmaps of IDR_SLOTS * 64 IDs)
 *   bit-set       the ID @first + @slot was taken in the bitmap that
 *                 covers @first..@last (@slot is the bit number in it;
 *                 @full says which of the bitmap's 64-bit words are full).
 *   bit-clear     the ID @first + @slot was freed in that bitmap.
 *   bitmap-full   leaf slot @slot's full bit was set: its bitmap is full.
 *   bitmap-open   leaf slot @slot's full bit was cleared: its bitmap has
 *                 a free bit again.
 *
 * Where this differs from today's kernel: its IDR marks *free* slots (the
 * IDR_FREE tag of its radix tree, which idr_get_free() follows down) where
 * this tree sets *full* bits; the events mean the same steps inverted.
 * Values are only ever added at the end: a number keeps its meaning.
 */
enum idr_trace_event {
	IDR_TRACE_VISIT,	/* a node on the way down; @slot taken */
	IDR_TRACE_NODE_NEW,	/* a node joined the tree */
	IDR_TRACE_NODE_FREE,	/* a node left the tree */
	IDR_TRACE_GROW,		/* a level was added on top */
	IDR_TRACE_SHRINK,	/* the top level was removed */
	IDR_TRACE_SLOT_SET,	/* a leaf slot now holds an entry */
	IDR_TRACE_SLOT_CLEAR,	/* a leaf slot was freed */
	IDR_TRACE_FULL,		/* leaf @slot's full bit set: slot used */
	IDR_TRACE_OPEN,		/* leaf @slot's full bit cleared: slot free */
	IDR_TRACE_CACHE_TAKE,	/* @nodes came from the idr's cache */
	IDR_TRACE_PRELOAD_TAKE, /* @nodes came from this thread's preload */
	IDR_TRACE_MALLOC,	/* @nodes came from malloc */
	IDR_TRACE_ATTACH,	/* a child now hangs at its parent's @slot */
	IDR_TRACE_DETACH,	/* the parent's @slot no longer holds it */
	IDR_TRACE_CACHE_PUT,	/* the freed node went to the idr's cache */
	IDR_TRACE_FREE,		/* the freed node went back to malloc */
	IDR_TRACE_SUBTREE_FULL, /* interior @slot's bit set: child full */
	IDR_TRACE_SUBTREE_OPEN, /* interior @slot's bit cleared: room below */
	IDR_TRACE_BITMAP_FULL,	/* IDA leaf @slot's bit set: bitmap full */
	IDR_TRACE_BITMAP_OPEN,	/* IDA leaf @slot's bit cleared: room in it */
	IDR_TRACE_BIT_SET,	/* IDA: ID @first + @slot taken */
	IDR_TRACE_BIT_CLEAR,	/* IDA: ID @first + @slot freed */
	IDR_TRACE_PACK,		/* a leaf was packed (or shrunk) */
	IDR_TRACE_NO_ROOM,	/* a node with no free slot from @slot on */
	IDR_TRACE_OP,		/* an operation begins: @op, its arguments */
	IDR_TRACE_DONE,		/* it is over: @op, @result */
};

struct idr_trace {
	enum idr_trace_event event;
	unsigned int level;	   /* of the node; 0 for a leaf */
	unsigned long first, last; /* the IDs the node covers */
	unsigned int slot;	   /* the slot concerned */
	uint64_t full;		   /* the node's full bitmap, after */
	unsigned int nodes;	   /* *_TAKE, MALLOC: how many */
	unsigned int height;	   /* the tree's, after the event */
	/* op and done only (NULL, 0 in the others): */
	const char *op;	    /* the operation: "alloc" for idr_alloc() */
	int64_t start, end; /* op: the range asked for, as passed */
	unsigned long id;   /* op: the ID asked about (find, remove...) */
	int64_t result;	    /* done: the ID concerned, or -errno */
	unsigned int aux;   /* IDR_AUX_*: a leaf's extra node, not a tree's */
};

/*
 * idr_trace.aux of node-new, node-free, cache-put and free: the node is
 * not one of the tree's but one a leaf keeps, at the leaf's @level 0 and
 * slot @slot: a tagged leaf's generation counters (@first..@last: the
 * leaf's IDs), or an IDA's bitmap (@first..@last: the bitmap's IDs).
 */
#define IDR_AUX_GENS 1u
#define IDR_AUX_BITMAP 2u

/**
 * idr_set_trace() - Report each step of later operations to a callback.
 * @idr: idr handle.
 * @fn: the callback, or NULL to stop tracing.
 * @data: passed to @fn.
 *
 * @fn runs in the middle of an operation: it must not change @idr.  With
 * no callback set, tracing costs one predictable branch per event site.
 */
IDR_API void idr_set_trace(struct idr *idr, idr_trace_fn *fn, void *data);

/** idr_trace_name() - The event's name, e.g. "node-new"; "unknown" for a
 * value that is no event. */
IDR_API const char *idr_trace_name(enum idr_trace_event event);

#if defined(__cplusplus) && defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* IDR_VIEW_H */
