/* SPDX-License-Identifier: MIT */
/*
 * trace.c - trace events, the bottom of the library: tree.c, nodes.c and
 * ida.c report through here, and it calls nothing of theirs.  An event
 * goes to the idr's callback at once; the "op" and "done" events frame a
 * public call's, and a call made inside another is part of it.
 */
#include "node.h"
#include "trace.h"

void idr__range(const struct idr *idr, uint64_t first, uint64_t n,
		unsigned long *lo, unsigned long *hi)
{
	if (idr->idr_flags & IDR__IDA) {
		*lo = (unsigned long)(first * IDR__CHUNK);
		*hi = (unsigned long)((first + n) * IDR__CHUNK - 1);
	} else {
		*lo = (unsigned long)(first + idr->idr_base);
		*hi = (unsigned long)(first + n - 1 + idr->idr_base);
	}
}

void idr__trace_at(const struct idr *idr, enum idr_trace_event event,
		   uint64_t index, unsigned int shift, unsigned int slot,
		   uint64_t full)
{
	struct idr_trace ev = { .event = event,
				.level = shift / IDR_BITS,
				.slot = slot,
				.full = full,
				.height = idr__height(idr) };
	uint64_t span = capacity(shift);

	idr__range(idr, index / span * span, span, &ev.first, &ev.last);
	idr__emit(idr, &ev);
}

void idr__trace_bit(const struct idr *idr, enum idr_trace_event event,
		    uint64_t chunk, unsigned int n, uint64_t words_full)
{
	struct idr_trace ev = { .event = event,
				.slot = n,
				.full = words_full,
				.height = idr__height(idr) };

	idr__range(idr, chunk, 1, &ev.first, &ev.last);
	idr__emit(idr, &ev);
}

void idr__trace_node(const struct idr *idr, enum idr_trace_event event,
		     uint64_t index, unsigned int aux)
{
	struct idr_trace ev = { .event = event,
				.slot = digit(index, 0),
				.height = idr__height(idr),
				.aux = aux };

	if (aux == IDR_AUX_BITMAP)
		idr__range(idr, index, 1, &ev.first, &ev.last);
	else
		idr__range(idr, index & ~(uint64_t)SLOT_MASK, IDR_SLOTS,
			   &ev.first, &ev.last);
	idr__emit(idr, &ev);
}

/*
 * The operation being reported in this thread, and its idr: a public
 * function that another calls reports no op of its own.  Cleared while
 * the callback runs, so that what it does to another idr is reported
 * there in full.
 */
struct op_state {
	const struct idr *idr;
	const char *op;
};

static _Thread_local struct op_state current;

void idr__emit(const struct idr *idr, struct idr_trace *ev)
{
	struct op_state saved = current;

	current.idr = NULL;
	idr->idr_trace(idr, ev, idr->idr_trace_data);
	current = saved;
}

bool idr__op_begin(const struct idr *idr, const char *op, int64_t start,
		   int64_t end, unsigned long id)
{
	struct idr_trace ev = { .event = IDR_TRACE_OP,
				.height = idr__height(idr),
				.op = op,
				.start = start,
				.end = end,
				.id = id };

	if (current.idr == idr)
		return false;
	idr__emit(idr, &ev);
	current.idr = idr;
	current.op = op;
	return true;
}

void idr__op_done(const struct idr *idr, int64_t result)
{
	struct idr_trace ev = { .event = IDR_TRACE_DONE,
				.height = idr__height(idr),
				.op = current.op,
				.result = result };

	current.idr = NULL;
	if (idr->idr_trace)
		idr__emit(idr, &ev);
}
