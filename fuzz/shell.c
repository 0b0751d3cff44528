/* SPDX-License-Identifier: MIT */
/*
 * shell.c - libFuzzer target: each input is a script of idrsh command
 * lines, run through the shell's own run_line() (src/idrsh.c) and so
 * through the line parser and every command of lua/idrsh.lua.  After
 * each line every tree the shell can reach must pass validate().
 *
 * idrsh.c is included whole, its main() renamed by -Dmain=idrsh_main in
 * fuzz/fuzz.mk, so the shell runs here exactly as it does in the binary:
 * idrsh.c itself is not changed for the fuzzer.
 *
 * The sandbox, applied to each fresh shell before the input runs:
 *   - lines whose command is 'source' are skipped: its .lua branch calls
 *     the loadfile the shell captured, which no table edit can reach;
 *   - io and os lose every function that opens, runs, renames, removes or
 *     reads a file or a process (io.open, io.popen, io.lines, io.read,
 *     io.input, io.output, io.stdin, os.execute, os.remove, os.exit,
 *     ...), so 'dot FILE' and 'dot --svg FILE' fail inside the shell;
 *     loadfile, dofile, debug, string.dump, package.loadlib and the file
 *     searchers go, and load() accepts text only (bytecode is unchecked);
 *   - stdout goes to /dev/null and io.stderr with it; C's stderr stays,
 *     for the sanitizers and this file;
 *   - each line may run BUDGET Lua instructions and the state may grow
 *     by MEM_CAP bytes, so loops and string.rep bombs end in an error.
 * A line hook turns the lines idrsh.lua runs into coverage for libFuzzer.
 * No history, readline or signal handler is set up.
 */
#include "lua.h"

int main(int argc, char **argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#include "idrsh.c"

#include <ctype.h>

#define LINES_MAX 64
#define BUDGET 100000	    /* Lua instructions per line */
#define MEM_CAP (32u << 20) /* bytes the Lua state may grow by */

/* {==================== The sandbox ==================== */

static const char sandbox[] =
	"io.stderr, io.stdin = { write = fuzz_write }, nil\n"
	"fuzz_write = nil\n"
	"for _, k in ipairs { 'open', 'popen', 'lines', 'input', 'output',\n"
	"    'read', 'close', 'tmpfile' } do io[k] = nil end\n"
	"for _, k in ipairs { 'execute', 'exit', 'remove', 'rename',\n"
	"    'tmpname', 'setlocale', 'getenv' } do os[k] = nil end\n"
	"loadfile, dofile, debug, package.loaded.debug = nil, nil, nil, nil\n"
	"string.dump, package.loadlib = nil, nil\n"
	"package.searchers = { package.searchers[1] }\n"
	"package.path, package.cpath = '', ''\n"
	"local load0 = load\n"
	"load = function(s, name, _, env)\n"
	"  return load0(s, name, 't', env)\n"
	"end\n";

struct budget {
	lua_Alloc alloc;
	void *ud;
	long long grown; /* net bytes since the cap was set */
};

static struct budget mem;
static unsigned long ticks;

/* The default allocator, refusing to grow the state past MEM_CAP. */
static void *capped_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct budget *b = ud;
	long long delta = (long long)nsize - (long long)(ptr ? osize : 0);
	void *p;

	if (nsize && delta > 0 && b->grown + delta > (long long)MEM_CAP)
		return NULL;
	p = b->alloc(b->ud, ptr, osize, nsize);
	if (p || !nsize)
		b->grown += delta;
	return p;
}

/*
 * libFuzzer sees only C coverage; idrsh.lua's own branches it sees through
 * these counters, bumped by a line hook for each (previous line, line).
 */
#define LUA_COV 8192
__attribute__((section("__libfuzzer_extra_counters"),
	       used)) static uint8_t lua_cov[LUA_COV];
static unsigned int prev_line;

static void hook(lua_State *L, lua_Debug *ar)
{
	if (ar->event == LUA_HOOKLINE) {
		unsigned int line = (unsigned int)ar->currentline;

		lua_cov[(prev_line * 1031u + line) % LUA_COV]++;
		prev_line = line;
		return;
	}
	ticks += 1000;
	if (ticks > BUDGET)
		luaL_error(L, "fuzz: instruction budget spent");
}

/*
 * The shell's io.stderr: its messages go nowhere ($SHELL_FUZZ_STDERR: to
 * stderr), and with $SHELL_FUZZ_STRICT an "internal error" (a handler of
 * idrsh.lua raised) is a bug unless the sandbox or a limit caused it.
 * Not by default: a 'lua' line may break the library tables the shell
 * uses (string.format = nil), and the errors that follow are no bug.
 */
static bool show_stderr, strict;
static const char *internal; /* the first internal error of a line */

static const char *const excused[] = {
	"field 'open'", "field 'execute'",   "field 'popen'",
	"budget spent", "not enough memory",
};

static void note_internal(const char *text)
{
	if (internal || !strstr(text, "internal error"))
		return;
	for (size_t i = 0; i < sizeof(excused) / sizeof(excused[0]); i++)
		if (strstr(text, excused[i]))
			return;
	internal = strdup(text);
}

static int stderr_write(lua_State *L)
{
	for (int i = 2; i <= lua_gettop(L); i++) {
		size_t len;
		const char *text = lua_tolstring(L, i, &len);

		if (!text)
			continue;
		if (show_stderr)
			fwrite(text, 1, len, stderr);
		note_internal(text);
	}
	lua_settop(L, 1);
	return 1;
}

static void sandbox_apply(lua_State *L)
{
	lua_pushcfunction(L, stderr_write);
	lua_setglobal(L, "fuzz_write");
	if (luaL_dostring(L, sandbox) != LUA_OK) {
		fprintf(stderr, "sandbox: %s\n", lua_tostring(L, -1));
		abort();
	}
	mem.alloc = lua_getallocf(L, &mem.ud);
	mem.grown = 0;
	lua_setallocf(L, capped_alloc, &mem);
}

/* Whether the line's command is 'source', by run_line's own split. */
static bool is_source(const char *line, size_t len)
{
	size_t i = 0, j;

	while (i < len && isspace((unsigned char)line[i]))
		i++;
	for (j = i; j < len && !isspace((unsigned char)line[j]); j++)
		;
	return j - i == 6 && memcmp(line + i, "source", 6) == 0;
}

/* }==================== The sandbox ==================== */

/* {==================== Checking the trees ==================== */

/* The binding's validate methods, taken before any input ran. */
static int validate_ref[2];

static void validators_take(lua_State *L)
{
	static const char *const mt[2] = { "idr", "ida" };

	for (int i = 0; i < 2; i++) {
		luaL_getmetatable(L, mt[i]);
		lua_getfield(L, -1, "__index");
		lua_getfield(L, -1, "validate");
		if (!lua_isfunction(L, -1))
			abort();
		validate_ref[i] = luaL_ref(L, LUA_REGISTRYINDEX);
		lua_pop(L, 2);
	}
}

/* The value on top, if an idr or IDA: its invariants hold. */
static void validate_top(lua_State *L)
{
	int top = lua_gettop(L);
	int kind = luaL_testudata(L, top, "idr")   ? 0
		   : luaL_testudata(L, top, "ida") ? 1
						   : -1;

	if (kind < 0)
		return;
	lua_rawgeti(L, LUA_REGISTRYINDEX, validate_ref[kind]);
	lua_pushvalue(L, top);
	/* A raise is a destroyed object; nil, msg, "EUCLEAN" is a bug. */
	if (lua_pcall(L, 1, 2, 0) == LUA_OK && !lua_toboolean(L, -2)) {
		fprintf(stderr, "validate: %s\n", lua_tostring(L, -1));
		abort();
	}
	lua_settop(L, top);
}

static void validate_table(lua_State *L)
{
	if (!lua_istable(L, -1))
		return;
	for (lua_pushnil(L); lua_next(L, -2); lua_pop(L, 1))
		validate_top(L);
}

/* Every tree the shell holds, and any left in a global by 'lua'. */
static void validate_all(lua_State *L, int trees)
{
	int top = lua_gettop(L);

	lua_rawgeti(L, LUA_REGISTRYINDEX, trees);
	validate_table(L);
	lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
	validate_table(L);
	lua_settop(L, top);
}

/* }==================== Checking the trees ==================== */

/* {==================== Driving ==================== */

static void shell_open(struct shell *s, int *trees)
{
	memset(s, 0, sizeof(*s));
	sh = s;
	if (!shell_lua_open(s))
		abort();
	sandbox_apply(s->L);
	validators_take(s->L);
	/* The shell's own table of trees, whatever 'lua' does to _G. */
	lua_getglobal(s->L, "trees");
	*trees = luaL_ref(s->L, LUA_REGISTRYINDEX);
}

static void run_one(struct shell *s, int trees, const char *line, size_t len)
{
	if (is_source(line, len))
		return;
	ticks = 0;
	prev_line = 0;
	lua_sethook(s->L, hook, LUA_MASKCOUNT | LUA_MASKLINE, 1000);
	run_line(s, line, len, "fuzz");
	lua_sethook(s->L, NULL, 0, 0);
	validate_all(s->L, trees);
	if (internal && strict) {
		fprintf(stderr, "%s\n", internal);
		abort();
	}
	free((void *)internal);
	internal = NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct shell s;
	int trees, n = 0;

	static bool quiet;

	/* Results are not looked at: only what they do to the trees. */
	if (!quiet && !freopen("/dev/null", "w", stdout))
		abort();
	quiet = true;
	show_stderr = getenv("SHELL_FUZZ_STDERR") != NULL;
	strict = getenv("SHELL_FUZZ_STRICT") != NULL;
	shell_open(&s, &trees);
	while (p < end && n++ < LINES_MAX && !s.quit) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);

		run_one(&s, trees, p, len);
		p += len + 1;
	}
	shell_lua_close(&s); /* which disarms 'fail N' */
	return 0;
}

/* }==================== Driving ==================== */
