#!/usr/bin/env bats
# idrsh at a terminal: a real pty through script(1), and history.

bats_require_minimum_version 1.5.0

setup() {
	load test_helper
	idrsh_setup
	export INPUTRC="$BATS_TEST_DIRNAME/inputrc" TERM=xterm
}

# Feeds the keys in $@ (printf formats, a pause between each) to idrsh
# on a pty; the transcript, with CRs dropped, is the output.  A key lost
# to a slow start fails the test after a minute instead of hanging it.
pty() {
	run timeout 60 bash -c '
		idrsh=$1; shift
		for keys in "$@"; do
			# Ctrl-C flushes what idrsh has not read yet: a slow start
			# (a busy machine) must not lose the keys before it.
			sleep 0.2; [ "$keys" = "\\003" ] && sleep 0.8
			printf "$keys"
		done |
			script -qec "exec $idrsh" /dev/null | tr -d "\r"
		exit "${PIPESTATUS[1]}"' pty "$IDRSH" "$@"
}

@test "pty: banner, prompt, a result; Ctrl-D exits 0" {
	pty 'alloc a\n' 'find 0\n' '\004'
	assert_success
	assert_line "idrsh (idr) 0.2.0: type 'help' for commands, Ctrl-D to leave."
	assert_line "idr> alloc a"
	assert_line "0"
	assert_line "a"
	assert_line --index -1 "idr> "
}

@test "pty: -q drops the banner" {
	run bash -c "printf '\\004' | script -qec 'exec $IDRSH -q' /dev/null | tr -d '\\r'"
	assert_success
	refute_line --partial "type 'help'"
}

@test "pty: Tab completes a command" {
	pty 'alloc a\n' 'fi\t 0\n' '\004'
	assert_success
	assert_line --regexp '^idr> fi.*nd 0$'
	assert_line "a"
}

@test "pty: Tab completes a tree name; the prompt names the tree" {
	pty 'new mytree\n' 'use default\n' 'use my\t\n' 'alloc x\n' '\004'
	assert_success
	assert_line "idr:mytree> use default"
	assert_line --regexp '^idr:mytree> alloc x$'
}

@test "pty: Tab offers nothing once a command has all its arguments" {
	pty 'use default\t\t\n' 'help use\t\t\n' '\004'
	assert_success
	assert_line --regexp "^idr> use default .?$"
	refute_line --partial "default default"
	refute_line "idrsh: usage: use NAME"
	assert_line "usage: use NAME"
}

@test "pty: Tab completes help topics" {
	pty 'help alloc_u\t\n' '\004'
	assert_success
	assert_line "usage: alloc_u32 VALUE START MAX"
}

@test "pty: Tab completes new's options and trace's words" {
	pty 'new x --tagged 4 --ret\t\n' 'trace of\t\n' 'trees\n' '\004'
	assert_success
	assert_line --regexp '^\* x +tagged +0 ids$'
	refute_output --partial "idrsh:"
}

@test "pty: Tab completes list's --count once, and what time runs as that command" {
	pty 'alloc_many 3\n' 'list \t\t1\n' 'time list --c\t1\n' 'time timer of\t\n' '\004'
	assert_success
	refute_output --partial "--count --count"
	assert_line --regexp '^idr> list --count .?1$'
	assert_line 'idr> time list --count 1'
	assert_line --regexp '^idr> time timer off ?$'
	[ "$(grep -c '^0 v$' <<<"$output")" -eq 2 ]
	refute_output --partial "idrsh:"
}

@test "pty: Ctrl-C discards the line being typed" {
	pty 'alloc a' '\003' 'count\n' '\004'
	assert_success
	assert_line "idr> count"
	assert_line "0"
}

@test "pty: Ctrl-C interrupts a running Lua loop; the tree is intact" {
	pty 'alloc a\n' 'lua while true do end\n' '\003' 'count\n' '\004'
	assert_success
	assert_line --partial "idrsh: interrupted!"
	assert_line "1"
}

@test "pty: errors at the prompt say no FILE:LINE, and do not set the exit status" {
	pty 'find 3\n' '\004'
	assert_success
	assert_line "idrsh: find: no id 3 (ENOENT)"
}

@test "history: ~/.idrsh_history, mode 0600, non-empty lines once" {
	pty 'alloc a\n' '\n' 'alloc a\n' 'count\n' '\004'
	assert_success
	run cat "$HOME/.idrsh_history"
	assert_output "alloc a
count"
	run stat -c %a "$HOME/.idrsh_history"
	assert_output "600"
}

@test "history: a chunk of several lines is one entry (Up brings it back)" {
	pty 'lua n = (n or 0) + 1 do\n' 'end\n' '\033[A\n' '=n\n' '\004'
	assert_success
	refute_line --partial "unknown command"
	assert_line "2"
}

@test "history: read back at the next start (Up arrow)" {
	printf 'alloc fromhistory\n' > "$HOME/.idrsh_history"
	pty '\033[A\n' 'find 0\n' '\004'
	assert_success
	assert_line "fromhistory"
}

@test "history: \$IDRSH_HISTORY names the file; empty disables it" {
	export IDRSH_HISTORY="$BATS_TEST_TMPDIR/h"
	pty 'count\n' '\004'
	run cat "$BATS_TEST_TMPDIR/h"
	assert_output "count"
	export IDRSH_HISTORY=
	pty 'count\n' '\004'
	[ ! -e "$HOME/.idrsh_history" ]
}

@test "history: \$XDG_STATE_HOME/idrsh_history" {
	export XDG_STATE_HOME="$BATS_TEST_TMPDIR/state"
	mkdir "$XDG_STATE_HOME"
	pty 'count\n' '\004'
	run cat "$XDG_STATE_HOME/idrsh_history"
	assert_output "count"
	[ ! -e "$HOME/.idrsh_history" ]
}

@test "--interactive prompts even without a terminal" {
	run -0 "$IDRSH" --interactive -q <<<"count"
	assert_line --index 0 "idr> count"
	assert_line --index 1 "0"
}

@test "--json --interactive: banner and prompts on stderr, stdout JSON Lines only" {
	run --separate-stderr "$IDRSH" --json --interactive <<<'alloc a'
	assert_success
	assert_output "0"
	[[ "$stderr" == *"type 'help'"*"idr> alloc a"* ]]
}

@test "--batch on a terminal: no banner, no prompt" {
	pty 'count\n' '\004'
	assert_line --partial "idr> "
	run bash -c "{ sleep 0.2; printf 'count\\n'; sleep 0.2; printf '\\004'; } | script -qec 'exec $IDRSH --batch' /dev/null | tr -d '\\r'"
	refute_line --partial "idr> "
	refute_line --partial "type 'help'"
	assert_line "0"
}

@test "pty: Tab completes file names after source" {
	printf 'alloc fromfile\n' > "$BATS_TEST_TMPDIR/script.idrsh"
	pty "source $BATS_TEST_TMPDIR/scr\\t\\n" 'find 0\n' '\004'
	assert_success
	assert_line "fromfile"
}

@test "pty: errors are red on a terminal unless NO_COLOR is set" {
	NO_COLOR= pty 'find 3\n' '\004'
	assert_line $'\e[31midrsh: find: no id 3 (ENOENT)\e[0m'
	NO_COLOR=1 pty 'find 3\n' '\004'
	assert_line "idrsh: find: no id 3 (ENOENT)"
}

@test "history: an unwritable history file is reported, exit still 0" {
	export IDRSH_HISTORY="$BATS_TEST_TMPDIR/no/such/dir/h"
	pty 'count\n' '\004'
	assert_success
	assert_line --partial "idrsh: cannot write history to $BATS_TEST_TMPDIR/no/such/dir/h: No such file or directory"
}

@test "pty: an unfinished Lua chunk goes on at '>> '; so does =EXPR" {
	pty 'lua function f(n)\n' 'return n + 1\n' 'end\n' '=f(\n' '41)\n' '\004'
	assert_success
	assert_line "idr> lua function f(n)"
	assert_line ">> return n + 1"
	assert_line ">> end"
	assert_line ">> 41)"
	assert_line "42"
	refute_output --partial "idrsh:"
}

@test "pty: Ctrl-C at '>> ' drops the chunk; the prompt is idr> again" {
	pty 'lua x = {\n' '1,\n' '\003' 'count\n' '=x\n' '\004'
	assert_success
	assert_line ">> 1,"
	assert_line "idr> count"
	assert_line "0"
	assert_line "nil"
	refute_output --partial "idrsh:"
}

@test "pty: a here-document at the terminal" {
	pty 'lua <<EOF\n' 'local a = 6\n' 'return a * 7\n' 'EOF\n' '\004'
	assert_success
	assert_line ">> return a * 7"
	assert_line ">> EOF"
	assert_line "42"
}

@test "pty: Ctrl-D in an unfinished chunk says why it is unfinished, and idrsh goes on" {
	pty 'lua for i = 1, 2 do\n' '\004' 'alloc a\n' 'count\n' '\004'
	assert_success
	# (Keys typed before idrsh is up echo early: no line number here.)
	assert_line --regexp '^>> ?$'
	assert_line "idrsh: lua: lua:1: 'end' expected near <eof>"
	assert_line "idr> count"
	assert_line "1"
}

@test "pty: Ctrl-D in a here-document drops it; idrsh goes on" {
	pty 'alloc a\n' 'lua <<EOF\n' 'x = 1\n' '\004' 'count\n' '=x\n' '\004'
	assert_success
	assert_line "idrsh: lua: no line 'EOF' ends the here-document"
	assert_line "idr> count"
	assert_line "1"
	assert_line "nil"
}

@test "pty: Ctrl-D at the answer> prompt leaves the lesson; idrsh goes on" {
	pty 'alloc mine\n' 'lesson lowest-free\n' '2\n' '\004' 'count\n' '\004'
	assert_success
	assert_line "Right: 2."
	assert_line "No answer to question 2: Ctrl-D."
	assert_line "Score: 1 of 3 (1 answered)."
	assert_line "idr> count"
	assert_line "1"
}

@test "pty: Ctrl-C during a command: ^C, then the message on a line of its own" {
	pty 'lua while true do end\n' '\003' '\004'
	assert_success
	assert_line "^C"
	assert_line "idrsh: interrupted!"
}

@test "history: each line is saved as it is entered (lua os.exit, SIGHUP)" {
	pty 'alloc a\n' 'lua os.exit(0)\n'
	run cat "$HOME/.idrsh_history"
	assert_output "alloc a
lua os.exit(0)"
	run stat -c %a "$HOME/.idrsh_history"
	assert_output "600"
	rm "$HOME/.idrsh_history"
	# script(1) gone, the pty hangs up: idrsh gets SIGHUP.
	# The hang-up comes once the line is in (a busy machine is slow).
	run timeout 60 bash -c '
		{ sleep 0.3; printf "count\n"
		  for i in $(seq 300); do [ -e "$3" ] && break; sleep 0.1; done; } |
			script -qec "exec $1" /dev/null & pid=$!
		for i in $(seq 100); do grep -qsx count "$2" && break; sleep 0.1; done
		kill -HUP $pid; sleep 1; : > "$3"; wait' \
		x "$IDRSH" "$HOME/.idrsh_history" "$BATS_TEST_TMPDIR/hung-up"
	run cat "$HOME/.idrsh_history"
	assert_output "count"
}

@test "history: \$IDRSH_HISTSIZE bounds the file" {
	export IDRSH_HISTSIZE=2
	printf 'one\ntwo\nthree\n' > "$HOME/.idrsh_history"
	pty 'count\n' 'trees\n' '\004'
	run cat "$HOME/.idrsh_history"
	assert_output "count
trees"
}

@test "pty: Tab completes dot's options" {
	pty 'dot --s\t\n' '\004'
	assert_success
	assert_line --partial "idr> dot --svg"
}

@test "pty: Tab completes Lua names: globals, fields, methods" {
	pty 'alloc a\n' '=t:cou\t()\n' 'lua print(string.up\t("a"))\n' '=tre\t.def\t:cou\t()\n' '\004'
	assert_success
	assert_line "idr> =t:count()"
	assert_line "idr> lua print(string.upper(\"a\"))"
	assert_line "A"
	assert_line "idr> =trees.default:count()"
	refute_output --partial "idrsh:"
}

# make shares its process group with the recipe it runs: a Ctrl-C that
# idrsh handled killed make once idrsh left (status 130).  Ctrl-Z is
# ignored there, since make would never resume a stopped idrsh.
@test "pty: under make, Ctrl-C then Ctrl-D leaves make with status 0" {
	printf 'run:\n\t%s\n' "$IDRSH" > "$BATS_TEST_TMPDIR/Makefile"
	run bash -c '
		for keys in "alloc a\n" "\003" "\032" "find 0\n" "\004"; do
			sleep 0.3; printf "$keys"; done |
			script -qec "make -s -f $1" /dev/null | tr -d "\r"
		exit "${PIPESTATUS[1]}"' pty "$BATS_TEST_TMPDIR/Makefile"
	assert_success
	assert_line --partial "idr> find 0"
	assert_line "a"
}
