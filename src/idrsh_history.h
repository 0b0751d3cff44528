/* SPDX-License-Identifier: MIT */
/*
 * idrsh_history.h - what idrsh_history.c gives idrsh.c: the history file
 * at the terminal.  The names keep clear of readline's history_ prefix.
 */
#ifndef IDRSH_HISTORY_H
#define IDRSH_HISTORY_H

struct shell_history {
	char *path; /* file, or NULL */
	int size;   /* lines it keeps */
};

/* Finds the file ($IDRSH_HISTORY, ...), reads it into readline's list
 * and cuts it to $IDRSH_HISTSIZE lines; reports a file it cannot use. */
void shell_history_load(struct shell_history *h);
/* A line entered at the prompt: to the list and to the file. */
void shell_history_add(struct shell_history *h, const char *line);
/* A line that goes on with a pending chunk: it joins the chunk's entry. */
void shell_history_extend(struct shell_history *h, const char *line);
/* Frees the path; the file keeps what was written. */
void shell_history_close(struct shell_history *h);

#endif /* IDRSH_HISTORY_H */
