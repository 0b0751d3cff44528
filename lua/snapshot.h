/* SPDX-License-Identifier: MIT */
/*
 * snapshot.h - t:mark()'s snapshot (lua/snapshot.c) and t:diff()'s
 * comparison (lua/snapshot_diff.c), written in C for lua/view/diff.lua,
 * which words what they find: what the two files share.
 *
 * A mark is a userdata:
 *
 *   struct mark | node, node, ... (walk order) | run, run, ... (varints)
 *   user value 1: { value of run 1, value of run 2, ... }
 *
 * Each node, parent before children in ID order, as idr_walk() visits
 * them, is a flags byte and its bitmaps: present, full (unless the flags
 * say it equals present, or 0), then, entries kept, an idr leaf's entries
 * bitmap (unless every slot in use has one) or an IDA leaf's bitmaps.  No
 * node stores its level or first ID: its parent's present bitmap says
 * which children follow, and the header the width of a node at each
 * level.  A bitmap of at most FEW_BITS bits is its count and slot
 * numbers, else its count and 8 bytes: a sparse leaf takes 3 bytes.
 *
 * The values are the idr's own (a mark holds references, as the idr's
 * table does, not copies), one per run of consecutive entries whose
 * values are raw-equal, with the runs' lengths after the nodes.  A value
 * "changed" when the ID now holds a value not raw-equal to the one it held
 * (lua_rawequal: no __eq runs mid-walk).
 *
 * lidr.c's rule of re-entry holds: the walks make no Lua allocation (they
 * read tables and compare raw, which allocate nothing), so no finalizer
 * runs while a view of the tree is held.  What they fill is made before
 * them, or kept in C until the walk is over.
 */
#ifndef LIDR_SNAPSHOT_H
#define LIDR_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

#include "lidr.h"

#define MARK_MT "idr.mark"

/* A node's flags: its full bitmap is its present one, or 0; an idr leaf's
 * every slot in use holds an ID (none is retired); a keyed block, or one
 * of its runs of keys (no node: idr_stats() counts none). */
#define FULL_SAME 0x01u
#define FULL_NONE 0x02u
#define ENTRIES_SAME 0x04u
#define KEYED 0x08u

/* An IDA leaf slot's bitmap: all its bits set, or its bytes follow. */
#define MAP_BYTES 0u
#define MAP_ALL 1u

/* A bitmap of at most this many bits is written as its slot numbers. */
#define FEW_BITS 8

struct mark {
	lua_Integer tree;	 /* diff.lua's number for the tree */
	lua_Integer count;	 /* its IDs then, as t:count() */
	lua_Integer max_entries; /* entries kept up to this many */
	lua_Integer entries;	 /* an idr's entries, an IDA's IDs */
	lua_Integer nodes;
	bool ida;
	bool kept; /* the entries (and values) are kept */
	unsigned int height, slots, chunk;
	size_t runs;	/* values kept */
	size_t size;	/* bytes of data[] */
	size_t runs_at; /* where in data[] the runs' lengths begin */
	uint64_t first; /* the top node's first ID */
	uint64_t width[IDR_LEVELS_MAX]; /* last - first of a node, a level */
	unsigned char data[];
};

/* Bytes written, in C memory, growing as they come. */
struct out {
	unsigned char *p;
	size_t n, cap;
	bool nomem;
};

struct change;

struct changes {
	struct change *v;
	size_t n, cap;
};

/* C memory a function holds while it may raise: freed by __gc. */
struct scratch {
	struct out nodes, runs;			 /* a mark's, while marking */
	struct changes node_changes, id_changes; /* a diff's */
};

#pragma GCC visibility push(hidden)

/* The tree at index 1, and its values table at 5 (nil for an IDA). */
const struct idr *lidr_snapshot_tree(lua_State *L);

/* An idr leaf's slots that hold an ID, reserved ones (a nil value)
 * included: the slots in use, less a tagged idr's retired ones. */
uint64_t lidr_snapshot_entries(const struct idr *tree,
			       const struct idr_view *v);

/* A scratch, pushed; and its C memory freed (its __gc does it too). */
struct scratch *lidr_snapshot_scratch(lua_State *L);
void lidr_snapshot_clear(struct scratch *s);

/* S.compare: see lua/snapshot_diff.c. */
int lidr_snapshot_compare(lua_State *L);

static inline unsigned int lidr_snapshot_ctz(uint64_t x)
{
	return (unsigned int)__builtin_ctzll(x);
}

#pragma GCC visibility pop

#endif /* LIDR_SNAPSHOT_H */
