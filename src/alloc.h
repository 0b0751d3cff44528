/* SPDX-License-Identifier: MIT */
/*
 * alloc.h - the allocator seam (alloc.c): every byte the library takes
 * or gives back passes here, to the allocator idr_set_allocator() set.
 */
#ifndef IDR_ALLOC_H
#define IDR_ALLOC_H

#include "geom.h"

IDR__HIDDEN void *idr__malloc(size_t size);
IDR__HIDDEN void idr__free(void *ptr, size_t size);
/* Shrink a block to @new_size with the allocator's realloc; NULL (the
 * block unchanged) on failure.  It only gives memory back. */
IDR__HIDDEN void *idr__shrink(void *ptr, size_t size, size_t new_size);

#endif /* IDR_ALLOC_H */
