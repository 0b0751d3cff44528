/* SPDX-License-Identifier: MIT */
/*
 * alloc.h - the allocator seam (alloc.c): every byte the library takes
 * or gives back passes here, so that tests can count and fail them.
 */
#ifndef IDR_ALLOC_H
#define IDR_ALLOC_H

#include "geom.h"

IDR__HIDDEN void *idr__malloc(size_t size);
IDR__HIDDEN void idr__free(void *ptr, size_t size);
/* Shrink a block to @new_size; NULL (the block unchanged) on failure.
 * Neither an allocation nor fault-injected: it only gives memory back. */
IDR__HIDDEN void *idr__shrink(void *ptr, size_t size, size_t new_size);
/* While held (per thread), allocations are counted but never refused
 * nor counted towards the skip: the Lua binding holds it while a view
 * renders, so that fault injection is spent on tree operations only. */
IDR__HIDDEN void idr__fault_hold(bool hold);

#endif /* IDR_ALLOC_H */
