/* SPDX-License-Identifier: MIT */
/*
 * test_trace.c - the exact events of each kind of operation: a first
 * allocation, growing, a leaf filling up (full bits going up), removals
 * (detach, free, shrink; full bits cleared), a find, the 2004 API's cache
 * and the IDA's bitmaps.  Events are written one a line as
 *
 *     name L<level> <first ID> s<slot> f<full bitmap, hex> n<nodes> h<height>
 *
 * and the expected text is built for IDR_SLOTS slots, so that the 3-bit
 * build checks the same sequences.
 */
#include <limits.h>
#include <stdarg.h>
#include <string.h>

#include "check.h"
#include "idr_view.h"
#include "tree.h"

#define S IDR_SLOTS
#define ALL ((unsigned long long)(S == 64 ? ~0ull : (1ull << (S & 63)) - 1))
#define TOP (1ull << (S - 1)) /* the full bit of the last slot */

static char value[] = "v";

struct tape {
	char text[8192];
	size_t len;
	bool ops; /* record op and done too: "op alloc 0 0 0", "done -28" */
};

static void put(struct tape *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	t->len += (size_t)vsnprintf(t->text + t->len, sizeof(t->text) - t->len,
				    fmt, ap);
	va_end(ap);
}

static void record(const struct idr *idr, const struct idr_trace *ev,
		   void *data)
{
	struct tape *t = data;

	(void)idr;
	if (ev->event == IDR_TRACE_OP) {
		if (t->ops)
			put(t, "op %s %lld %lld %lu\n", ev->op,
			    (long long)ev->start, (long long)ev->end, ev->id);
		return;
	}
	if (ev->event == IDR_TRACE_DONE) {
		if (t->ops)
			put(t, "done %s %lld\n", ev->op, (long long)ev->result);
		return;
	}
	put(t, "%s L%u %lu s%u f%llx n%u h%u", idr_trace_name(ev->event),
	    ev->level, ev->first, ev->slot, (unsigned long long)ev->full,
	    ev->nodes, ev->height);
	put(t, ev->aux ? " aux%u\n" : "\n", ev->aux);
}

/* Whether @t holds the text of @fmt; @t is emptied either way. */
static bool tape_is(struct tape *t, const char *fmt, ...)
{
	char want[8192];
	va_list ap;
	bool same;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	same = strcmp(t->text, want) == 0;
	if (!same)
		fprintf(stderr, "trace: got\n%swant\n%s", t->text, want);
	t->len = 0;
	t->text[0] = '\0';
	return same;
}

/* IDs @lo .. @hi - 1, untraced. */
static void fill(struct idr *idr, unsigned int lo, unsigned int hi)
{
	unsigned int id;

	for (id = lo; id < hi; id++)
		CHECK_EQ(idr_alloc(idr, value, (int)id, (int)id + 1, 0), id);
}

/* The first allocation: one node from malloc, made and used. */
static void trace_alloc_into_empty(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDR(idr);

	idr_set_trace(&idr, record, &t);
	CHECK_EQ(idr_alloc(&idr, value, 0, 0, 0), 0);
	CHECK(tape_is(&t, "malloc L0 0 s0 f0 n1 h0\n"
			  "node-new L0 0 s0 f0 n0 h1\n"
			  "slot-set L0 0 s0 f0 n0 h1\n"
			  "full L0 0 s0 f1 n0 h1\n"));
	idr_set_trace(&idr, NULL, NULL);
	CHECK_EQ(idr_alloc(&idr, value, 0, 0, 0), 1);
	CHECK(tape_is(&t, ""));
	idr_destroy(&idr);
}

/*
 * A full one-leaf tree grows: no visit finds room, a new top holds the
 * old one at slot 0 (whose full bit it sets: that subtree is full) and a
 * new leaf at slot 1.
 */
static void trace_alloc_grows(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDR(idr);

	fill(&idr, 0, S);
	idr_set_trace(&idr, record, &t);
	CHECK_EQ(idr_alloc(&idr, value, 0, 0, 0), S);
	CHECK(tape_is(&t,
		      "no-room L0 0 s0 f%llx n0 h1\n"
		      "malloc L0 0 s0 f0 n2 h1\n"
		      "node-new L1 0 s0 f0 n0 h2\n"
		      "attach L1 0 s0 f0 n0 h2\n"
		      "subtree-full L1 0 s0 f1 n0 h2\n"
		      "grow L1 0 s0 f1 n0 h2\n"
		      "node-new L0 %u s0 f0 n0 h2\n"
		      "attach L1 0 s1 f1 n0 h2\n"
		      "slot-set L0 %u s0 f0 n0 h2\n"
		      "full L0 %u s0 f1 n0 h2\n",
		      ALL, S, S, S));
	CHECK_SOUND(&idr);
	idr_destroy(&idr);
}

/* The last free slot of a leaf: its full bit, then its parent's. */
static void trace_alloc_fills_leaf(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDR(idr);

	fill(&idr, 0, S - 1);
	fill(&idr, S, S + 1);
	idr_set_trace(&idr, record, &t);
	CHECK_EQ(idr_alloc(&idr, value, 0, 0, 0), S - 1);
	CHECK(tape_is(&t,
		      "visit L1 0 s0 f0 n0 h2\n"
		      "visit L0 0 s%u f%llx n0 h2\n"
		      "slot-set L0 0 s%u f%llx n0 h2\n"
		      "full L0 0 s%u f%llx n0 h2\n"
		      "subtree-full L1 0 s0 f1 n0 h2\n",
		      S - 1, ALL & ~TOP, S - 1, ALL & ~TOP, S - 1, ALL));
	idr_destroy(&idr);
}

/*
 * Removing the one ID of the second leaf: the way down, the slot and its
 * bit cleared, the leaf detached and freed to the cache, then the top,
 * left with slot 0 alone, goes too: the tree shrinks.
 */
static void trace_remove_empties_leaf(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDR(idr);

	fill(&idr, 0, 1);
	/* Preloaded: whole nodes, which go to the cache (a lone ID's are
	 * born packed, and go back to malloc). */
	idr_preload(GFP_KERNEL);
	fill(&idr, S, S + 1);
	idr_preload_end();
	idr_set_trace(&idr, record, &t);
	CHECK(idr_remove(&idr, S) == value);
	CHECK(tape_is(&t,
		      "visit L1 0 s1 f0 n0 h2\n"
		      "visit L0 %u s0 f1 n0 h2\n"
		      "slot-clear L0 %u s0 f1 n0 h2\n"
		      "open L0 %u s0 f0 n0 h2\n"
		      "detach L1 0 s1 f0 n0 h2\n"
		      "node-free L0 %u s0 f0 n0 h2\n"
		      "cache-put L0 %u s0 f0 n0 h2\n"
		      "detach L1 0 s0 f0 n0 h2\n"
		      "node-free L1 0 s0 f0 n0 h1\n"
		      "cache-put L1 0 s0 f0 n0 h1\n"
		      "shrink L0 0 s0 f1 n0 h1\n",
		      S, S, S, S, S));
	CHECK_SOUND(&idr);
	/* The last ID: the last node goes, and the tree is empty.  It is
	 * freed, and so are the cached ones: an empty idr owns nothing. */
	CHECK_EQ(idr_cache_count(&idr), 2);
	CHECK(idr_remove(&idr, 0) == value);
	CHECK(tape_is(&t, "visit L0 0 s0 f1 n0 h1\n"
			  "slot-clear L0 0 s0 f1 n0 h1\n"
			  "open L0 0 s0 f0 n0 h1\n"
			  "node-free L0 0 s0 f0 n0 h0\n"
			  "free L0 0 s0 f0 n0 h0\n"));
	CHECK_EQ(idr_cache_count(&idr), 0);
	/* A removal of a free ID still shows where it looked. */
	CHECK(idr_remove(&idr, 0) == NULL);
	CHECK(tape_is(&t, ""));
	idr_destroy(&idr);
}

/* An ID freed from a full leaf: its bit, and its parent's, cleared. */
static void trace_remove_opens_subtree(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDR(idr);

	fill(&idr, 0, S + 1);
	idr_set_trace(&idr, record, &t);
	CHECK(idr_remove(&idr, 0) == value);
	CHECK(tape_is(&t,
		      "visit L1 0 s0 f1 n0 h2\n"
		      "visit L0 0 s0 f%llx n0 h2\n"
		      "slot-clear L0 0 s0 f%llx n0 h2\n"
		      "open L0 0 s0 f%llx n0 h2\n"
		      "subtree-open L1 0 s0 f0 n0 h2\n",
		      ALL, ALL, ALL & ~1ull));
	CHECK(idr_remove(&idr, 2 * S) == NULL);
	CHECK(tape_is(&t, "visit L1 0 s2 f0 n0 h2\n"));
	idr_destroy(&idr);
}

/* A find visits each node on the way down, and changes nothing. */
static void trace_find(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDR(idr);

	fill(&idr, 0, 1);
	fill(&idr, S, S + 1);
	idr_set_trace(&idr, record, &t);
	CHECK(idr_find(&idr, S) == value);
	CHECK(tape_is(&t,
		      "visit L1 0 s1 f0 n0 h2\n"
		      "visit L0 %u s0 f1 n0 h2\n",
		      S));
	idr_destroy(&idr);
}

/* The 2004 API takes its nodes from the idr's cache, and says so. */
static void trace_get_new_cache(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDR(idr);
	int id;

	CHECK(idr_pre_get(&idr, 0));
	idr_set_trace(&idr, record, &t);
	CHECK_EQ(idr_get_new(&idr, value, &id), 0);
	CHECK(tape_is(&t, "cache-take L0 0 s0 f0 n1 h0\n"
			  "node-new L0 0 s0 f0 n0 h1\n"
			  "slot-set L0 0 s0 f0 n0 h1\n"
			  "full L0 0 s0 f1 n0 h1\n"));
	CHECK_EQ(idr_get_new_above(&idr, value, S, &id), 0);
	CHECK_EQ(id, S);
	CHECK(tape_is(&t,
		      "cache-take L0 0 s0 f0 n2 h1\n"
		      "node-new L1 0 s0 f0 n0 h2\n"
		      "attach L1 0 s0 f0 n0 h2\n"
		      "grow L1 0 s0 f0 n0 h2\n"
		      "node-new L0 %u s0 f0 n0 h2\n"
		      "attach L1 0 s1 f0 n0 h2\n"
		      "slot-set L0 %u s0 f0 n0 h2\n"
		      "full L0 %u s0 f1 n0 h2\n",
		      S, S, S));
	idr_destroy(&idr);
}

/*
 * The IDA's last free bit of a bitmap: the search (its path, once), the
 * bit set, and the leaf's full bit set because the bitmap is full.
 * Then a free: the bit cleared, and the bitmap open again.
 */
static void trace_ida_bitmap_full(void)
{
	struct tape t = { "", 0, false };
	unsigned int last = IDA_BITMAP_BITS - 1, i;
	DEFINE_IDA(ida);

	for (i = 0; i < last; i++)
		CHECK_EQ(ida_alloc(&ida, 0), i);
	idr_set_trace(&ida.ida_rt, record, &t);
	CHECK_EQ(ida_alloc(&ida, 0), last);
	CHECK(tape_is(&t,
		      "visit L0 0 s0 f0 n0 h1\n"
		      "bit-set L0 0 s%u f%llx n0 h1\n"
		      "bitmap-full L0 0 s0 f1 n0 h1\n",
		      last, ALL));
	CHECK_EQ(ida_free(&ida, 5), 0);
	CHECK(tape_is(&t,
		      "visit L0 0 s0 f1 n0 h1\n"
		      "bit-clear L0 0 s5 f%llx n0 h1\n"
		      "bitmap-open L0 0 s0 f0 n0 h1\n",
		      ALL & ~1ull));
	ida_destroy(&ida);
}

/* An IDA's first ID: a leaf, then its bitmap in slot 0, then the bit. */
static void trace_ida_first(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDA(ida);

	idr_set_trace(&ida.ida_rt, record, &t);
	CHECK_EQ(ida_alloc(&ida, 0), 0);
	CHECK(tape_is(&t, "malloc L0 0 s0 f0 n2 h0\n"
			  "node-new L0 0 s0 f0 n0 h1\n"
			  "slot-set L0 0 s0 f0 n0 h1\n"
			  "node-new L0 0 s0 f0 n0 h1 aux2\n"
			  "bit-set L0 0 s0 f0 n0 h1\n"));
	ida_destroy(&ida);
}

/* Whether @t's text begins with @prefix. */
static bool starts(const struct tape *t, const char *prefix)
{
	return strncmp(t->text, prefix, strlen(prefix)) == 0;
}

static int stop_at_second(int id, void *p, void *data)
{
	(void)p;
	(void)data;
	return id == 1 ? 7 : 0;
}

/* Each public operation: one op first, one done last, however nested. */
static void trace_ops_idr(void)
{
	struct tape t = { "", 0, true };
	DEFINE_IDR(idr);
	int id;

	idr_set_trace(&idr, record, &t);
	CHECK_EQ(idr_alloc(&idr, value, 0, 0, 0), 0);
	CHECK(tape_is(&t, "op alloc 0 0 0\n"
			  "malloc L0 0 s0 f0 n1 h0\n"
			  "node-new L0 0 s0 f0 n0 h1\n"
			  "slot-set L0 0 s0 f0 n0 h1\n"
			  "full L0 0 s0 f1 n0 h1\n"
			  "done alloc 0\n"));
	/* An op of its own: moving the cursor may pack the leaf it leaves. */
	idr_set_cursor(&idr, 5);
	CHECK(tape_is(&t, "op set_cursor 0 0 5\n"
			  "done set_cursor 0\n"));
	/* It calls idr_alloc_u32 (twice, wrapping): still one op. */
	CHECK_EQ(idr_alloc_cyclic(&idr, value, 0, 2, 0), 1);
	CHECK(tape_is(&t, "op alloc_cyclic 0 2 5\n"
			  "visit L0 0 s1 f1 n0 h1\n"
			  "slot-set L0 0 s1 f1 n0 h1\n"
			  "full L0 0 s1 f3 n0 h1\n"
			  "done alloc_cyclic 1\n"));
	CHECK_EQ(idr_alloc(&idr, value, 0, 2, 0), -ENOSPC);
	CHECK(tape_is(&t, "op alloc 0 2 0\n"
			  "visit L0 0 s2 f3 n0 h1\n"
			  "done alloc -28\n"));
	CHECK(idr_find(&idr, 7) == NULL);
	CHECK(tape_is(&t, "op find 0 0 7\n"
			  "visit L0 0 s7 f3 n0 h1\n"
			  "done find -2\n"));
	id = 1;
	CHECK(idr_get_next(&idr, &id) == value);
	CHECK(starts(&t, "op get_next 0 0 1\n"));
	CHECK(strstr(t.text, "done get_next 1\n") != NULL);
	CHECK(strstr(t.text, "get_next_ul") == NULL);
	t.len = 0;
	CHECK_EQ(idr_for_each(&idr, stop_at_second, NULL), 7);
	CHECK(starts(&t, "op for_each 0 0 0\n"));
	CHECK(strstr(t.text, "done for_each 7\n") != NULL);
	CHECK(strstr(t.text, "op get_next") == NULL);
	t.len = 0;
	/* The macro's loop: each step that reads the tree is the
	 * idr_get_next() it stands for; none reports outside an op. */
	{
		void *e;
		int n = 0;

		idr_for_each_entry(&idr, e, id)
			n++;
		CHECK_EQ(n, 2);
		/* ID 1 comes from the leaf the first step found. */
		CHECK(tape_is(&t, "op get_next 0 0 0\n"
				  "visit L0 0 s0 f3 n0 h1\n"
				  "done get_next 0\n"
				  "op get_next 0 0 2\n"
				  "done get_next -2\n"));
	}
	t.len = 0;
	CHECK(idr_replace(&idr, value, 1) == value);
	CHECK(tape_is(&t, "op replace 0 0 1\n"
			  "visit L0 0 s1 f3 n0 h1\n"
			  "done replace 1\n"));
	CHECK(idr_remove(&idr, 5) == NULL);
	CHECK(tape_is(&t, "op remove 0 0 5\n"
			  "visit L0 0 s5 f3 n0 h1\n"
			  "done remove -2\n"));
	/* idr_destroy() gives back every ID: one op, its nodes untraced. */
	idr_destroy(&idr);
	CHECK(tape_is(&t, "op destroy 0 0 0\n"
			  "done destroy 0\n"));
	/* Below the base: nothing to look at, and nothing removed. */
	idr_init_base(&idr, 10);
	idr_set_trace(&idr, record, &t);
	CHECK(idr_remove(&idr, 9) == NULL);
	CHECK(tape_is(&t, "op remove 0 0 9\n"
			  "done remove -2\n"));
	idr_destroy(&idr);
}

/* The 2004 API: idr_get_new calls idr_get_new_above; -EAGAIN told. */
static void trace_ops_legacy(void)
{
	struct tape t = { "", 0, true };
	DEFINE_IDR(idr);
	int id;

	idr_set_trace(&idr, record, &t);
	CHECK_EQ(idr_get_new(&idr, value, &id), -EAGAIN);
	CHECK(tape_is(&t, "op get_new 0 0 0\ndone get_new -11\n"));
	CHECK_EQ(idr_pre_get(&idr, 0), 1);
	CHECK(starts(&t, "op pre_get 0 0 0\n"));
	CHECK(strstr(t.text, "done pre_get 0\n") != NULL);
	t.len = 0;
	CHECK_EQ(idr_get_new_above(&idr, value, 3, &id), 0);
	CHECK(starts(&t, "op get_new_above 3 0 0\n"));
	CHECK(strstr(t.text, "done get_new_above 3\n") != NULL);
	idr_destroy(&idr);
}

/* The IDA's operations report on its tree; ida_alloc is one op. */
static void trace_ops_ida(void)
{
	struct tape t = { "", 0, true };
	DEFINE_IDA(ida);

	idr_set_trace(&ida.ida_rt, record, &t);
	CHECK_EQ(ida_alloc_min(&ida, 4, 0), 4);
	CHECK(tape_is(&t,
		      "op ida_alloc_range 4 %lld 0\n"
		      "malloc L0 0 s0 f0 n2 h0\n"
		      "node-new L0 0 s0 f0 n0 h1\n"
		      "slot-set L0 0 s0 f0 n0 h1\n"
		      "node-new L0 0 s0 f0 n0 h1 aux2\n"
		      "bit-set L0 0 s4 f0 n0 h1\n"
		      "done ida_alloc_range 4\n",
		      (long long)UINT_MAX));
	CHECK_EQ(ida_free(&ida, 5), -ENOENT);
	CHECK(starts(&t, "op ida_free 0 0 5\n"));
	CHECK(strstr(t.text, "done ida_free -2\n") != NULL);
	t.len = 0;
	ida_destroy(&ida);
	CHECK(tape_is(&t, "op ida_destroy 0 0 0\n"
			  "done ida_destroy 0\n"));
}

/* Tagged: the tagged ID in, the tagged ID out. */
static void trace_ops_tagged(void)
{
	struct tape t = { "", 0, true };
	DEFINE_IDR(idr);
	int tid;

	CHECK_EQ(idr_tag_init(&idr, 8, 0), 0);
	idr_set_trace(&idr, record, &t);
	tid = idr_alloc_tagged(&idr, value, 0, 0, 0);
	CHECK(tid >= 0);
	CHECK(starts(&t, "op alloc_tagged 0 0 0\n"));
	CHECK(strstr(t.text, "op alloc ") == NULL);
	t.len = 0;
	CHECK(idr_remove_tagged(&idr, tid) == value);
	CHECK(starts(&t, "op remove_tagged"));
	CHECK(strstr(t.text, "done remove_tagged") != NULL);
	t.len = 0;
	/* idr_unalloc() gives an ID back as one op of its own: in, the ID
	 * as passed (here tagged: generation 1); out, the ID it removed, or
	 * -ENOENT. */
	tid = idr_alloc_tagged(&idr, value, 0, 0, 0);
	CHECK_EQ(tid, 1 << 8);
	t.len = 0;
	CHECK(idr_unalloc(&idr, (unsigned long)tid) == value);
	CHECK(starts(&t, "op unalloc 0 0 256\n"));
	CHECK(strstr(t.text, "done unalloc 0\n") != NULL);
	t.len = 0;
	CHECK(idr_unalloc(&idr, 7) == NULL);
	CHECK(starts(&t, "op unalloc 0 0 7\n"));
	CHECK(strstr(t.text, "done unalloc -2\n") != NULL);
	t.len = 0;
	idr_destroy(&idr);
}

/* How many lines of @t's text begin with @name (then a space). */
static unsigned int count_of(const struct tape *t, const char *name)
{
	size_t n = strlen(name);
	unsigned int k = 0;
	const char *p;

	for (p = t->text; *p; p = strchr(p, '\n') + 1)
		k += strncmp(p, name, n) == 0 && p[n] == ' ';
	return k;
}

static void clear(struct tape *t)
{
	t->len = 0;
	t->text[0] = '\0';
}

/* idr_get_next and idr_for_each go down the tree: their visits show. */
static void trace_next_visits(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDR(idr);
	int id = 1;

	fill(&idr, 0, 1);
	CHECK_EQ(idr_alloc(&idr, value, S, S + 1, 0), S);
	idr_set_trace(&idr, record, &t);
	CHECK(idr_get_next(&idr, &id) == value);
	CHECK_EQ(id, S);
	/* Down slot 0 (nothing after 1 there), back up, down slot 1. */
	CHECK(tape_is(&t,
		      "visit L1 0 s0 f0 n0 h2\n"
		      "visit L1 0 s1 f0 n0 h2\n"
		      "visit L0 %u s0 f1 n0 h2\n",
		      S));
	CHECK_EQ(idr_for_each(&idr, stop_at_second, NULL), 0);
	CHECK(count_of(&t, "visit") >= 2);
	clear(&t);
	idr_destroy(&idr);
}

/* An IDA reports its path once per allocation, and once per free. */
static void trace_ida_path_once(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDA(ida);

	CHECK_EQ(ida_alloc(&ida, 0), 0);
	idr_set_trace(&ida.ida_rt, record, &t);
	CHECK_EQ(ida_alloc(&ida, 0), 1);
	CHECK_EQ(count_of(&t, "visit"), 1);
	clear(&t);
	CHECK_EQ(ida_free(&ida, 1), 0);
	CHECK_EQ(count_of(&t, "visit"), 1);
	clear(&t);
	/* The last ID: the bitmap empties, the leaf goes. */
	CHECK_EQ(ida_free(&ida, 0), 0);
	CHECK_EQ(count_of(&t, "visit"), 1);
	clear(&t);
	ida_destroy(&ida);
}

/* A tagged removal reports its path once, as an untagged one does. */
static void trace_tagged_remove_path_once(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDR(idr);
	int a, b;

	CHECK_EQ(idr_tag_init(&idr, 8, 0), 0);
	a = idr_alloc_tagged(&idr, value, 0, 0, 0);
	b = idr_alloc_tagged(&idr, value, 0, 0, 0);
	idr_set_trace(&idr, record, &t);
	CHECK(idr_remove_tagged(&idr, b) == value);
	CHECK_EQ(count_of(&t, "visit"), 1);
	clear(&t);
	CHECK(idr_remove(&idr, (unsigned long)a) == value);
	CHECK_EQ(count_of(&t, "visit"), 1);
	clear(&t);
	idr_destroy(&idr);
}

/* A tagged leaf's generation node is made in the open too; emptied, the
 * leaf and its generations stay. */
static void trace_tagged_gens_node(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDR(idr);
	int a;

	CHECK_EQ(idr_tag_init(&idr, 8, 0), 0);
	idr_set_trace(&idr, record, &t);
	a = idr_alloc_tagged(&idr, value, 0, 0, 0);
	CHECK(strstr(t.text, "malloc L0 0 s0 f0 n2 h0\n") != NULL);
	CHECK_EQ(count_of(&t, "node-new"), 2);
	clear(&t);
	CHECK(idr_remove_tagged(&idr, a) == value);
	CHECK_EQ(count_of(&t, "slot-clear"), 1);
	CHECK_EQ(count_of(&t, "node-free"), 0);
	CHECK_EQ(count_of(&t, "cache-put") + count_of(&t, "free"), 0);
	clear(&t);
	idr_destroy(&idr);
}

/* An IDA's bitmap is a node too: made, and freed when it empties. */
static void trace_ida_bitmap_node(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDA(ida);

	idr_set_trace(&ida.ida_rt, record, &t);
	CHECK_EQ(ida_alloc(&ida, 0), 0);
	CHECK_EQ(count_of(&t, "node-new"), 2);
	clear(&t);
	CHECK_EQ(ida_free(&ida, 0), 0);
	CHECK_EQ(count_of(&t, "node-free"), 2);
	CHECK_EQ(count_of(&t, "cache-put") + count_of(&t, "free"), 2);
	clear(&t);
	ida_destroy(&ida);
}

/* idr_pre_get's nodes: from malloc into the cache, and said so. */
static void trace_pre_get_fill(void)
{
	struct tape t = { "", 0, false };
	DEFINE_IDR(idr);

	idr_set_trace(&idr, record, &t);
	CHECK_EQ(idr_pre_get(&idr, 0), 1);
	CHECK(tape_is(&t, "malloc L0 0 s0 f0 n%u h0\n", idr_cache_count(&idr)));
	idr_destroy(&idr);
}

void suite_trace(void)
{
	RUN(trace_next_visits);
	RUN(trace_ida_path_once);
	RUN(trace_tagged_remove_path_once);
	RUN(trace_tagged_gens_node);
	RUN(trace_ida_bitmap_node);
	RUN(trace_pre_get_fill);
	RUN(trace_ops_idr);
	RUN(trace_ops_legacy);
	RUN(trace_ops_ida);
	RUN(trace_ops_tagged);
	RUN(trace_alloc_into_empty);
	RUN(trace_alloc_grows);
	RUN(trace_alloc_fills_leaf);
	RUN(trace_remove_empties_leaf);
	RUN(trace_remove_opens_subtree);
	RUN(trace_find);
	RUN(trace_get_new_cache);
	RUN(trace_ida_bitmap_full);
	RUN(trace_ida_first);
}
