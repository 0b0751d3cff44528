/* SPDX-License-Identifier: MIT */
/* view.h - what view.c shares with dump.c. */
#ifndef IDR_VIEW_H
#define IDR_VIEW_H

#include "geom.h"

/* Whether @slot of @leaf (a tagged idr's) is retired for good. */
IDR__HIDDEN bool idr__view_retired(
	const struct idr *idr, const struct idr_view *leaf, unsigned int slot);

#endif /* IDR_VIEW_H */
