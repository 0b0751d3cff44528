/* SPDX-License-Identifier: MIT */
/*
 * bitmap.h - a fixed-capacity two-level bitmap of free IDs: one bit per
 * ID (1: free) and a summary bit per 64-bit word (1: the word has a free
 * bit).  The flat map and the flat IDA peer use it; nothing grows.
 */
#ifndef BENCH_BITMAP_H
#define BENCH_BITMAP_H

#include <stdint.h>
#include <stdlib.h>

struct bits {
	uint64_t *w;   /* 1: the ID is free */
	uint64_t *sum; /* 1: that word of @w has a free bit */
	unsigned long cap, nw, ns;
	unsigned long lo; /* no free bit in w[0 .. lo) */
};

static inline uint64_t bit(unsigned long i)
{
	return (uint64_t)1 << (i % 64);
}

/* Every ID below @cap free; bits past @cap stay 0 so none is found. */
static inline void bits_init(struct bits *b, unsigned long cap)
{
	unsigned long i;

	b->cap = cap;
	b->nw = (cap + 63) / 64;
	b->ns = (b->nw + 63) / 64;
	b->lo = 0;
	b->w = calloc(b->nw + b->ns, sizeof(uint64_t));
	if (!b->w)
		abort();
	b->sum = b->w + b->nw;
	for (i = 0; i < cap; i++)
		b->w[i / 64] |= bit(i);
	for (i = 0; i < b->nw; i++)
		b->sum[i / 64] |= bit(i);
}

static inline void bits_fini(struct bits *b)
{
	free(b->w);
}

static inline size_t bits_bytes(const struct bits *b)
{
	return (b->nw + b->ns) * sizeof(uint64_t);
}

static inline int bits_used(const struct bits *b, unsigned long id)
{
	return id < b->cap && !(b->w[id / 64] & bit(id));
}

static inline void bits_take(struct bits *b, unsigned long id)
{
	unsigned long w = id / 64;

	b->w[w] &= ~bit(id);
	if (!b->w[w])
		b->sum[w / 64] &= ~bit(w);
}

static inline void bits_give(struct bits *b, unsigned long id)
{
	unsigned long w = id / 64;

	b->w[w] |= bit(id);
	b->sum[w / 64] |= bit(w);
	if (w < b->lo)
		b->lo = w;
}

/* The first word with a free bit at or after word @w, or -1. */
static inline long bits_word(const struct bits *b, unsigned long w)
{
	unsigned long s = w / 64;
	uint64_t m;

	if (s >= b->ns)
		return -1;
	m = b->sum[s] & (~(uint64_t)0 << (w % 64));
	while (!m && ++s < b->ns)
		m = b->sum[s];
	return m ? (long)(s * 64 + (unsigned long)__builtin_ctzll(m)) : -1;
}

/*
 * The first free ID at or above @from, or -1.  A search from below the
 * low-water mark starts there and moves it up, so that dense lowest-free
 * allocation does not rescan the full words below.
 */
static inline long bits_first(struct bits *b, unsigned long from)
{
	int low = from <= b->lo * 64;
	unsigned long w;
	uint64_t m;
	long nw;

	if (low)
		from = b->lo * 64;
	if (from >= b->cap)
		return -1;
	w = from / 64;
	m = b->w[w] & (~(uint64_t)0 << (from % 64));
	if (!m) {
		nw = bits_word(b, w + 1);
		if (nw < 0)
			return -1;
		w = (unsigned long)nw;
		m = b->w[w];
	}
	if (low)
		b->lo = w;
	return (long)(w * 64 + (unsigned long)__builtin_ctzll(m));
}

#endif /* BENCH_BITMAP_H */
