/* SPDX-License-Identifier: MIT */
/*
 * walk.c - a program built with the installed headers alone
 * (tests/build.bats, against make install DESTDIR=...): it walks every
 * node of a four-level tree with the cursor of <idr_view.h>, one child at
 * a time, then again with a budget of three nodes, and prints what it
 * met beside what idr_walk() and idr_stats() say.  4100, 70000 and
 * 300000 (with 300001), each alone in its level-1 range, are in keyed
 * blocks: each a view, and a run of keys as a leaf's view that is no
 * node of its own.
 */
#include <idr_view.h>
#include <stdio.h>

static const unsigned long ids[] = { 0, 5, 4100, 70000, 300000, 300001 };

/* A leaf's view of a keyed block's run of keys: no node of its own. */
static unsigned long is_run(const struct idr_view *v)
{
	return v->keyed && !v->level;
}

/* Depth first, parent before children; stops after @budget views. */
static unsigned long cursor_walk(const struct idr *idr, unsigned long budget,
				 unsigned long *leaves, unsigned long *runs)
{
	struct idr_view stack[IDR_LEVELS_MAX];
	unsigned int next[IDR_LEVELS_MAX];
	unsigned long seen = 0;
	unsigned int depth = 0;

	if (!idr_view_top(idr, &stack[0]))
		return 0;
	next[0] = 0;
	seen++;
	*leaves += !stack[0].level;
	while (seen < budget) {
		struct idr_view *v = &stack[depth];

		if (idr_view_next_child(idr, v, &next[depth],
					&stack[depth + 1])) {
			next[depth]++;
			next[++depth] = 0;
			seen++;
			*leaves += !stack[depth].level;
			*runs += is_run(&stack[depth]);
		} else if (depth-- == 0) {
			break;
		}
	}
	return seen;
}

static int count(const struct idr_view *view, void *data)
{
	(void)view;
	++*(unsigned long *)data;
	return 0;
}

int main(void)
{
	DEFINE_IDR(idr);
	struct idr_stats st;
	struct idr_info info;
	unsigned long walked = 0, leaves = 0, runs = 0, all, some, spare = 0;
	size_t i;

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		uint32_t id = (uint32_t)ids[i];

		if (idr_alloc_u32(&idr, &idr, &id, id, GFP_KERNEL))
			return 1;
	}
	idr_info(&idr, &info);
	idr_stats(&idr, &st);
	idr_walk(&idr, count, &walked);
	all = cursor_walk(&idr, (unsigned long)-1, &leaves, &runs);
	some = cursor_walk(&idr, 3, &spare, &spare);
	printf("height %u: cursor %lu views, %lu leaves (%lu a keyed run); "
	       "idr_walk %lu; idr_stats %lu nodes, %lu leaves; budget 3: %lu\n",
	       info.height, all, leaves, runs, walked, st.nodes,
	       st.level_nodes[0], some);
	idr_destroy(&idr);
	return 0;
}
