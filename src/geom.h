/* SPDX-License-Identifier: MIT */
/*
 * geom.h - the tree's shape, as every file of the library sees it: bits
 * and slots per level, levels, the size of a node.  Macros and one inline
 * function of struct idr's fields; no file's interface.
 */
#ifndef IDR_GEOM_H
#define IDR_GEOM_H

#include "idr_view.h"

/*
 * Bits of the index per level; tests also build with 3 for deep trees.
 * At most 6: a node's bitmap is 64 bits.  At least 3: the smallest the
 * unit suite is built and passes with (make test's unit-b3); with 2, its
 * cases' own layouts (an ID of 4 in a later leaf than slot 4) no longer
 * hold.
 */
#ifndef IDR_BITS
#define IDR_BITS 6
#endif
#if IDR_BITS < 3 || IDR_BITS > 6
#error "IDR_BITS must be 3..6"
#endif

#define IDR_SLOTS (1u << IDR_BITS)
#define IDR__CHUNK (IDR_SLOTS * 64u) /* IDs in one IDA bitmap */
#define IDR_INDEX_MAX UINT32_MAX     /* the largest index the tree holds */

/* Levels of a tree whose indices have @bits bits. */
#define IDR__LEVELS_FOR(bits) (((bits) + IDR_BITS - 1) / IDR_BITS)
/* Levels of the tallest tree: its indices have 32 bits. */
#define IDR__LEVELS IDR__LEVELS_FOR(32)

/* A node: two bitmaps, a word of its own, and a word per slot. */
#define IDR__NODE_SIZE ((3 + IDR_SLOTS) * sizeof(uint64_t))

#define IDR__HIDDEN __attribute__((visibility("hidden")))

/* Levels of @idr's tree: 0 when it is empty. */
static inline unsigned int idr__height(const struct idr *idr)
{
	return idr->idr_rt ? idr->idr_shift / IDR_BITS + 1u : 0;
}

#endif /* IDR_GEOM_H */
