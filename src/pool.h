/* SPDX-License-Identifier: MIT */
/*
 * pool.h - cells of 16 bytes from pages of 4 KiB (pool.c), for the
 * default allocator's smallest blocks.
 */
#ifndef IDR_POOL_H
#define IDR_POOL_H

#include <stdbool.h>
#include <stddef.h>

#include "geom.h"

/* The largest block a cell holds; the cells of a page, after its
 * header of 32 bytes. */
#define IDR__POOL_CELL 16u
#define IDR__POOL_PAGE 4096u
#define IDR__POOL_CELLS ((IDR__POOL_PAGE - 32) / IDR__POOL_CELL)

/* A cell; NULL when none is free and @grow is false (or malloc failed
 * for a new page). */
IDR__HIDDEN void *idr__pool_take(bool grow);
IDR__HIDDEN void idr__pool_give(void *cell);
/* The pages the pool holds and the cells it has handed out. */
IDR__HIDDEN void idr__pool_count(size_t *pages, size_t *cells);

#endif /* IDR_POOL_H */
