/* SPDX-License-Identifier: MIT */
/*
 * dump.c - the tree as text and as Graphviz DOT, an ID's path in words,
 * and statistics as lines.  The library's only I/O: each function writes
 * to the FILE * it is given and reports a failed write as -EIO.
 *
 * The text is deterministic (same tree, same text) so that tests can
 * compare it byte for byte; entries are printed by the caller's
 * print_entry, or as "*" when it gives none (pointers vary run to run).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "gen.h"
#include "tree.h"
#include "walk.h"

#define WIDTH 80
#define DEFAULT_ENTRIES 8
#define DEFAULT_NODES 64
/*
 * Runs of siblings that collapse to one line: full subtrees from two on
 * (there is nothing in them to read but '#'), leaves holding as many
 * entries each from eight on, so that small trees, as a lesson builds
 * them, print every leaf.
 */
#define RUN_FULL 2u
#define RUN_LEAVES 8u
/* The most of an entry's text kept: more than a text line holds. */
#define ENTRY_TEXT_MAX (WIDTH + 2)

/* What a child subtree is, as far as collapsing alike siblings goes. */
enum kind {
	K_NONE,	 /* outside the range asked for */
	K_EMPTY, /* no child */
	K_FULL,	 /* no free ID below */
	K_ROOM,	 /* room below */
};

struct key {
	enum kind kind;
	unsigned int count; /* a leaf's entries; 0 higher up */
};

struct dumper {
	const struct idr *idr;
	FILE *out;
	/* Text goes through say(): counted, and written up to a budget. */
	bool measuring;	      /* count the lines, write nothing */
	unsigned long lines;  /* lines said so far */
	unsigned long budget; /* the lines written at most */
	unsigned long stop;   /* the walk ends once this many are said */
	struct idr_stats st;  /* the header's, counted at the first try */
	bool st_known;
	struct idr_dump_opts opts;
	bool ida;
	unsigned long drawn;   /* nodes drawn so far */
	unsigned long skipped; /* DOT: nodes summarised */
	bool cut;	       /* stopped at max_nodes */
	bool gaps;	       /* text: a line for each run of empty slots */
	/* How the walk below writes a node, and a run of alike siblings. */
	void (*node)(struct dumper *d, const struct idr_view *v);
	void (*run)(struct dumper *d, const struct idr_view *v,
		    unsigned int from, unsigned int to, const struct key *k);
	struct idr_view stack[IDR_LEVELS_MAX]; /* DOT: the nodes above */
};

static void dumper_init(struct dumper *d, const struct idr *idr, FILE *out,
			const struct idr_dump_opts *opts,
			unsigned int default_nodes)
{
	memset(d, 0, sizeof(*d));
	d->idr = idr;
	d->out = out;
	if (opts)
		d->opts = *opts;
	if (!d->opts.max_entries)
		d->opts.max_entries = DEFAULT_ENTRIES;
	if (!d->opts.max_nodes)
		d->opts.max_nodes = default_nodes;
	d->ida = idr->idr_flags & IDR__IDA;
	d->budget = ULONG_MAX;
	d->stop = ULONG_MAX;
}

/* Write the first @budget lines of @text; the rest is dropped. */
static void write_lines(FILE *out, const char *text, unsigned long budget)
{
	const char *end = text;

	while (budget && (end = strchr(end, '\n')) != NULL) {
		end++;
		budget--;
	}
	if (budget)
		fputs(text, out);
	else
		fwrite(text, 1, (size_t)(end - text), out);
}

/*
 * Text for the dump: written to @d->out while within the budget, and
 * counted either way, so that a dump held to max_lines is measured
 * first and then written, with no copy of it in memory.  Each piece is
 * a few words or a line: far below the buffer.  Returns its length.
 */
static unsigned int say(struct dumper *d, const char *fmt, ...)
{
	char text[512];
	const char *nl;
	unsigned long had = d->lines;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	for (nl = strchr(text, '\n'); nl; nl = strchr(nl + 1, '\n'))
		d->lines++;
	if (!d->measuring && had < d->budget)
		write_lines(d->out, text, d->budget - had);
	return (unsigned int)n;
}

static int finish(FILE *out)
{
	return fflush(out) == 0 && !ferror(out) ? 0 : -EIO;
}

/* {==================== Slot maps and entries ==================== */

/* One character per slot: what the slot holds. */
static char slot_char(const struct dumper *d, const struct idr_view *v,
		      unsigned int slot)
{
	bool present = v->present >> slot & 1, full = v->full >> slot & 1;

	if (!present)
		return v->level || d->ida ? '-' : '.';
	if (v->level == 0 && !d->ida) {
		return idr_view_retired(d->idr, v, slot) ? 'x' : '#';
	}
	return full ? '#' : '+';
}

static void slot_map(const struct dumper *d, const struct idr_view *v,
		     char *map)
{
	unsigned int slot;

	for (slot = 0; slot < v->slots; slot++)
		map[slot] = slot_char(d, v, slot);
	map[v->slots] = '\0';
}

/*
 * What print_entry writes for @entry, cut short of @size (glibc keeps
 * @size - 2 bytes): the stream writes into @buf itself and is unbuffered,
 * so that the C library takes no memory for the text.  False if the
 * stream could not be opened.
 */
static bool print_into(const struct dumper *d, unsigned long id, void *entry,
		       char *buf, size_t size)
{
	FILE *mem;

	memset(buf, 0, size);
	mem = fmemopen(buf, size - 1, "w");
	if (!mem)
		return false;
	setvbuf(mem, NULL, _IONBF, 0);
	d->opts.print_entry(mem, id, entry, d->opts.data);
	fclose(mem);
	return true;
}

/* Write one leaf entry as text into @buf (at most @size bytes). */
static void entry_text(const struct dumper *d, const struct idr_view *v,
		       unsigned int slot, char *buf, size_t size)
{
	unsigned long id = v->first + slot;
	void *entry = idr_view_entry(v, slot);
	char text[ENTRY_TEXT_MAX];
	bool printed;

	if (d->ida) {
		id = v->first + (unsigned long)slot * IDR__CHUNK;
		snprintf(buf, size, "%lu..%lu:%u", id, id + IDR__CHUNK - 1,
			 idr_view_bits(v, slot));
		return;
	}
	printed = d->opts.print_entry &&
		  print_into(d, id, entry, text, sizeof(text));
	snprintf(buf, size, "%lu:%s", id,
		 printed ? text
		 : entry ? "*"
			 : "NULL");
	if (d->idr->idr_id_bits)
		snprintf(buf + strlen(buf), size - strlen(buf), "@g%" PRIu64,
			 idr_view_gen(d->idr, v, slot));
}

/* The IDs slot @slot of @v covers. */
static void slot_range(const struct idr_view *v, unsigned int slot,
		       unsigned long *lo, unsigned long *hi)
{
	unsigned long span = (v->last - v->first) / v->slots + 1;

	*lo = v->first + slot * span;
	*hi = *lo + (span - 1);
}

/* Whether IDs @lo..@hi meet the range the options ask for. */
static bool in_range(const struct dumper *d, unsigned long lo, unsigned long hi)
{
	return !d->opts.range_set ||
	       (hi >= d->opts.range_first && lo <= d->opts.range_last);
}

/* Whether slot @slot of @v holds something the dump shows. */
static bool shown_slot(const struct dumper *d, const struct idr_view *v,
		       unsigned int slot)
{
	unsigned long lo, hi;

	if (!(v->present >> slot & 1))
		return false;
	slot_range(v, slot, &lo, &hi);
	return in_range(d, lo, hi);
}

/* A leaf's entries, wrapped at WIDTH, then "(+N more)" when cut. */
static void leaf_entries(struct dumper *d, const struct idr_view *v,
			 unsigned int indent)
{
	unsigned int slot, shown = 0, col = indent, total = 0;
	char buf[WIDTH];

	for (slot = 0; slot < v->slots; slot++)
		total += shown_slot(d, v, slot);
	say(d, "%*s", indent, "");
	for (slot = 0; slot < v->slots && shown < d->opts.max_entries; slot++) {
		size_t len;

		if (!shown_slot(d, v, slot))
			continue;
		/* An entry longer than a line is cut to fit one. */
		entry_text(d, v, slot, buf, WIDTH - indent + 1);
		len = strlen(buf);
		if (shown && col + 1 + len > WIDTH) {
			say(d, "\n%*s", indent, "");
			col = indent;
		}
		col += say(d, "%s%s", col > indent ? " " : "", buf);
		shown++;
	}
	/* A wrapped "(+N more)" starts where the entries do. */
	if (total > shown && col + 12 > WIDTH)
		say(d, "\n%*s(+%u more)", indent, "", total - shown);
	else if (total > shown)
		say(d, " (+%u more)", total - shown);
	say(d, "\n");
}

/* }==================== Slot maps and entries ==================== */

/* {==================== Text ==================== */

static void text_node(struct dumper *d, const struct idr_view *v)
{
	unsigned int indent = 2 * v->depth;
	char map[IDR_SLOTS + 1];

	slot_map(d, v, map);
	say(d, "%*sL%u %lu..%lu  %d/%u", indent, "", v->level, v->first,
	    v->last, __builtin_popcountll(v->present), v->slots);
	if (v->packed)
		say(d, ", packed in %u", v->packed);
	say(d, "\n%*s%s\n", indent + 2, "", map);
	if (v->level == 0)
		leaf_entries(d, v, indent + 2);
}

static struct key key_of(const struct dumper *d, const struct idr_view *v,
			 unsigned int slot)
{
	struct key k = { K_NONE, 0 };
	struct idr_view child;
	unsigned long lo, hi;

	slot_range(v, slot, &lo, &hi);
	if (!in_range(d, lo, hi))
		return k;
	k.kind = K_EMPTY;
	if (!shown_slot(d, v, slot) || !idr_view_child(d->idr, v, slot, &child))
		return k;
	k.kind = v->full >> slot & 1 ? K_FULL : K_ROOM;
	if (child.level == 0)
		k.count = (unsigned int)__builtin_popcountll(child.present);
	return k;
}

static bool same_key(struct key a, struct key b)
{
	return a.kind == b.kind && a.count == b.count;
}

#define RUN_WORDS 40 /* "64 leaves of 64/64": room to spare */

/* What a run of @n alike children of @v are, e.g. "62 full leaves". */
static void run_words(char *buf, const struct idr_view *v, unsigned int n,
		      const struct key *k)
{
	unsigned int level = v->level - 1;

	if (k->kind == K_EMPTY)
		snprintf(buf, RUN_WORDS, "%u empty slot%s", n,
			 n == 1 ? "" : "s");
	else if (k->kind == K_FULL)
		snprintf(buf, RUN_WORDS, "%u full %s", n,
			 level ? (n == 1 ? "node" : "nodes")
			       : (n == 1 ? "leaf" : "leaves"));
	else if (level == 0)
		snprintf(buf, RUN_WORDS, "%u lea%s of %u/%u", n,
			 n == 1 ? "f" : "ves", k->count, v->slots);
	else
		snprintf(buf, RUN_WORDS, "%u node%s with room", n,
			 n == 1 ? "" : "s");
}

/* The IDs of the children of @v in slots @from .. @to - 1. */
static void run_range(const struct idr_view *v, unsigned int from,
		      unsigned int to, unsigned long *lo, unsigned long *hi)
{
	unsigned long unused;

	slot_range(v, from, lo, &unused);
	slot_range(v, to - 1, &unused, hi);
}

/* One line for the children of @v in slots @from .. @to - 1, all alike. */
static void text_run(struct dumper *d, const struct idr_view *v,
		     unsigned int from, unsigned int to, const struct key *k)
{
	unsigned long lo, hi;
	char words[RUN_WORDS];

	run_range(v, from, to, &lo, &hi);
	run_words(words, v, to - from, k);
	say(d, "%*sL%u %lu..%lu: %s\n", 2 * (v->depth + 1), "", v->level - 1,
	    lo, hi, words);
}

static void dump_subtree(struct dumper *d, const struct idr_view *v);

/* Whether a slot of @v from @slot on holds something the dump shows. */
static bool shown_from(const struct dumper *d, const struct idr_view *v,
		       unsigned int slot)
{
	for (; slot < v->slots; slot++)
		if (shown_slot(d, v, slot))
			return true;
	return false;
}

/*
 * The children of @v: a run of alike siblings as one line (unless the
 * options ask for every node), each other child in full.  Below the depth
 * asked for, every run is one line.  In text, a gap between children says
 * so ("L1 4096..8191: 1 empty slot"), where the IDs would jump; empty
 * slots before the first child and after the last only the map shows.
 */
static void dump_children(struct dumper *d, const struct idr_view *v)
{
	bool below = d->opts.depth && v->depth + 1 >= d->opts.depth;
	unsigned int slot, end, i;
	struct idr_view child;
	bool seen = false;

	for (slot = 0; slot < v->slots; slot = end) {
		struct key k = key_of(d, v, slot);
		bool alike;

		for (end = slot + 1;
		     end < v->slots && same_key(key_of(d, v, end), k); end++)
			;
		if (k.kind == K_NONE ||
		    (k.kind == K_EMPTY &&
		     !(d->gaps && seen && shown_from(d, v, end))))
			continue;
		seen = true;
		alike = end - slot >= (k.kind == K_FULL ? RUN_FULL
				       : k.count	? RUN_LEAVES
							: UINT_MAX);
		/* Empty slots have nothing more to show, even in full. */
		if (below || k.kind == K_EMPTY || (!d->opts.full && alike)) {
			d->run(d, v, slot, end, &k);
			continue;
		}
		for (i = slot; i < end; i++)
			if (idr_view_child(d->idr, v, i, &child))
				dump_subtree(d, &child);
	}
}

/* The nodes of the subtree under @v, @v's own included. */
static unsigned long nodes_under(const struct dumper *d,
				 const struct idr_view *v)
{
	unsigned long n = 1;
	struct idr_view child;
	unsigned int slot;

	for (slot = 0; v->level && slot < v->slots; slot++)
		if (idr_view_child(d->idr, v, slot, &child))
			n += nodes_under(d, &child);
	return n;
}

static void dump_subtree(struct dumper *d, const struct idr_view *v)
{
	if (d->lines > d->stop)
		return;
	if (d->opts.max_nodes && d->drawn >= d->opts.max_nodes) {
		d->cut = true;
		d->skipped += nodes_under(d, v);
		return;
	}
	d->drawn++;
	d->node(d, v);
	if (v->level)
		dump_children(d, v);
}

/* Walk the tree: every node, or runs of alike siblings as one. */
static void dump_walk(struct dumper *d)
{
	struct idr_view top;

	d->drawn = d->skipped = 0;
	d->cut = false;
	if (idr_view_top(d->idr, &top))
		dump_subtree(d, &top);
}

/* The tree index of ID @id, or false if no index holds it. */
static bool index_of(const struct idr *idr, unsigned long id, uint64_t *index)
{
	if (idr->idr_flags & IDR__IDA) {
		*index = id / IDR__CHUNK;
		return true;
	}
	if (idr->idr_id_bits)
		id &= (unsigned long)idr__id_max(idr);
	if (id < idr->idr_base)
		return false;
	*index = id - idr->idr_base;
	return true;
}

/* Only the nodes on the way down to @d->opts.at. */
static void dump_at(struct dumper *d)
{
	struct idr_view views[IDR_LEVELS_MAX];
	unsigned int n = 0, i;
	uint64_t index;

	if (index_of(d->idr, d->opts.at, &index))
		n = idr__path_views(d->idr, index, views);
	for (i = 0; i < n; i++)
		text_node(d, &views[i]);
	if (n < idr__height(d->idr))
		say(d, "%*s(no node below holds ID %lu: it is free)\n", 2 * n,
		    "", d->opts.at);
}

static void dump_header(struct dumper *d)
{
	const struct idr *idr = d->idr;
	const struct idr_stats *st = &d->st;

	/* A walk of every node: once, however many tries a dump takes. */
	if (!d->st_known)
		idr_stats(idr, &d->st);
	d->st_known = true;
	say(d, "%s: %lu ID%s, height %u, %lu node%s", d->ida ? "ida" : "idr",
	    st->ids, st->ids == 1 ? "" : "s", st->height, st->nodes,
	    st->nodes == 1 ? "" : "s");
	if (idr->idr_base)
		say(d, ", base %u", idr->idr_base);
	if (idr->idr_id_bits)
		say(d, ", tagged: %u ID bits%s", idr->idr_id_bits,
		    idr->idr_flags & IDR_TAG_RETIRE ? ", retire" : "");
	if (st->retired)
		say(d, ", %lu retired", st->retired);
	say(d, "\n");
}

static void dump_text(struct dumper *d)
{
	dump_header(d);
	if (d->opts.at_set)
		dump_at(d);
	else
		dump_walk(d);
	if (d->cut)
		say(d, "(stopped after %u nodes: max_nodes)\n",
		    d->opts.max_nodes);
}

/*
 * How many lines the dump has as the options stand, counted no further
 * than past @cap: it writes nothing, and its walk ends there, so that a
 * try costs the lines it counts, not the tree.
 */
static unsigned long measure(struct dumper *d, unsigned long cap)
{
	d->measuring = true;
	d->lines = 0;
	d->stop = cap;
	dump_text(d);
	d->measuring = false;
	d->stop = ULONG_MAX;
	return d->lines;
}

/*
 * A dump held to @d->opts.max_lines: collapsed, with fewer levels until
 * it fits above a last line that says how to see more.  Each try is
 * measured, not kept in memory, and stops past max_lines: this takes no
 * memory, cannot fail, and costs what it shows.
 */
static void dump_limited(struct dumper *d)
{
	unsigned int max = d->opts.max_lines, height = idr__height(d->idr);
	unsigned int depth = d->opts.depth ? d->opts.depth : height;
	unsigned long total;

	/* The header and the line that says how to see more, at least. */
	if (max < 2)
		max = 2;
	/* Past the height, a level less prints the same: start at it, or
	 * UINT_MAX would take a try a level. */
	depth = depth < height ? depth : height;

	total = measure(d, max);
	if (total > max && d->opts.full) {
		/* Collapsed, every level may still fit: try that first. */
		d->opts.full = false;
		total = measure(d, max);
	} else if (total <= max) {
		dump_text(d);
		return;
	}
	while (total > max - 1 && depth > 1) {
		d->opts.depth = --depth;
		total = measure(d, max);
	}
	/* One level, and still too long: its whole length, for the last
	 * line (one level is the top and a line a run: a short walk). */
	if (total > max - 1)
		total = measure(d, ULONG_MAX);
	d->lines = 0;
	d->budget = d->stop = max - 1;
	dump_text(d);
	fprintf(d->out, "(%u of %u levels shown", depth, height);
	/*
	 * The options that show more, by the names C and Lua give them (a
	 * shell says its own).  Even one level was too long: say what was
	 * cut; depth is no help.
	 */
	if (total > max - 1)
		fprintf(d->out, ", %lu lines cut; more: full, at, range)\n",
			total - (max - 1));
	else
		fputs("; more: full, depth, at, range)\n", d->out);
}

int idr_dump(const struct idr *idr, FILE *out, const struct idr_dump_opts *opts)
{
	struct dumper d;

	dumper_init(&d, idr, out, opts, 0);
	d.node = text_node;
	d.run = text_run;
	d.gaps = true;
	if (d.opts.max_lines)
		dump_limited(&d);
	else
		dump_text(&d);
	return finish(out);
}

/* }==================== Text ==================== */

/* {==================== Graphviz ==================== */

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
	slot_range(v, slot, &lo, &hi);
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
	    !index_of(g->d.idr, g->d.opts.at, &index))
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

	slot_range(v, slot, &lo, &hi);
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
		if (index_of(g->d.idr, g->marks[i].id, &index))
			force_path(g, index, g->marks[i].level);
	return 0;
}

static void dot_setup(struct dotter *g)
{
	uint64_t index;

	g->width = larger(IDR_SLOTS * CELL_W, 240) + GAP_W;
	if (g->d.opts.at_set && index_of(g->d.idr, g->d.opts.at, &index)) {
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
		entry_text(&g->d, v, slot, buf, sizeof(buf));
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

	run_range(v, from, to, &lo, &hi);
	run_words(words, v, to - from, k);
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

	slot_range(v, lo->from, &first, &unused);
	slot_range(v, lo->to - 1, &unused, &last);
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
		lo->nodes += nodes_under(&g->d, &child);
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
		struct key k = key_of(&g->d, v, slot);
		bool alike, forced = forced_child(g, v, slot);

		for (end = slot + 1; !forced && end < v->slots &&
				     same_key(key_of(&g->d, v, end), k) &&
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
			struct key k = key_of(&g->d, v, slot);

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
	dumper_init(&g.d, idr, out, opts, DEFAULT_NODES);
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
	return finish(out);
}

/* }==================== Graphviz ==================== */

/* {==================== The path in words ==================== */

static const char *const path_ends[] = {
	[IDR_PATH_FOUND] = "found: the ID is allocated",
	[IDR_PATH_EMPTY] = "stop: the tree is empty",
	[IDR_PATH_BELOW_BASE] = "stop: the ID is below the idr's base",
	[IDR_PATH_ABOVE_TOP] = "stop: the ID is beyond what the top node "
			       "covers, so it is free",
	[IDR_PATH_NO_CHILD] = "stop: no child in that slot, so every ID "
			      "below it is free",
	[IDR_PATH_FREE_SLOT] = "stop: the slot is free",
	[IDR_PATH_RETIRED] = "stop: the slot is retired: its generations "
			     "are used up",
};

static void path_tag(FILE *out, const struct idr *idr, const struct idr_path *p)
{
	unsigned int g = 31 - p->id_bits;

	fprintf(out,
		"tagged idr: bits %u..30 of %lu carry the tag %lu, "
		"which idr_find() ignores; the ID is %lu\n",
		p->id_bits, p->id, p->tag,
		p->id & (unsigned long)idr__id_max(idr));
	fprintf(out,
		"the slot's generation is %" PRIu64 ", %" PRIu64
		" mod 2^%u: tag %lu is %s\n",
		p->gen, p->gen & (((uint64_t)1 << g) - 1), g, p->tag,
		(p->gen & (((uint64_t)1 << g) - 1)) == p->tag
			? "current"
			: "not current (stale, or never handed out)");
}

static void path_step(FILE *out, const struct idr_path_step *st)
{
	fprintf(out, "L%u %lu..%lu: slot %u is %s\n", st->level, st->first,
		st->last, st->slot,
		!st->present ? "empty"
		: st->full   ? (st->level ? "present, full below" : "in use")
		: st->level  ? "present, with room below"
			     : "in use, with room");
}

int idr_path_print(const struct idr *idr, unsigned long id, FILE *out)
{
	struct idr_path p;
	unsigned int i;

	idr_path(idr, id, &p);
	fprintf(out, "path of %s %lu, in a tree of height %u\n",
		p.ida ? "IDA ID" : "ID", id, p.height);
	if (p.id_bits)
		path_tag(out, idr, &p);
	if (p.end != IDR_PATH_BELOW_BASE) {
		if (p.ida)
			fprintf(out, "bitmap %lu, bit %u (%u IDs a bitmap)\n",
				p.index, p.bit, IDR__CHUNK);
		fprintf(out, "index %lu in base %u:", p.index, IDR_SLOTS);
		for (i = 0; i < p.digits; i++)
			fprintf(out, " %u", p.digit[i]);
		fputs(" (one digit a level, top first)\n", out);
	}
	for (i = 0; i < p.steps; i++)
		path_step(out, &p.step[i]);
	fprintf(out, "%s\n", path_ends[p.end]);
	return finish(out);
}

/* }==================== The path in words ==================== */

/* {==================== Statistics ==================== */

#define BAR 25 /* characters in a full bar of the histogram */

/* Slots in use at each level, [0] the leaves'. */
struct occupancy {
	unsigned long used[IDR_LEVELS_MAX];
	unsigned long slots[IDR_LEVELS_MAX];
};

static int count_slots(const struct idr_view *v, void *data)
{
	struct occupancy *o = data;

	o->used[v->level] += (unsigned long)__builtin_popcountll(v->present);
	o->slots[v->level] += v->slots;
	return 0;
}

/* One bar: "|#####     | 25 of 64 (39%)"; a sliver for any use at all. */
static void bar(FILE *out, const char *name, unsigned long used,
		unsigned long all)
{
	unsigned long n = all ? used * BAR / all : 0;

	if (used && !n)
		n = 1;
	fprintf(out, "  %-4s |%.*s%*s| %lu of %lu (%lu%%)\n", name, (int)n,
		"##########################", (int)(BAR - n), "", used, all,
		all ? used * 100 / all : 0);
}

/* How full each level is, top first; an IDA's bitmaps too. */
static void stats_histogram(const struct idr *idr, const struct idr_stats *st,
			    FILE *out)
{
	struct occupancy o;
	unsigned int level;
	char name[16];

	memset(&o, 0, sizeof(o));
	idr_walk(idr, count_slots, &o);
	fprintf(out, "slots in use, by level (# = %u%%):\n", 100 / BAR);
	for (level = st->height; level-- > 0;) {
		snprintf(name, sizeof(name), "L%u", level);
		bar(out, name, o.used[level], o.slots[level]);
	}
	if (idr->idr_flags & IDR__IDA && st->aux_nodes)
		bar(out, "bits", st->ids, st->aux_nodes * IDR__CHUNK);
}

/* The tree's bytes against a flat array of the same IDs, and the ratio. */
static void stats_flat(FILE *out, const struct idr_stats *st, const char *what,
		       unsigned long first, size_t flat, const char *unit)
{
	fprintf(out, "flat %s: %zu bytes (IDs %lu..%ld, %s an ID)\n", what,
		flat, first, st->highest, unit);
	fprintf(out, "tree / flat %s: %.3g\n", what,
		(double)st->bytes / (double)flat);
}

int idr_stats_print(const struct idr *idr, FILE *out)
{
	struct idr_stats st;
	unsigned long span;
	unsigned int level;

	idr_stats(idr, &st);
	fprintf(out, "ids: %lu\n", st.ids);
	if (idr->idr_id_bits)
		fprintf(out, "retired: %lu\n", st.retired);
	fprintf(out, "height: %u\nnodes: %lu\n", st.height, st.nodes);
	for (level = st.height; level-- > 0;)
		fprintf(out, "level %u nodes: %lu\n", level,
			st.level_nodes[level]);
	if (st.height)
		stats_histogram(idr, &st, out);
	fprintf(out, "packed nodes: %lu\n", st.packed);
	if (st.aux_nodes)
		fprintf(out, "%s: %lu\n",
			idr->idr_flags & IDR__IDA ? "bitmaps"
						  : "generation nodes",
			st.aux_nodes);
	fprintf(out, "cached nodes: %u\npreloaded nodes: %u\n", st.cached,
		st.preloaded);
	fprintf(out, "node size: %zu bytes\nbytes: %zu\n", st.node_bytes,
		st.bytes);
	if (!st.ids) {
		/* No ID: no cost per ID, no lowest or highest. */
		fputs("bytes per ID: none\nlowest ID: none\nhighest ID: none\n",
		      out);
		return finish(out);
	}
	fprintf(out, "bytes per ID: %.3f\n", st.bytes_per_id);
	/* A flat array holds every ID from the first the tree can hand out. */
	span = (unsigned long)st.highest + 1 - idr->idr_base;
	stats_flat(out, &st, "pointer array", idr->idr_base,
		   span * sizeof(void *),
		   sizeof(void *) == 8 ? "8 bytes" : "4 bytes");
	if (idr->idr_flags & IDR__IDA)
		stats_flat(out, &st, "bitmap", 0, (span + 7) / 8, "1 bit");
	fprintf(out, "lowest ID: %ld\nhighest ID: %ld\n", st.lowest,
		st.highest);
	return finish(out);
}

/* }==================== Statistics ==================== */
