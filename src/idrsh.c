/* SPDX-License-Identifier: MIT */
/*
 * idrsh.c - the C side of idrsh, the interactive shell of idr.
 *
 * Only what must be C lives here: options, the readline loop,
 * completion, signals and the Lua state (the history file is
 * idrsh_history.c's).  The command language itself is the Lua package
 * lua/idrsh/, compiled in by lua/embed as shell[] (and the lessons as
 * lessons[]), its modules found by name through package.preload; the
 * module "idrsh" (lua/idrsh/init.lua) has the functions this file calls:
 *
 *   setup(config): before anything runs;
 *   run_line(line, where), run_file(path, args), run_lua(chunk, name),
 *   finish(): true, false (a command failed), or "quit"; a line may
 *     leave a chunk pending (a here-document, at the terminal an
 *     unfinished Lua chunk), which finish() ends at the end of input;
 *   abandon(): drops the pending chunk (Ctrl-C at the terminal);
 *   eof(): Ctrl-D at the terminal: true if it ended only the pending
 *     chunk or lesson, false if idrsh should end;
 *   waiting(): true while a lesson or quiz waits for its answers;
 *   complete(text, line, start): a table of candidates, or "files";
 *     then "nospace" if no space goes after the word;
 *   prompt(): the prompt.
 *
 * Errors inside those functions are reported by the Lua side, as
 * "idrsh: WHERE: message" on stderr; an error that escapes one (an
 * interrupt, a bug) is reported here the same way.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/readline.h>

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "idr.h"
#include "idrsh_history.h"
#include "idrsh_sys.h"
#include "idrsh_lua.h"

int luaopen_idr(lua_State *L);

/* One -c or -e, in the order given. */
struct action {
	char kind; /* 'c' or 'e' */
	const char *text;
};

struct shell {
	lua_State *L;
	int module; /* registry ref of the module "idrsh" */
	struct action *actions;
	int nactions;
	bool bail, quiet, stdin_after, color_out, color_err;
	bool json;	  /* --json: results as JSON Lines */
	int mode;	  /* 0: by isatty, 'b': batch, 'i': interactive */
	bool interactive; /* reading stdin through readline */
	bool failed;	  /* a command failed */
	bool quit;	  /* a command asked to leave */
	const char *html; /* --html: the replay page to write, or NULL */
	const char *load; /* --load: the saved trees to start with, or NULL */
	struct shell_history history; /* its file, at the terminal */
};

/* The one shell, for readline's and the signal handler's callbacks. */
static struct shell *sh;

/* ======================== Signals ======================== */

static volatile sig_atomic_t in_lua;
static volatile sig_atomic_t stopping; /* the hook is set, not run */
static volatile sig_atomic_t got_sigint;
/* A command that must undo its changes together holds interrupts: one
 * that comes is kept for it to ask about (hold_interrupts()). */
static volatile sig_atomic_t holding, held;

/* lua.c's way: a hook, not a longjmp from the handler. */
static void interrupt_hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	stopping = 0;
	lua_sethook(L, NULL, 0, 0);
	lua_pushliteral(L, "interrupted!");
	lua_error(L);
}

static void on_sigint(int sig)
{
	(void)sig;
	if (in_lua && holding && !held) {
		held = 1;
	} else if (in_lua && !stopping) {
		stopping = 1;
		lua_sethook(sh->L, interrupt_hook,
			    LUA_MASKCALL | LUA_MASKRET | LUA_MASKCOUNT, 1);
	} else if (sh->interactive && !in_lua) {
		got_sigint = 1;
	} else {
		/* Batch, or a second Ctrl-C while a C function (a pattern
		 * match, say) keeps Lua from reaching the hook: leave, as
		 * lua.c does. */
		signal(SIGINT, SIG_DFL);
		raise(SIGINT);
	}
}

/*
 * hold_interrupts(true) holds them, (false) lets them through again;
 * each call returns whether one came since the last, and takes it.  A
 * second Ctrl-C is not held: it stops a command that does not stop for
 * the first.
 */
static int hold_interrupts(lua_State *L)
{
	bool set = !lua_isnoneornil(L, 1);

	lua_pushboolean(L, held);
	held = 0;
	if (set)
		holding = lua_toboolean(L, 1);
	return 1;
}

/*
 * read_line() -> line, or nil at the end, or nil and a message: one line
 * of the input the shell reads its commands from, for a question asked
 * in the middle of a command (step's keys).  Readline reads a byte at a
 * time from the file descriptor, so a line read through stdio's buffer
 * would take the lines after it with it; batch reads with getline().
 */
static int read_line(lua_State *L)
{
	luaL_Buffer b;
	ssize_t n;
	char c;

	if (!sh->interactive) {
		lua_getglobal(L, "io");
		lua_getfield(L, -1, "read");
		lua_call(L, 0, 2);
		return 2;
	}
	luaL_buffinit(L, &b);
	while ((n = read(STDIN_FILENO, &c, 1)) == 1 && c != '\n')
		luaL_addchar(&b, c);
	if (n < 0) {
		luaL_pushfail(L);
		lua_pushstring(L, strerror(errno));
		return 2;
	}
	if (n == 0 && luaL_bufflen(&b) == 0) {
		luaL_pushfail(L);
		return 1;
	}
	luaL_pushresult(&b);
	return 1;
}

static bool run_fn(struct shell *s, const char *name);
static char *prompt(struct shell *s);

/* Readline calls this after a signal interrupted its read: Ctrl-C
 * discards the line being typed, and a pending chunk with it: the next
 * prompt is the main one. */
static int on_signal_event(void)
{
	char *p;

	if (!got_sigint)
		return 0;
	got_sigint = 0;
	run_fn(sh, "abandon");
	p = prompt(sh);
	rl_set_prompt(p);
	free(p);
	rl_replace_line("", 0);
	rl_crlf();
	rl_on_new_line();
	rl_redisplay();
	return 0;
}

/* ======================== The terminal ======================== */

static pid_t terminal_was; /* the group the terminal goes back to, or 0 */

static void give_back_terminal(void)
{
	if (terminal_was)
		tcsetpgrp(STDIN_FILENO, terminal_was);
}

/*
 * Ctrl-C signals the terminal's whole foreground process group.  Started
 * by `make run`, idrsh shares its group with make, which dies of the
 * Ctrl-C idrsh handled, once idrsh exits (status 130).  So, as bash does
 * when interactive, idrsh then takes a group of its own and the terminal,
 * and gives the terminal back when it leaves.  Its parent (make) would
 * not resume a stopped idrsh, so Ctrl-Z is ignored in that case, as bash
 * ignores it.  Started by a shell as a job, idrsh leads its group
 * already and nothing changes: Ctrl-Z works.
 */
static void take_terminal(void)
{
	pid_t group = getpgrp();

	if (group == getpid() || tcgetpgrp(STDIN_FILENO) != group)
		return;
	signal(SIGTTOU, SIG_IGN); /* tcsetpgrp() from a background group */
	if (setpgid(0, 0) != 0)
		return;
	if (tcsetpgrp(STDIN_FILENO, getpid()) != 0) {
		setpgid(0, group);
		return;
	}
	terminal_was = group;
	atexit(give_back_terminal);
	signal(SIGTSTP, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
}

static void signals_init(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

/* ======================== Calling Lua ======================== */

/* Pushes module function @name; the arguments follow. */
static void push_fn(struct shell *s, const char *name)
{
	lua_rawgeti(s->L, LUA_REGISTRYINDEX, s->module);
	lua_getfield(s->L, -1, name);
	lua_remove(s->L, -2);
}

static void report(const char *where, const char *msg)
{
	fflush(stdout);
	if (where)
		fprintf(stderr, "idrsh: %s: %s\n", where, msg);
	else
		fprintf(stderr, "idrsh: %s\n", msg);
}

/*
 * Calls the function under @nargs arguments, wanting one result, and
 * folds it into the shell's state: false marks a failure, "quit" asks to
 * stop.  Return: true if the call succeeded.
 */
static bool call(struct shell *s, int nargs, const char *where)
{
	bool ok;
	int rc;

	in_lua = 1;
	rc = lua_pcall(s->L, nargs, 1, 0);
	in_lua = 0;
	lua_sethook(s->L, NULL, 0, 0);
	stopping = 0;
	holding = held = 0;
	if (rc != LUA_OK) {
		const char *msg = lua_tostring(s->L, -1);

		/* The terminal echoed ^C: the message goes on a line of
		 * its own. */
		if (s->interactive && msg && strcmp(msg, "interrupted!") == 0)
			fputc('\n', stderr);
		report(where, msg ? msg : "(error object is not a string)");
		lua_pop(s->L, 1);
		s->failed = true;
		return false;
	}
	if (lua_type(s->L, -1) == LUA_TSTRING) {
		s->quit = true;
		ok = true;
	} else {
		ok = lua_toboolean(s->L, -1);
	}
	lua_pop(s->L, 1);
	if (!ok)
		s->failed = true;
	return ok;
}

struct line_arg {
	const char *line;
	size_t len;
	const char *where;
};

/* Under lua_pcall: copying a long line into Lua may run out of memory,
 * and outside a protected call that would abort. */
static int line_call(lua_State *L)
{
	const struct line_arg *a = lua_touserdata(L, 1);

	push_fn(sh, "run_line");
	lua_pushlstring(L, a->line, a->len);
	if (a->where)
		lua_pushstring(L, a->where);
	else
		lua_pushnil(L);
	lua_call(L, 2, 1);
	return 1;
}

static bool run_line(struct shell *s, const char *line, size_t len,
		     const char *where)
{
	struct line_arg a = { line, len, where };

	lua_pushcfunction(s->L, line_call);
	lua_pushlightuserdata(s->L, &a);
	return call(s, 1, where);
}

/* Calls module function @name with no arguments, as run_line. */
static bool run_fn(struct shell *s, const char *name)
{
	push_fn(s, name);
	return call(s, 0, NULL);
}

static void push_args(struct shell *s, char **argv, int argc)
{
	lua_createtable(s->L, argc, 1);
	for (int i = 0; i < argc; i++) {
		lua_pushstring(s->L, argv[i]);
		lua_rawseti(s->L, -2, i);
	}
}

static bool run_file(struct shell *s, char **argv, int argc)
{
	push_fn(s, "run_file");
	lua_pushstring(s->L, argv[0]);
	push_args(s, argv, argc);
	return call(s, 2, argv[0]);
}

static bool run_lua(struct shell *s, const char *chunk)
{
	push_fn(s, "run_lua");
	lua_pushstring(s->L, chunk);
	lua_pushliteral(s->L, "=-e");
	return call(s, 2, "-e");
}

static bool ask(struct shell *s, const char *name);
static void answers(struct shell *s);

/* -c: each line of CMD is a command, named "-c:N" in errors, N counting
 * the lines of every -c so far (with one line each, the Nth -c).  A
 * lesson it leaves waiting takes its answers from standard input. */
static bool run_command(struct shell *s, const char *cmd)
{
	static int lineno;
	char where[32];
	bool ok = true;

	while (!s->quit) {
		size_t len = strcspn(cmd, "\n");

		snprintf(where, sizeof(where), "-c:%d", ++lineno);
		ok = run_line(s, cmd, len, where) && ok;
		/* A final newline ends the last line; no empty one after it. */
		if ((!ok && s->bail) || cmd[len] == '\0' ||
		    cmd[len + 1] == '\0')
			break;
		cmd += len + 1;
	}
	if (!s->quit && ask(s, "waiting"))
		answers(s);
	return run_fn(s, "finish") && ok;
}

/* ======================== The Lua state ======================== */

/* The module "idrsh.lesson_texts": each lesson's text by name. */
static int open_lesson_texts(lua_State *L)
{
	const struct embedded *l;

	lua_newtable(L);
	for (l = lessons; l->name; l++) {
		lua_pushlstring(L, l->src, l->len);
		lua_setfield(L, -2, l->name);
	}
	return 1;
}

/* package.preload: the binding, the shell's modules (each compiled now,
 * run when first required) and the lessons. */
static void preload_modules(lua_State *L)
{
	const struct embedded *m;

	luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
	lua_pushcfunction(L, luaopen_idr);
	lua_setfield(L, -2, "idr");
	for (m = shell; m->name; m++) {
		if (luaL_loadbufferx(L, m->src, m->len, m->chunk, "t") !=
		    LUA_OK)
			lua_error(L);
		lua_setfield(L, -2, m->name);
	}
	lua_pushcfunction(L, open_lesson_texts);
	lua_setfield(L, -2, "idrsh.lesson_texts");
	lua_pop(L, 1);
}

static int open_shell(lua_State *L)
{
	struct shell *s = lua_touserdata(L, 1);

	luaL_openlibs(L);
	preload_modules(L);
	lua_getglobal(L, "require");
	lua_pushliteral(L, "idrsh");
	lua_call(L, 1, 1);
	lua_getfield(L, -1, "setup");
	lua_createtable(L, 0, 10);
	lua_pushboolean(L, s->color_out);
	lua_setfield(L, -2, "color_out");
	lua_pushboolean(L, s->color_err);
	lua_setfield(L, -2, "color_err");
	lua_pushboolean(L, s->bail);
	lua_setfield(L, -2, "bail");
	lua_pushboolean(L, s->interactive);
	lua_setfield(L, -2, "interactive");
	lua_pushboolean(L, s->json);
	lua_setfield(L, -2, "json");
	shell_sys_fields(L);
	lua_pushcfunction(L, hold_interrupts);
	lua_setfield(L, -2, "hold_interrupts");
	lua_pushcfunction(L, read_line);
	lua_setfield(L, -2, "read_line");
	lua_call(L, 1, 0);
	s->module = luaL_ref(L, LUA_REGISTRYINDEX);
	return 0;
}

/* The shell's names keep clear of Lua's lua_ and luaL_ prefixes.
 * Return: false (reported) if the state or the shell's modules cannot be
 * set up. */
static bool shell_lua_open(struct shell *s)
{
	s->L = luaL_newstate();
	if (!s->L) {
		fputs("idrsh: cannot create the Lua state\n", stderr);
		return false;
	}
	lua_pushcfunction(s->L, open_shell);
	lua_pushlightuserdata(s->L, s);
	if (lua_pcall(s->L, 1, 0, 0) != LUA_OK) {
		report(NULL, lua_tostring(s->L, -1));
		return false;
	}
	return true;
}

static void shell_lua_close(struct shell *s)
{
	if (s->L)
		lua_close(s->L);
	s->L = NULL;
}

/* ======================== Completion ======================== */

static char **matches; /* the Lua side's candidates, for generate() */

static char *generate(const char *text, int state)
{
	static int i;

	(void)text;
	if (state == 0)
		i = 0;
	return matches && matches[i] ? strdup(matches[i++]) : NULL;
}

static void matches_free(void)
{
	for (int i = 0; matches && matches[i]; i++)
		free(matches[i]);
	free(matches);
	matches = NULL;
}

/* Copies the table on top of the stack into matches[]. */
static void matches_take(lua_State *L)
{
	lua_Integer n = luaL_len(L, -1);

	matches = calloc((size_t)n + 1, sizeof(*matches));
	for (lua_Integer i = 1; matches && i <= n; i++) {
		const char *c;

		lua_rawgeti(L, -1, i);
		c = lua_tostring(L, -1);
		matches[i - 1] = strdup(c ? c : "");
		lua_pop(L, 1);
	}
}

struct complete_arg {
	const char *text;
	int start;
};

/* Under lua_pcall, as run_line's line_call. */
static int complete_call(lua_State *L)
{
	const struct complete_arg *a = lua_touserdata(L, 1);

	push_fn(sh, "complete");
	lua_pushstring(L, a->text);
	lua_pushstring(L, rl_line_buffer);
	lua_pushinteger(L, a->start);
	lua_call(L, 3, 2);
	return 2;
}

static char **complete(const char *text, int start, int end)
{
	struct complete_arg a = { text, start };
	lua_State *L = sh->L;
	char **result = NULL;

	(void)end;
	rl_attempted_completion_over = 1;
	lua_pushcfunction(L, complete_call);
	lua_pushlightuserdata(L, &a);
	if (lua_pcall(L, 1, 2, 0) != LUA_OK) {
		lua_pop(L, 1);
		return NULL;
	}
	/* A Lua name may go on with '.' or ':'. */
	if (lua_type(L, -1) == LUA_TSTRING)
		rl_completion_append_character = '\0';
	lua_pop(L, 1);
	if (lua_type(L, -1) == LUA_TSTRING) {
		rl_attempted_completion_over = 0; /* file names */
	} else if (lua_istable(L, -1)) {
		matches_take(L);
		result = rl_completion_matches(text, generate);
		matches_free();
	}
	lua_pop(L, 1);
	return result;
}

/* ======================== Reading stdin ======================== */

static char *prompt(struct shell *s)
{
	char *p;

	push_fn(s, "prompt");
	if (lua_pcall(s->L, 0, 1, 0) != LUA_OK || !lua_isstring(s->L, -1))
		p = strdup("idr> ");
	else
		p = strdup(lua_tostring(s->L, -1));
	lua_pop(s->L, 1);
	return p;
}

/* The module's function @name, called with no arguments, as a boolean
 * (false if it fails): waiting() is true while a lesson or quiz waits for
 * an answer; eof() is true if Ctrl-D ended a chunk or lesson only. */
static bool ask(struct shell *s, const char *name)
{
	bool r;

	push_fn(s, name);
	if (lua_pcall(s->L, 0, 1, 0) != LUA_OK) {
		lua_pop(s->L, 1);
		return false;
	}
	r = lua_toboolean(s->L, -1);
	lua_pop(s->L, 1);
	return r;
}

/* The banner's and prompts' stream: stderr with --json (stdout: JSON). */
static FILE *chat(const struct shell *s)
{
	return s->json ? stderr : stdout;
}

static void readline_init(const struct shell *s)
{
	rl_outstream = chat(s);
	rl_readline_name = "idrsh";
	rl_attempted_completion_function = complete;
	rl_signal_event_hook = on_signal_event;
}

/* At the terminal: answers are read with the 'answer> ' prompt, and go
 * to no history (they are no commands). */
static void interact_answers(struct shell *s)
{
	char *line, *p;

	readline_init(s);
	while (!s->quit && ask(s, "waiting")) {
		p = prompt(s);
		line = readline(p);
		free(p);
		if (!line) {
			fputc('\n', chat(s));
			return;
		}
		run_line(s, line, strlen(line), NULL);
		free(line);
	}
}

static void interact(struct shell *s)
{
	bool failed = s->failed; /* a typo at the prompt is no failure */
	char *line;

	readline_init(s);
	shell_history_load(&s->history);
	if (!s->quiet)
		fprintf(chat(s),
			"idrsh (idr) %s: type 'help' for commands, "
			"Ctrl-D to leave.\n",
			IDR_VERSION);
	while (!s->quit) {
		char *p = prompt(s);

		line = readline(p);
		free(p);
		if (!line) {
			fputc('\n', chat(s));
			if (ask(s, "eof"))
				continue;
			run_fn(s, "finish");
			break;
		}
		if (ask(s, "chunk_open"))
			shell_history_extend(&s->history, line);
		else
			shell_history_add(&s->history, line);
		run_line(s, line, strlen(line), NULL);
		free(line);
	}
	shell_history_close(&s->history);
	s->failed = failed;
}

/* Batch: no prompt, no echo, errors named <stdin>:N.  @until_answered:
 * only the answers of a waiting lesson are read; the rest of the input
 * stays unread, and the caller ends the lesson. */
static void batch(struct shell *s, bool until_answered)
{
	char *line = NULL, where[48];
	size_t cap = 0;
	ssize_t len = 0;
	static long lineno; /* standard input's: answers read it first */

	while (!s->quit && !(until_answered && !ask(s, "waiting")) &&
	       (errno = 0, len = getline(&line, &cap, stdin)) >= 0) {
		if (len > 0 && line[len - 1] == '\n')
			len--;
		snprintf(where, sizeof(where), "<stdin>:%ld", ++lineno);
		if (!run_line(s, line, (size_t)len, where) && s->bail)
			break;
	}
	if (!until_answered && !s->quit && !(s->failed && s->bail))
		run_fn(s, "finish");
	/* A line too long for the memory left is no end of input. */
	if (!s->quit && len < 0 && !feof(stdin)) {
		snprintf(where, sizeof(where), "<stdin>:%ld", ++lineno);
		fflush(stdout);
		fprintf(stderr, "idrsh: %s: cannot read the line: %s\n", where,
			strerror(errno ? errno : EIO));
		s->failed = true;
	}
	free(line);
}

/* ======================== Options ======================== */

static void usage(void)
{
	fputs("Usage: idrsh [OPTION]... [SCRIPT [ARG]...]\n"
	      "The interactive shell of idr, the Linux kernel's integer ID "
	      "allocator.\n"
	      "SCRIPT is a file of idrsh commands, or Lua when it ends in "
	      ".lua;\n'-' reads commands from standard input.\n\n"
	      "  -c CMD           run an idrsh command (repeatable)\n"
	      "  -e LUA           run a Lua chunk (repeatable)\n"
	      "  -i               read standard input after -c, -e or "
	      "SCRIPT\n"
	      "  -q               no banner\n"
	      "      --bail       stop at the first failing command\n"
	      "      --batch      never prompt, even on a terminal\n"
	      "      --interactive  prompt and edit lines, even without a "
	      "terminal\n"
	      "                   (not with --batch)\n"
	      "      --color=WHEN auto (default), always or never\n"
	      "      --json       print results as JSON, one value a line, "
	      "and errors\n"
	      "                   as JSON objects (see 'help format')\n"
	      "      --html=FILE  record every command and write a replay "
	      "page\n"
	      "                   (one HTML file, for a browser)\n"
	      "      --load=FILE  start with the trees 'save' wrote to FILE\n"
	      "  -h, --help       display this help and exit\n"
	      "  -V, --version    output version information and exit\n\n"
	      "Exit status: 0 if every command of a script, -c, -e or piped "
	      "input succeeded,\n1 if one failed (lines typed at the prompt "
	      "do not count), 2 for a usage error.\n"
	      "History: $IDRSH_HISTORY (empty: none), else "
	      "$XDG_STATE_HOME/idrsh_history,\nelse ~/.idrsh_history; "
	      "$IDRSH_HISTSIZE lines (default 1000), saved as typed.\n",
	      stdout);
}

static void version(void)
{
	printf("idrsh (idr) %s\n%s\nGNU Readline %s\n"
	       "License GPL-3.0-or-later: this binary links GNU Readline.\n"
	       "This is free software: you are free to change and "
	       "redistribute it.\n",
	       IDR_VERSION, LUA_RELEASE, rl_library_version);
}

static int bad_usage(const char *msg, const char *arg)
{
	if (msg)
		fprintf(stderr, "idrsh: %s%s%s\n", msg, arg ? " " : "",
			arg ? arg : "");
	fputs("Try 'idrsh --help'.\n", stderr);
	return 2;
}

/* --color: decides for stdout and stderr alike. */
static bool set_color(struct shell *s, const char *when)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
	bool may = !(nc && *nc) && !(term && strcmp(term, "dumb") == 0);

	if (strcmp(when, "always") == 0) {
		s->color_out = s->color_err = true;
	} else if (strcmp(when, "never") == 0) {
		s->color_out = s->color_err = false;
	} else if (strcmp(when, "auto") == 0) {
		s->color_out = may && isatty(STDOUT_FILENO);
		s->color_err = may && isatty(STDERR_FILENO);
	} else {
		return false;
	}
	return true;
}

enum {
	OPT_BAIL = 256,
	OPT_BATCH,
	OPT_INTERACTIVE,
	OPT_COLOR,
	OPT_HTML,
	OPT_JSON,
	OPT_LOAD
};

static const struct option long_options[] = {
	{ "bail", no_argument, NULL, OPT_BAIL },
	{ "batch", no_argument, NULL, OPT_BATCH },
	{ "interactive", no_argument, NULL, OPT_INTERACTIVE },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "colour", required_argument, NULL, OPT_COLOR },
	{ "html", required_argument, NULL, OPT_HTML },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "load", required_argument, NULL, OPT_LOAD },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* Return: -1 to go on, else the exit status. */
static int option(struct shell *s, int c)
{
	switch (c) {
	case 'c':
	case 'e':
		s->actions[s->nactions].kind = (char)c;
		s->actions[s->nactions++].text = optarg;
		return -1;
	case 'i':
		s->stdin_after = true;
		return -1;
	case 'q':
		s->quiet = true;
		return -1;
	case OPT_BAIL:
		s->bail = true;
		return -1;
	case OPT_BATCH:
	case OPT_INTERACTIVE:
		/* Each says how to read stdin: together, one would lose. */
		if (s->mode && s->mode != (c == OPT_BATCH ? 'b' : 'i'))
			return bad_usage(
				"give --batch or --interactive, not both",
				NULL);
		s->mode = c == OPT_BATCH ? 'b' : 'i';
		return -1;
	case OPT_JSON:
		s->json = true;
		return -1;
	case OPT_HTML:
		/* Found now, not after the commands; "-c" is no file name. */
		if (!*optarg)
			return bad_usage("--html needs a file name", NULL);
		if (optarg[0] == '-')
			return bad_usage(
				"--html: refused: say ./FILE for a file named",
				optarg);
		s->html = optarg;
		return -1;
	case OPT_LOAD:
		if (!*optarg)
			return bad_usage("--load needs a file name", NULL);
		s->load = optarg;
		return -1;
	case OPT_COLOR:
		return set_color(s, optarg)
			       ? -1
			       : bad_usage("invalid --color:", optarg);
	case 'h':
		usage();
		return 0;
	case 'V':
		version();
		return 0;
	default:
		return bad_usage(NULL, NULL);
	}
}

static int parse_options(struct shell *s, int argc, char **argv)
{
	int c, rc;

	s->actions = calloc((size_t)argc, sizeof(*s->actions));
	if (!s->actions)
		return bad_usage("out of memory", NULL);
	set_color(s, "auto");
	while ((c = getopt_long(argc, argv, "+c:e:iqhV", long_options, NULL)) !=
	       -1) {
		rc = option(s, c);
		if (rc >= 0)
			return rc;
	}
	return -1;
}

/* ======================== Main ======================== */

static void run_stdin(struct shell *s)
{
	if (s->interactive)
		interact(s);
	else
		batch(s, false);
}

/* The answers to a lesson a -c started: the lines of standard input. */
static void answers(struct shell *s)
{
	if (s->interactive)
		interact_answers(s);
	else
		batch(s, true);
}

static void run_actions(struct shell *s)
{
	for (int i = 0; i < s->nactions && !s->quit; i++) {
		bool ok = s->actions[i].kind == 'c'
				  ? run_command(s, s->actions[i].text)
				  : run_lua(s, s->actions[i].text);
		if (!ok && s->bail)
			return;
	}
}

/* --html: the recording starts before the first command, once the
 * page's file is known to be writable, and is written after the last,
 * whether the commands failed or not.  Its title: the script's base
 * name (a path may show a home directory). */
static bool html_start(struct shell *s, int argc, char **argv)
{
	const char *title = optind < argc ? argv[optind] : "idrsh replay";
	const char *slash = strrchr(title, '/');

	push_fn(s, "html_start");
	lua_pushstring(s->L, slash && slash[1] ? slash + 1 : title);
	lua_pushstring(s->L, s->html);
	return call(s, 2, NULL);
}

static void html_save(struct shell *s)
{
	push_fn(s, "html_save");
	lua_pushstring(s->L, s->html);
	call(s, 1, NULL);
}

/* --load: as 'load --replace FILE', before anything else; the commands
 * that follow count on its trees, so none runs if it fails. */
static bool load_first(struct shell *s)
{
	push_fn(s, "load_file");
	lua_pushstring(s->L, s->load);
	return call(s, 1, "--load");
}

static void run(struct shell *s, int argc, char **argv)
{
	bool script = optind < argc;
	bool dash = script && strcmp(argv[optind], "-") == 0;

	if (s->load && !load_first(s))
		return;
	run_actions(s);
	if (s->quit || (s->failed && s->bail))
		return;
	if (script && !dash)
		run_file(s, argv + optind, argc - optind);
	if (s->quit || (s->failed && s->bail))
		return;
	if (dash || s->stdin_after || (!script && s->nactions == 0))
		run_stdin(s);
}

int main(int argc, char **argv)
{
	struct shell s = { 0 };
	int rc;

	static char name[] = "idrsh";

	sh = &s;
	argv[0] = name; /* getopt's messages say "idrsh: ..." */
	rc = parse_options(&s, argc, argv);
	if (rc >= 0) {
		free(s.actions);
		return rc;
	}
	s.interactive = s.mode == 'i' || (s.mode == 0 && isatty(STDIN_FILENO));
	if (optind < argc && strcmp(argv[optind], "-") == 0 && s.mode != 'i')
		s.interactive = false;
	if (s.interactive && isatty(STDIN_FILENO))
		take_terminal();
	signals_init();
	if (shell_lua_open(&s)) {
		if (!s.html || html_start(&s, argc, argv)) {
			run(&s, argc, argv);
			if (s.html)
				html_save(&s);
		}
	} else
		s.failed = true;
	shell_lua_close(&s);
	free(s.actions);
	/* Output lost (a full disk, say) is a failure too. */
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "idrsh: write error%s%s\n", errno ? ": " : "",
			errno ? strerror(errno) : "");
		s.failed = true;
	}
	return s.failed ? 1 : 0;
}
