/* SPDX-License-Identifier: MIT */
/*
 * bench.h - what the benchmark's implementations and scenarios share.
 *
 * Each implementation (impl_*.c) defines a few static inline functions
 * under a prefix and includes map.h or set.h, which turn them into the
 * timed scenarios.  The loops are compiled once per implementation, so
 * every call in them is direct: the flat array is inlined, as the
 * physical limit should be, and the idr and Judy are plain calls into
 * their own code, as a user's program would make them.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The scenarios of an ID -> pointer map (idr, JudyL, flat array). */
enum map_scen {
	S_ALLOC,       /* lowest-free allocation of N IDs */
	S_FIND,	       /* find, in random order */
	S_ITER,	       /* every entry, in ID order */
	S_REMOVE,      /* remove, in random order */
	S_REFILL,      /* lowest-free after removing a random half */
	S_CYCLIC,      /* cyclic alloc + remove oldest (one op = both) */
	S_SPARSE,      /* insert at N random IDs in [0, 2^31) */
	S_SPARSE_FIND, /* find those, in random order */
	S_CHURN,       /* alloc + remove at n live IDs: the slowest n */
	S_PID,	       /* cyclic alloc + remove a random live ID, big range */
	S_MIXED,       /* 8 finds, alloc, remove: ns per one of the 10 */
	MAP_SCENS
};

/*
 * Churn: n IDs live (0 .. n-1), then pairs of alloc (ID n) and remove,
 * at every n from an empty tree to one full idr leaf.  One op = one pair, after one to
 * settle; mallocs per pair as the implementation counts them.
 */
#define CHURN_MAX 64
struct churn {
	double ns[CHURN_MAX + 1];      /* by n */
	double mallocs[CHURN_MAX + 1]; /* NAN: it cannot tell */
};

/* Memory at some occupancy: bytes per live ID; M_PID after S_PID's run. */
enum map_mem { M_100, M_50, M_10, M_SPARSE, M_SPARSE_TENTH, M_PID, MAP_MEMS };

/*
 * The PID allocator (S_PID): cyclic allocation in [PID_START, PID_END),
 * Linux's lowest PID after a wrap and its largest pid_max, with
 * PID_LIVE IDs live; each step allocates one and removes a random live
 * one, so lifetimes are random (mean PID_LIVE steps) and the live IDs
 * trail the cursor thinly.  PID_SWEEPS times round the whole range.
 */
#define PID_START 300
#define PID_END (1ul << 22)
#define PID_LIVE 1000
#define PID_SWEEPS 2

/* The scenarios of an ID set (IDA, Judy1, flat bitmap). */
enum set_scen { T_ALLOC, T_FREE, T_REFILL, SET_SCENS };

struct workload {
	unsigned long n;
	const unsigned int *order;  /* 0 .. n-1, shuffled */
	const unsigned int *half;   /* order[0 .. n/2), sorted */
	const unsigned int *sparse; /* n distinct IDs below 2^31 */
	unsigned long window;	    /* cyclic: live IDs */
	unsigned long range;	    /* cyclic: IDs wrap here */
	unsigned long pid_steps;    /* S_PID's steps */
};

struct mem {
	double reported; /* by the implementation itself */
	double heap;	 /* by glibc's heap counters */
};

struct map_impl {
	const char *name;
	void (*run)(const struct workload *w, double ns[MAP_SCENS],
		    struct churn *churn);
	void (*mem)(const struct workload *w, struct mem m[MAP_MEMS]);
	/* alloc, find, iterate and remove alone (the minimums' rounds) */
	void (*dense)(const struct workload *w, double ns[MAP_SCENS]);
};

struct set_impl {
	const char *name;
	void (*run)(const struct workload *w, double ns[SET_SCENS]);
	void (*mem)(const struct workload *w, struct mem *dense);
};

/* The pointer stored at @id: never NULL, never dereferenced. */
static inline void *val(unsigned long id)
{
	return (void *)(uintptr_t)((id + 1) * 8);
}

/* splitmix64: the same sequence from the same seed, in every impl. */
static inline uint64_t bench_rng(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* A random number below @n (< 2^32) from one draw, without a division. */
static inline unsigned long bench_below(uint64_t *state, unsigned long n)
{
	return (unsigned long)(((bench_rng(state) >> 32) * n) >> 32);
}

double bench_now(void);

/* Nanoseconds per operation since @t0 (bench_now()). */
static inline double bench_per(double t0, unsigned long ops)
{
	return (bench_now() - t0) / (double)(ops ? ops : 1);
}
size_t bench_heap(void);
_Noreturn void bench_fail(const char *impl, const char *scen, unsigned long i,
			  const char *what);

#define CAT_(a, b) a##_##b
#define CAT(a, b) CAT_(a, b)

extern const struct map_impl idr_impl, judyl_impl, judyl_hint_impl, flat_impl,
	kernel_impl;
extern const struct set_impl ida_impl, judy1_impl, judy1_hint_impl, bitmap_impl;
#ifdef BENCH_KERNEL
extern const struct set_impl kernel_ida_impl;
#endif

#endif /* BENCH_H */
