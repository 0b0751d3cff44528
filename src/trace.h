/* SPDX-License-Identifier: MIT */
/*
 * trace.h - trace events (trace.c), at the bottom of the library: every
 * other file may report through it, and it calls none of them.
 */
#ifndef IDR_TRACE_H
#define IDR_TRACE_H

#include "geom.h"

/*
 * Whether to report events: one branch, read once so that a loop tests a
 * register.  IDR_NO_TRACE makes it false at compile time, and with it
 * every check of the library, so that make bench can show what the
 * branches cost.
 */
static inline bool idr__tracing(const struct idr *idr)
{
#ifdef IDR_NO_TRACE
	(void)idr;
	return false;
#else
	return __builtin_expect(idr->idr_trace != NULL, 0);
#endif
}

/* Report node-new, node-free, cache-put or free (@event) for a node a
 * leaf keeps at @index: its generations, or the IDA bitmap (IDR_AUX_*). */
IDR__HIDDEN void idr__trace_node(const struct idr *idr,
				 enum idr_trace_event event, uint64_t index,
				 unsigned int aux);

/* Report @event (bit-set, bit-clear) for bit @n of IDA bitmap @chunk. */
IDR__HIDDEN void idr__trace_bit(const struct idr *idr,
				enum idr_trace_event event, uint64_t chunk,
				unsigned int n, uint64_t words_full);

/*
 * The "op" event of public operation @op (@start, @end: the range asked
 * for; @id: the ID asked about), unless one is under way on @idr in this
 * thread (a public function calling another): true if it was reported,
 * and so the "done" event must follow.
 */
IDR__HIDDEN bool idr__op_begin(const struct idr *idr, const char *op,
			       int64_t start, int64_t end, unsigned long id);
/* The "done" event of the operation idr__op_begin() reported. */
IDR__HIDDEN void idr__op_done(const struct idr *idr, int64_t result);

/* Begin an operation: off, one predictable branch. */
static inline bool idr__op(const struct idr *idr, const char *op, int64_t start,
			   int64_t end, unsigned long id)
{
	return idr__tracing(idr) && idr__op_begin(idr, op, start, end, id);
}

/* End it: @result (the ID concerned, or -errno) when @op began it. */
static inline int64_t idr__done(const struct idr *idr, bool op, int64_t result)
{
	if (__builtin_expect(op, 0))
		idr__op_done(idr, result);
	return result;
}

/* Hand @ev to @idr's trace callback (set). */
IDR__HIDDEN void idr__emit(const struct idr *idr, struct idr_trace *ev);

/* Report @event at the node at @shift that holds @index (its @slot, its
 * @full bitmap).  Cold and out of line: the hot paths only test
 * idr__tracing(). */
__attribute__((cold, noinline)) IDR__HIDDEN void
idr__trace_at(const struct idr *idr, enum idr_trace_event event, uint64_t index,
	      unsigned int shift, unsigned int slot, uint64_t full);

/* The IDs from tree index @first on, for @n indices (an IDA's: bitmaps). */
IDR__HIDDEN void idr__range(const struct idr *idr, uint64_t first, uint64_t n,
			    unsigned long *lo, unsigned long *hi);

#endif /* IDR_TRACE_H */
