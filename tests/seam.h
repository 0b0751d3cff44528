/* SPDX-License-Identifier: MIT */
/*
 * seam.h - the tests' allocator, set on the library's seam
 * (idr_set_allocator()) before main() runs: the library's default
 * allocator (pool cells and malloc(3)), counting allocations and bytes
 * and failing the allocations it is told to.
 * Linked into the unit tests, the soak, the fuzz targets on the C API
 * and the benchmarks.
 */
#ifndef IDR_TESTS_SEAM_H
#define IDR_TESTS_SEAM_H

#include <stdbool.h>
#include <stddef.h>

#include "idr.h"

struct seam_mem_stats {
	size_t bytes;	      /* in use now */
	unsigned long allocs; /* successful allocations so far */
	unsigned long frees;  /* frees so far */
	unsigned long failed; /* allocations refused by fault injection */
	unsigned long thread_allocs;   /* allocations by the calling thread */
	unsigned long thread_reallocs; /* its calls of realloc */
};

/* The counters, all threads together (thread_allocs: this one's). */
void seam_mem_stats(struct seam_mem_stats *stats);

/* The allocator the seam wraps: the library's default. */
void seam_default(struct idr_allocator *a);

/* Let @skip allocations succeed, then fail @count (0: none fail). */
void seam_fault_inject(unsigned long skip, unsigned long count);

/* While held (per thread), allocations are counted but neither refused
 * nor counted towards the skip. */
void seam_fault_hold(bool hold);

#endif /* IDR_TESTS_SEAM_H */
