/* SPDX-License-Identifier: MIT */
/*
 * idrsh_history.c - idrsh's history at the terminal: which file holds
 * it, how many lines it keeps, and each line written to it as it is
 * entered.  The lines themselves are readline's history list; this file
 * knows nothing of Lua or of the commands.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "idrsh_history.h"

#define HISTORY_MAX 1000

/* mkdir -p @dir, private (as XDG asks of a state directory): a fresh
 * $XDG_STATE_HOME is made, not reported.  A failure shows when the file
 * is opened. */
static void make_dirs(const char *dir)
{
	char *d = strdup(dir), *p;

	if (!d)
		return;
	for (p = strchr(d + 1, '/');; p = strchr(p + 1, '/')) {
		if (p)
			*p = '\0';
		mkdir(d, 0700);
		if (!p)
			break;
		*p = '/';
	}
	free(d);
}

/* $IDRSH_HISTORY (empty: none), $XDG_STATE_HOME/idrsh_history, or
 * ~/.idrsh_history. */
static char *history_path(void)
{
	const char *env = getenv("IDRSH_HISTORY");
	const char *dir, *file;
	char *path;

	if (env)
		return *env ? strdup(env) : NULL;
	dir = getenv("XDG_STATE_HOME");
	file = "idrsh_history";
	if (dir && *dir) {
		make_dirs(dir);
	} else {
		dir = getenv("HOME");
		file = ".idrsh_history";
	}
	if (!dir || !*dir)
		return NULL;
	path = malloc(strlen(dir) + strlen(file) + 2);
	if (path)
		sprintf(path, "%s/%s", dir, file);
	return path;
}

/*
 * Only a regular file (or none yet) is history: reading a FIFO would
 * block, and the chmod below would change a device such as /dev/null.
 * A file that cannot be written is reported by history_open() or
 * shell_history_add().
 */
static bool history_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) != 0 || S_ISREG(st.st_mode);
}

/* $IDRSH_HISTSIZE lines are kept; HISTORY_MAX if unset or not a number. */
static int history_size(void)
{
	const char *env = getenv("IDRSH_HISTSIZE");
	char *end;
	long n;

	if (!env || !*env)
		return HISTORY_MAX;
	errno = 0;
	n = strtol(env, &end, 10);
	if (*end || errno || n < 0 || n > 1000000)
		return HISTORY_MAX;
	return (int)n;
}

static void history_fail(struct shell_history *h)
{
	fprintf(stderr, "idrsh: cannot write history to %s: %s\n", h->path,
		strerror(errno));
	free(h->path);
	h->path = NULL;
}

/* The file exists and is private before the first line goes in. */
static void history_open(struct shell_history *h)
{
	/* O_NONBLOCK: should it have become a FIFO since, fail, not hang. */
	int fd = open(h->path, O_WRONLY | O_CREAT | O_APPEND | O_NONBLOCK,
		      0600);

	if (fd < 0 || fchmod(fd, 0600) != 0) {
		history_fail(h);
		if (fd >= 0)
			close(fd);
		return;
	}
	/* Written back from what was read: cut to $IDRSH_HISTSIZE entries
	 * whatever the file held (a garbled one included). */
	if (close(fd) != 0 || (errno = write_history(h->path)) != 0)
		history_fail(h);
}

void shell_history_load(struct shell_history *h)
{
	h->path = history_path();
	h->size = history_size();
	stifle_history(h->size);
	if (h->path && !history_regular(h->path)) {
		fprintf(stderr, "idrsh: %s is not a regular file; no history\n",
			h->path);
		free(h->path);
		h->path = NULL;
	}
	if (h->path && h->size == 0) {
		free(h->path);
		h->path = NULL;
	}
	if (!h->path)
		return;
	read_history(h->path);
	history_open(h);
}

/* A lesson's answers are read at the 'answer> ' prompt (lua/idrsh/init.lua):
 * they are no commands, and Up at 'idr> ' must not bring back "two". */
static bool is_answer(void)
{
	return rl_prompt && strstr(rl_prompt, "answer> ");
}

/*
 * Each line goes to the file as it is entered, so that a hang-up, 'lua
 * os.exit()' or a crash loses none; the file is cut to the last
 * $IDRSH_HISTSIZE lines as it goes.
 */
void shell_history_add(struct shell_history *h, const char *line)
{
	HIST_ENTRY *last = history_length > 0 ? history_get(history_base +
							    history_length - 1)
					      : NULL;
	int err;

	if (line[strspn(line, " \t")] == '\0' || is_answer())
		return;
	if (last && strcmp(last->line, line) == 0)
		return;
	add_history(line);
	if (!h->path)
		return;
	err = append_history(1, h->path);
	if (!err)
		err = history_truncate_file(h->path, h->size);
	if (err) {
		errno = err;
		history_fail(h);
	}
}

/* Appends @line to the history file, as append_history() would. */
static void history_file_line(struct shell_history *h, const char *line)
{
	FILE *f = fopen(h->path, "a");
	int err = f ? 0 : errno;

	if (f && fprintf(f, "%s\n", line) < 0)
		err = EIO;
	if (f && fclose(f) != 0 && !err)
		err = errno;
	if (!err)
		err = history_truncate_file(h->path, h->size);
	if (err) {
		errno = err;
		history_fail(h);
	}
}

/*
 * A line that goes on with a pending chunk joins the chunk's entry, as
 * in lua5.4, so that Up brings the whole chunk back.  The file, one line
 * an entry, still gets the line as it is entered.
 */
void shell_history_extend(struct shell_history *h, const char *line)
{
	HIST_ENTRY *last = history_get(history_base + history_length - 1);
	size_t n = (last ? strlen(last->line) + 1 : 0) + strlen(line) + 1;
	char *all = malloc(n);

	if (!last || !all) {
		free(all);
		shell_history_add(h, line);
		return;
	}
	snprintf(all, n, "%s\n%s", last->line, line);
	free_history_entry(
		replace_history_entry(history_length - 1, all, NULL));
	free(all);
	if (h->path)
		history_file_line(h, line);
}

void shell_history_close(struct shell_history *h)
{
	free(h->path);
	h->path = NULL;
}
