/* SPDX-License-Identifier: MIT */
/*
 * gen.h - the rules of generation-tagged IDs, in one place.
 *
 * A tagged idr limits IDs to id_bits bits; a tag is the slot's
 * generation, modulo 2^(31 - id_bits), above them.  Each slot's counter
 * is the generation its next occupant gets: it advances when the ID is
 * freed, and never wraps.  With IDR_TAG_RETIRE a slot whose counter
 * reaches the limit is retired for good.  tree.c keeps the counters (a
 * second node hung off each tagged leaf; a tagged idr keeps its leaves,
 * emptied or not, until idr_destroy()) and applies the two rules below
 * that concern whole leaves; tag.c applies the rest.
 */
#ifndef IDR_GEN_H
#define IDR_GEN_H

#include "geom.h"

static inline bool idr__tagged(const struct idr *idr)
{
	return idr->idr_id_bits != 0;
}

static inline bool idr__retiring(const struct idr *idr)
{
	return idr->idr_flags & IDR_TAG_RETIRE;
}

/* One past the last generation a tag can show. */
static inline uint64_t idr__gen_limit(const struct idr *idr)
{
	return (uint64_t)1 << (31 - idr->idr_id_bits);
}

/* The largest ID @idr may hand out: 2^id_bits - 1 when tagged. */
static inline uint64_t idr__id_max(const struct idr *idr)
{
	if (idr__tagged(idr))
		return ((uint64_t)1 << idr->idr_id_bits) - 1;
	return UINT32_MAX;
}

/*
 * A tagged leaf freed by idr_destroy() hands the generation @gen of each
 * slot on to the leaves to come (through the seed a new leaf's counters
 * start from).  With IDR_TAG_RETIRE generations never wrap, so a seed
 * past every one of them keeps every old tag stale; and a slot that has
 * shown its last generation raises the seed to the limit: which IDs are
 * used up is forgotten with the leaf, so from then on every ID a new
 * leaf would hold counts as retired (see idr__worn_out()).  Wrapping
 * generations are kept exactly only while the leaves are (see idr.h).
 */
static inline void idr__gen_pass_on(struct idr *idr, uint64_t gen)
{
	if (idr__retiring(idr) && gen > idr__gen_limit(idr))
		gen = idr__gen_limit(idr);
	/* An RCU reader's idr_find_tagged() may read it (tag.c). */
	if (gen > idr->idr_gen_seed)
		__atomic_store_n(&idr->idr_gen_seed, gen, __ATOMIC_RELAXED);
}

/* New leaves would be born retired: only slots of existing leaves are free. */
static inline bool idr__worn_out(const struct idr *idr)
{
	return idr__tagged(idr) && idr__retiring(idr) &&
	       idr->idr_gen_seed >= idr__gen_limit(idr);
}

#endif /* IDR_GEN_H */
