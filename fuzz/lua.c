/* SPDX-License-Identifier: MIT */
/*
 * lua.c - libFuzzer target: the Lua binding's argument handling.  Bytes
 * become calls of the module's functions and of every method and
 * metamethod of idr and ida objects, on a right or wrong self, with
 * arguments of every type and edge value (or too few), each pcall'ed.
 * A raised error is fine; a crash, a sanitizer report or a broken tree
 * is not.
 *
 * After each call every object in O[] must pass validate(), and an idr's
 * C tree and its table of Lua values must agree (CHECK in the prelude):
 * no ID without its value, no value without its ID.  An op can make the
 * Lua allocator fail from the next allocation on, or arm idr.fault() (the
 * binding's allocator on the library's seam), so that both kinds of
 * -ENOMEM reach the binding.
 *
 * Re-entry (X in the prelude): garbage whose __gc destroys an object or
 * runs an operation on it (alloc, remove, trace, ...), left either
 * between calls or just before a method, so that finalizers run inside
 * the binding's own allocations; the collector switched
 * between generational and incremental modes with small steps; methods
 * called inside coroutines, and pairs loops left suspended in coroutines
 * while the tree changes, resumed later.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

#include "idr.h"
#include "input.h"

int luaopen_idr(lua_State *L);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define OBJS 8
#define CALLS_MAX 400
#define BUDGET 200000 /* Lua instructions per call */
#define MEM_CAP (16u << 20)

/*
 * O: the objects (and non-objects) methods are called on.  T: tables to
 * pass.  F: functions to pass, as trace and for_each callbacks mostly,
 * some of which change, destroy or drop the objects under the caller.
 */
static const char prelude[] =
	"local idr = require 'idr'\n"
	"local dead = idr.new(); dead:destroy()\n"
	"local deada = idr.ida(); deada:destroy()\n"
	"O = { idr.new(),\n"
	"  idr.new { tagged = { id_bits = 4, retire = true } },\n"
	"  idr.ida(), idr.new { base = 5, tagged = true }, {}, 'idr', dead,\n"
	"  deada }\n"
	"T = { {}, { base = 3 }, { tagged = true }, { base = -1 },\n"
	"  { tagged = { id_bits = 30, retire = true } },\n"
	"  { tagged = { id_bits = 0 } },\n"
	"  { tagged = { id_bits = 31 } }, { base = 2^31 }, { base = 1.5 },\n"
	"  { max_entries = 2, max_nodes = 1 }, { max_entries = -1 },\n"
	"  { unknown = 1 }, { tagged = 'x' }, { [1] = 2 },\n"
	"  { base = 0x7fffffff },\n"
	"  setmetatable({}, { __index = function() error('index') end }),\n"
	"  { max_nodes = 2^40 }, { tagged = { id_bits = 1.5 } } }\n"
	"local function any() return O[1] end\n"
	"F = { function() return true end, function() error('boom') end,\n"
	"  function(id)\n"
	"    if type(id) == 'number' then any():remove(id) end\n"
	"  end,\n"
	"  function() any():alloc('in callback') end,\n"
	"  function() any():destroy() end, function() collectgarbage() end,\n"
	"  function() idr.fault(0, 2) end, function(...) return ... end,\n"
	"  function() O[1] = idr.new(); collectgarbage() end,\n"
	"  function() O[2]:alloc_tagged({}) end,\n"
	"  function() coroutine.yield() end,\n"
	"  function() for i = 1, 10 do any():alloc(i, 60) end end,\n"
	"  function() any():for_each(F[3]) end, function() return 1 end,\n"
	"  error, print, idr.new }\n"
	/* The generic for's step functions, to call with any state and key. */
	"STEP = { step_idr = (O[1]:pairs()), step_ida = (O[3]:pairs()) }\n"
	/* The C tree and the Lua values of @o agree. */
	"function CHECK(o)\n"
	"  local vals = debug.getuservalue(o, 1)\n"
	"  if type(vals) ~= 'table' then return end\n"
	/* Its own walk is no operation of the input's to trace. */
	"  local tr = o:trace(nil)\n"
	"  local n = 0\n"
	"  for id in pairs(vals) do\n"
	"    n = n + 1\n"
	"    assert(o:path(id)['end'] == 'found', 'a value without its id')\n"
	"  end\n"
	"  assert(n <= #o, 'more values than ids')\n"
	"  for id, v in o:pairs() do\n"
	"    assert(v ~= nil, 'an id without its value')\n"
	"  end\n"
	"  o:trace(tr)\n"
	"end\n";

/* Re-entry: finalizers, collector modes, coroutines (X). */
static const char prelude_x[] =
	"local function int(n) return math.tointeger(n) or 0 end\n"
	"local GCOPS = { function(o) o:destroy() end,\n"
	"  function(o, a) o:alloc(a, 1 << 30) end,\n"
	"  function(o, a) o:remove(int(a)) end,\n"
	"  function(o, a) o:alloc_tagged(a) end,\n"
	"  function(o) o:trace(function() collectgarbage('step') end) end,\n"
	"  function(o) o:trace(nil) end,\n"
	"  function(o) for i = 1, 4 do o:alloc(i, i << 20) end end,\n"
	"  function(o, a) o:free(int(a)) end,\n"
	"  function(o, a) o:path(int(a)) end,\n"
	"  function(o, a) o:replace(int(a), {}) end,\n"
	"  function(o) o:alloc(nil) end }\n"
	"local METHODS = { 'alloc', 'alloc_cyclic', 'alloc_u32', 'find',\n"
	"  'remove', 'replace', 'get_next', 'for_each', 'pre_get', 'get_new',\n"
	"  'alloc_tagged', 'find_tagged', 'remove_tagged', 'check', 'trace',\n"
	"  'dump', 'path', 'stats', 'validate', 'free', 'info', 'destroy',\n"
	"  'count' }\n"
	"local CO = {}\n"
	"local pcall, error = pcall, error\n"
	"X = {\n"
	/* n pieces of garbage whose __gc runs GCOPS[k] on o. */
	"  x_gc = function(o, k, a, n)\n"
	"    local op = GCOPS[int(k) % #GCOPS + 1]\n"
	"    for _ = 0, int(n) % 8 do\n"
	"      setmetatable({}, { __gc = function() pcall(op, o, a) end })\n"
	"    end\n"
	"  end,\n"
	/* Garbage whose __gc runs GCOPS[k] on o, @pad tables more, then
	 * METHODS[m] of o: with the right pad (and x_heap), a collection
	 * starts inside the method's own allocations. */
	"  x_in = function(o, k, m, pad, a, b)\n"
	"    local op, busy = GCOPS[int(k) % #GCOPS + 1], false\n"
	"    local f = o[METHODS[int(m) % #METHODS + 1]]\n"
	"    local mt = { __gc = function() if busy then pcall(op, o, a) end "
	"end }\n"
	"    for _ = 1, 8 do setmetatable({}, mt) end\n"
	"    local mo = getmetatable(o)\n"
	"    local is_path = f == o.path and mo and mo.__name == 'idr'\n"
	"    local _, before = pcall(o.find, o, a)\n"
	"    for _ = 1, int(pad) % 256 do local _ = {} end\n"
	"    busy = true\n"
	"    local ok, p = pcall(f, o, a, b)\n"
	"    busy = false\n"
	"    if not ok then error(p, 0) end\n"
	/* Whatever the finalizers did, path found the value there was. */
	"    if is_path and p['end'] == 'found' and p.value ~= before then\n"
	"      FUZZ_FAIL('path: the value of a found id changed')\n"
	"    end\n"
	"  end,\n"
	/* A heap of 0 to 7/8 MB more: a generational collector's minor
	 * collections come that much further apart. */
	"  x_heap = function(_, n) HEAP = ('.'):rep((int(n) % 8) << 17) end,\n"
	"  x_gen = function(_, n) collectgarbage('generational', int(n) % 4 + "
	"1)\n"
	"  end,\n"
	"  x_inc = function(_, n)\n"
	"    collectgarbage('incremental', int(n) % 100 + 1, int(n) % 7 * 100 "
	"+ 100,\n"
	"      int(n) % 10)\n"
	"  end,\n"
	"  x_step = function(_, n) collectgarbage('step', int(n) % 64) end,\n"
	/* METHODS[k] of o inside a coroutine. */
	"  x_co = function(o, k, ...)\n"
	"    local name = METHODS[int(k) % #METHODS + 1]\n"
	"    return coroutine.wrap(function(...) return o[name](o, ...) "
	"end)(...)\n"
	"  end,\n"
	/* A pairs loop on o, suspended after each step. */
	"  x_co_pairs = function(o, n)\n"
	"    CO[int(n) % 4 + 1] = coroutine.create(function()\n"
	"      for id in pairs(o) do coroutine.yield(id) end\n"
	"    end)\n"
	"  end,\n"
	"  x_co_resume = function(_, n)\n"
	"    local c = CO[int(n) % 4 + 1]\n"
	"    return c and coroutine.resume(c)\n"
	"  end }\n";

/* Where a name's function is: an object's, or a global table's. */
enum from { METHOD, MODULE, STEP, EXTRA };

/* New names go at the end, so that the committed seeds keep decoding. */
static const struct {
	const char *name;
	enum from from;
} names[] = {
	{ "alloc", METHOD },	     { "alloc_cyclic", METHOD },
	{ "alloc_u32", METHOD },     { "get_cursor", METHOD },
	{ "set_cursor", METHOD },    { "find", METHOD },
	{ "remove", METHOD },	     { "replace", METHOD },
	{ "get_next", METHOD },	     { "pairs", METHOD },
	{ "for_each", METHOD },	     { "is_empty", METHOD },
	{ "count", METHOD },	     { "destroy", METHOD },
	{ "pre_get", METHOD },	     { "get_new", METHOD },
	{ "get_new_above", METHOD }, { "alloc_tagged", METHOD },
	{ "find_tagged", METHOD },   { "remove_tagged", METHOD },
	{ "check", METHOD },	     { "untag", METHOD },
	{ "trace", METHOD },	     { "dump", METHOD },
	{ "dot", METHOD },	     { "path", METHOD },
	{ "path_text", METHOD },     { "stats", METHOD },
	{ "stats_text", METHOD },    { "validate", METHOD },
	{ "free", METHOD },	     { "exists", METHOD },
	{ "find_first", METHOD },    { "__gc", METHOD },
	{ "__close", METHOD },	     { "__len", METHOD },
	{ "__tostring", METHOD },    { "__pairs", METHOD },
	{ "__index", METHOD },	     { "new", MODULE },
	{ "ida", MODULE },	     { "fault", MODULE },
	{ "mem", MODULE },	     { "step_idr", STEP },
	{ "step_ida", STEP },	     { "info", METHOD },
	{ "x_gc", EXTRA },	     { "x_gen", EXTRA },
	{ "x_inc", EXTRA },	     { "x_step", EXTRA },
	{ "x_co", EXTRA },	     { "x_co_pairs", EXTRA },
	{ "x_co_resume", EXTRA },    { "x_in", EXTRA },
	{ "x_heap", EXTRA },	     { "get_seed", METHOD },
	{ "set_seed", METHOD },	     { "get_gen", METHOD },
	{ "set_gen", METHOD },	     { "load_text", MODULE },
};
#define NAMES (sizeof(names) / sizeof(names[0]))

/* {==================== Input ==================== */

static uint64_t u64(struct input *in)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | byte(in);
	return v;
}

/* }==================== Input ==================== */

/* {==================== Limits ==================== */

struct budget {
	long long grown; /* net bytes allocated */
	long fail_in;	 /* allocations until failing; < 0: never */
};

static struct budget mem;
static unsigned long ticks;

static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct budget *b = ud;
	long long delta = (long long)nsize - (long long)(ptr ? osize : 0);
	void *p;

	if (!nsize) {
		free(ptr);
		b->grown += delta;
		return NULL;
	}
	if (b->fail_in == 0 ||
	    (delta > 0 && b->grown + delta > (long long)MEM_CAP))
		return NULL;
	if (b->fail_in > 0)
		b->fail_in--;
	p = realloc(ptr, nsize);
	if (p)
		b->grown += delta;
	return p;
}

static void budget_hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	ticks += 1000;
	if (ticks > BUDGET)
		luaL_error(L, "fuzz: instruction budget spent");
}

/* }==================== Limits ==================== */

/* {==================== Arguments ==================== */

static const lua_Integer ints[] = {
	0,
	1,
	2,
	3,
	5,
	15,
	16,
	63,
	64,
	4095,
	4096,
	-1,
	-2,
	0x7ffffffe,
	0x7fffffff,
	0x80000000,
	0xfffffffe,
	0xffffffff,
	0x100000000,
	-0x80000000LL,
	-0x80000001LL,
	LUA_MAXINTEGER,
	LUA_MININTEGER,
	1 << 30,
	(1 << 30) + 1,
	1LL << 53,
};

static const char *const strings[] = {
	"",    "5",  "0x10",	   " 7 ",      "1e3",  "abc",
	"nan", "-1", "4294967296", "\xff\xfe", "a\0b", "ENOSPC",
};

static void push_float(lua_State *L, uint8_t k)
{
	static const double floats[] = {
		0.5,
		1.0,
		-0.0,
		2.5,
		-1.5,
		1e308,
		2147483647.0,
		2147483648.0,
		4294967295.0,
		4294967296.5,
		9.2233720368547758e18,
		1e-300
	};

	if (k % 16 == 12)
		lua_pushnumber(L, NAN);
	else if (k % 16 == 13)
		lua_pushnumber(L, INFINITY);
	else if (k % 16 == 14)
		lua_pushnumber(L, -INFINITY);
	else
		lua_pushnumber(L, floats[k % 16 % 12]);
}

/* Element @k of the global table @name. */
static void push_from(lua_State *L, const char *name, uint8_t k)
{
	lua_Integer n;

	lua_getglobal(L, name);
	n = (lua_Integer)lua_rawlen(L, -1);
	lua_rawgeti(L, -1, n ? 1 + k % n : 1);
	lua_remove(L, -2);
}

/* Push one argument; false for "no more arguments". */
static bool push_arg(lua_State *L, struct input *in)
{
	uint8_t kind = byte(in), k = byte(in);
	size_t len;

	switch (kind % 12) {
	case 0:
		return false;
	case 1:
		lua_pushnil(L);
		break;
	case 2:
	case 3:
		lua_pushinteger(L, ints[k % (sizeof(ints) / sizeof(ints[0]))]);
		break;
	case 4:
		lua_pushinteger(L, (lua_Integer)u64(in));
		break;
	case 5:
		push_float(L, k);
		break;
	case 6:
		k %= sizeof(strings) / sizeof(strings[0]);
		/* strings[10] holds a NUL: its length is not strlen's. */
		lua_pushlstring(L, strings[k],
				k == 10 ? 3 : strlen(strings[k]));
		break;
	case 7:
		len = k % 32 < in->n ? k % 32 : in->n;
		lua_pushlstring(L, (const char *)in->p, len);
		in->p += len;
		in->n -= len;
		break;
	case 8:
		push_from(L, "T", k);
		break;
	case 9:
		push_from(L, "F", k);
		break;
	case 10:
		push_from(L, "O", k);
		break;
	default:
		lua_pushboolean(L, k & 1);
	}
	return true;
}

/* }==================== Arguments ==================== */

/* {==================== Calls ==================== */

/* The function called @name: a method, a metamethod, a global's. */
static void push_function(lua_State *L, uint8_t which, uint8_t mt)
{
	static const char *const tables[] = { NULL, "idr", "STEP", "X" };
	const char *name = names[which % NAMES].name;
	enum from from = names[which % NAMES].from;

	if (from != METHOD) {
		lua_getglobal(L, tables[from]);
		lua_getfield(L, -1, name);
		lua_remove(L, -2);
		return;
	}
	luaL_getmetatable(L, mt & 1 ? "ida" : "idr");
	if (name[0] == '_' && name[1] == '_') {
		lua_getfield(L, -1, name);
	} else {
		lua_getfield(L, -1, "__index");
		lua_getfield(L, -1, name);
		lua_remove(L, -2);
	}
	lua_remove(L, -2);
}

/* Faults armed for the next call only: Lua's allocator, the library's. */
struct faults {
	long lua_fail_in;	   /* < 0: none */
	unsigned long skip, count; /* idr.fault(); count 0: none */
};

static void arm(struct input *in, struct faults *f)
{
	uint8_t b = byte(in);

	if (b & 1) {
		f->lua_fail_in = b >> 1;
	} else {
		f->skip = b >> 4;
		f->count = 1 + (b >> 1 & 7);
	}
}

/* idr.fault(@skip, @count), by the function open_state() kept: a call
 * may have replaced the module's. */
static void fault(lua_State *L, unsigned long skip, unsigned long count)
{
	lua_getfield(L, LUA_REGISTRYINDEX, "fuzz.fault");
	lua_pushinteger(L, (lua_Integer)skip);
	lua_pushinteger(L, (lua_Integer)count);
	lua_call(L, 2, 0);
}

/* One call: function, self, arguments; perhaps keep what it returned. */
static void call_one(lua_State *L, struct input *in, const struct faults *f)
{
	uint8_t which = byte(in), mt = byte(in), self = byte(in);
	int base = lua_gettop(L), nargs = 0, rc;

	push_function(L, which, mt);
	if (names[which % NAMES].from != MODULE) {
		push_from(L, "O", self);
		nargs++;
	}
	while (nargs < 6 && push_arg(L, in))
		nargs++;
	ticks = 0;
	lua_sethook(L, budget_hook, LUA_MASKCOUNT, 1000);
	/* Armed only now: a memory error outside pcall would panic. */
	fault(L, f->skip, f->count);
	mem.fail_in = f->lua_fail_in;
	rc = lua_pcall(L, nargs, 1, 0);
	mem.fail_in = -1;
	fault(L, 0, 0);
	lua_sethook(L, NULL, 0, 0);
	if (rc == LUA_OK && lua_isuserdata(L, -1) && mt & 0x80) {
		/* A new object joins O, replacing one. */
		lua_getglobal(L, "O");
		lua_pushvalue(L, -2);
		lua_rawseti(L, -2, 1 + self % OBJS);
	}
	lua_settop(L, base);
}

/* The object on top passes validate() and, if an idr, CHECK. */
static void check_one(lua_State *L)
{
	int top = lua_gettop(L);
	bool is_idr = luaL_testudata(L, top, "idr") != NULL;

	/* No finalizer of X's may change the object while it is checked. */
	lua_gc(L, LUA_GCSTOP);

	lua_getfield(L, top, "validate");
	lua_pushvalue(L, top);
	/* A raise is a destroyed object; nil, msg is a broken tree. */
	if (lua_pcall(L, 1, 2, 0) == LUA_OK && !lua_toboolean(L, -2)) {
		fprintf(stderr, "validate: %s\n", lua_tostring(L, -1));
		abort();
	}
	lua_settop(L, top);
	if (is_idr) {
		lua_getglobal(L, "CHECK");
		lua_pushvalue(L, top);
		if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
			fprintf(stderr, "CHECK: %s\n", lua_tostring(L, -1));
			abort();
		}
	}
	lua_settop(L, top);
	lua_gc(L, LUA_GCRESTART);
}

static void check_objects(lua_State *L)
{
	lua_getglobal(L, "O");
	for (int i = 1; i <= OBJS; i++) {
		if (lua_rawgeti(L, -1, i) == LUA_TUSERDATA)
			check_one(L);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

/* FUZZ_FAIL(msg): a check in the prelude failed. */
static int fuzz_fail(lua_State *L)
{
	fprintf(stderr, "CHECK: %s\n", luaL_optstring(L, 1, "?"));
	abort();
}

static lua_State *open_state(void)
{
	lua_State *L;

	mem.grown = 0;
	mem.fail_in = -1;
	L = lua_newstate(capped_alloc, &mem);
	if (!L)
		abort();
	luaL_openlibs(L);
	luaL_requiref(L, "idr", luaopen_idr, 1);
	lua_getfield(L, -1, "fault");
	lua_setfield(L, LUA_REGISTRYINDEX, "fuzz.fault");
	lua_pop(L, 1);
	lua_register(L, "FUZZ_FAIL", fuzz_fail);
	if (luaL_dostring(L, prelude) != LUA_OK ||
	    luaL_dostring(L, prelude_x) != LUA_OK) {
		fprintf(stderr, "prelude: %s\n", lua_tostring(L, -1));
		abort();
	}
	return L;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	lua_State *L;
	static bool quiet;

	/* print and friends, called as callbacks, write nowhere. */
	if (!quiet && !freopen("/dev/null", "w", stdout))
		abort();
	quiet = true;
	L = open_state();

	for (int n = 0; in.n && n < CALLS_MAX; n++) {
		struct faults f = { -1, 0, 0 };

		if (byte(&in) == 0xff)
			arm(&in, &f);
		call_one(L, &in, &f);
		check_objects(L);
	}
	lua_close(L); /* which disarms what a call's idr.fault() armed */
	return 0;
}

/* }==================== Calls ==================== */
