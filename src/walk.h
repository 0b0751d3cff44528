/* SPDX-License-Identifier: MIT */
/* walk.h - what walk.c gives the rest of the library besides idr_view.h. */
#ifndef IDR_WALK_H
#define IDR_WALK_H

#include "geom.h"

/* Fill @views with the nodes on @index's path, top first; how many. */
IDR__HIDDEN unsigned int idr__path_views(const struct idr *idr, uint64_t index,
					 struct idr_view *views);
/* The bytes the node behind @view takes. */
IDR__HIDDEN size_t idr__view_size(const struct idr_view *view);

#endif /* IDR_WALK_H */
