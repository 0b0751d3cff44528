/* SPDX-License-Identifier: MIT */
/*
 * dot.c - the tree as Graphviz DOT (idr_dump_dot()): a node a table of
 * cells, planned to fit a picture a person can view.  It walks the tree
 * with dump.c's dumper and words (dumper.h).
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "alloc.h"
#include "dumper.h"
#include "walk.h"

#define DEFAULT_NODES 64

/*
 * Each node is an HTML-like table: a title, its slots as a row of cells
 * (slot 0 at the left, a symbol and a colour each), its full bitmap as hex
 * digits under the cells in the same order (four slots a digit, the
 * leftmost slot its high bit), a marker row when a cell is on the way to
 * @opts->at or was changed by @opts->changed, and a leaf's entries.
 *
 * So that any tree draws to a picture a person can view, the picture is
 * held to DOT_WIDTH points as a tidy tree is laid out: a subtree is as
 * wide as its top box, or as its children's subtrees side by side if
 * wider.  Each node shares the room it was given among its children, in
 * slot order; the children that do not fit go into one "not drawn" box,
 * and runs of alike siblings collapse as in the text dump.  The nodes on
 * the way to @opts->at, and to the cells changed, are drawn whatever else
 * is left out: their room is kept first.  Sizes are in points; Graphviz
 * draws 96 pixels an inch, 72 points.  The height needs no budget: a
 * tree has a few levels.
 */
#define CELL_W 8	/* a slot's cell */
#define GAP_W 24	/* between boxes on a rank (nodesep), and borders */
#define BOX_W 168u	/* a run or "not drawn" box, its gap included */
#define DOT_WIDTH 2700u /* 3600 pixels, under 4000 with Graphviz's slack */
#define FORCED_MAX 2u	/* nodes drawn whatever the budget, per level */
#define ENTRY_CHARS 40u /* a leaf entry is cut to this */
#define LINE_CHARS 100u /* a line of leaf entries, at fontsize 8 */

/* A cell the options point at: an ID a node's slot covers, at a level. */
struct dot_cell {
	unsigned int level;
	unsigned long id;
};

/* A node drawn whatever the budget: the IDs it covers. */
struct dot_forced {
	unsigned long first, last;
};

struct dotter {
	struct dumper d;
	unsigned int width; /* a node's, gap included */
	struct dot_forced forced[IDR_LEVELS_MAX][FORCED_MAX]; /* by depth */
	unsigned int nforced[IDR_LEVELS_MAX];
	struct dot_cell *marks; /* the cells @opts->changed touched */
	size_t nmarks;
	struct idr_view path[IDR_LEVELS_MAX]; /* the way to @opts->at */
	unsigned int npath;
	unsigned long runs, left_out; /* boxes drawn: collapsed, not drawn */
	unsigned long marks_drawn;    /* changed cells in the picture */
	bool retired;		      /* a tagged idr with retired slots */
};

/* HTML-like labels give meaning to these; a leaf's entry may hold them. */
static void html_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (*s == '"')
			fputs("&quot;", out);
		else if ((unsigned char)*s < ' ')
			fputc(' ', out); /* a newline or tab in a value */
		else
			fputc(*s, out);
	}
}

/* The cell of a trace event, if the event changed one. */
static bool event_cell(const struct idr_trace *ev, struct dot_cell *c)
{
	unsigned long span = (ev->last - ev->first) / IDR_SLOTS + 1;

	if (ev->last < ev->first)
		return false; /* no node's: an event made up by the caller */
	switch (ev->event) {
	case IDR_TRACE_BIT_SET:
	case IDR_TRACE_BIT_CLEAR:
		/* @slot is a bit of the bitmap @first..@last: a leaf's cell. */
		c->level = 0;
		c->id = ev->first;
		return true;
	case IDR_TRACE_NODE_NEW:
	case IDR_TRACE_ATTACH:
	case IDR_TRACE_DETACH:
	case IDR_TRACE_SLOT_SET:
	case IDR_TRACE_SLOT_CLEAR:
	case IDR_TRACE_FULL:
	case IDR_TRACE_OPEN:
	case IDR_TRACE_SUBTREE_FULL:
	case IDR_TRACE_SUBTREE_OPEN:
	case IDR_TRACE_BITMAP_FULL:
	case IDR_TRACE_BITMAP_OPEN:
		c->level = ev->level;
		c->id = ev->first + ev->slot * span;
		return true;
	default: /* visits, node counts, nodes gone, grow and shrink */
		return false;
	}
}

/* Whether @c is in slot @slot of @v. */
static bool cell_in(const struct idr_view *v, unsigned int slot,
		    const struct dot_cell *c)
{
	unsigned long lo, hi;

	if (c->level != v->level)
		return false;
	idr__slot_range(v, slot, &lo, &hi);
	return c->id >= lo && c->id <= hi;
}

static bool marked(const struct dotter *g, const struct idr_view *v,
		   unsigned int slot)
{
	size_t i;

	for (i = 0; i < g->nmarks; i++)
		if (cell_in(v, slot, &g->marks[i]))
			return true;
	return false;
}

/* The slot of @v on the way to @opts->at, or -1 if @v is not on it. */
static int path_slot(const struct dotter *g, const struct idr_view *v)
{
	uint64_t index;

	if (v->depth >= g->npath || g->path[v->depth].first != v->first ||
	    !idr__index_of(g->d.idr, g->d.opts.at, &index))
		return -1;
	return (int)(index >> v->shift & (v->slots - 1));
}

static unsigned int larger(unsigned int a, unsigned int b)
{
	return a > b ? a : b;
}

/*
 * The room the nodes drawn whatever the budget need at @depth and below,
 * among those covering IDs @first..@last: each its own width, or its
 * forced children's and a "not drawn" box beside them, if wider.
 */
static unsigned int forced_need(const struct dotter *g, unsigned int depth,
				unsigned long first, unsigned long last)
{
	unsigned int i, need = 0, below;

	for (i = 0; depth < IDR_LEVELS_MAX && i < g->nforced[depth]; i++) {
		const struct dot_forced *f = &g->forced[depth][i];

		if (f->first < first || f->last > last)
			continue;
		below = forced_need(g, depth + 1, f->first, f->last);
		below = below ? below + BOX_W : 0;
		need += larger(below, g->width);
	}
	return need;
}

/* Whether the child in slot @slot of @v is to be drawn whatever else. */
static bool forced_child(const struct dotter *g, const struct idr_view *v,
			 unsigned int slot)
{
	unsigned long lo, hi;

	idr__slot_range(v, slot, &lo, &hi);
	return forced_need(g, v->depth + 1, lo, hi) > 0;
}

/* Keep room for the nodes on the way down to @index, top first. */
static void force_path(struct dotter *g, uint64_t index, unsigned int level)
{
	struct idr_view views[IDR_LEVELS_MAX];
	unsigned int n = idr__path_views(g->d.idr, index, views), i, j;

	for (i = 1; i < n && views[i].level >= level; i++) {
		unsigned int *nf = &g->nforced[i];

		for (j = 0; j < *nf && g->forced[i][j].first != views[i].first;
		     j++)
			;
		if (j < *nf || *nf == FORCED_MAX)
			continue;
		g->forced[i][(*nf)++] = (struct dot_forced){ views[i].first,
							     views[i].last };
	}
}

/* The cells @opts->changed touched, and the nodes to draw for them. */
static int dot_marks(struct dotter *g)
{
	const struct idr_dump_opts *o = &g->d.opts;
	struct dot_cell c = { 0, 0 }; /* as event_cell() leaves it on "no" */
	uint64_t index;
	size_t i;

	if (!o->nchanged)
		return 0;
	if (o->nchanged > SIZE_MAX / sizeof(*g->marks))
		return -ENOMEM;
	g->marks = idr__malloc(o->nchanged * sizeof(*g->marks));
	if (!g->marks)
		return -ENOMEM;
	for (i = 0; i < o->nchanged; i++)
		if (event_cell(&o->changed[i], &c))
			g->marks[g->nmarks++] = c;
	for (i = 0; i < g->nmarks; i++)
		if (idr__index_of(g->d.idr, g->marks[i].id, &index))
			force_path(g, index, g->marks[i].level);
	return 0;
}

static void dot_setup(struct dotter *g)
{
	uint64_t index;

	g->width = larger(IDR_SLOTS * CELL_W, 240) + GAP_W;
	if (g->d.opts.at_set && idr__index_of(g->d.idr, g->d.opts.at, &index)) {
		g->npath = idr__path_views(g->d.idr, index, g->path);
		force_path(g, index, 0);
	}
}

/* The node's name in the graph: its level and first ID are unique. */
static void dot_name(FILE *out, char kind, unsigned int level,
		     unsigned long first)
{
	fprintf(out, "%c%u_%lu", kind, level, first);
}

/* One slot: a symbol and a colour, both saying what it holds. */
static void dot_cell(const struct dotter *g, const struct idr_view *v,
		     unsigned int slot)
{
	static const char *const look[][2] = {
		[0] = { "\xc2\xb7", "#ffffff" },     /* free: middle dot */
		[1] = { "\xe2\x97\x8f", "#56b4e9" }, /* in use: black circle */
		[2] = { "\xe2\x96\xa0", "#e69f00" }, /* full: black square */
		[3] = { "\xe2\x96\xb8", "#009e73" }, /* child with room */
		[4] = { "\xc3\x97", "#cc79a7" },     /* retired: times */
	};
	bool present = v->present >> slot & 1, full = v->full >> slot & 1;
	unsigned int k;

	if (!present)
		k = 0;
	else if (v->level == 0 && !g->d.ida)
		k = idr_view_retired(g->d.idr, v, slot) ? 4 : 1;
	else if (full)
		k = 2;
	else
		k = v->level ? 3 : 1;
	fprintf(g->d.out,
		"<TD PORT=\"s%u\" WIDTH=\"%u\" HEIGHT=\"12\" FIXEDSIZE=\"TRUE\""
		" BGCOLOR=\"%s\">%s</TD>",
		slot, CELL_W, look[k][1], look[k][0]);
}

/* The full bitmap in the cells' order: a digit over each four slots. */
static void dot_hex(const struct dotter *g, const struct idr_view *v)
{
	unsigned int slot;

	fputs("<TR>", g->d.out);
	for (slot = 0; slot + 4 <= v->slots; slot += 4)
		fprintf(g->d.out, "<TD COLSPAN=\"4\">%x</TD>",
			(unsigned int)((v->full >> slot & 1) << 3 |
				       (v->full >> (slot + 1) & 1) << 2 |
				       (v->full >> (slot + 2) & 1) << 1 |
				       (v->full >> (slot + 3) & 1)));
	fputs("</TR>\n", g->d.out);
}

/* Over the cells: where the way to @at goes, and what changed. */
static void dot_markers(struct dotter *g, const struct idr_view *v)
{
	int on_path = path_slot(g, v);
	unsigned int slot, n = 0;

	for (slot = 0; slot < v->slots; slot++)
		n += (int)slot == on_path || marked(g, v, slot);
	if (!n)
		return;
	fputs("<TR>", g->d.out);
	for (slot = 0; slot < v->slots; slot++) {
		fputs("<TD BORDER=\"0\">", g->d.out);
		if (marked(g, v, slot)) {
			g->marks_drawn++;
			fputs("<FONT COLOR=\"#d55e00\">\xe2\x97\x86</FONT>",
			      g->d.out); /* black diamond */
		} else if ((int)slot == on_path) {
			fputs("<FONT COLOR=\"#0072b2\">\xe2\x96\xbc</FONT>",
			      g->d.out); /* black down-pointing triangle */
		}
		fputs("</TD>", g->d.out);
	}
	fputs("</TR>\n", g->d.out);
}

/* A leaf's entries, a few a line, then "(+N more)". */
static void dot_entries(const struct dotter *g, const struct idr_view *v)
{
	unsigned int slot, shown = 0, col = 0;
	unsigned int total = (unsigned int)__builtin_popcountll(v->present);
	char buf[ENTRY_CHARS + 1];

	if (!total)
		return;
	fprintf(g->d.out,
		"<TR><TD COLSPAN=\"%u\" BORDER=\"0\" ALIGN=\"LEFT\" "
		"BALIGN=\"LEFT\">",
		v->slots);
	for (slot = 0; slot < v->slots && shown < g->d.opts.max_entries;
	     slot++) {
		if (!(v->present >> slot & 1))
			continue;
		idr__entry_text(&g->d, v, slot, buf, sizeof(buf));
		if (shown && col + 1 + strlen(buf) > LINE_CHARS) {
			fputs("<BR/>", g->d.out);
			col = 0;
		}
		fputs(col ? " " : "", g->d.out);
		html_escape(g->d.out, buf);
		col += (unsigned int)strlen(buf) + 1;
		shown++;
	}
	if (total > shown)
		fprintf(g->d.out, " (+%u more)", total - shown);
	fputs("</TD></TR>\n", g->d.out);
}

static void dot_title(const struct dotter *g, const struct idr_view *v)
{
	fprintf(g->d.out,
		"<TR><TD COLSPAN=\"%u\" BORDER=\"0\" ALIGN=\"LEFT\">"
		"<B>L%u</B> %lu..%lu  %d/%u in use",
		v->slots, v->level, v->first, v->last,
		__builtin_popcountll(v->present), v->slots);
	if (v->packed)
		fprintf(g->d.out, ", packed in %u", v->packed);
	fputs("</TD></TR>\n", g->d.out);
}

/*
 * An edge from slot @slot of @parent to the box @kind, @level, @first.  It
 * leaves from the slot's cell, but weighs nothing in the layout: an unseen
 * edge from the parent's middle places the box under it, so that the
 * picture stays as wide as a tidy tree, not a staircase of slot 0s.
 */
static void dot_edge(const struct dotter *g, const struct idr_view *parent,
		     unsigned int slot, char kind, unsigned int level,
		     unsigned long first, const char *attrs)
{
	FILE *out = g->d.out;

	fputc('\t', out);
	dot_name(out, 'n', parent->level, parent->first);
	fputs(" -> ", out);
	dot_name(out, kind, level, first);
	fputs(" [style=invis];\n\t", out);
	dot_name(out, 'n', parent->level, parent->first);
	fprintf(out, ":s%u:s -> ", slot);
	dot_name(out, kind, level, first);
	fprintf(out, ":n [weight=0%s];\n", attrs);
}

static void dot_node(struct dotter *g, const struct idr_view *v,
		     const struct idr_view *parent)
{
	bool on_path = path_slot(g, v) >= 0;
	unsigned int slot;

	fputc('\t', g->d.out);
	dot_name(g->d.out, 'n', v->level, v->first);
	fprintf(g->d.out,
		" [label=<<TABLE %sCELLBORDER=\"1\" CELLSPACING=\"0\" "
		"CELLPADDING=\"0\">\n",
		on_path ? "BORDER=\"3\" COLOR=\"#0072b2\" " : "BORDER=\"0\" ");
	dot_title(g, v);
	dot_hex(g, v);
	dot_markers(g, v);
	/* The cells last (but for a leaf's entries): edges leave from them. */
	fputs("<TR>", g->d.out);
	for (slot = 0; slot < v->slots; slot++)
		dot_cell(g, v, slot);
	fputs("</TR>\n", g->d.out);
	if (v->level == 0)
		dot_entries(g, v);
	fputs("</TABLE>>];\n", g->d.out);
	if (!parent)
		return;
	dot_edge(g, parent,
		 (unsigned int)((v->first - parent->first) /
				(v->last - v->first + 1)),
		 'n', v->level, v->first,
		 on_path ? ", color=\"#0072b2\", penwidth=3" : "");
}

/* A run of alike siblings: one dashed box, saying how many and what. */
static void dot_run(struct dotter *g, const struct idr_view *v,
		    unsigned int from, unsigned int to, const struct key *k)
{
	unsigned long lo, hi;
	char words[RUN_WORDS];

	idr__run_range(v, from, to, &lo, &hi);
	idr__run_words(words, v, to - from, k);
	fputc('\t', g->d.out);
	dot_name(g->d.out, 'r', v->level - 1, lo);
	fprintf(g->d.out, " [shape=box, style=dashed, label=\"L%u %lu..%lu\\n",
		v->level - 1, lo, hi);
	fprintf(g->d.out, "%s\\nslots %u..%u, collapsed\"];\n", words, from,
		to - 1);
	dot_edge(g, v, from, 'r', v->level - 1, lo, "");
	g->runs++;
}

/* Children of a node that were not drawn, as one dotted box. */
struct left_out {
	unsigned int from, to; /* slots, the first and after the last */
	unsigned long subtrees, nodes;
};

static void dot_left_out(struct dotter *g, const struct idr_view *v,
			 const struct left_out *lo)
{
	unsigned long first, unused, last;

	idr__slot_range(v, lo->from, &first, &unused);
	idr__slot_range(v, lo->to - 1, &unused, &last);
	fputc('\t', g->d.out);
	dot_name(g->d.out, 'm', v->level - 1, first);
	fprintf(g->d.out,
		" [shape=box, style=dotted, label=\"L%u %lu..%lu\\n"
		"%lu subtree%s not drawn\\n(%lu node%s)\"];\n",
		v->level - 1, first, last, lo->subtrees,
		lo->subtrees == 1 ? "" : "s", lo->nodes,
		lo->nodes == 1 ? "" : "s");
	dot_edge(g, v, lo->from, 'm', v->level - 1, first, ", style=dotted");
	g->left_out += lo->nodes;
}

static unsigned int dot_subtree(struct dotter *g, const struct idr_view *v,
				const struct idr_view *parent,
				unsigned int room);

static void leave_out(const struct dotter *g, const struct idr_view *v,
		      unsigned int from, unsigned int to, struct left_out *lo)
{
	struct idr_view child;
	unsigned int slot;

	for (slot = from; slot < to; slot++) {
		if (!idr_view_child(g->d.idr, v, slot, &child))
			continue;
		if (!lo->subtrees++)
			lo->from = slot;
		lo->to = slot + 1;
		lo->nodes += idr__nodes_under(&g->d, &child);
	}
}

/* What becomes of a child of the node being drawn. */
enum plan {
	P_NONE,	 /* no child, or part of a run */
	P_RUN,	 /* the first of a run of alike siblings, drawn as one */
	P_DRAW,	 /* drawn */
	P_FORCE, /* drawn whatever the budget */
	P_LEAVE, /* not drawn: counted in the dotted box */
};

/* The children of a node: what becomes of each, and the room they take. */
struct plan_of {
	unsigned char plan[IDR_SLOTS];
	unsigned char end[IDR_SLOTS]; /* P_RUN: the slot after the run */
	unsigned int left;	      /* room not yet taken */
	unsigned int forced;	      /* kept for forced children to come */
	bool leaving;		      /* a child is left out already */
};

static void take(struct plan_of *p, unsigned int w)
{
	p->left = w < p->left ? p->left - w : 0;
}

/*
 * Whether a box @w points wide fits beside those planned, with a "not
 * drawn" box and the forced children still to come.  In a full dump
 * anything fits.
 */
static bool fits(const struct dotter *g, const struct plan_of *p,
		 unsigned int w)
{
	return g->d.opts.full ||
	       (!p->leaving && p->forced + BOX_W + w <= p->left);
}

/* Plan the child in slot @slot of @v: drawn if it fits. */
static void plan_child(struct dotter *g, const struct idr_view *v,
		       unsigned int slot, struct plan_of *p)
{
	struct idr_view child;
	unsigned int need;

	if (!idr_view_child(g->d.idr, v, slot, &child))
		return;
	if (forced_child(g, v, slot)) {
		need = forced_need(g, child.depth, child.first, child.last);
		p->forced -= need;
		take(p, need);
		p->plan[slot] = P_FORCE;
	} else if (fits(g, p, g->width)) {
		take(p, g->width);
		p->plan[slot] = P_DRAW;
	} else {
		p->plan[slot] = P_LEAVE;
		p->leaving = true;
	}
}

/*
 * Plan the children of @v: runs of alike siblings as one box (unless the
 * options ask for every node), the rest one by one as long as they fit at
 * their narrowest, so that a level is seen before the one below it.
 */
static void plan_children(struct dotter *g, const struct idr_view *v,
			  struct plan_of *p)
{
	unsigned int slot, end, i;

	p->forced = forced_need(g, v->depth + 1, v->first, v->last);
	for (slot = 0; slot < v->slots; slot = end) {
		struct key k = idr__key_of(&g->d, v, slot);
		bool alike, forced = forced_child(g, v, slot);

		for (end = slot + 1;
		     !forced && end < v->slots &&
		     idr__same_key(idr__key_of(&g->d, v, end), k) &&
		     !forced_child(g, v, end);
		     end++)
			;
		if (k.kind == K_NONE)
			continue;
		alike = !forced && !g->d.opts.full &&
			end - slot >= (k.kind == K_FULL ? RUN_FULL
				       : k.count	? RUN_LEAVES
							: UINT_MAX);
		if (alike && fits(g, p, BOX_W)) {
			take(p, BOX_W);
			p->plan[slot] = P_RUN;
			p->end[slot] = (unsigned char)end;
		} else if (alike) {
			for (i = slot; i < end; i++)
				p->plan[i] = P_LEAVE;
			p->leaving = true;
		} else {
			for (i = slot; i < end; i++)
				plan_child(g, v, i, p);
		}
	}
	/* The dotted box's room, kept whether or not it is needed. */
	take(p, BOX_W);
}

/*
 * Draw the children of @v as planned, in @room points: each drawn child
 * has its narrowest room and a fair share of what is spare, as it comes.
 * Return: the room they took.
 */
static unsigned int dot_children(struct dotter *g, const struct idr_view *v,
				 unsigned int room)
{
	struct plan_of p = { { 0 }, { 0 }, room, 0, false };
	struct left_out lo = { 0, 0, 0, 0 };
	unsigned int slot, n = 0, taken = 0;
	struct idr_view child;

	plan_children(g, v, &p);
	for (slot = 0; slot < v->slots; slot++)
		n += p.plan[slot] == P_DRAW || p.plan[slot] == P_FORCE;
	for (slot = 0; slot < v->slots; slot++) {
		unsigned int least = g->width, share, given, used, spare;

		if (p.plan[slot] == P_RUN) {
			struct key k = idr__key_of(&g->d, v, slot);

			dot_run(g, v, slot, p.end[slot], &k);
			taken += BOX_W;
			continue;
		}
		if (p.plan[slot] == P_DRAW &&
		    g->d.drawn >= g->d.opts.max_nodes) {
			p.plan[slot] = P_LEAVE;
			g->d.cut = true;
		}
		if (p.plan[slot] == P_LEAVE)
			leave_out(g, v, slot, slot + 1, &lo);
		if (p.plan[slot] != P_DRAW && p.plan[slot] != P_FORCE)
			continue;
		idr_view_child(g->d.idr, v, slot, &child);
		if (p.plan[slot] == P_FORCE)
			least = forced_need(g, child.depth, child.first,
					    child.last);
		share = g->d.opts.full ? UINT_MAX / 2 / v->slots : p.left / n--;
		given = larger(least, g->width) + share;
		used = dot_subtree(g, &child, v, given);
		p.left -= share;
		/* Room the child left unused goes back, up to its share. */
		spare = used < given ? given - used : 0;
		p.left += spare < share ? spare : share;
		taken += used;
	}
	if (lo.subtrees) {
		dot_left_out(g, v, &lo);
		taken += BOX_W;
	}
	return taken;
}

/* Draw @v and what fits of its subtree in @room; return the room taken. */
static unsigned int dot_subtree(struct dotter *g, const struct idr_view *v,
				const struct idr_view *parent,
				unsigned int room)
{
	unsigned int below = 0;

	g->d.drawn++;
	dot_node(g, v, parent);
	if (v->level)
		below = dot_children(g, v, room);
	return larger(below, g->width);
}

/* The symbols and colours, as a row of cells like the nodes'. */
static void dot_key(const struct dotter *g)
{
	static const char *const keys[][3] = {
		{ "#ffffff", "\xc2\xb7", "free" },
		{ "#56b4e9", "\xe2\x97\x8f", "in use" },
		{ "#e69f00", "\xe2\x96\xa0", "full below" },
		{ "#009e73", "\xe2\x96\xb8", "child with room" },
		{ "#cc79a7", "\xc3\x97", "retired" },
	};
	unsigned int i, n = g->retired ? 5 : 4;

	fputs("<TR><TD ALIGN=\"LEFT\"><TABLE BORDER=\"0\" CELLSPACING=\"3\" "
	      "CELLPADDING=\"1\"><TR>",
	      g->d.out);
	/* Fixed sizes, or Graphviz spreads the key as wide as the text. */
	for (i = 0; i < n; i++)
		fprintf(g->d.out,
			"<TD BORDER=\"1\" BGCOLOR=\"%s\" WIDTH=\"16\" "
			"HEIGHT=\"16\" FIXEDSIZE=\"TRUE\">%s</TD>"
			"<TD ALIGN=\"LEFT\" WIDTH=\"%u\" HEIGHT=\"16\" "
			"FIXEDSIZE=\"TRUE\">"
			"%s</TD>",
			keys[i][0], keys[i][1],
			(unsigned int)strlen(keys[i][2]) * 6 + 12, keys[i][2]);
	fputs("</TR></TABLE></TD></TR>\n", g->d.out);
}

/* The key to the picture, as the graph's label above it. */
static void dot_legend(const struct dotter *g)
{
	FILE *out = g->d.out;

	fputs("\tlabelloc=t; labeljust=l; fontname=\"monospace\"; "
	      "fontsize=10;\n\tlabel=<<TABLE BORDER=\"0\" CELLSPACING=\"0\" "
	      "CELLPADDING=\"1\">\n",
	      out);
	dot_key(g);
	fprintf(out,
		"<TR><TD ALIGN=\"LEFT\" BALIGN=\"LEFT\">Slots 0..%u left to "
		"right; above them the full bitmap in hex, in the same "
		"order:<BR/>a digit for four slots, the leftmost slot its "
		"high bit.",
		IDR_SLOTS - 1);
	if (g->npath)
		fprintf(out,
			"<BR/><FONT COLOR=\"#0072b2\">\xe2\x96\xbc</FONT> and "
			"blue: the way down to ID %lu.",
			g->d.opts.at);
	if (g->marks_drawn)
		fputs("<BR/><FONT COLOR=\"#d55e00\">\xe2\x97\x86</FONT> a "
		      "cell the last operation changed.",
		      out);
	else if (g->nmarks)
		fputs("<BR/>The cells the last operation changed are gone: "
		      "their nodes were freed.",
		      out);
	if (g->runs)
		fprintf(out,
			"<BR/>Dashed boxes: %lu run%s of alike siblings, "
			"collapsed.",
			g->runs, g->runs == 1 ? "" : "s");
	if (g->left_out)
		fprintf(out,
			"<BR/>Dotted boxes: %lu node%s not drawn, to keep "
			"the picture small",
			g->left_out, g->left_out == 1 ? "" : "s");
	if (g->left_out && g->d.cut)
		fprintf(out, " (max_nodes %u)", g->d.opts.max_nodes);
	if (g->left_out)
		fputs(";<BR/>see them with dump --at ID or --range A B, or "
		      "dot --at ID.",
		      out);
	fputs("</TD></TR>\n</TABLE>>;\n", out);
}

int idr_dump_dot(const struct idr *idr, FILE *out,
		 const struct idr_dump_opts *opts)
{
	struct idr_view top;
	struct idr_stats st;
	struct dotter g;

	memset(&g, 0, sizeof(g));
	idr__dumper_init(&g.d, idr, out, opts, DEFAULT_NODES);
	idr_stats(idr, &st);
	g.retired = st.retired;
	dot_setup(&g);
	if (dot_marks(&g))
		return -ENOMEM;
	fprintf(out,
		"digraph %s {\n\tnode [shape=plaintext, "
		"fontname=\"monospace\", "
		"fontsize=8];\n\tedge [arrowsize=0.6];\n\tordering=out;\n",
		g.d.ida ? "ida" : "idr");
	if (idr_view_top(idr, &top))
		dot_subtree(&g, &top, NULL, DOT_WIDTH);
	else {
		fputs("\tempty [label=\"(empty)\"];\n", out);
	}
	dot_legend(&g);
	fputs("}\n", out);
	if (g.marks)
		idr__free(g.marks, g.d.opts.nchanged * sizeof(*g.marks));
	return idr__dump_finish(out);
}
