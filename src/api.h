/* SPDX-License-Identifier: MIT */
/* api.h - what idr.c shares with the 2004 API (legacy.c). */
#ifndef IDR_API_H
#define IDR_API_H

#include "nodes.h"

/* Allocate the lowest free ID in [@start, @max], with nodes from @supply
 * (IDR__CACHED_NODES: -EAGAIN when the cache runs short). */
IDR__HIDDEN int idr__alloc_id(struct idr *idr, void *ptr, uint64_t start,
			      uint64_t max, enum idr__supply supply,
			      uint64_t *id);

#endif /* IDR_API_H */
