/* SPDX-License-Identifier: MIT */
/* tag.h - what tag.c's tagged-ID rules give today's API (idr.c) and the
 * views (view.c). */
#ifndef IDR_TAG_H
#define IDR_TAG_H

#include "geom.h"

/* A tagged idr's removal: the generation advances, or the slot retires;
 * *@gone says whether there was an ID to remove. */
IDR__HIDDEN void *idr__tag_remove(struct idr *idr, uint64_t index, bool *gone);
/* Whether @index's slot is retired for good. */
IDR__HIDDEN bool idr__tag_retired(const struct idr *idr, uint64_t index);
/* The tagged ID of the present @index: its generation above its ID. */
IDR__HIDDEN int idr__tag_of(const struct idr *idr, uint64_t index);

#endif /* IDR_TAG_H */
