/* SPDX-License-Identifier: MIT */
/*
 * model.h - a trivially correct idr: sorted arrays of IDs and values,
 * written from the documented contract and sharing no code with src/.
 * The differential and fault-injection tests hold the library to it; an
 * IDA is the same model with NULL values (model_ida_*).
 */
#ifndef IDR_MODEL_H
#define IDR_MODEL_H

#include <stdint.h>

#include "idr.h"

struct model {
	uint32_t *ids; /* ascending */
	void **vals;
	size_t n, cap;
	uint32_t base;
	uint32_t next; /* the cyclic cursor */
};

void model_init(struct model *m, uint32_t base);
void model_free(struct model *m);
int model_alloc_u32(struct model *m, void *ptr, uint32_t *nextid,
		    unsigned long max);
int model_alloc(struct model *m, void *ptr, int start, int end);
int model_alloc_cyclic(struct model *m, void *ptr, int start, int end);
/* Whether @id is allocated; its value in *@val. */
bool model_find(const struct model *m, unsigned long id, void **val);
bool model_remove(struct model *m, unsigned long id, void **val);
/* The first non-NULL entry at or above *@id. */
void *model_next(const struct model *m, unsigned long *id);
/* Whether @idr holds exactly what @m holds. */
bool model_matches(const struct model *m, const struct idr *idr);
/* The lowest ID in [@lo, @hi] that @m lacks, or -1. */
int64_t model_lowest_free(const struct model *m, uint64_t lo, uint64_t hi);
bool model_has(const struct model *m, unsigned long id);

/* The IDA's calls, on a model of NULL values; as ida_alloc_range(),
 * ida_free() and ida_find_first_range() return. */
int model_ida_alloc(struct model *m, unsigned int min, unsigned int max);
int model_ida_free(struct model *m, unsigned int id);
int model_ida_first(const struct model *m, unsigned int min, unsigned int max);
/* Whether @ida holds exactly the IDs of @m. */
bool model_ida_matches(const struct model *m, const struct ida *ida);

/* What "the idr is unchanged" compares: IDs, entries, shape and cache. */
struct idr_snap {
	unsigned long count;
	unsigned long sum; /* a hash of every (id, entry) */
	unsigned int height;
	unsigned int cached;
	bool empty;
};

struct idr_snap idr_snap_of(const struct idr *idr);
bool idr_snap_same(const struct idr *idr, struct idr_snap was);
#define CHECK_UNCHANGED(idr, was) CHECK(idr_snap_same((idr), (was)))

/*
 * Allocate the lowest free IDs until the leaf holding ID 0, packed, has
 * no room left (the room a removal leaves it is pack.c's policy): the
 * next insertion there must unpack it.  Each ID holds @value(ID).  How
 * many were allocated.
 */
unsigned int fill_packed_room(struct idr *idr, void *(*value)(unsigned long));

/* How many allocations @run (as below) makes when none fails. */
unsigned long allocs_of(unsigned long (*run)(unsigned long skip,
					     unsigned long count));

/*
 * Fail each allocation of a scenario in turn, then every one from the
 * first and from the middle on.  @run(skip, count) runs the scenario with
 * seam_fault_inject(skip, count) and returns how many calls said -ENOMEM;
 * each single failure must give exactly one.  Prints "# @what: ...".
 */
void fault_each_allocation_of(const char *what,
			      unsigned long (*run)(unsigned long skip,
						   unsigned long count));

/* A small deterministic generator (splitmix64). */
uint64_t rnd_next(uint64_t *state);
uint64_t rnd_below(uint64_t *state, uint64_t n);

#endif
