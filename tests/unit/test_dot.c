/* SPDX-License-Identifier: MIT */
/*
 * test_dot.c - the Graphviz picture: a small tree's DOT compared byte for
 * byte with tests/golden/dot-small.dot, the way to an ID and the cells an
 * operation changed marked, and large trees held to a picture a person
 * can view.  DOT files are left in build/dot/ for tests/views.bats to
 * render and measure.  UPDATE_GOLDEN=1 rewrites the golden file.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "idr_view.h"
#include "seam.h"
#include "tree.h"

static char value[] = "v";

/* Whether the node named at @name (up to a port or a space) is declared. */
static bool declared(const char *text, const char *name)
{
	char decl[64];
	size_t n = strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_");

	if (n == 0 || n + 4 > sizeof(decl))
		return false;
	decl[0] = '\t';
	memcpy(decl + 1, name, n);
	memcpy(decl + 1 + n, " [", 3);
	return strstr(text, decl) != NULL;
}

/* Every edge joins two declared nodes: a misnamed one would be drawn by
 * Graphviz as a stray box of its own. */
static void edges_declared(const char *text)
{
	const char *p;

	for (p = text; (p = strstr(p, " -> ")) != NULL; p++) {
		const char *from = p;

		while (from > text && from[-1] != '\t')
			from--;
		if (!CHECK(declared(text, from)) ||
		    !CHECK(declared(text, p + 4))) {
			fprintf(stderr, "edge: %.60s\n", from);
			return;
		}
	}
}

/* The DOT of @idr with @opts, as a string to free; its edges checked. */
static char *dot_of(const struct idr *idr, const struct idr_dump_opts *opts)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	CHECK_EQ(idr_dump_dot(idr, mem, opts), 0);
	fclose(mem);
	if (text)
		edges_declared(text);
	return text;
}

static unsigned long count(const char *text, const char *s)
{
	unsigned long n = 0;
	const char *p;

	for (p = text; (p = strstr(p, s)) != NULL; p++)
		n++;
	return n;
}

/* Leave @text in build/dot/@name.dot for tests/views.bats. */
static void leave(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	/* The 3-bit build's pictures would overwrite the shipped ones. */
	if (IDR_BITS != 6)
		return;
	mkdir("build", 0777);
	mkdir("build/dot", 0777);
	snprintf(path, sizeof(path), "build/dot/%s.dot", name);
	f = fopen(path, "w");
	if (CHECK(f != NULL)) {
		fputs(text, f);
		fclose(f);
	}
}

/* Trace events of one operation, kept for idr_dump_dot()'s @changed. */
struct events {
	struct idr_trace ev[256];
	size_t n;
};

static void keep_event(const struct idr *idr, const struct idr_trace *ev,
		       void *data)
{
	struct events *e = data;

	(void)idr;
	if (e->n < sizeof(e->ev) / sizeof(e->ev[0]))
		e->ev[e->n++] = *ev;
}

static void alloc_at(struct idr *idr, unsigned long id, void *ptr)
{
	uint32_t got = (uint32_t)id;

	CHECK_EQ(idr_alloc_u32(idr, ptr, &got, id, 0), 0);
}

/* 3000 IDs scattered below @limit, the same for the same @seed. */
static void scatter(struct idr *idr, unsigned long seed, uint32_t limit)
{
	unsigned long i;

	for (i = 0; i < 3000; i++) {
		uint32_t id;

		seed = (seed * 1103515245 + 12345) % 2147483648u;
		id = (uint32_t)(seed % limit);
		idr_alloc_u32(idr, value, &id, id, 0);
	}
}

#if IDR_BITS == 6

static int print_value(FILE *out, unsigned long id, void *entry, void *data)
{
	(void)id;
	(void)data;
	return fprintf(out, "%s", entry ? (const char *)entry : "NULL");
}

/*
 * A small tree, as a lesson draws it: five IDs in a row, 64 and 300 on
 * leaves of their own, then 70 allocated with its events kept.  The DOT
 * with the way to 70 and the cells 70's allocation changed is golden.
 */
static void dot_golden_small(void)
{
	static char v[5][3] = { "v0", "v1", "v2", "v3", "v4" };
	static char big[] = "big", far[] = "far", x[] = "x<&>";
	struct idr_dump_opts opts = { .print_entry = print_value,
				      .at_set = true,
				      .at = 70 };
	struct events e = { .n = 0 };
	char *text;
	size_t i;
	DEFINE_IDR(idr);

	for (i = 0; i < 5; i++)
		CHECK_EQ(idr_alloc(&idr, v[i], 0, 0, 0), i);
	alloc_at(&idr, 64, big);
	alloc_at(&idr, 300, far);
	idr_set_trace(&idr, keep_event, &e);
	alloc_at(&idr, 70, x);
	idr_set_trace(&idr, NULL, NULL);
	opts.changed = e.ev;
	opts.nchanged = e.n;
	text = dot_of(&idr, &opts);
	leave("small", text);
	golden_check("tests/golden/dot-small.dot", text, strlen(text));
	idr_destroy(&idr);
}

#endif

/* Each slot a cell: one of five symbols, in slot order, hex over them. */
static void dot_cells_in_slot_order(void)
{
	char *text, *p;
	DEFINE_IDR(idr);

	alloc_at(&idr, 0, value);
	alloc_at(&idr, 5, value);
	text = dot_of(&idr, NULL);
	/* Slot 0 in use, 1..4 free, 5 in use: in that order. */
	p = strstr(text, "PORT=\"s0\"");
	CHECK(p != NULL &&
	      strstr(p, "\xe2\x97\x8f</TD>") < strstr(p, "PORT=\"s1\""));
	p = p ? strstr(p, "PORT=\"s1\"") : NULL;
	CHECK(p != NULL &&
	      strstr(p, "\xc2\xb7</TD>") < strstr(p, "PORT=\"s2\""));
	p = p ? strstr(p, "PORT=\"s5\"") : NULL;
	CHECK(p != NULL &&
	      strstr(p, "\xe2\x97\x8f</TD>") <
		      (strstr(p, "PORT=\"s6\"") ? strstr(p, "PORT=\"s6\"")
						: p + strlen(p)));
	/* Slots 0..3 full: 1000 is 8; 4..7: 0100 is 4, leftmost the high. */
	CHECK(strstr(text,
		     "<TD COLSPAN=\"4\">8</TD><TD COLSPAN=\"4\">4</TD>") !=
	      NULL);
	CHECK(strstr(text, "leftmost slot its high bit") != NULL);
	free(text);
	idr_destroy(&idr);
}

/* The way to an ID: blue nodes and edges, a marker over each slot. */
static void dot_at_marks_the_path(void)
{
	struct idr_dump_opts opts = { .at_set = true, .at = 70 };
	char *text, *p;
	DEFINE_IDR(idr);

	alloc_at(&idr, 0, value);
	alloc_at(&idr, 70, value);
	text = dot_of(&idr, &opts);
	/* The nodes down to the leaf 64..127 are on the way, 0..63 not. */
	CHECK_EQ(count(text, "BORDER=\"3\" COLOR=\"#0072b2\""),
		 idr__height(&idr));
	p = strstr(text, "n0_0 [");
	CHECK(p != NULL &&
	      strncmp(p, "n0_0 [label=<<TABLE BORDER=\"0\"", 30) == 0);
	CHECK_EQ(count(text, "penwidth=3"), idr__height(&idr) - 1);
	CHECK(strstr(text, "the way down to ID 70.") != NULL);
	/* A marker a node: slot 1 of the top, slot 6 of the leaf. */
	CHECK_EQ(count(text, "\xe2\x96\xbc</FONT></TD>"), idr__height(&idr));
	free(text);
	/* An ID no node covers: no blue. */
	opts.at = 100000;
	text = dot_of(&idr, &opts);
	CHECK_EQ(count(text, "#0072b2"), 0);
	free(text);
	idr_destroy(&idr);
}

/*
 * The cells an operation changed get a marker; visits change nothing.
 * A removal marks the freed slot, which then reads free.
 */
static void dot_changed_marks_cells(void)
{
	struct idr_dump_opts opts = { .max_nodes = 0 };
	struct events e = { .n = 0 };
	char *text;
	DEFINE_IDR(idr);

	alloc_at(&idr, 0, value);
	alloc_at(&idr, 1, value);
	idr_set_trace(&idr, keep_event, &e);
	CHECK(idr_find(&idr, 1) == value);
	opts.changed = e.ev;
	opts.nchanged = e.n;
	CHECK(e.n > 0);
	text = dot_of(&idr, &opts);
	CHECK_EQ(count(text, "\xe2\x97\x86</FONT>"), 0);
	free(text);
	e.n = 0;
	CHECK(idr_remove(&idr, 1) == value);
	idr_set_trace(&idr, NULL, NULL);
	opts.nchanged = e.n;
	text = dot_of(&idr, &opts);
	/* One cell marked (slot-clear and open are the same cell). */
	CHECK_EQ(count(text, "\xe2\x97\x86</FONT></TD>"), 1);
	CHECK(strstr(text, "PORT=\"s1\" WIDTH=\"8\" HEIGHT=\"12\" "
			   "FIXEDSIZE=\"TRUE\" BGCOLOR=\"#ffffff\"") != NULL);
	CHECK(strstr(text, "a cell the last operation changed") != NULL);
	free(text);
	idr_destroy(&idr);
}

/* Eleven entries in one leaf: at 3 bits a level, a leaf has 8 slots. */
#if IDR_BITS >= 4

/* Entries of nine characters each: "0:1234567" .. "10:123456". */
static int print_nine(FILE *out, unsigned long id, void *entry, void *data)
{
	(void)entry;
	(void)data;
	return fprintf(out, "%s", id < 10 ? "1234567" : "123456");
}

/*
 * A leaf's entries wrap at LINE_CHARS (100): ten of nine characters and
 * their nine spaces (99) make one line, the eleventh starts the next
 * (dot.c, dot_entries's > LINE_CHARS and its col + 1).
 */
static void dot_entries_wrap_at_line_chars(void)
{
	struct idr_dump_opts opts = { .print_entry = print_nine,
				      .max_entries = 64 };
	char *text, *line;
	unsigned long id;
	DEFINE_IDR(idr);

	for (id = 0; id < 11; id++)
		alloc_at(&idr, id, value);
	text = dot_of(&idr, &opts);
	line = strstr(text, "0:1234567 1:1234567");
	CHECK(line != NULL);
	CHECK_EQ(count(text, "<BR/>1"), 1);
	CHECK(strstr(text, "9:1234567<BR/>10:123456") != NULL);
	free(text);
	idr_destroy(&idr);
}

#endif

/*
 * Only the first nchanged events mark cells: an event just past them,
 * which would mark a cell of its own, is not read (dot.c, dot_marks's
 * loop bound).
 */
static void dot_changed_reads_nchanged_only(void)
{
	struct idr_dump_opts opts = { .max_nodes = 0 };
	struct events set = { .n = 0 }, clear = { .n = 0 };
	struct idr_trace two[2];
	char *text;
	size_t i;
	DEFINE_IDR(idr);

	alloc_at(&idr, 1, value);
	idr_set_trace(&idr, keep_event, &set);
	alloc_at(&idr, 0, value);
	idr_set_trace(&idr, keep_event, &clear);
	CHECK(idr_remove(&idr, 1) == value);
	idr_set_trace(&idr, NULL, NULL);
	for (i = 0; i < clear.n; i++)
		if (clear.ev[i].event == IDR_TRACE_SLOT_CLEAR)
			two[0] = clear.ev[i];
	for (i = 0; i < set.n; i++)
		if (set.ev[i].event == IDR_TRACE_SLOT_SET)
			two[1] = set.ev[i];
	CHECK_EQ(two[0].slot, 1);
	CHECK_EQ(two[1].slot, 0);
	opts.changed = two;
	opts.nchanged = 2;
	text = dot_of(&idr, &opts);
	CHECK_EQ(count(text, "\xe2\x97\x86</FONT></TD>"), 2);
	free(text);
	opts.nchanged = 1;
	text = dot_of(&idr, &opts);
	CHECK_EQ(count(text, "\xe2\x97\x86</FONT></TD>"), 1);
	free(text);
	idr_destroy(&idr);
}

/*
 * DOT collapses as the text dump does: a million IDs in a row draw as a
 * handful of boxes (tests/views.bats renders build/dot/million.dot and
 * holds the picture to 4000 pixels a side).  The way to one ID in the
 * middle of a collapsed run is drawn all the same.
 */
static void dot_million_collapses(void)
{
	struct idr_dump_opts opts = { .at_set = true, .at = 500000 };
	unsigned long i;
	char *text;
	DEFINE_IDR(idr);

	for (i = 0; i < 1000000; i++)
		if (!CHECK_EQ(idr_alloc(&idr, value, 0, 0, 0), i))
			break;
	text = dot_of(&idr, NULL);
	CHECK(count(text, "[label=<<TABLE") >= 2);
	CHECK(count(text, "[label=<<TABLE") <= 2 * IDR_LEVELS_MAX);
	CHECK(count(text, "collapsed\"]") >= 1);
	CHECK(count(text, "not drawn") == 0);
	CHECK(strstr(text, "alike siblings, collapsed") != NULL);
	leave("million", text);
	free(text);
	text = dot_of(&idr, &opts);
	/* The leaf of 500000 is drawn, blue, inside runs of full leaves. */
	CHECK(strstr(text, "n0_499968 [label=<<TABLE BORDER=\"3\"") != NULL ||
	      IDR_BITS != 6);
	CHECK_EQ(count(text, "BORDER=\"3\""), idr__height(&idr));
	leave("million-at", text);
	free(text);
	idr_destroy(&idr);
}

/*
 * IDs scattered over 31 bits: no alike siblings to collapse, so the
 * children that do not fit go into dotted boxes that count them.  Every
 * node is drawn or counted.
 */
static void dot_sparse_leaves_out(void)
{
	struct idr_dump_opts opts = { .at_set = true, .at = 1234567 };
	unsigned long drawn, left = 0;
	struct idr_stats st;
	char *text, *p;
	DEFINE_IDR(idr);

	scatter(&idr, 1, 2147483647u);
	alloc_at(&idr, 1234567, value);
	idr_stats(&idr, &st);
	text = dot_of(&idr, &opts);
	drawn = count(text, "[label=<<TABLE");
	for (p = text; (p = strstr(p, "not drawn\\n(")) != NULL; p++)
		left += strtoul(p + strlen("not drawn\\n("), NULL, 10);
	CHECK_EQ(drawn + left, st.nodes);
	CHECK(left > 0 && drawn < 64);
	CHECK(strstr(text, "to keep the picture small") != NULL);
	CHECK_EQ(count(text, "BORDER=\"3\""), idr__height(&idr));
	leave("sparse-31", text);
	free(text);
	/* full: every node, up to max_nodes. */
	opts.full = true;
	opts.max_nodes = 100;
	text = dot_of(&idr, &opts);
	CHECK_EQ(count(text, "[label=<<TABLE"), 100);
	CHECK(strstr(text, "(max_nodes 100)") != NULL);
	free(text);
	idr_destroy(&idr);
}

/*
 * The way to an ID and a cell changed on it force the same nodes, once:
 * the picture keeps room for them once, and draws as many nodes as with
 * the way alone (dot.c, force_path's dedupe).
 */
static void dot_same_path_forced_once(void)
{
	struct idr_dump_opts opts = { .at_set = true, .at = 1234567 };
	struct events e = { .n = 0 };
	unsigned long alone, both;
	char *text;
	DEFINE_IDR(idr);

	scatter(&idr, 1, 2147483647u);
	idr_set_trace(&idr, keep_event, &e);
	alloc_at(&idr, 1234567, value);
	idr_set_trace(&idr, NULL, NULL);
	text = dot_of(&idr, &opts);
	alone = count(text, "[label=<<TABLE");
	free(text);
	opts.changed = e.ev;
	opts.nchanged = e.n;
	text = dot_of(&idr, &opts);
	both = count(text, "[label=<<TABLE");
	CHECK(count(text, "\xe2\x97\x86</FONT></TD>") >= 1);
	free(text);
	CHECK(alone > idr__height(&idr));
	CHECK_EQ(both, alone);
	idr_destroy(&idr);
}

/*
 * Five leaves under one top node: four fit the picture's width, the
 * fifth is left out, and the legend counts it in the singular; six
 * leave two out (dot.c, dot_legend's left_out == 1).  The width left
 * them out, not max_nodes, and the legend does not blame it (d.cut).
 */
#if IDR_BITS == 6
static void dot_left_out_counted(void)
{
	unsigned long i;
	char *text;
	DEFINE_IDR(idr);

	for (i = 0; i < 6; i++) {
		alloc_at(&idr, i * IDR_SLOTS, value);
		if (i < 4)
			continue;
		text = dot_of(&idr, NULL);
		CHECK(strstr(text,
			     i == 4 ? "Dotted boxes: 1 node not drawn"
				    : "Dotted boxes: 2 nodes not drawn") !=
		      NULL);
		CHECK(strstr(text, "(max_nodes") == NULL);
		free(text);
	}
	idr_destroy(&idr);
}

/*
 * Once a leaf is left out for want of width, the siblings after it are
 * left out too, even a run narrow enough for the room that is left: a
 * level reads left to right (dot.c, plan_child's leaving).  Leaves 0-4
 * differ (1 to 5 IDs); 5 and 6 are full, a run of two.
 */
static void dot_left_out_ends_the_level(void)
{
	unsigned long leaf, i;
	char *text;
	DEFINE_IDR(idr);

	for (leaf = 0; leaf < 7; leaf++)
		for (i = 0; i < (leaf < 5 ? leaf + 1 : IDR_SLOTS); i++)
			alloc_at(&idr, leaf * IDR_SLOTS + i, value);
	text = dot_of(&idr, NULL);
	CHECK(strstr(text, "Dotted boxes: 3 nodes not drawn") != NULL);
	CHECK(strstr(text, "Dashed boxes") == NULL);
	free(text);
	idr_destroy(&idr);
}
#endif

/*
 * A sparse tree, the way to one ID and a cell changed far from it: both
 * leaves are drawn, though the picture leaves most nodes out.
 */
static void dot_at_and_changed_far_apart(void)
{
	struct idr_dump_opts opts = { .at_set = true, .at = 1234567 };
	struct events e = { .n = 0 };
	char *text;
	DEFINE_IDR(idr);

	scatter(&idr, 7, 2000000000u);
	alloc_at(&idr, 1234567, value);
	idr_set_trace(&idr, keep_event, &e);
	alloc_at(&idr, 2000000000, value);
	idr_set_trace(&idr, NULL, NULL);
	opts.changed = e.ev;
	opts.nchanged = e.n;
	text = dot_of(&idr, &opts);
	CHECK(strstr(text, "to keep the picture small") != NULL);
	CHECK(IDR_BITS != 6 || strstr(text, "\tn0_1234560 [label=<") != NULL);
	CHECK(IDR_BITS != 6 ||
	      strstr(text, "\tn0_2000000000 [label=<") != NULL);
	free(text);
	idr_destroy(&idr);
}

/*
 * The legend counts runs of alike siblings, one in the singular: full
 * leaves 0-1 are one run; with 3-4 full too (leaf 2 apart) two (dot.c,
 * dot_legend's runs == 1).
 */
static void dot_runs_counted(void)
{
	unsigned long i;
	char *text;
	DEFINE_IDR(idr);

	for (i = 0; i < 2 * IDR_SLOTS; i++)
		alloc_at(&idr, i, value);
	alloc_at(&idr, 2 * IDR_SLOTS, value);
	text = dot_of(&idr, NULL);
	CHECK(strstr(text, "Dashed boxes: 1 run of alike siblings") != NULL);
	free(text);
	for (i = 3 * IDR_SLOTS; i < 5 * IDR_SLOTS; i++)
		alloc_at(&idr, i, value);
	text = dot_of(&idr, NULL);
	CHECK(strstr(text, "Dashed boxes: 2 runs of alike siblings") != NULL);
	free(text);
	idr_destroy(&idr);
}

/*
 * Changed cells force the way down to them, but no more than two nodes
 * a level: of three far-apart leaves an operation changed, the first two
 * are drawn, the third is left out with the rest of the sparse tree
 * (dot.c, force_path's FORCED_MAX).
 */
static void dot_changed_forces_two_a_level(void)
{
	static const unsigned long ids[3] = { 1000000000, 1500000000,
					      2000000000 };
	struct idr_dump_opts opts = { .max_nodes = 0 };
	struct events e = { .n = 0 };
	struct idr_trace set[3];
	size_t i, n = 0;
	char *text;
	DEFINE_IDR(idr);

	scatter(&idr, 7, 2000000000u);
	idr_set_trace(&idr, keep_event, &e);
	for (i = 0; i < 3; i++)
		alloc_at(&idr, ids[i], value);
	idr_set_trace(&idr, NULL, NULL);
	for (i = 0; i < e.n && n < 3; i++)
		if (e.ev[i].event == IDR_TRACE_SLOT_SET)
			set[n++] = e.ev[i];
	CHECK_EQ(n, 3);
	opts.changed = set;
	opts.nchanged = n;
	text = dot_of(&idr, &opts);
	CHECK(strstr(text, "to keep the picture small") != NULL);
	CHECK(strstr(text, "\tn0_1000000000 [label=<") != NULL);
	CHECK(strstr(text, "\tn0_1500000000 [label=<") != NULL);
	CHECK(strstr(text, "\tn0_2000000000 [label=<") == NULL);
	free(text);
	idr_destroy(&idr);
}

#if IDR_BITS == 6

/*
 * Append to @plan, after @title, the names of the nodes and boxes @text
 * draws, in order: what the width budget let in, and nothing else.
 */
static void plan_of(char *plan, size_t size, const char *title,
		    const char *text)
{
	const char *p = text, *end;
	size_t len = strlen(plan);

	len += (size_t)snprintf(plan + len, size - len, "%s:", title);
	for (; (p = strstr(p, "\n\t")) != NULL; p = end) {
		p += 2;
		end = p + strcspn(p, " \n");
		/* Nodes and boxes are named like n2_1048576. */
		if (strncmp(end, " [", 2) ||
		    !memchr(p, '_', (size_t)(end - p)) ||
		    len + (size_t)(end - p) + 2 >= size)
			continue;
		len += (size_t)snprintf(plan + len, size - len, " %.*s",
					(int)(end - p), p);
	}
	snprintf(plan + len, size - len, "\n");
}

/*
 * What the budget lets in, pinned for three pictures of sparse trees: no
 * options, the way to one ID, and that way with a cell changed far from
 * it.  The room kept for forced nodes (forced_need's recursion), and
 * whether a box fits exactly (fits), decide these lists.
 */
static void dot_plans_golden(void)
{
	struct idr_dump_opts opts = { .at_set = true, .at = 1234567 };
	struct events e = { .n = 0 };
	const size_t size = 8192;
	char *text, *plan = malloc(size);
	DEFINE_IDR(idr);

	if (!CHECK(plan != NULL))
		return;
	plan[0] = '\0';
	scatter(&idr, 1, 2147483647u);
	alloc_at(&idr, 1234567, value);
	text = dot_of(&idr, NULL);
	plan_of(plan, size, "sparse", text);
	free(text);
	text = dot_of(&idr, &opts);
	plan_of(plan, size, "sparse, at 1234567", text);
	free(text);
	/* A missing ID: its way stops where a child is missing. */
	opts.at = 5;
	text = dot_of(&idr, &opts);
	plan_of(plan, size, "sparse, at 5 (missing)", text);
	free(text);
	opts.at = 1234567;
	idr_destroy(&idr);
	scatter(&idr, 7, 2000000000u);
	alloc_at(&idr, 1234567, value);
	idr_set_trace(&idr, keep_event, &e);
	alloc_at(&idr, 2000000000, value);
	idr_set_trace(&idr, NULL, NULL);
	opts.changed = e.ev;
	opts.nchanged = e.n;
	text = dot_of(&idr, &opts);
	plan_of(plan, size, "at 1234567, 2000000000 changed", text);
	free(text);
	golden_check("tests/golden/dot-plans.txt", plan, strlen(plan));
	idr_destroy(&idr);
}

#endif

#define MARKER_ROW "<TR><TD BORDER=\"0\">"
#define DIAMOND "\xe2\x97\x86</FONT></TD>"

/*
 * Growing for ID 64 (the first of the second leaf) changes the new top's
 * slots 0 and 1 and the new leaf's slot 0: a row of markers over those
 * two nodes, none over leaf 0..63 (whose slot 63 is the last: none past
 * it).
 */
static void dot_marker_rows_only_where_changed(void)
{
	struct idr_dump_opts opts = { .max_nodes = 0 };
	struct events e = { .n = 0 };
	char *text;
	DEFINE_IDR(idr);

	alloc_at(&idr, 0, value);
	idr_set_trace(&idr, keep_event, &e);
	alloc_at(&idr, IDR_SLOTS, value);
	idr_set_trace(&idr, NULL, NULL);
	opts.changed = e.ev;
	opts.nchanged = e.n;
	text = dot_of(&idr, &opts);
	CHECK_EQ(count(text, MARKER_ROW), 2);
	CHECK_EQ(count(text, DIAMOND), 3);
	free(text);
	idr_destroy(&idr);
}

/* An event whose range is upside down names no cell: nothing marked. */
static void dot_made_up_event_marks_nothing(void)
{
	struct idr_trace bad = { .event = IDR_TRACE_SLOT_SET,
				 .level = 0,
				 .first = 1,
				 .last = 0,
				 .slot = 0 };
	struct idr_dump_opts opts = { .changed = &bad, .nchanged = 1 };
	char *text;
	DEFINE_IDR(idr);

	alloc_at(&idr, 0, value);
	alloc_at(&idr, 1, value);
	text = dot_of(&idr, &opts);
	CHECK_EQ(count(text, DIAMOND), 0);
	/* Nor does the legend speak of changed cells. */
	CHECK(strstr(text, "last operation changed") == NULL);
	free(text);
	idr_destroy(&idr);
}

/* An IDA's bit taken in an existing bitmap marks that bitmap's cell. */
static void dot_ida_bit_marks_its_cell(void)
{
	struct idr_dump_opts opts = { .max_nodes = 0 };
	struct events e = { .n = 0 };
	char *text;
	DEFINE_IDA(ida);

	CHECK_EQ(ida_alloc(&ida, 0), 0);
	idr_set_trace(&ida.ida_rt, keep_event, &e);
	CHECK_EQ(ida_alloc(&ida, 0), 1);
	idr_set_trace(&ida.ida_rt, NULL, NULL);
	opts.changed = e.ev;
	opts.nchanged = e.n;
	text = dot_of(ida_tree(&ida), &opts);
	CHECK_EQ(count(text, DIAMOND), 1);
	free(text);
	ida_destroy(&ida);
}

/* A box of children not drawn names the IDs they cover, no more. */
static void dot_left_out_range(void)
{
	struct idr_dump_opts opts = { .max_nodes = 1 };
	char *text, want[80];
	DEFINE_IDR(idr);

	alloc_at(&idr, 0, value);
	alloc_at(&idr, IDR_SLOTS, value);
	alloc_at(&idr, 2 * IDR_SLOTS, value);
	text = dot_of(&idr, &opts);
	snprintf(want, sizeof(want),
		 "label=\"L0 0..%u\\n3 subtrees not drawn\\n(3 nodes)\"",
		 3 * IDR_SLOTS - 1);
	CHECK(strstr(text, want) != NULL);
	free(text);
	idr_destroy(&idr);
}

/* Beyond max_nodes, DOT counts the rest in dotted boxes and says so. */
static void dot_max_nodes(void)
{
	struct idr_dump_opts small = { .max_nodes = 5 };
	unsigned long i;
	char *text;
	DEFINE_IDR(idr);

	for (i = 0; i < 200; i++)
		alloc_at(&idr, i * 100003 % 1000000, value);
	text = dot_of(&idr, &small);
	CHECK_EQ(count(text, "[label=<<TABLE"), 5);
	CHECK(strstr(text, "(max_nodes 5)") != NULL);
	leave("large", text);
	free(text);
	idr_destroy(&idr);
}

/* An empty tree, and an IDA: a picture all the same. */
static void dot_empty_and_ida(void)
{
	DEFINE_IDR(idr);
	DEFINE_IDA(ida);
	char *text = dot_of(&idr, NULL);
	unsigned long i;

	CHECK(strstr(text, "empty [label=\"(empty)\"]") != NULL);
	free(text);
	/* Bitmaps 0 and 1 full, 2 with room. */
	for (i = 0; i < 2 * IDR__CHUNK + IDR__CHUNK / 2; i++)
		CHECK(ida_alloc(&ida, 0) >= 0);
	text = dot_of(ida_tree(&ida), NULL);
	CHECK(strncmp(text, "digraph ida {", 13) == 0);
	CHECK(strstr(text, "BGCOLOR=\"#e69f00\">\xe2\x96\xa0</TD>") != NULL);
	CHECK(strstr(text, "PORT=\"s2\" WIDTH=\"8\" HEIGHT=\"12\" "
			   "FIXEDSIZE=\"TRUE\" BGCOLOR=\"#56b4e9\"") != NULL);
	free(text);
	ida_destroy(&ida);
}

/* The changed cells' memory is the library's: a failure is -ENOMEM. */
static void dot_changed_out_of_memory(void)
{
	struct idr_trace ev = { .event = IDR_TRACE_SLOT_SET, .last = 63 };
	struct idr_dump_opts opts = { .changed = &ev, .nchanged = 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	DEFINE_IDR(idr);

	alloc_at(&idr, 0, value);
	seam_fault_inject(0, 1);
	CHECK_EQ(idr_dump_dot(&idr, mem, &opts), -ENOMEM);
	seam_fault_inject(0, 0);
	CHECK_EQ(idr_dump_dot(&idr, mem, &opts), 0);
	fclose(mem);
	CHECK(strstr(text, "\xe2\x97\x86</FONT></TD>") != NULL);
	free(text);
	idr_destroy(&idr);
}

void suite_dot(void)
{
#if IDR_BITS == 6
	RUN(dot_golden_small);
#endif
	RUN(dot_cells_in_slot_order);
#if IDR_BITS >= 4
	RUN(dot_entries_wrap_at_line_chars);
#endif
	RUN(dot_at_marks_the_path);
	RUN(dot_changed_marks_cells);
	RUN(dot_changed_reads_nchanged_only);
	RUN(dot_million_collapses);
	RUN(dot_sparse_leaves_out);
	RUN(dot_at_and_changed_far_apart);
	RUN(dot_changed_forces_two_a_level);
	RUN(dot_runs_counted);
#if IDR_BITS == 6
	RUN(dot_plans_golden);
#endif
	RUN(dot_same_path_forced_once);
	RUN(dot_marker_rows_only_where_changed);
	RUN(dot_made_up_event_marks_nothing);
	RUN(dot_ida_bit_marks_its_cell);
	RUN(dot_left_out_range);
#if IDR_BITS == 6
	RUN(dot_left_out_counted);
	RUN(dot_left_out_ends_the_level);
#endif
	RUN(dot_max_nodes);
	RUN(dot_empty_and_ida);
	RUN(dot_changed_out_of_memory);
}
