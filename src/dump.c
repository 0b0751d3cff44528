/* SPDX-License-Identifier: MIT */
/*
 * dump.c - the tree as text, an ID's path in words, and statistics as
 * lines; dot.c draws the tree as Graphviz DOT with the dumper and the
 * words this file gives it (dumper.h).  With dot.c, the library's only
 * I/O: each function writes to the FILE * it is given and reports a
 * failed write as -EIO.
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

#include "dumper.h"
#include "gen.h"
#include "tree.h"
#include "walk.h"

#define WIDTH 80
#define DEFAULT_ENTRIES 8
/* The most of an entry's text kept: more than a text line holds. */
#define ENTRY_TEXT_MAX (WIDTH + 2)

void idr__dumper_init(struct dumper *d, const struct idr *idr, FILE *out,
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

int idr__dump_finish(FILE *out)
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
void idr__entry_text(const struct dumper *d, const struct idr_view *v,
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
void idr__slot_range(const struct idr_view *v, unsigned int slot,
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
	idr__slot_range(v, slot, &lo, &hi);
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
		idr__entry_text(d, v, slot, buf, WIDTH - indent + 1);
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

struct key idr__key_of(const struct dumper *d, const struct idr_view *v,
		       unsigned int slot)
{
	struct key k = { K_NONE, 0 };
	struct idr_view child;
	unsigned long lo, hi;

	idr__slot_range(v, slot, &lo, &hi);
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

bool idr__same_key(struct key a, struct key b)
{
	return a.kind == b.kind && a.count == b.count;
}

/* What a run of @n alike children of @v are, e.g. "62 full leaves". */
void idr__run_words(char *buf, const struct idr_view *v, unsigned int n,
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
void idr__run_range(const struct idr_view *v, unsigned int from,
		    unsigned int to, unsigned long *lo, unsigned long *hi)
{
	unsigned long unused;

	idr__slot_range(v, from, lo, &unused);
	idr__slot_range(v, to - 1, &unused, hi);
}

/* One line for the children of @v in slots @from .. @to - 1, all alike. */
static void text_run(struct dumper *d, const struct idr_view *v,
		     unsigned int from, unsigned int to, const struct key *k)
{
	unsigned long lo, hi;
	char words[RUN_WORDS];

	idr__run_range(v, from, to, &lo, &hi);
	idr__run_words(words, v, to - from, k);
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
		struct key k = idr__key_of(d, v, slot);
		bool alike;

		for (end = slot + 1;
		     end < v->slots && idr__same_key(idr__key_of(d, v, end), k);
		     end++)
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
unsigned long idr__nodes_under(const struct dumper *d, const struct idr_view *v)
{
	unsigned long n = 1;
	struct idr_view child;
	unsigned int slot;

	for (slot = 0; v->level && slot < v->slots; slot++)
		if (idr_view_child(d->idr, v, slot, &child))
			n += idr__nodes_under(d, &child);
	return n;
}

static void dump_subtree(struct dumper *d, const struct idr_view *v)
{
	if (d->lines > d->stop)
		return;
	if (d->opts.max_nodes && d->drawn >= d->opts.max_nodes) {
		d->cut = true;
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

	d->drawn = 0;
	d->cut = false;
	if (idr_view_top(d->idr, &top))
		dump_subtree(d, &top);
}

/* The tree index of ID @id, or false if no index holds it. */
bool idr__index_of(const struct idr *idr, unsigned long id, uint64_t *index)
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

	if (idr__index_of(d->idr, d->opts.at, &index))
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

	idr__dumper_init(&d, idr, out, opts, 0);
	d.node = text_node;
	d.run = text_run;
	d.gaps = true;
	if (d.opts.max_lines)
		dump_limited(&d);
	else
		dump_text(&d);
	return idr__dump_finish(out);
}

/* }==================== Text ==================== */

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
	return idr__dump_finish(out);
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
		return idr__dump_finish(out);
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
	return idr__dump_finish(out);
}

/* }==================== Statistics ==================== */
