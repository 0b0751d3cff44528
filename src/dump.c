/* SPDX-License-Identifier: MIT */
/*
 * dump.c - the plain debug dumps: the tree as text, node by node, an
 * ID's path in words, and statistics as lines.  With them, the library's
 * only I/O: each function writes to the FILE * it is given and reports a
 * failed write as -EIO.  Views that collapse alike siblings, fit a
 * screen or draw a picture are the Lua package's (lua/view/), on the
 * walk of idr_view.h.
 *
 * The text is deterministic (same tree, same text) so that tests can
 * compare it byte for byte; entries are printed by the caller's
 * print_entry, or as "*" when it gives none (pointers vary run to run).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "gen.h"
#include "tree.h"
#include "walk.h"

#define WIDTH 80
#define DEFAULT_ENTRIES 8
/* The most of an entry's text kept: more than a text line holds. */
#define ENTRY_TEXT_MAX (WIDTH + 2)

struct dumper {
	const struct idr *idr;
	FILE *out;
	struct idr_dump_opts opts;
	bool ida;
	/* Text goes through say(): counted, and written up to a budget. */
	bool measuring;	      /* count the lines, write nothing */
	unsigned long lines;  /* lines said so far */
	unsigned long budget; /* the lines written at most */
	unsigned long stop;   /* the walk ends once this many are said */
	unsigned long drawn;  /* nodes shown so far */
	bool cut;	      /* stopped at max_nodes */
};

static int dump_finish(FILE *out)
{
	return fflush(out) == 0 && !ferror(out) ? 0 : -EIO;
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

/* {==================== Slot maps and entries ==================== */

/* One character per slot: what the slot holds. */
static char slot_char(const struct dumper *d, const struct idr_view *v,
		      unsigned int slot)
{
	bool present = v->present >> slot & 1, full = v->full >> slot & 1;

	if (!present)
		return v->level || d->ida ? '-' : '.';
	if (v->level == 0 && !d->ida)
		return idr_view_retired(d->idr, v, slot) ? 'x' : '#';
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

/* One leaf entry as text, into @buf (at most @size bytes). */
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

/* A leaf's entries, wrapped at WIDTH, then "(+N more)" when cut. */
static void leaf_entries(struct dumper *d, const struct idr_view *v,
			 unsigned int indent)
{
	unsigned int slot, shown = 0, col = indent;
	unsigned int total = (unsigned int)__builtin_popcountll(v->present);
	/* Room for an entry whole, though it is cut to the line's width:
	 * so the compiler sees no truncation it should warn of. */
	char buf[ENTRY_TEXT_MAX + 48];

	say(d, "%*s", indent, "");
	/* A tagged idr keeps its leaves, empty ones too: they hold the
	 * generations. */
	if (!total) {
		say(d, "(no IDs: the leaf keeps its generations)\n");
		return;
	}
	for (slot = 0; slot < v->slots && shown < d->opts.max_entries; slot++) {
		size_t len;

		if (!(v->present >> slot & 1))
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

/* {==================== The tree as text ==================== */

/* What the node is, as the Lua dump says it (G.kind()), after the @col
 * characters of its line so far; a keyed block's room only where the
 * line stays in WIDTH.  It always does at 6 bits a level; at 3, 11
 * levels deep (a test build, with no Lua module), it may not. */
static void node_kind(struct dumper *d, const struct idr_view *v,
		      unsigned int col)
{
	char room[32];

	if (v->keyed && v->level) {
		col += say(d, ", keyed block of %u ID%s", v->keyed,
			   v->keyed == 1 ? "" : "s");
		snprintf(room, sizeof(room), ", room for %u", v->packed);
		if (col + strlen(room) <= WIDTH)
			say(d, "%s", room);
	} else if (v->keyed)
		say(d, ", in the keyed block (no leaf)");
	else if (v->packed)
		say(d, ", packed in %u", v->packed);
}

static void dump_node(struct dumper *d, const struct idr_view *v)
{
	unsigned int indent = 2 * v->depth, col;
	char map[IDR_SLOTS + 1];

	slot_map(d, v, map);
	col = say(d, "%*sL%u %lu..%lu  %d/%u", indent, "", v->level, v->first,
		  v->last, __builtin_popcountll(v->present), v->slots);
	node_kind(d, v, col);
	say(d, "\n%*s%s\n", indent + 2, "", map);
	if (v->level == 0)
		leaf_entries(d, v, indent + 2);
}

/* @v and the nodes under it, down to the depth asked for. */
static void dump_subtree(struct dumper *d, const struct idr_view *v)
{
	struct idr_view child;
	unsigned int slot;

	if (d->lines > d->stop)
		return;
	if (d->opts.max_nodes && d->drawn >= d->opts.max_nodes) {
		d->cut = true;
		return;
	}
	d->drawn++;
	dump_node(d, v);
	if (d->opts.depth && v->depth + 1 >= d->opts.depth)
		return;
	for (slot = 0; idr_view_next_child(d->idr, v, &slot, &child); slot++)
		dump_subtree(d, &child);
}

/* The IDs an IDA's bitmaps hold: a walk of its leaves. */
static int count_bits(const struct idr_view *v, void *data)
{
	unsigned long *ids = data;
	unsigned int slot;

	for (slot = 0; v->level == 0 && slot < v->slots; slot++)
		*ids += idr_view_bits(v, slot);
	return 0;
}

static void dump_header(struct dumper *d)
{
	const struct idr *idr = d->idr;
	struct idr_info info;
	unsigned long ids = idr->idr_count;

	idr_info(idr, &info);
	if (d->ida) {
		ids = 0;
		idr_walk(idr, count_bits, &ids);
	}
	say(d, "%s: %lu ID%s, height %u, %lu node%s", d->ida ? "ida" : "idr",
	    ids, ids == 1 ? "" : "s", info.height, info.nodes,
	    info.nodes == 1 ? "" : "s");
	if (info.base)
		say(d, ", base %u", info.base);
	if (info.id_bits)
		say(d, ", tagged: %u ID bits%s", info.id_bits,
		    info.retire ? ", retire" : "");
	if (info.retired)
		say(d, ", %lu retired", info.retired);
	say(d, "\n");
}

static void dump_text(struct dumper *d)
{
	struct idr_view top;

	d->drawn = 0;
	d->cut = false;
	dump_header(d);
	if (idr_view_top(d->idr, &top))
		dump_subtree(d, &top);
	if (d->cut)
		say(d, "(stopped after %u node%s: max_nodes)\n",
		    d->opts.max_nodes, d->opts.max_nodes == 1 ? "" : "s");
}

/*
 * Held to max_lines: the dump is measured first, its walk ending past
 * max_lines, then written whole if it fits, or its first max_lines - 1
 * lines and one that says where it stopped.  It costs what it shows and
 * allocates nothing.
 */
static void dump_limited(struct dumper *d)
{
	unsigned long max = d->opts.max_lines < 2 ? 2 : d->opts.max_lines;

	d->measuring = true;
	d->stop = max;
	dump_text(d);
	d->measuring = false;
	if (d->lines <= max) {
		d->lines = 0;
		d->stop = ULONG_MAX;
		dump_text(d);
		return;
	}
	d->lines = 0;
	d->budget = d->stop = max - 1;
	dump_text(d);
	fprintf(d->out, "(stopped after %lu line%s: max_lines)\n", max - 1,
		max == 2 ? "" : "s");
}

int idr_dump(const struct idr *idr, FILE *out, const struct idr_dump_opts *opts)
{
	struct dumper d;

	memset(&d, 0, sizeof(d));
	d.idr = idr;
	d.out = out;
	if (opts)
		d.opts = *opts;
	if (!d.opts.max_entries)
		d.opts.max_entries = DEFAULT_ENTRIES;
	d.ida = idr->idr_flags & IDR__IDA;
	d.budget = ULONG_MAX;
	d.stop = ULONG_MAX;
	if (d.opts.max_lines)
		dump_limited(&d);
	else
		dump_text(&d);
	return dump_finish(out);
}

/* }==================== The tree as text ==================== */

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
	uint64_t gen = p->gen & (((uint64_t)1 << g) - 1);

	fprintf(out,
		"tagged idr: bits %u..30 of %lu carry the tag %lu, "
		"which idr_find() ignores; the ID is %lu\n",
		p->id_bits, p->id, p->tag,
		p->id & (unsigned long)idr__id_max(idr));
	/* Current only for a live ID: a free slot's generation is its next
	 * ID's, and a slot with no leaf has the seed's. */
	if (p->end == IDR_PATH_FOUND)
		fprintf(out,
			"the slot's generation is %" PRIu64 ", %" PRIu64
			" mod 2^%u: tag %lu is %s\n",
			p->gen, gen, g, p->tag,
			gen == p->tag ? "current"
				      : "not current (stale, or never handed "
					"out)");
	else if (p->end == IDR_PATH_RETIRED)
		fprintf(out,
			"the slot is retired, at generation %" PRIu64
			": no tag of it is live, and no ID will be handed "
			"out there again\n",
			p->gen);
	else if (p->end == IDR_PATH_FREE_SLOT && p->steps &&
		 !p->step[p->steps - 1].level)
		fprintf(out,
			"the slot is free, at generation %" PRIu64
			": no tag of it is live; its next ID gets tag %" PRIu64
			"\n",
			p->gen, gen);
	else
		fprintf(out,
			"no leaf holds the slot: no tag of it is live; a new "
			"leaf starts at the seed, generation %" PRIu64 "\n",
			p->gen);
}

/* The ID's key in a keyed block: its index's bits below the block's
 * digit. */
static unsigned long path_key(const struct idr_path *p)
{
	return p->index & (((unsigned long)IDR_SLOTS << IDR_BITS) - 1);
}

/* A step in a keyed block (@keyed: the IDs it holds): the block, then
 * the run of keys that holds the ID's, if there is one. */
static void path_keyed_step(FILE *out, const struct idr_path *p,
			    const struct idr_path_step *st, unsigned int keyed)
{
	fprintf(out, "L%u %lu..%lu: ", st->level, st->first, st->last);
	if (st->level)
		fprintf(out,
			"keyed block of %u ID%s (a packed node with no "
			"leaves): slot %u %s\n",
			keyed, keyed == 1 ? "" : "s", st->slot,
			st->present ? "holds some of its keys"
				    : "holds none of its keys");
	else
		fprintf(out, "slot %u is %s: key %lu is %s the block\n",
			st->slot, st->present ? "in use" : "empty", path_key(p),
			st->present ? "in" : "not in");
}

/* @retired: the leaf's slot is retired, full for good but holding no ID. */
static void path_step(FILE *out, const struct idr_path_step *st, bool ida,
		      bool retired)
{
	if (retired) {
		fprintf(out, "L0 %lu..%lu: slot %u is retired\n", st->first,
			st->last, st->slot);
		return;
	}
	if (ida && !st->level && st->present) {
		fprintf(out, "L0 %lu..%lu: slot %u holds a bitmap, %s\n",
			st->first, st->last, st->slot,
			st->full ? "full" : "with room");
		return;
	}
	fprintf(out, "L%u %lu..%lu: slot %u is %s\n", st->level, st->first,
		st->last, st->slot,
		!st->present ? "empty"
		: st->full   ? (st->level ? "present, full below" : "in use")
		: st->level  ? "present, with room below"
			     : "in use, with room");
}

/* An IDA's walk that ends in its leaf: at a bitmap whose bit for the ID
 * is clear, or at a slot with no bitmap. */
static void path_ida_end(FILE *out, const struct idr_path *p)
{
	if (p->steps && p->step[p->steps - 1].present)
		fprintf(out,
			"stop: bit %u of the bitmap is clear, so the ID "
			"is free\n",
			p->bit);
	else
		fputs("stop: no bitmap in that slot, so every ID of it is "
		      "free\n",
		      out);
}

/* The steps, each as what it met: a node, or a keyed block (the views
 * say which), and why the walk stopped. */
static void path_print_steps(FILE *out, const struct idr *idr,
			     const struct idr_path *p)
{
	struct idr_view views[IDR_LEVELS_MAX];
	unsigned int i, keyed = 0;

	if (p->steps)
		idr__path_views(idr, p->index, views);
	for (i = 0; i < p->steps; i++) {
		keyed = views[i].keyed;
		if (keyed)
			path_keyed_step(out, p, &p->step[i], keyed);
		else
			path_step(out, &p->step[i], p->ida,
				  i + 1 == p->steps &&
					  p->end == IDR_PATH_RETIRED);
	}
	if (keyed && p->end != IDR_PATH_FOUND)
		fprintf(out,
			"stop: key %lu is not in the keyed block, so the "
			"ID is free\n",
			path_key(p));
	else if (p->ida && p->end == IDR_PATH_FREE_SLOT)
		path_ida_end(out, p);
	else
		fprintf(out, "%s\n", path_ends[p->end]);
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
	path_print_steps(out, idr, &p);
	return dump_finish(out);
}

/* }==================== The path in words ==================== */

/* {==================== Statistics ==================== */

#define BAR 25 /* characters in a full bar of the histogram */

/* Slots in use at each level, [0] the leaves'; and the keyed blocks,
 * with the IDs they hold. */
struct occupancy {
	unsigned long used[IDR_LEVELS_MAX];
	unsigned long slots[IDR_LEVELS_MAX];
	unsigned long keyed_blocks, keyed_ids;
};

static int count_slots(const struct idr_view *v, void *data)
{
	struct occupancy *o = data;

	/* A keyed block's runs of keys are no leaves: no slots of their own. */
	if (v->keyed && !v->level)
		return 0;
	if (v->keyed) {
		o->keyed_blocks++;
		o->keyed_ids += v->keyed;
	}
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
			    const struct occupancy *o, FILE *out)
{
	unsigned int level;
	char name[16];

	fprintf(out, "slots in use, by level (# = %u%%):\n", 100 / BAR);
	for (level = st->height; level-- > 0;) {
		snprintf(name, sizeof(name), "L%u", level);
		/* Only leaves can be missing: keyed blocks stand for them. */
		if (!o->slots[level])
			fprintf(out, "  %-4s no leaves: %s\n", name,
				"its IDs are in keyed blocks");
		else
			bar(out, name, o->used[level], o->slots[level]);
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

/* Keyed blocks are packed nodes too (idr_stats() counts them so); each
 * figure on a line of its own, a number a lesson can read. */
static void stats_packed(FILE *out, const struct idr_stats *st,
			 const struct occupancy *o)
{
	fprintf(out, "packed nodes: %lu\n", st->packed);
	if (o->keyed_blocks)
		fprintf(out, "keyed blocks: %lu\nIDs in keyed blocks: %lu\n",
			o->keyed_blocks, o->keyed_ids);
}

int idr_stats_print(const struct idr *idr, FILE *out)
{
	struct idr_stats st;
	struct occupancy o;
	unsigned long span;
	unsigned int level;

	idr_stats(idr, &st);
	memset(&o, 0, sizeof(o));
	idr_walk(idr, count_slots, &o);
	fprintf(out, "ids: %lu\n", st.ids);
	if (idr->idr_id_bits)
		fprintf(out, "retired: %lu\n", st.retired);
	fprintf(out, "height: %u\nnodes: %lu\n", st.height, st.nodes);
	for (level = st.height; level-- > 0;)
		fprintf(out, "level %u nodes: %lu\n", level,
			st.level_nodes[level]);
	if (st.height)
		stats_histogram(idr, &st, &o, out);
	stats_packed(out, &st, &o);
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
		return dump_finish(out);
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
	return dump_finish(out);
}

/* }==================== Statistics ==================== */
