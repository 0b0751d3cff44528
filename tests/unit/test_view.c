/* SPDX-License-Identifier: MIT */
/*
 * test_view.c - looking inside: the paths and statistics as text
 * compared byte for byte with tests/golden/ (whose dumps are the Lua
 * module's, tests/lua/test_views.lua), the plain debug dump, the walk
 * and its cursor, and statistics held to the allocator seam's own count.
 *
 * Golden files describe the shipped 64-slot layout; the 3-bit build
 * runs the other cases only.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "idr_view.h"
#include "seam.h"
#include "tree.h"

static char value[] = "v";

static void alloc_at(struct idr *idr, unsigned long id, void *ptr)
{
	uint32_t got = (uint32_t)id;

	CHECK_EQ(idr_alloc_u32(idr, ptr, &got, id, 0), 0);
}

#if IDR_BITS == 6

static char val_a[] = "a", val_b[] = "b", val_c[] = "c", val_zero[] = "zero",
	    val_s[] = "s";

static int print_value(FILE *out, unsigned long id, void *entry, void *data)
{
	(void)id;
	(void)data;
	return fprintf(out, "%s", entry ? (const char *)entry : "(reserved)");
}

/* Compare @text with tests/golden/@name.txt, and free it. */
static void golden_compare(const char *name, char *text, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), "tests/golden/%s.txt", name);
	golden_check(path, text, len);
}

/* The file tests/golden/@name.txt from its first line "path of " on. */
static char *golden_paths(const char *name)
{
	char path[256], *text = NULL, *from;
	size_t len = 0;
	FILE *f, *mem = open_memstream(&text, &len);
	int c;

	snprintf(path, sizeof(path), "tests/golden/%s.txt", name);
	f = fopen(path, "r");
	if (CHECK(f != NULL)) {
		while ((c = getc(f)) != EOF)
			putc(c, mem);
		fclose(f);
	}
	fclose(mem);
	from = text ? strstr(text, "\npath of ") : NULL;
	if (!CHECK(from != NULL))
		return text;
	memmove(text, from + 1, strlen(from));
	return text;
}

/*
 * The paths of @ids, as tests/golden/@name.txt has them after the dump
 * (the Lua module's dump: tests/lua/test_views.lua checks it).
 */
static void golden(const char *name, const struct idr *idr,
		   const unsigned long *ids, size_t n)
{
	char *text = NULL, *want = golden_paths(name);
	size_t len = 0, i;
	FILE *mem = open_memstream(&text, &len);

	for (i = 0; i < n; i++)
		CHECK_EQ(idr_path_print(idr, ids[i], mem), 0);
	fclose(mem);
	if (!CHECK(want && strcmp(text, want) == 0))
		fprintf(stderr, "golden: %s's paths differ; got:\n%s", name,
			text);
	free(want);
	free(text);
}

/*
 * stats as text: the bar a level and the flat arrays, on the trees of
 * the dumps above (100,000 IDs, the hole), an IDA, an idr with a base,
 * and an empty one.
 */
static void view_golden_stats(void)
{
	DEFINE_IDR(dense);
	DEFINE_IDR(holed);
	DEFINE_IDR(empty);
	DEFINE_IDR(far);
	DEFINE_IDA(ida);
	struct idr based;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	unsigned long i;

	idr_init_base(&based, 1000);
	for (i = 0; i < 100000; i++)
		CHECK_EQ(idr_alloc(&dense, val_s, 0, 0, 0), i);
	for (i = 0; i < 20000; i++)
		CHECK_EQ(idr_alloc(&holed, val_s, 0, 0, 0), i);
	for (i = 1000; i < 9000; i++)
		CHECK(idr_remove(&holed, i) == val_s);
	for (i = 0; i < 5000; i++)
		CHECK_EQ(ida_alloc(&ida, 0), i);
	CHECK_EQ(ida_alloc_min(&ida, 100000, 0), 100000);
	alloc_at(&based, 1005, val_s);
	alloc_at(&based, 70000, val_s);
	alloc_at(&far, 1000000, val_s);
	fputs("== 100000 IDs\n", mem);
	CHECK_EQ(idr_stats_print(&dense, mem), 0);
	fputs("== a hole\n", mem);
	CHECK_EQ(idr_stats_print(&holed, mem), 0);
	fputs("== an IDA\n", mem);
	CHECK_EQ(idr_stats_print(ida_tree(&ida), mem), 0);
	fputs("== base 1000\n", mem);
	CHECK_EQ(idr_stats_print(&based, mem), 0);
	fputs("== empty\n", mem);
	CHECK_EQ(idr_stats_print(&empty, mem), 0);
	/* No leaf: its bar would say "0 of 0". */
	fputs("== one far ID, in a keyed block\n", mem);
	CHECK_EQ(idr_stats_print(&far, mem), 0);
	fclose(mem);
	golden_compare("stats", text, len);
	idr_destroy(&far);
	idr_destroy(&dense);
	idr_destroy(&holed);
	idr_destroy(&based);
	ida_destroy(&ida);
}

static void view_golden_empty(void)
{
	static const unsigned long ids[] = { 0, 5 };
	DEFINE_IDR(idr);

	golden("empty", &idr, ids, 2);
}

static void view_golden_one(void)
{
	static const unsigned long ids[] = { 0, 1, 64 };
	DEFINE_IDR(idr);

	alloc_at(&idr, 0, val_zero);
	golden("one", &idr, ids, 3);
	idr_destroy(&idr);
}

static void view_golden_full_leaf(void)
{
	static const unsigned long ids[] = { 63, 64 };
	DEFINE_IDR(idr);
	int i;

	for (i = 0; i < 64; i++)
		idr_alloc(&idr, value, 0, 0, 0);
	golden("full-leaf", &idr, ids, 2);
	idr_destroy(&idr);
}

static void view_golden_three_levels(void)
{
	static const unsigned long ids[] = { 8300, 9000, 70, 300000 };
	DEFINE_IDR(idr);
	int i;

	for (i = 0; i < 70; i++)
		idr_alloc(&idr, value, 0, 0, 0);
	alloc_at(&idr, 8300, NULL);
	golden("three-levels", &idr, ids, 4);
	idr_destroy(&idr);
}

static void view_golden_sparse(void)
{
	static const unsigned long ids[] = { 1000, 1073741824, 2000000000 };
	static const unsigned long at[] = { 5, 1000, 70000, 1048579,
					    1073741824 };
	DEFINE_IDR(idr);
	size_t i;

	idr_init_base(&idr, 1);
	for (i = 0; i < 5; i++)
		alloc_at(&idr, at[i], val_s);
	golden("sparse", &idr, ids, 3);
	idr_destroy(&idr);
}

/* Lone IDs in keyed blocks: their paths, and the plain dump and the
 * stats, which say so as the Lua module's do. */
static void view_golden_keyed(void)
{
	static const unsigned long ids[] = { 100005, 100001, 100100, 16777216 };
	static const int at[] = { 0, 16777216, 100000, 100005, 100200, 300000 };
	DEFINE_IDR(idr);
	char *text = NULL;
	size_t len = 0, i;
	FILE *mem;

	for (i = 0; i < 6; i++)
		CHECK_EQ(idr_alloc(&idr, val_s, at[i], at[i] + 1, 0), at[i]);
	golden("keyed", &idr, ids, 4);
	mem = open_memstream(&text, &len);
	CHECK_EQ(idr_dump(&idr, mem, NULL), 0);
	CHECK_EQ(idr_stats_print(&idr, mem), 0);
	fclose(mem);
	CHECK(strstr(text, "\n      L1 98304..102399  2/64, keyed block of 3 "
			   "IDs, room for 3\n"));
	CHECK(strstr(text, "\n        L0 99968..100031  2/64, in the keyed "
			   "block (no leaf)\n"));
	CHECK(strstr(text, "\npacked nodes: 10\nkeyed blocks: 3\n"
			   "IDs in keyed blocks: 5\n"));
	free(text);
	idr_destroy(&idr);
}

static void view_golden_tagged(void)
{
	unsigned long ids[3];
	DEFINE_IDR(idr);
	int a, b;

	CHECK_EQ(idr_tag_init(&idr, 16, 0), 0);
	a = idr_alloc_tagged(&idr, val_a, 0, 0, 0);
	b = idr_alloc_tagged(&idr, val_b, 0, 0, 0);
	idr_remove_tagged(&idr, a);
	ids[0] = (unsigned long)a;
	ids[1] = (unsigned long)idr_alloc_tagged(&idr, val_c, 0, 0, 0);
	ids[2] = (unsigned long)b;
	golden("tagged", &idr, ids, 3);
	idr_destroy(&idr);
}

static void view_golden_ida(void)
{
	static const unsigned long ids[] = { 4097, 5000, 100000 };
	DEFINE_IDA(ida);
	int i;

	for (i = 0; i < 5000; i++)
		ida_alloc(&ida, 0);
	ida_free(&ida, 4097);
	ida_alloc_min(&ida, 100000, 0);
	golden("ida", ida_tree(&ida), ids, 3);
	ida_destroy(&ida);
}

#endif

/* {==================== Statistics ==================== */

/* Bytes and nodes as stats count them equal what the seam handed out. */
static void check_stats_against_seam(const struct idr *idr,
				     const struct seam_mem_stats *before)
{
	struct seam_mem_stats now;
	struct idr_stats st;

	seam_mem_stats(&now);
	CHECK_EQ(idr_stats(idr, &st), 0);
	CHECK_EQ(st.bytes, now.bytes - before->bytes);
	CHECK_EQ(st.nodes + st.aux_nodes + st.cached,
		 (now.allocs - before->allocs) - (now.frees - before->frees));
	if (!st.packed)
		CHECK_EQ(st.node_bytes * (st.nodes + st.aux_nodes + st.cached),
			 st.bytes);
	else
		CHECK(st.bytes <
		      st.node_bytes * (st.nodes + st.aux_nodes + st.cached));
}

static void view_stats_idr(void)
{
	struct seam_mem_stats before;
	struct idr_stats st;
	DEFINE_IDR(idr);
	unsigned long i;

	seam_mem_stats(&before);
	idr_stats(&idr, &st);
	CHECK_EQ(st.ids, 0);
	CHECK_EQ(st.lowest, -1);
	CHECK_EQ(st.highest, -1);
	CHECK_EQ(st.bytes, 0);
	for (i = 0; i < 5000; i += 3)
		alloc_at(&idr, i * 7 + 100, value);
	check_stats_against_seam(&idr, &before);
	for (i = 0; i < 5000; i += 6)
		idr_remove(&idr, i * 7 + 100);
	check_stats_against_seam(&idr, &before);
	idr_stats(&idr, &st);
	CHECK_EQ(st.ids, idr_count(&idr));
	CHECK_EQ(st.lowest, 3 * 7 + 100);
	CHECK_EQ(st.height, idr__height(&idr));
	/* IDs asked for one by one live in packed nodes, which go back to
	 * malloc; a whole leaf (too few entries to pack), emptied, goes to
	 * the cache.  ID 0 is lone, in a packed leaf with room for 2; the
	 * run from it fills that, and its third ID takes a whole leaf. */
	for (i = 0; i < 3; i++)
		CHECK_EQ(idr_alloc(&idr, value, 0, 100, GFP_KERNEL), (int)i);
	for (i = 0; i < 3; i++)
		CHECK(idr_remove(&idr, i) == value);
	idr_stats(&idr, &st);
	CHECK(st.cached > 0);
	CHECK_EQ(st.cached, idr_cache_count(&idr));
	idr_destroy(&idr);
}

static void view_stats_ida_tagged(void)
{
	struct seam_mem_stats before;
	struct idr_stats st;
	DEFINE_IDA(ida);
	DEFINE_IDR(idr);
	int i;

	seam_mem_stats(&before);
	for (i = 0; i < 10000; i++)
		ida_alloc(&ida, 0);
	ida_free(&ida, 0);
	check_stats_against_seam(ida_tree(&ida), &before);
	idr_stats(ida_tree(&ida), &st);
	CHECK_EQ(st.ids, 9999);
	CHECK_EQ(st.lowest, 1);
	CHECK_EQ(st.highest, 9999);
	ida_destroy(&ida);
	seam_mem_stats(&before);
	idr_tag_init(&idr, 20, 0);
	for (i = 0; i < 300; i++)
		idr_alloc_tagged(&idr, value, 0, 0, 0);
	check_stats_against_seam(&idr, &before);
	idr_stats(&idr, &st);
	CHECK_EQ(st.aux_nodes, st.level_nodes[0]);
	idr_destroy(&idr);
}

/* A path names the ID's digits and where the walk stopped. */
static void view_path_fields(void)
{
	struct idr_path p;
	DEFINE_IDR(idr);
	unsigned long id = IDR_SLOTS * IDR_SLOTS + 2 * IDR_SLOTS + 3;

	idr_path(&idr, 7, &p);
	CHECK_EQ(p.end, IDR_PATH_EMPTY);
	alloc_at(&idr, id, NULL);
	idr_path(&idr, id, &p);
	CHECK_EQ(p.end, IDR_PATH_FOUND);
	CHECK_EQ(p.steps, 3);
	CHECK_EQ(p.digits, 3);
	CHECK(p.digit[0] == 1 && p.digit[1] == 2 && p.digit[2] == 3);
	CHECK(p.step[2].present && p.step[2].full && p.step[2].slot == 3);
	idr_path(&idr, id + 1, &p);
	CHECK_EQ(p.end, IDR_PATH_FREE_SLOT);
	idr_path(&idr, 3, &p);
	CHECK_EQ(p.end, IDR_PATH_NO_CHILD);
	idr_path(&idr, (unsigned long)IDR_SLOTS * IDR_SLOTS * IDR_SLOTS, &p);
	CHECK_EQ(p.end, IDR_PATH_ABOVE_TOP);
	idr_destroy(&idr);
	idr_init_base(&idr, 10);
	idr_path(&idr, 3, &p);
	CHECK_EQ(p.end, IDR_PATH_BELOW_BASE);
	/* An empty tagged idr: the slot's generation is the seed. */
	idr_init(&idr);
	CHECK_EQ(idr_tag_init(&idr, 10, 0), 0);
	idr_path(&idr, 5, &p);
	CHECK_EQ(p.end, IDR_PATH_EMPTY);
	CHECK_EQ(p.gen, 0);
	CHECK_EQ(p.steps, 0);
}

/* }==================== Statistics ==================== */

static int print_long(FILE *out, unsigned long id, void *entry, void *data)
{
	(void)id;
	(void)entry;
	(void)data;
	return fprintf(out, "%0100d", 7);
}

/* No line of the text dump is wider than 80 columns, whatever it holds. */
static void view_dump_fits_80_columns(void)
{
	struct idr_dump_opts wide = { .print_entry = print_long };
	char *text = NULL, *line, *next;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	DEFINE_IDR(idr);

	alloc_at(&idr, 2147483647, value);
	alloc_at(&idr, 3, value);
	CHECK_EQ(idr_dump(&idr, mem, &wide), 0);
	fclose(mem);
	for (line = text; *line; line = next + 1) {
		next = strchr(line, '\n');
		if (!CHECK(next != NULL) || !CHECK(next - line <= 80))
			break;
	}
	free(text);
	idr_destroy(&idr);
}

/*
 * The default dump of a big tree, held to 50 lines, fits in 50 lines:
 * 10^7 IDs in the plain build, 10^6 where building them is slow (the
 * sanitizers, valgrind, 3 bits a level).
 */
#if defined(__SANITIZE_ADDRESS__) || IDR_BITS != 6
#define BIG_IDS 1000000ul
#else
#define BIG_IDS 10000000ul
#endif

static unsigned long lines_in(const char *text)
{
	unsigned long n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static void view_dump_big_fits_50_lines(void)
{
	struct idr_dump_opts screen = { .max_lines = 50 };
	struct seam_mem_stats before, after;
	const char *preload = getenv("LD_PRELOAD");
	unsigned long ids = BIG_IDS, i;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	DEFINE_IDR(idr);

	if (preload && strstr(preload, "vgpreload"))
		ids = 1000000;
	for (i = 0; i < ids; i++)
		if (!CHECK_EQ(idr_alloc(&idr, value, 0, 0, 0), i))
			break;
	/* Held to max_lines, it allocates nothing: it cannot fail. */
	seam_mem_stats(&before);
	seam_fault_inject(0, ~0ul);
	CHECK_EQ(idr_dump(&idr, mem, &screen), 0);
	seam_fault_inject(0, 0);
	seam_mem_stats(&after);
	fclose(mem);
	CHECK_EQ(after.allocs, before.allocs);
	CHECK_EQ(lines_in(text), 50);
	CHECK(strstr(text, "\n(stopped after 49 lines: max_lines)\n") != NULL);
	free(text);
	idr_destroy(&idr);
}

/* max_nodes stops a text dump too, and says so. */
static void view_dump_max_nodes_text(void)
{
	struct idr_dump_opts few = { .max_nodes = 3 };
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	DEFINE_IDR(idr);
	unsigned long i;

	for (i = 0; i < 20; i++)
		alloc_at(&idr, i * IDR_SLOTS, value);
	CHECK_EQ(idr_dump(&idr, mem, &few), 0);
	fclose(mem);
	CHECK(strstr(text, "(stopped after 3 nodes: max_nodes)\n") != NULL);
	free(text);
	idr_destroy(&idr);
}

#if IDR_BITS == 6

/*
 * The plain dump: every node in ID order, parent first, indented by its
 * depth, no run or gap folded (tests/golden/plain.txt); depth shows that
 * many levels; max_lines writes the dump whole when it fits, else its
 * first max_lines - 1 lines and one saying so.
 */
static void view_plain_dump(void)
{
	struct idr_dump_opts o = { .print_entry = print_value };
	char *text = NULL, *whole;
	size_t len = 0, i;
	FILE *mem = open_memstream(&text, &len);
	unsigned long n;
	DEFINE_IDR(idr);

	for (i = 0; i < 70; i++)
		alloc_at(&idr, i, val_s);
	for (i = 0; i < 12; i++)
		alloc_at(&idr, 8192 + i * 64, val_a);
	alloc_at(&idr, 300000, NULL);
	CHECK_EQ(idr_dump(&idr, mem, &o), 0);
	o.depth = 2;
	CHECK_EQ(idr_dump(&idr, mem, &o), 0);
	o.depth = 0;
	o.max_nodes = 4;
	CHECK_EQ(idr_dump(&idr, mem, &o), 0);
	fclose(mem);
	golden_compare("plain", text, len);
	mem = open_memstream(&whole, &len);
	o.max_nodes = 0;
	CHECK_EQ(idr_dump(&idr, mem, &o), 0);
	fclose(mem);
	n = lines_in(whole);
	for (o.max_lines = 1; o.max_lines <= n + 1; o.max_lines++) {
		mem = open_memstream(&text, &len);
		CHECK_EQ(idr_dump(&idr, mem, &o), 0);
		fclose(mem);
		if (o.max_lines >= n) {
			CHECK(strcmp(text, whole) == 0);
		} else {
			CHECK_EQ(lines_in(text),
				 o.max_lines < 2 ? 2 : o.max_lines);
			CHECK(strncmp(text, whole, strlen(text) - 40) == 0);
			CHECK(strstr(text, o.max_lines > 2
						   ? "lines: max_lines)\n"
						   : "1 line: max_lines)\n") !=
			      NULL);
		}
		free(text);
	}
	free(whole);
	idr_destroy(&idr);
}

#endif

/* The largest ID there is: every digit fits, and the walk says why it stops. */
static void view_path_of_ulong_max(void)
{
	struct idr_path p;
	unsigned int i;
	DEFINE_IDR(idr);

	CHECK_EQ(idr_alloc(&idr, &idr, 0, 0, GFP_KERNEL), 0);
	CHECK_EQ(idr_path(&idr, ULONG_MAX, &p), 0);
	CHECK_EQ(p.digits,
		 (sizeof(unsigned long) * 8 + IDR_BITS - 1) / IDR_BITS);
	CHECK(p.digits <= IDR_LEVELS_MAX);
	for (i = 0; i < p.digits; i++)
		CHECK(p.digit[i] < IDR_SLOTS);
	CHECK_EQ(p.end, IDR_PATH_ABOVE_TOP);
	idr_destroy(&idr);
}

/* The stats text of an empty tree says "none" where there is no value. */
static void view_stats_print_empty(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	DEFINE_IDR(idr);

	CHECK_EQ(idr_stats_print(&idr, mem), 0);
	CHECK_EQ(idr_alloc(&idr, &idr, 5, 0, GFP_KERNEL), 5);
	CHECK_EQ(idr_stats_print(&idr, mem), 0);
	fclose(mem);
	CHECK(strstr(text, "ids: 0\n") != NULL);
	CHECK(strstr(text, "bytes per ID: none\nlowest ID: none\n"
			   "highest ID: none\n") != NULL);
	CHECK(strstr(text, "lowest ID: 5\nhighest ID: 5\n") != NULL);
	CHECK(strstr(text, "-1") == NULL);
	free(text);
	idr_destroy(&idr);
}

/* A tagged idr keeps a leaf it emptied: the dump says why it is there,
 * and its path that no tag of the slot is live. */
static void view_tagged_empty_leaf(void)
{
	char *text = NULL, dots[IDR_SLOTS + 1], want[IDR_SLOTS + 128];
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	DEFINE_IDR(idr);

	memset(dots, '.', IDR_SLOTS);
	dots[IDR_SLOTS] = '\0';
	snprintf(want, sizeof(want),
		 "\nL0 0..%d  0/%d\n  %s\n  (no IDs: the leaf keeps its "
		 "generations)\n",
		 IDR_SLOTS - 1, IDR_SLOTS, dots);
	CHECK_EQ(idr_tag_init(&idr, 8, 0), 0);
	CHECK(idr_remove_tagged(&idr, idr_alloc_tagged(&idr, &idr, 0, 0,
						       GFP_KERNEL)) == &idr);
	CHECK_EQ(idr_dump(&idr, mem, NULL), 0);
	CHECK_EQ(idr_path_print(&idr, 0, mem), 0);
	fclose(mem);
	CHECK(strstr(text, want) != NULL);
	CHECK(strstr(text, "\nthe slot is free, at generation 1: no tag of it "
			   "is live; its next ID gets tag 1\n") != NULL);
	free(text);
	idr_destroy(&idr);
}

/* {==================== The cursor and the facts ==================== */

struct seen {
	unsigned long n, blocks; /* views; those that are blocks of memory */
	unsigned long first[64], last[64];
	unsigned int level[64];
};

static void seen_add(struct seen *s, const struct idr_view *v)
{
	if (s->n < 64) {
		s->first[s->n] = v->first;
		s->last[s->n] = v->last;
		s->level[s->n] = v->level;
	}
	s->n++;
	/* A keyed block's runs of keys are views, and no blocks. */
	s->blocks += !v->keyed || v->level;
}

static int seen_walk(const struct idr_view *v, void *data)
{
	seen_add(data, v);
	return 0;
}

/* Depth first by cursor: every child of @v, one idr_view_next_child()
 * call each, then a last call that finds none. */
static void seen_cursor(const struct idr *idr, const struct idr_view *v,
			struct seen *s)
{
	struct idr_view child;
	unsigned int slot;

	seen_add(s, v);
	for (slot = 0; idr_view_next_child(idr, v, &slot, &child); slot++) {
		CHECK_EQ(child.depth, v->depth + 1);
		CHECK_EQ(child.level + 1, v->level);
		CHECK(v->present >> slot & 1);
		seen_cursor(idr, &child, s);
	}
	if (!v->level)
		CHECK_EQ(slot, 0);
}

/* The cursor meets the nodes idr_walk() meets, in its order, and
 * idr_stats() counts as many; idr_view_child() answers slot by slot. */
static void view_cursor_walks_every_node(void)
{
	static const unsigned long ids[] = { 0, 5, 300, 4100, 70000, 70001 };
	DEFINE_IDR(idr);
	struct seen by_walk = { 0 }, by_cursor = { 0 };
	struct idr_view top, child, untouched;
	struct idr_stats st;
	unsigned int slot, children = 0;
	size_t i;

	CHECK(!idr_view_top(&idr, &top));
	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		alloc_at(&idr, ids[i], value);
	CHECK(idr_view_top(&idr, &top));
	CHECK_EQ(top.depth, 0);
	CHECK_EQ(top.first, 0);
	idr_walk(&idr, seen_walk, &by_walk);
	seen_cursor(&idr, &top, &by_cursor);
	CHECK_EQ(idr_stats(&idr, &st), 0);
	CHECK_EQ(by_cursor.blocks, st.nodes);
	CHECK_EQ(by_cursor.n, by_walk.n);
	CHECK(by_cursor.n >= 4 && by_cursor.n <= 64);
	CHECK(!memcmp(&by_cursor, &by_walk, sizeof(by_walk)));

	for (slot = 0; slot < top.slots; slot++) {
		bool has = idr_view_child(&idr, &top, slot, &child);

		CHECK_EQ(has, top.present >> slot & 1);
		children += has;
	}
	CHECK(children >= 2);
	memset(&untouched, 0xa5, sizeof(untouched));
	child = untouched;
	CHECK(!idr_view_child(&idr, &top, top.slots, &child));
	CHECK(!idr_view_child(&idr, &top, UINT_MAX, &child));
	slot = top.slots;
	CHECK(!idr_view_next_child(&idr, &top, &slot, &child));
	CHECK_EQ(slot, top.slots);
	CHECK(!memcmp(&child, &untouched, sizeof(child)));

	/* Down the leftmost path to a leaf: a leaf has no child. */
	child = top;
	do
		slot = 0;
	while (child.level &&
	       CHECK(idr_view_next_child(&idr, &child, &slot, &child)));
	CHECK_EQ(child.first, 0);
	slot = 0;
	CHECK(!idr_view_child(&idr, &child, 0, &top));
	CHECK(!idr_view_next_child(&idr, &child, &slot, &top));
	idr_destroy(&idr);
}

/* Looking inside never allocates: with every allocation refused, the
 * walk, the cursor, the facts, a path and the stats all work. */
static void view_walking_allocates_nothing(void)
{
	static const unsigned long ids[] = { 0, 5, 300, 4100, 70000 };
	struct seam_mem_stats before, after;
	struct seen by_walk = { 0 }, by_cursor = { 0 };
	struct idr_view top;
	struct idr_info info;
	struct idr_path path;
	struct idr_stats st;
	unsigned long id = 1;
	void *entry;
	size_t i;
	DEFINE_IDR(idr);

	for (i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		alloc_at(&idr, ids[i], value);
	seam_mem_stats(&before);
	seam_fault_inject(0, ULONG_MAX);
	idr_walk(&idr, seen_walk, &by_walk);
	CHECK(idr_view_top(&idr, &top));
	seen_cursor(&idr, &top, &by_cursor);
	idr_info(&idr, &info);
	CHECK(idr_next_in_use(&idr, &id, &entry) && id == 5);
	CHECK_EQ(idr_path(&idr, 4100, &path), 0);
	CHECK_EQ(idr_stats(&idr, &st), 0);
	seam_fault_inject(0, 0);
	seam_mem_stats(&after);
	CHECK_EQ(after.allocs, before.allocs);
	CHECK_EQ(after.failed, before.failed);
	CHECK_EQ(by_cursor.blocks, st.nodes);
	idr_destroy(&idr);
}

static void view_info_reads_what_idr_is(void)
{
	DEFINE_IDR(plain);
	DEFINE_IDR(tagged);
	DEFINE_IDA(ida);
	struct idr_info info;
	struct idr_stats st;

	idr_init_base(&plain, 5);
	memset(&info, 0xa5, sizeof(info));
	idr_info(&plain, &info);
	CHECK_EQ(info.base, 5);
	CHECK_EQ(info.id_bits, 0);
	CHECK(!info.retire && !info.ida);
	CHECK_EQ(info.height, 0);
	CHECK_EQ(info.bits, IDR_BITS);
	CHECK_EQ(info.slots, IDR_SLOTS);
	CHECK_EQ(info.retired, 0);
	CHECK_EQ(info.nodes, 0);
	alloc_at(&plain, 4000, value);
	alloc_at(&plain, 70000, value);
	idr_info(&plain, &info);
	CHECK(info.height >= 2);
	CHECK_EQ(idr_stats(&plain, &st), 0);
	CHECK_EQ(info.nodes, st.nodes);
	idr_remove(&plain, 70000);
	idr_info(&plain, &info);
	CHECK_EQ(idr_stats(&plain, &st), 0);
	CHECK_EQ(info.nodes, st.nodes);

	CHECK_EQ(idr_tag_init(&tagged, 12, IDR_TAG_RETIRE), 0);
	idr_info(&tagged, &info);
	CHECK_EQ(info.base, 0);
	CHECK_EQ(info.id_bits, 12);
	CHECK(info.retire && !info.ida);

	CHECK(ida_alloc(&ida, GFP_KERNEL) == 0);
	idr_info(ida_tree(&ida), &info);
	CHECK(info.ida && !info.retire);
	CHECK_EQ(info.height, 1);
	CHECK(!idr_next_in_use(ida_tree(&ida), &(unsigned long){ 0 },
			       &(void *){ NULL }));
	idr_destroy(&plain);
	idr_destroy(&tagged);
	ida_destroy(&ida);
}

/* Reserved IDs are found, where idr_get_next_ul() skips them; retired
 * slots are not; the base counts. */
static void view_next_in_use_finds_reserved(void)
{
	DEFINE_IDR(idr);
	unsigned long id = 0;
	void *entry = value;

	idr_init_base(&idr, 1);
	CHECK(!idr_next_in_use(&idr, &id, &entry));
	CHECK(id == 0 && entry == value);
	alloc_at(&idr, 3, NULL);
	alloc_at(&idr, 700, value);
	CHECK(idr_next_in_use(&idr, &id, &entry));
	CHECK(id == 3 && entry == NULL);
	CHECK(idr_get_next_ul(&idr, &(unsigned long){ 0 }) == value);
	id = 4;
	CHECK(idr_next_in_use(&idr, &id, &entry));
	CHECK(id == 700 && entry == value);
	id = 701;
	CHECK(!idr_next_in_use(&idr, &id, &entry));
	CHECK_EQ(id, 701);
	idr_destroy(&idr);
}

/* Two generations (30 ID bits): the second removal retires slot 0. */
static void view_retired_slot(void)
{
	DEFINE_IDR(idr);
	struct idr_info info;
	struct idr_view leaf;
	unsigned long id = 0;
	void *entry;
	int t;

	CHECK_EQ(idr_tag_init(&idr, 30, IDR_TAG_RETIRE), 0);
	CHECK_EQ(idr_alloc_tagged(&idr, value, 0, 0, GFP_KERNEL), 0);
	t = idr_alloc_tagged(&idr, value, 0, 0, GFP_KERNEL);
	CHECK_EQ(idr_tag_id(&idr, t), 1);
	CHECK(idr_remove_tagged(&idr, 0) == value);
	t = idr_alloc_tagged(&idr, value, 0, 0, GFP_KERNEL);
	CHECK_EQ(idr_tag_id(&idr, t), 0);
	CHECK_EQ(idr_tag_gen(&idr, t), 1);
	CHECK(idr_remove_tagged(&idr, t) == value);
	CHECK(idr_view_top(&idr, &leaf) && leaf.level == 0);
	CHECK(idr_view_retired(&idr, &leaf, 0));
	CHECK(!idr_view_retired(&idr, &leaf, 1));
	CHECK(!idr_view_retired(&idr, &leaf, 2));
	CHECK(!idr_view_retired(&idr, &leaf, leaf.slots));
	idr_info(&idr, &info);
	CHECK_EQ(info.retired, 1);
	CHECK(idr_next_in_use(&idr, &id, &entry));
	CHECK(id == 1 && entry == value);
	idr_destroy(&idr);
}

/* Given back unchanged: the same tagged ID comes next, where a removal
 * advances the generation.  Untagged, it is a removal. */
static void view_unalloc_keeps_generation(void)
{
	DEFINE_IDR(idr);
	DEFINE_IDR(plain);
	int t, again;

	CHECK_EQ(idr_tag_init(&idr, 10, 0), 0);
	t = idr_alloc_tagged(&idr, value, 0, 0, GFP_KERNEL);
	CHECK(idr_unalloc(&idr, (unsigned long)t) == value);
	CHECK(idr_find_tagged(&idr, t) == NULL);
	again = idr_alloc_tagged(&idr, value, 0, 0, GFP_KERNEL);
	CHECK_EQ(again, t);
	CHECK(idr_remove_tagged(&idr, again) == value);
	again = idr_alloc_tagged(&idr, value, 0, 0, GFP_KERNEL);
	CHECK(again != t);
	CHECK_EQ(idr_tag_id(&idr, again), idr_tag_id(&idr, t));
	CHECK(idr_unalloc(&idr, 5) == NULL);
	CHECK_SOUND(&idr);

	idr_init_base(&plain, 2);
	CHECK(idr_unalloc(&plain, 0) == NULL);
	alloc_at(&plain, 2, value);
	CHECK(idr_unalloc(&plain, 2) == value);
	CHECK(idr_is_empty(&plain));
	idr_destroy(&idr);
	idr_destroy(&plain);
}

/* }==================== The cursor and the facts ==================== */

void suite_view(void)
{
	RUN(view_stats_print_empty);
	RUN(view_tagged_empty_leaf);
	RUN(view_path_of_ulong_max);
#if IDR_BITS == 6
	RUN(view_golden_empty);
	RUN(view_golden_one);
	RUN(view_golden_full_leaf);
	RUN(view_golden_three_levels);
	RUN(view_golden_sparse);
	RUN(view_golden_keyed);
	RUN(view_golden_tagged);
	RUN(view_golden_ida);
	RUN(view_golden_stats);
	RUN(view_plain_dump);
#endif
	RUN(view_stats_idr);
	RUN(view_stats_ida_tagged);
	RUN(view_path_fields);
	RUN(view_dump_fits_80_columns);
	RUN(view_dump_big_fits_50_lines);
	RUN(view_dump_max_nodes_text);
	RUN(view_cursor_walks_every_node);
	RUN(view_walking_allocates_nothing);
	RUN(view_info_reads_what_idr_is);
	RUN(view_next_in_use_finds_reserved);
	RUN(view_retired_slot);
	RUN(view_unalloc_keeps_generation);
}
