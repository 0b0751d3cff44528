# The manuals of idrsh(1) and the Lua module, idr(3lua), against the code:
# every command of idrsh's table and every method of the binding is there.

setup() {
	load test_helper
}

# The page's text with the font escapes and \- undone.
plain() {
	sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' "$1"
}

# The tag lines (the line after each .TP) of a page, escapes undone.
tags() {
	awk 'prev == ".TP" { print } { prev = $0 }' "$1" |
		sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g'
}

@test "idrsh(1) lists every command with its synopsis and one-line help" {
	run ./build/idrsh -c help
	[ "$status" -eq 0 ]
	names=$(printf '%s\n' "$output" | sed '$d' | awk '{ print $1 }')
	[ "$(printf '%s\n' "$names" | wc -l)" -ge 30 ]
	tags man/idrsh.1 > "$BATS_TEST_TMPDIR/tags"
	plain man/idrsh.1 > "$BATS_TEST_TMPDIR/page"
	for n in $names; do
		# "usage: NAME ARGS" and the one-line help, from the table.
		usage=$(./build/idrsh -c "help $n" | sed -n '1s/^usage: //p')
		help=$(./build/idrsh -c "help $n" | sed -n 3p)
		[ -n "$usage" ] && [ -n "$help" ]
		grep -qxF "$usage" "$BATS_TEST_TMPDIR/tags" ||
			{ echo "idrsh.1: no .TP entry '$usage'"; return 1; }
		grep -qF "$help" "$BATS_TEST_TMPDIR/page" ||
			{ echo "idrsh.1: no help for $n: '$help'"; return 1; }
	done
}

@test "idrsh(1) has no command that idrsh lacks" {
	names=$(./build/idrsh -c help | sed '$d' | awk '{ print $1 }')
	sed -n '/^\.SH COMMANDS/,/^\.SH /p' man/idrsh.1 |
		awk 'prev == ".TP" { print } { prev = $0 }' |
		sed 's/\\f[BIRP]//g' | awk '{ print $1 }' > "$BATS_TEST_TMPDIR/documented"
	[ -s "$BATS_TEST_TMPDIR/documented" ]
	while read -r n; do
		printf '%s\n' "$names" | grep -qxF "$n" ||
			{ echo "idrsh.1 documents '$n', which idrsh does not have"; return 1; }
	done < "$BATS_TEST_TMPDIR/documented"
}

@test "idrsh(1) lists every option of idrsh --help" {
	run ./build/idrsh --help
	[ "$status" -eq 0 ]
	opts=$(printf '%s\n' "$output" | grep -oE '(^|[ ,])--?[a-zA-Z][-a-z]*' |
		sed 's/^[ ,]//' | sort -u)
	[ -n "$opts" ]
	plain man/idrsh.1 > "$BATS_TEST_TMPDIR/page"
	for o in $opts; do
		grep -qE -- "^\.B[IR]? +$o([ =]|$)|^\.B[IR]? .* $o( |$)" \
			<(sed 's/\\-/-/g' man/idrsh.1) ||
			{ echo "idrsh.1: no option $o"; return 1; }
	done
}

@test "idrsh(1) names the history files and the variables of --help" {
	plain man/idrsh.1 > "$BATS_TEST_TMPDIR/page"
	for s in IDRSH_HISTORY XDG_STATE_HOME/idrsh_history '~/.idrsh_history' \
		NO_COLOR INPUTRC 'GPL-3.0-or-later' 'idr (3lua)' 'idr (3)'; do
		grep -qF -- "$s" "$BATS_TEST_TMPDIR/page" ||
			{ echo "idrsh.1 lacks $s"; return 1; }
	done
	for sect in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS FILES ENVIRONMENT \
		'EXIT STATUS' EXAMPLES 'SEE ALSO'; do
		grep -qxF ".SH $sect" man/idrsh.1 || grep -qxF ".SH \"$sect\"" man/idrsh.1 ||
			{ echo "idrsh.1 lacks .SH $sect"; return 1; }
	done
}

@test "idrsh(1)'s example sessions are what idrsh prints" {
	# Each .EX block: '$ ' lines are commands (bold), the rest output.
	awk '/^\.EX/ { n++; on = 1; next } /^\.EE/ { on = 0 }
		on { print > (dir "/ex" n) }' \
		dir="$BATS_TEST_TMPDIR" man/idrsh.1
	for f in "$BATS_TEST_TMPDIR"/ex*; do
		sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" \
			-e 's/\\en/\\n/g' "$f" > "$f.txt"
		cmd=$(sed -n 's/^\$ //p' "$f.txt")
		[ "$(printf '%s\n' "$cmd" | wc -l)" -ge 1 ] || continue
		# Sessions with one or more commands: run them from the top.
		sed '/^\$ /d' "$f.txt" > "$f.want"
		(PATH="$TOP/build:$PATH"; eval "$cmd") > "$f.got" 2>&1 || true
		diff "$f.want" "$f.got" || { echo "in: $cmd"; return 1; }
	done
}

@test "idr(3lua) documents every function and method of the binding" {
	# The names registered in lua/lidr.c's luaL_Reg tables, metamethods aside.
	names=$(awk '/^static const luaL_Reg (idr_methods|ida_methods|funcs)\[\]/ { on = 1; next }
		on && /^};/ { on = 0 } on' lua/lidr.c |
		sed -n 's/^[[:space:]]*{ "\([a-z_0-9]*\)".*/\1/p' | sort -u)
	[ "$(printf '%s\n' "$names" | wc -l)" -ge 30 ]
	plain man/idr.3lua > "$BATS_TEST_TMPDIR/page"
	for n in $names; do
		grep -qE "(^|[.:])$n( |\(|$)" "$BATS_TEST_TMPDIR/page" ||
			{ echo "idr.3lua: no entry for $n"; return 1; }
	done
}

@test "idr(3lua) names every errno constant the module exports" {
	names=$(LUA_CPATH_5_4='build/?.so;;' lua5.4 -e '
		for k in pairs(require "idr") do
			if k:find("^E%u+$") then print(k) end
		end')
	[ -n "$names" ]
	for n in $names; do
		grep -qw "$n" man/idr.3lua || { echo "idr.3lua lacks $n"; return 1; }
	done
}

@test "idr(3lua)'s example prints what the page says" {
	sed -n '/^\.SH EXAMPLES/,/^\.SH /p' man/idr.3lua |
		awk '/^\.EX/ { n++; on = 1; next } /^\.EE/ { on = 0 } on && n == 1' |
		sed -e 's/\\e/\\/g' -e 's/\\-/-/g' > "$BATS_TEST_TMPDIR/example.lua"
	[ -s "$BATS_TEST_TMPDIR/example.lua" ]
	grep -- '^--> ' "$BATS_TEST_TMPDIR/example.lua" | sed 's/^--> //' \
		> "$BATS_TEST_TMPDIR/want"
	[ -s "$BATS_TEST_TMPDIR/want" ]
	run env LUA_CPATH_5_4='build/?.so;;' lua5.4 "$BATS_TEST_TMPDIR/example.lua"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	diff "$BATS_TEST_TMPDIR/want" <(printf '%s\n' "$output")
}

@test "make install-man installs idrsh.1 and idr.3lua" {
	dest=$BATS_TEST_TMPDIR/stage
	run make -s install-man DESTDIR="$dest" PREFIX=/usr
	[ "$status" -eq 0 ]
	[ -f "$dest/usr/share/man/man1/idrsh.1" ]
	[ -f "$dest/usr/share/man/man3/idr.3lua" ]
	run env MANWIDTH=200 man --manpath="$dest/usr/share/man" -P cat 1 idrsh
	[ "$status" -eq 0 ]
	[[ "$output" == *"interactive shell of idr"* ]]
}
