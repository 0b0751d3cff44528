/* SPDX-License-Identifier: MIT */
/*
 * ops.c - libFuzzer target: bytes become a sequence of calls across the
 * whole C API, each result held to tests/unit/model.c and the tree's
 * invariants checked after every call.  Any mismatch aborts.
 *
 * Three structures live side by side: a plain idr (its base taken from
 * the first byte), a tagged idr (its id_bits and IDR_TAG_RETIRE from the
 * second) and an IDA.  The model of the IDA is the same sorted array with
 * NULL values; the tagged idr's model adds each live ID's current tag.
 *
 * A fault op arms seam_fault_inject() for the next op only: a call that
 * then says -ENOMEM must leave everything as it was (idr_snap_same()).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "idr_view.h"
#include "input.h"
#include "model.h"
#include "nodes.h"
#include "seam.h"
#include "tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* model.c's fault helper uses the harness's CHECK: any failure aborts. */
unsigned long check_failures;

bool check_at(bool ok, const char *what, const char *file, int line)
{
	if (!ok) {
		fprintf(stderr, "%s:%d: %s\n", file, line, what);
		abort();
	}
	return ok;
}

bool check_long_at(long got, long want, const char *what, const char *file,
		   int line)
{
	if (got != want)
		fprintf(stderr, "got %ld, want %ld\n", got, want);
	return check_at(got == want, what, file, line);
}

/* A mismatch: say where, then crash so that libFuzzer keeps the input. */
#define ASSERT(cond) check_at(!!(cond), #cond, __FILE__, __LINE__)
#define ASSERT_EQ(got, want) CHECK_EQ(got, want)

/* {==================== Input ==================== */

static uint32_t u32(struct input *in)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++)
		v = v << 8 | byte(in);
	return v;
}

/* An ID where trees change shape: near 0, 2^k, INT_MAX, UINT32_MAX. */
static uint32_t pick_u32(struct input *in)
{
	uint8_t sel = byte(in), k = byte(in);
	int delta = (int)(k >> 5) - 3;

	switch (sel % 6) {
	case 0:
	case 1:
		return k;
	case 2:
		return ((uint32_t)1 << (k % 32)) + (uint32_t)delta;
	case 3:
		return (uint32_t)INT_MAX - (k & 15) + (sel >> 7);
	case 4:
		return UINT32_MAX - (k & 15);
	default:
		return u32(in);
	}
}

static int pick_int(struct input *in)
{
	uint8_t sel = byte(in);

	if (sel < 16)
		return -(int)sel - 1;
	return (int)(pick_u32(in) & INT_MAX);
}

/* The end of a range: none (<= 0), @start plus a little, or anywhere. */
static int pick_end(struct input *in, int start)
{
	uint8_t sel = byte(in);

	if (sel < 64)
		return sel < 8 ? -(int)sel : 0;
	if (sel < 160 && start >= 0 && start < INT_MAX - 64)
		return start + 1 + (sel & 63);
	return pick_int(in);
}

static char values[256];

static void *pick_ptr(struct input *in)
{
	uint8_t b = byte(in);

	return b ? &values[b] : NULL;
}

/* }==================== Input ==================== */

/* {==================== State ==================== */

#define STALE_MAX 32

struct state {
	struct idr idr;
	struct model m;
	struct idr tg;
	struct model tm;
	struct model tags;    /* tagged idr: ID -> its live tag (boxed) */
	int stale[STALE_MAX]; /* tags removed lately */
	unsigned int nstale;
	int *issued; /* IDR_TAG_RETIRE: every tag handed out */
	size_t nissued, capissued;
	unsigned int bits;
	bool retire;
	struct ida ida;
	struct model im;
	bool preloading;
	bool armed;	      /* fault injection on for this op */
	unsigned long events; /* trace callback calls */
};

static FILE *devnull;
static bool verbose; /* $OPS_VERBOSE: name each op, to read a crash */
/*
 * $OPS_LAX_DESTROY: forget the tags handed out when the tagged idr is
 * destroyed, so that a long run looks past a bug of the library before
 * its rewrite: with IDR_TAG_RETIRE, idr_destroy() let a live slot's last
 * generation be handed out again (fuzz/README).
 */
static bool lax_destroy;

/* A tag, boxed as a non-NULL pointer for the tags model. */
static void *box(int tag)
{
	return (void *)(((uintptr_t)1 << 31) | (uint32_t)tag);
}

static int unbox(void *p)
{
	return (int)((uintptr_t)p & INT_MAX);
}

static const uint32_t bases[8] = { 0,  1,    5,	       63,
				   64, 4095, 1u << 20, INT_MAX - 100 };

static void state_init(struct state *s, struct input *in)
{
	uint8_t b = byte(in), t = byte(in);

	memset(s, 0, sizeof(*s));
	idr_init_base(&s->idr, (int)bases[b & 7]);
	model_init(&s->m, bases[b & 7]);
	s->bits = 1u + t % 30;
	s->retire = t & 0x80;
	idr_init(&s->tg);
	ASSERT_EQ(idr_tag_init(&s->tg, s->bits, s->retire ? IDR_TAG_RETIRE : 0),
		  0);
	model_init(&s->tm, 0);
	model_init(&s->tags, 0);
	ida_init(&s->ida);
	model_init(&s->im, 0);
}

static void state_free(struct state *s)
{
	struct seam_mem_stats ms;

	seam_fault_inject(0, 0);
	if (s->preloading)
		idr_preload_end();
	idr_destroy(&s->idr);
	idr_destroy(&s->tg);
	ida_destroy(&s->ida);
	model_free(&s->m);
	model_free(&s->tm);
	model_free(&s->tags);
	model_free(&s->im);
	free(s->issued);
	/* Every node went back: nothing leaks, not even a cached one. */
	seam_mem_stats(&ms);
	ASSERT_EQ(ms.bytes, 0);
}

/* A failed call: only fault injection may say -ENOMEM, and it changes
 * nothing. */
static void nomem(struct state *s, const struct idr *idr, struct idr_snap was)
{
	ASSERT(s->armed);
	ASSERT(idr_snap_same(idr, was));
}

/* }==================== State ==================== */

/* {==================== Model helpers ==================== */

/* The first ID of @m at or above @id, or -1. */
static int64_t first_at(const struct model *m, uint64_t id)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->ids[i] >= id)
			return m->ids[i];
	return -1;
}

/* An ID worth asking about: often one that is allocated. */
static uint32_t pick_id(struct input *in, const struct model *m)
{
	uint8_t b = byte(in);

	if (m->n && b & 1)
		return m->ids[(b >> 1) % m->n];
	return pick_u32(in);
}

static void model_put(struct model *m, uint32_t id, void *ptr)
{
	uint32_t got = id;

	ASSERT_EQ(model_alloc_u32(m, ptr, &got, id), 0);
}

/* }==================== Model helpers ==================== */

/* {==================== The plain idr ==================== */

static void op_alloc(struct state *s, struct input *in, int kind)
{
	void *ptr = pick_ptr(in);
	int start = pick_int(in), end = pick_end(in, start);
	struct idr_snap was = idr_snap_of(&s->idr);
	struct model save = s->m;
	int want, got;

	if (kind)
		got = idr_alloc_cyclic(&s->idr, ptr, start, end, GFP_KERNEL);
	else
		got = idr_alloc(&s->idr, ptr, start, end, GFP_KERNEL);
	if (got == -ENOMEM) {
		nomem(s, &s->idr, was);
		/* The model's answer, then undone: the cursor too. */
		want = kind ? model_alloc_cyclic(&s->m, ptr, start, end)
			    : model_alloc(&s->m, ptr, start, end);
		ASSERT(want >= 0);
		model_remove(&s->m, (unsigned long)want, &ptr);
		s->m.next = save.next;
		return;
	}
	want = kind ? model_alloc_cyclic(&s->m, ptr, start, end)
		    : model_alloc(&s->m, ptr, start, end);
	ASSERT_EQ(got, want);
}

static void op_alloc_u32(struct state *s, struct input *in)
{
	void *ptr = pick_ptr(in);
	uint32_t id = pick_u32(in), want = id, was_id = id;
	unsigned long max = byte(in) & 1 ? pick_u32(in)
					 : (unsigned long)pick_u32(in) << 8;
	struct idr_snap was = idr_snap_of(&s->idr);
	int err = idr_alloc_u32(&s->idr, ptr, &id, max, GFP_KERNEL);

	if (err == -ENOMEM) {
		nomem(s, &s->idr, was);
		ASSERT_EQ(id, was_id);
		return;
	}
	ASSERT_EQ(err, model_alloc_u32(&s->m, ptr, &want, max));
	ASSERT_EQ(id, want);
}

static void op_find_remove(struct state *s, struct input *in, int kind)
{
	unsigned long id = pick_id(in, &s->m);
	void *want = NULL, *got, *ptr;
	bool had;

	if (byte(in) == 0xff)
		id += 1ul << 32; /* beyond any ID: never found */
	had = model_find(&s->m, id, &want);
	if (kind == 0) {
		ASSERT(idr_find(&s->idr, id) == want);
	} else if (kind == 1) {
		ASSERT(idr_remove(&s->idr, id) == want);
		if (had)
			model_remove(&s->m, id, &want);
	} else {
		ptr = pick_ptr(in);
		got = idr_replace(&s->idr, ptr, id);
		ASSERT(got == (had ? want : ERR_PTR(-ENOENT)));
		if (had) {
			model_remove(&s->m, id, &want);
			model_put(&s->m, (uint32_t)id, ptr);
		}
	}
}

static void op_get_next(struct state *s, struct input *in)
{
	uint32_t start = pick_u32(in);
	unsigned long id = start, mid = start;
	int iid = (int)start;
	void *want = model_next(&s->m, &mid);
	void *got = idr_get_next_ul(&s->idr, &id);

	ASSERT(got == want);
	ASSERT_EQ(id, mid);
	got = idr_get_next(&s->idr, &iid);
	if ((int)start < 0 || !want || mid > INT_MAX) {
		ASSERT(!got);
		ASSERT_EQ(iid, (int)start);
	} else {
		ASSERT(got == want);
		ASSERT_EQ(iid, (int)mid);
	}
}

struct walk {
	const struct model *m;
	unsigned long next; /* where the model's next entry is sought */
	int calls, stop;
};

static int each(int id, void *p, void *data)
{
	struct walk *w = data;
	void *want = model_next(w->m, &w->next);

	ASSERT(p == want);
	ASSERT_EQ(id, (long)w->next);
	w->next++;
	return ++w->calls == w->stop ? 7 : 0;
}

static void op_for_each(struct state *s, struct input *in)
{
	struct walk w = { &s->m, 0, 0, byte(in) };
	int ret = idr_for_each(&s->idr, each, &w);
	unsigned long tmp, id, next = w.next;
	size_t n = 0, want = 0;
	void *entry;

	ASSERT_EQ(ret, w.stop && w.calls == w.stop ? 7 : 0);
	/* Not stopped: nothing non-NULL was left below INT_MAX. */
	if (ret == 0)
		ASSERT(!model_next(&s->m, &next) || next > INT_MAX);
	idr_for_each_entry_ul(&s->idr, entry, tmp, id)
		n++;
	for (size_t i = 0; i < s->m.n; i++)
		want += s->m.vals[i] != NULL;
	ASSERT_EQ(n, want);
}

static void op_destroy(struct state *s)
{
	idr_destroy(&s->idr);
	model_free(&s->m);
	idr_destroy(&s->idr); /* twice is harmless */
	ASSERT(idr_is_empty(&s->idr));
}

/* }==================== The plain idr ==================== */

/* {==================== The 2004 API ==================== */

static void op_pre_get(struct state *s)
{
	unsigned int before = idr_cache_count(&s->idr);
	int ok = idr_pre_get(&s->idr, GFP_KERNEL);

	ASSERT(ok || s->armed);
	ASSERT(idr_cache_count(&s->idr) >= before);
	if (ok)
		ASSERT_EQ(idr_cache_count(&s->idr), IDR__CACHE_NODES);
}

static void op_get_new(struct state *s, struct input *in)
{
	void *ptr = pick_ptr(in);
	int start = byte(in) & 1 ? pick_int(in) : 0;
	int64_t want = start < 0 ? -EINVAL
				 : model_lowest_free(&s->m,
						     (uint64_t)start < s->m.base
							     ? s->m.base
							     : start,
						     INT_MAX);
	struct idr_snap was = idr_snap_of(&s->idr);
	unsigned int need;
	int id = -1, err;

	need = want >= 0 ? idr__nodes_needed(&s->idr, want - s->m.base) : 0;
	err = start ? idr_get_new_above(&s->idr, ptr, start, &id)
		    : idr_get_new(&s->idr, ptr, &id);
	if (want == -EINVAL || want < 0) {
		ASSERT_EQ(err, want == -EINVAL ? -EINVAL : -ENOSPC);
		ASSERT(idr_snap_same(&s->idr, was));
		return;
	}
	/* -EAGAIN exactly when the cache lacks a node; it never mallocs. */
	if (was.cached < need) {
		ASSERT_EQ(err, -EAGAIN);
		ASSERT(idr_snap_same(&s->idr, was));
		return;
	}
	ASSERT_EQ(err, 0);
	ASSERT_EQ(id, want);
	model_put(&s->m, (uint32_t)want, ptr);
}

/* }==================== The 2004 API ==================== */

/* {==================== The tagged idr ==================== */

static uint64_t tag_max(const struct state *s)
{
	return ((uint64_t)1 << s->bits) - 1;
}

/* Used up for good: retired, or free with its generations spent (a
 * missing leaf's slots show the seed, and may be born spent). */
static bool retired(const struct state *s, uint64_t id)
{
	struct idr_path p;

	idr_path(&s->tg, id, &p);
	return p.end == IDR_PATH_RETIRED ||
	       (p.end != IDR_PATH_FOUND && p.gen >> (31 - s->bits));
}

/* IDR_TAG_RETIRE: the free IDs of the model in [@from, @to) are retired. */
static void all_retired(const struct state *s, uint64_t from, uint64_t to)
{
	unsigned int checked = 0;

	for (uint64_t id = from; id < to && checked < 256; id++) {
		void *v;

		if (model_find(&s->tm, id, &v))
			continue;
		ASSERT(s->retire);
		ASSERT(retired(s, id));
		checked++;
	}
}

static void issue(struct state *s, int tag)
{
	if (!s->retire)
		return;
	for (size_t i = 0; i < s->nissued; i++)
		ASSERT(s->issued[i] != tag); /* never handed out twice */
	if (s->nissued == s->capissued) {
		s->capissued = s->capissued ? 2 * s->capissued : 64;
		s->issued = realloc(s->issued,
				    s->capissued * sizeof(*s->issued));
		ASSERT(s->issued);
	}
	s->issued[s->nissued++] = tag;
}

static void tagged_got(struct state *s, int tag, int start, uint64_t max,
		       void *ptr)
{
	uint32_t id = (uint32_t)tag & tag_max(s);
	int64_t low = model_lowest_free(&s->tm, (uint32_t)start, max);

	if (verbose)
		fprintf(stderr, "  tag %d: id %u gen %u\n", tag, id,
			(unsigned int)tag >> s->bits);
	ASSERT(low >= 0 && id >= low && id <= max);
	all_retired(s, (uint64_t)low, id);
	ASSERT_EQ(idr_tag_check(&s->tg, tag), 0);
	ASSERT(idr_find_tagged(&s->tg, tag) == ptr);
	ASSERT_EQ(idr_tag_id(&s->tg, tag), id);
	ASSERT_EQ(idr_tag_gen(&s->tg, tag), (unsigned int)tag >> s->bits);
	issue(s, tag);
	model_put(&s->tm, id, ptr);
	model_put(&s->tags, id, box(tag));
}

static void op_alloc_tagged(struct state *s, struct input *in)
{
	void *ptr = pick_ptr(in);
	int start = byte(in) & 1 ? pick_int(in) : (int)byte(in);
	int end = pick_end(in, start);
	uint64_t max = end > 0 ? (uint64_t)end - 1 : INT_MAX;
	struct idr_snap was = idr_snap_of(&s->tg);
	int64_t low;
	int tag = idr_alloc_tagged(&s->tg, ptr, start, end, GFP_KERNEL);

	if (max > tag_max(s))
		max = tag_max(s);
	if (tag == -ENOMEM) {
		nomem(s, &s->tg, was);
		return;
	}
	if (start < 0) {
		ASSERT_EQ(tag, -EINVAL);
		return;
	}
	if (tag >= 0) {
		tagged_got(s, tag, start, max, ptr);
		return;
	}
	ASSERT_EQ(tag, -ENOSPC);
	ASSERT(idr_snap_same(&s->tg, was));
	low = model_lowest_free(&s->tm, (uint32_t)start, max);
	if (low >= 0)
		all_retired(s, (uint64_t)low, max + 1);
}

/* A tag to ask about: a live one, a stale one, or any int. */
static int pick_tag(struct state *s, struct input *in)
{
	uint8_t b = byte(in);

	if (b < 96 && s->tags.n)
		return unbox(s->tags.vals[b % s->tags.n]);
	if (b < 192 && s->nstale)
		return s->stale[b % (s->nstale < STALE_MAX ? s->nstale
							   : STALE_MAX)];
	return b < 224 ? pick_int(in) : (int)u32(in);
}

/* Whether @tag is the live tag of its ID; its value in *@val. */
static bool live_tag(const struct state *s, int tag, void **val)
{
	void *boxed;
	uint32_t id = (uint32_t)tag & tag_max(s);

	if (tag < 0 || !model_find(&s->tags, id, &boxed) || unbox(boxed) != tag)
		return false;
	return model_find(&s->tm, id, val);
}

static void forget_tag(struct state *s, uint32_t id)
{
	void *boxed, *v;

	if (!model_remove(&s->tags, id, &boxed))
		return;
	model_remove(&s->tm, id, &v);
	s->stale[s->nstale++ % STALE_MAX] = unbox(boxed);
	/* Its slot's generation moved on: the old tag is dead at once. */
	ASSERT(idr_tag_check(&s->tg, unbox(boxed)) != 0);
	ASSERT(!idr_find_tagged(&s->tg, unbox(boxed)));
}

static void op_tag_query(struct state *s, struct input *in, int kind)
{
	int tag = pick_tag(s, in), err;
	void *val = NULL;
	bool live = live_tag(s, tag, &val);
	struct idr_snap was = idr_snap_of(&s->tg);

	err = idr_tag_check(&s->tg, tag);
	ASSERT(live ? err == 0 : err != 0);
	if (tag < 0)
		ASSERT_EQ(err, -EINVAL);
	if (kind == 0) {
		ASSERT(idr_find_tagged(&s->tg, tag) == val);
	} else {
		ASSERT(idr_remove_tagged(&s->tg, tag) == val);
		if (live)
			forget_tag(s, (uint32_t)tag & tag_max(s));
		else
			ASSERT(idr_snap_same(&s->tg, was));
	}
}

/* The plain calls on a tagged idr ignore the bits above the ID. */
static void op_tag_plain(struct state *s, struct input *in, int kind)
{
	uint32_t id = pick_id(in, &s->tm) & tag_max(s);
	unsigned long high = (unsigned long)byte(in) << s->bits;
	void *want = NULL;
	bool had = model_find(&s->tm, id, &want);

	if (kind == 0) {
		ASSERT(idr_find(&s->tg, id | high) == want);
		return;
	}
	ASSERT(idr_remove(&s->tg, id | high) == want);
	if (had)
		forget_tag(s, id);
}

static void op_tag_misuse(struct state *s, struct input *in)
{
	uint8_t b = byte(in);
	struct idr_snap was = idr_snap_of(&s->idr);

	/* Bad arguments, or an idr that holds IDs: refused, unchanged. */
	if (b & 1)
		ASSERT_EQ(idr_tag_init(&s->idr, b & 0x40 ? 0 : 31 + b % 8, 0),
			  -EINVAL);
	else if (!idr_is_empty(&s->idr))
		ASSERT(idr_tag_init(&s->idr, 1 + b % 30, 0) != 0);
	else
		ASSERT_EQ(idr_tag_init(&s->idr, 8, 2 + b), -EINVAL);
	ASSERT(idr_snap_same(&s->idr, was));
	ASSERT_EQ(idr_alloc_tagged(&s->idr, NULL, 0, 0, GFP_KERNEL), -EINVAL);
	ASSERT_EQ(idr_tag_check(&s->idr, 0), -EINVAL);
	ASSERT_EQ(idr_tag_id(&s->idr, 0), -EINVAL);
	ASSERT(idr_snap_same(&s->idr, was));
}

static void op_tag_destroy(struct state *s)
{
	idr_destroy(&s->tg);
	while (s->tags.n)
		forget_tag(s, s->tags.ids[0]);
	model_free(&s->tm);
	if (lax_destroy)
		s->nissued = 0;
}

/* }==================== The tagged idr ==================== */

/* {==================== The IDA ==================== */

static void op_ida_alloc(struct state *s, struct input *in)
{
	uint8_t how = byte(in) % 4;
	unsigned int min = how & 1 ? pick_u32(in) : 0;
	unsigned int max = how & 2 ? pick_u32(in) : UINT32_MAX;
	struct idr_snap was = idr_snap_of(ida_tree(&s->ida));
	uint32_t want = min;
	int got, err;

	if (how == 0)
		got = ida_alloc(&s->ida, GFP_KERNEL);
	else if (how == 1)
		got = ida_alloc_min(&s->ida, min, GFP_KERNEL);
	else if (how == 2)
		got = ida_alloc_max(&s->ida, max, GFP_KERNEL);
	else
		got = ida_alloc_range(&s->ida, min, max, GFP_KERNEL);
	if (got == -ENOMEM) {
		nomem(s, ida_tree(&s->ida), was);
		return;
	}
	if (min > INT_MAX || min > max) {
		ASSERT_EQ(got, -ENOSPC);
		return;
	}
	err = model_alloc_u32(&s->im, NULL, &want,
			      max > INT_MAX ? INT_MAX : max);
	ASSERT_EQ(got, err ? err : (int)want);
}

static void op_ida_free(struct state *s, struct input *in)
{
	uint32_t id = pick_id(in, &s->im);
	void *v;
	bool had = model_remove(&s->im, id, &v);
	struct idr_snap was = idr_snap_of(ida_tree(&s->ida));

	ASSERT_EQ(ida_free(&s->ida, id), had ? 0 : -ENOENT);
	if (!had)
		ASSERT(idr_snap_same(ida_tree(&s->ida), was));
}

static void op_ida_find(struct state *s, struct input *in)
{
	uint32_t id = pick_id(in, &s->im), max = pick_u32(in);
	uint32_t cap = max > INT_MAX ? INT_MAX : max;
	int64_t first = first_at(&s->im, id);
	void *v;
	int want;

	ASSERT_EQ(ida_exists(&s->ida, id), model_find(&s->im, id, &v));
	if (id > INT_MAX)
		want = -EINVAL;
	else
		want = first >= 0 && first <= cap ? (int)first : -ENOENT;
	ASSERT_EQ(ida_find_first_range(&s->ida, id, max), want);
	first = first_at(&s->im, 0);
	ASSERT_EQ(ida_find_first(&s->ida), first >= 0 ? first : -ENOENT);
}

/* }==================== The IDA ==================== */

/* {==================== Looking inside ==================== */

static const struct idr *pick_tree(struct state *s, uint8_t b)
{
	return b % 3 == 0 ? &s->idr : b % 3 == 1 ? &s->tg : ida_tree(&s->ida);
}

static int print_entry(FILE *out, unsigned long id, void *entry, void *data)
{
	(void)data;
	return fprintf(out, "%lu=%p", id, entry);
}

/* What a walk counts: nodes, and an IDA's bits one by one. */
struct census {
	const struct idr *idr;
	unsigned long nodes, bits;
};

static void census_leaf(struct census *c, const struct idr_view *v)
{
	for (unsigned int slot = 0; slot < v->slots; slot++) {
		unsigned int n = 0;

		if (!(v->present >> slot & 1))
			continue;
		(void)idr_view_entry(v, slot);
		(void)idr_view_gen(c->idr, v, slot);
		if (!(c->idr->idr_flags & IDR__IDA))
			continue;
		for (unsigned int bit = 0; bit < IDA_BITMAP_BITS; bit++)
			n += idr_view_bit(v, slot, bit);
		ASSERT_EQ(n, idr_view_bits(v, slot));
		c->bits += n;
	}
}

static int census_node(const struct idr_view *v, void *data)
{
	struct census *c = data;

	ASSERT(v->first <= v->last);
	ASSERT((v->full & ~v->present) == 0);
	if (v->level == 0)
		census_leaf(c, v);
	/* A keyed block's run of keys is a view, not a node of its own. */
	c->nodes += !v->keyed || v->level;
	return 0;
}

/* Text views write to /dev/null, or into a small buffer that overflows. */
static void op_dump(struct state *s, struct input *in)
{
	const struct idr *t = pick_tree(s, byte(in));
	struct idr_dump_opts o = {
		.max_entries = byte(in) % 12,
		.max_nodes = byte(in) % 80,
		.print_entry = byte(in) & 1 ? print_entry : NULL,
		.depth = byte(in) % 8,
		.max_lines = byte(in) % 40,
	};
	char buf[256];
	FILE *f = byte(in) & 1 ? fmemopen(buf, 1 + byte(in), "w") : devnull;
	int err;

	ASSERT(f);
	err = idr_dump(t, f, &o);
	ASSERT(err == 0 || err == -EIO);
	err = idr_path_print(t, pick_u32(in), f);
	ASSERT(err == 0 || err == -EIO);
	err = idr_stats_print(t, f);
	ASSERT(err == 0 || err == -EIO);
	if (f != devnull)
		fclose(f);
}

static void stats_match(const struct idr *t, const struct model *m, bool exact)
{
	struct idr_stats st;
	struct census c = { t, 0, 0 };

	ASSERT_EQ(idr_stats(t, &st), 0);
	ASSERT_EQ(idr_walk(t, census_node, &c), 0);
	ASSERT_EQ(st.nodes, c.nodes);
	ASSERT_EQ(st.ids, m->n);
	if (t->idr_flags & IDR__IDA)
		ASSERT_EQ(c.bits, m->n);
	if (!exact)
		return;
	ASSERT_EQ(st.lowest, m->n ? (long)m->ids[0] : -1);
	ASSERT_EQ(st.highest, m->n ? (long)m->ids[m->n - 1] : -1);
}

static void op_path(struct state *s, struct input *in)
{
	uint8_t b = byte(in);
	const struct model *m = b % 3 == 0   ? &s->m
				: b % 3 == 1 ? &s->tm
					     : &s->im;
	const struct idr *t = pick_tree(s, b);
	unsigned long id = pick_id(in, m);
	struct idr_path p;
	void *v = NULL;
	/* A tagged idr's path ignores the bits above the ID, as find does. */
	bool had = model_find(m, b % 3 == 1 ? id & tag_max(s) : id, &v);

	ASSERT_EQ(idr_path(t, id, &p), 0);
	ASSERT_EQ(p.end == IDR_PATH_FOUND, had);
	if (had && b % 3 != 2)
		ASSERT(p.entry == v);
	ASSERT(p.steps <= p.height && p.height < IDR_LEVELS_MAX);
	stats_match(t, m, b % 3 != 1);
}

/* The callback may only look: count, and check the event's name. */
static void on_trace(const struct idr *idr, const struct idr_trace *ev,
		     void *data)
{
	struct state *s = data;

	(void)idr;
	ASSERT(idr_trace_name(ev->event) != NULL);
	s->events++;
}

static void op_trace(struct state *s, struct input *in)
{
	uint8_t b = byte(in);
	struct idr *t = b & 1 ? &s->tg : &s->idr;

	idr_set_trace(t, b & 2 ? on_trace : NULL, s);
}

/* }==================== Looking inside ==================== */

/* {==================== Driving ==================== */

static void op_preload(struct state *s)
{
	if (s->preloading)
		idr_preload_end();
	else
		idr_preload(GFP_KERNEL);
	s->preloading = !s->preloading;
}

static void op_cursor(struct state *s, struct input *in)
{
	uint32_t c = pick_u32(in);

	idr_set_cursor(&s->idr, c);
	s->m.next = c;
}

static void op_ida_destroy(struct state *s)
{
	ida_destroy(&s->ida);
	model_free(&s->im);
	ASSERT(ida_is_empty(&s->ida));
}

/* The rarer ops: starting a structure afresh, moving the cursor. */
static void run_rare(struct state *s, struct input *in)
{
	switch (byte(in) % 4) {
	case 0:
		op_destroy(s);
		break;
	case 1:
		op_tag_destroy(s);
		break;
	case 2:
		op_ida_destroy(s);
		break;
	default:
		op_cursor(s, in);
	}
}

static void run_op(struct state *s, struct input *in, uint8_t op)
{
	switch (op % 28) {
	case 0:
	case 1:
		op_alloc(s, in, 0);
		break;
	case 2:
		op_alloc(s, in, 1);
		break;
	case 3:
		op_alloc_u32(s, in);
		break;
	case 4:
		op_find_remove(s, in, 0);
		break;
	case 5:
	case 6:
		op_find_remove(s, in, 1);
		break;
	case 7:
		op_find_remove(s, in, 2);
		break;
	case 8:
		op_get_next(s, in);
		break;
	case 9:
		op_for_each(s, in);
		break;
	case 10:
		op_preload(s);
		break;
	case 11:
		op_pre_get(s);
		break;
	case 12:
	case 13:
		op_get_new(s, in);
		break;
	case 14:
	case 15:
		op_alloc_tagged(s, in);
		break;
	case 16:
		op_tag_query(s, in, 0);
		break;
	case 17:
		op_tag_query(s, in, 1);
		break;
	case 18:
		op_tag_plain(s, in, byte(in) & 1);
		break;
	case 19:
		op_tag_misuse(s, in);
		break;
	case 20:
	case 21:
		op_ida_alloc(s, in);
		break;
	case 22:
		op_ida_free(s, in);
		break;
	case 23:
		op_ida_find(s, in);
		break;
	case 24:
		op_dump(s, in);
		break;
	case 25:
		op_path(s, in);
		break;
	case 26:
		op_trace(s, in);
		break;
	default:
		run_rare(s, in);
	}
}

static void verify(const struct state *s)
{
	ASSERT_EQ(idr_check(&s->idr), 0);
	ASSERT(model_matches(&s->m, &s->idr));
	ASSERT_EQ(idr_get_cursor(&s->idr), s->m.next);
	ASSERT_EQ(idr_check(&s->tg), 0);
	ASSERT(model_matches(&s->tm, &s->tg));
	ASSERT_EQ(ida_check(&s->ida), 0);
	ASSERT_EQ(ida_count(&s->ida), s->im.n);
	ASSERT_EQ(ida_is_empty(&s->ida), s->im.n == 0);
}

/* A fault op arms the allocator for the one op after it. */
static void step(struct state *s, struct input *in)
{
	uint8_t op = byte(in);

	if (op == 0xff) {
		uint8_t b = byte(in);

		seam_fault_inject(b % 8, 1 + b / 64);
		s->armed = true;
		op = byte(in);
	}
	if (verbose)
		fprintf(stderr, "op %d%s\n", op % 28,
			s->armed ? " (fault)" : "");
	run_op(s, in, op);
	seam_fault_inject(0, 0);
	s->armed = false;
	verify(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct state s;

	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		verbose = getenv("OPS_VERBOSE") != NULL;
		lax_destroy = getenv("OPS_LAX_DESTROY") != NULL;
	}
	ASSERT(devnull);
	state_init(&s, &in);
	for (int n = 0; in.n && n < 2000; n++)
		step(&s, &in);
	state_free(&s);
	return 0;
}

/* }==================== Driving ==================== */
