# The build's promises: the README's C example, install, pkg-config.
# (tests/doc.bats checks the other pages' examples and links.)

setup() {
	load test_helper
}

@test "the README's C example compiles and prints what it says" {
	readme_block c > "$BATS_TEST_TMPDIR/example.c"
	[ -s "$BATS_TEST_TMPDIR/example.c" ]
	run cc -std=c11 -Wall -Wextra -Werror -Isrc \
		-o "$BATS_TEST_TMPDIR/example" "$BATS_TEST_TMPDIR/example.c" \
		build/libidr.a
	[ "$status" -eq 0 ]
	run "$BATS_TEST_TMPDIR/example"
	[ "$status" -eq 0 ]
	[ "$output" = "1 0 second" ]
}

@test "make install stages the header, libraries and pkg-config file" {
	dest=$BATS_TEST_TMPDIR/stage
	run make -s install DESTDIR="$dest" PREFIX=/opt/idr
	[ "$status" -eq 0 ]
	[ -f "$dest/opt/idr/include/idr.h" ]
	[ -f "$dest/opt/idr/include/idr_view.h" ]
	[ -x "$dest/opt/idr/bin/idrsh" ]
	[ -f "$dest/opt/idr/lib/lua/5.4/idr.so" ]
	[ -f "$dest/opt/idr/share/man/man3/idr_alloc.3" ]
	[ -f "$dest/opt/idr/lib/libidr.a" ]
	[ -x "$dest/opt/idr/lib/libidr.so.0.2.0" ]
	[ "$(readlink "$dest/opt/idr/lib/libidr.so")" = libidr.so.1 ]
	[ "$(readlink "$dest/opt/idr/lib/libidr.so.1")" = libidr.so.0.2.0 ]
	[ -f "$dest/opt/idr/lib/pkgconfig/idr.pc" ]
	[ -L "$dest/opt/idr/lib/pkgconfig/libidr.pc" ]
	# Directories from ${prefix}: pkgconf --define-prefix can move it.
	grep -qxF 'libdir=${prefix}/lib' "$dest/opt/idr/lib/pkgconfig/idr.pc"
	grep -qxF 'includedir=${prefix}/include' \
		"$dest/opt/idr/lib/pkgconfig/idr-rcu.pc"
	run make -s uninstall DESTDIR="$dest" PREFIX=/opt/idr
	[ "$status" -eq 0 ]
	[ -z "$(find "$dest" -type f -o -type l)" ]
}

@test "a program builds with pkg-config against the staged install" {
	dest=$BATS_TEST_TMPDIR/stage
	make -s install DESTDIR="$dest" PREFIX=/opt/idr
	readme_block c > "$BATS_TEST_TMPDIR/example.c"
	export PKG_CONFIG_PATH="$dest/opt/idr/lib/pkgconfig"
	export PKG_CONFIG_SYSROOT_DIR="$dest"
	run pkg-config --modversion idr
	[ "$output" = "0.2.0" ]
	run sh -c "cc -o '$BATS_TEST_TMPDIR/shared' '$BATS_TEST_TMPDIR/example.c' \
		\$(pkg-config --cflags --libs idr)"
	[ "$status" -eq 0 ]
	run env LD_LIBRARY_PATH="$dest/opt/idr/lib" "$BATS_TEST_TMPDIR/shared"
	[ "$status" -eq 0 ]
	[ "$output" = "1 0 second" ]
}

@test "a program with the installed headers alone walks every node by cursor" {
	dest=$BATS_TEST_TMPDIR/stage
	make -s install DESTDIR="$dest" PREFIX=/opt/idr
	[ -f "$dest/opt/idr/include/idr_view.h" ]
	export PKG_CONFIG_PATH="$dest/opt/idr/lib/pkgconfig"
	export PKG_CONFIG_SYSROOT_DIR="$dest"
	# Only the staged include directory: no -Isrc.
	run sh -c "cc -std=c11 -Wall -Wextra -Wpedantic -Werror \
		-o '$BATS_TEST_TMPDIR/walk' tests/cxx/walk.c \
		\$(pkg-config --cflags --libs idr)"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	run env LD_LIBRARY_PATH="$dest/opt/idr/lib" "$BATS_TEST_TMPDIR/walk"
	[ "$status" -eq 0 ]
	[ "$output" = "height 4: cursor 11 views, 4 leaves (3 a keyed run); idr_walk 11; idr_stats 8 nodes, 1 leaves; budget 3: 3" ]
}

@test "the binding (lua/*.c, lua/*.h) includes no private header and reads no private field" {
	run sh -c "sed -n 's/^#include \"\\([^\"]*\\)\".*/\\1/p' lua/*.[ch] |
		while read -r h; do [ ! -e src/\$h ] || echo \$h; done"
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "$output" | sort -u | tr '\n' ' ')" = "idr.h idr_rcu.h idr_view.h " ] ||
		{ echo "src/ headers: $output"; return 1; }
	run grep -nE -e '(->|\.)idr_[a-z_]+\b[^(]' -e 'idr__[a-z]' lua/*.[ch]
	[ "$output" = "" ] ||
		{ echo "$output"; return 1; }
}

@test "the shared library exports only idr_ and ida_ names, no test hook" {
	nm -D --defined-only build/libidr.so | awk '{print $3}' \
		> "$BATS_TEST_TMPDIR/exports"
	[ -s "$BATS_TEST_TMPDIR/exports" ]
	run grep -v -e '^idr_' -e '^ida_' "$BATS_TEST_TMPDIR/exports"
	[ "$output" = "" ]
	# No hidden helper (idr__), no hook of 0.1.0: the tests and idrsh
	# count and fail allocations on the allocator seam instead.
	run grep -x -e 'idr__.*' -e idr_fault_inject -e idr_mem_stats \
		-e IDA_BITMAP_BITS "$BATS_TEST_TMPDIR/exports"
	[ "$output" = "" ]
	# The seam, and idr_for_each_entry()'s out-of-line step by its name.
	grep -qx idr_set_allocator "$BATS_TEST_TMPDIR/exports"
	grep -qx idr_get_allocator "$BATS_TEST_TMPDIR/exports"
	grep -qx idr_iter_step "$BATS_TEST_TMPDIR/exports"
	grep -qx ida_bitmap_bits "$BATS_TEST_TMPDIR/exports"
}

@test "src/ keeps one concern a file: none over 1,000 lines (nor lua/), no _GNU_SOURCE, no circle of calls" {
	objs=$(ar t build/libidr.a | sed 's|^|build/obj/|')
	[ -n "$objs" ]
	run tests/layers-check $objs
	[ "$output" = "" ]
	[ "$status" -eq 0 ]
}

@test "layers-check finds a circle of calls between two files" {
	cd "$BATS_TEST_TMPDIR"
	printf 'int b(void);\nint a(void) { return b(); }\n' > x.c
	printf 'int a(void);\nint b(void) { return a(); }\n' > y.c
	printf 'int a(void);\nint c(void) { return a(); }\n' > z.c
	cc -c x.c y.c z.c
	run "$BATS_TEST_DIRNAME/layers-check" x.o z.o
	[ "$status" -eq 0 ]
	run "$BATS_TEST_DIRNAME/layers-check" x.o y.o z.o
	[ "$status" -eq 1 ]
	[[ "$output" == *"a circle of calls"* ]]
}

@test "make run builds and starts idrsh" {
	run bash -c "printf 'alloc tty\nalloc disk\nfind 1\n' | make -s run"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '0\n1\ndisk')" ]
}

@test "make demo builds and runs the C demo" {
	run make -s demo
	[ "$status" -eq 0 ]
	[[ "$output" == *'idr_alloc("usb") = 1 (the lowest free ID)'* ]]
	[[ "$output" == *'idr_alloc("gpu", 1000, 2000) = 1000'* ]]
}

@test "the README's Lua example prints what it says" {
	readme_block lua > "$BATS_TEST_TMPDIR/example.lua"
	[ -s "$BATS_TEST_TMPDIR/example.lua" ]
	run env LUA_CPATH_5_4='build/?.so;;' lua5.4 "$BATS_TEST_TMPDIR/example.lua"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(printf '1\t0\tsecond')" ]
	[ "${lines[1]}" = "$(printf '5\tnil\tno free id in [5, 6)\tENOSPC')" ]
}

@test "the README's Lua example runs after make run alone, as it says" {
	grep -q "after \`make run\`" README.md
	local b=build/readme-run
	rm -rf "$b"
	run bash -c "make -s B=$b run < /dev/null"
	[ "$status" -eq 0 ]
	readme_block lua > "$BATS_TEST_TMPDIR/example.lua"
	run env LUA_CPATH_5_4="$b/?.so;;" lua5.4 "$BATS_TEST_TMPDIR/example.lua"
	rm -rf "$b"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$(printf '1\t0\tsecond')" ]
}

@test "the README and doc/ say nothing twice: no run of 12 words recurs in their prose" {
	# A page says a thing once, and the README leads to it.
	run awk 'FNR == 1 { code = 0 }
		/^```/ { code = !code; next }
		!code { for (i = 1; i <= NF; i++) { w[n] = $i; f[n++] = FILENAME } }
		END {
			for (i = 0; i + 12 <= n; i++) {
				k = w[i]
				for (j = 1; j < 12; j++) k = k " " w[i + j]
				if (!(k in first)) first[k] = f[i]
				else if (!said[k]++) print first[k] " and " f[i] ": " k
			}
		}' $DOC_PAGES
	[ "$status" -eq 0 ]
	[ -z "$output" ] || { echo "said twice: $output"; return 1; }
}

@test "the README's idrsh session is what idrsh prints" {
	# The block after "## The shell": commands follow "idr> ".
	awk '/^## The shell/ { s = 1 } s && /^```$/ { if (in_) exit; in_ = 1; next }
		s && in_' README.md > "$BATS_TEST_TMPDIR/session"
	sed -n 's/^idr> //p' "$BATS_TEST_TMPDIR/session" > "$BATS_TEST_TMPDIR/input"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/input")" -ge 8 ]
	sed -e '1,2d' -e '/^idr> /d' -e 's/^idrsh: /idrsh: <stdin>:8: /' \
		"$BATS_TEST_TMPDIR/session" > "$BATS_TEST_TMPDIR/want"
	run bash -c "./build/idrsh < '$BATS_TEST_TMPDIR/input' 2>&1"
	[ "$status" -eq 1 ]
	diff <(printf '%s\n' "$output" | sort) <(sort "$BATS_TEST_TMPDIR/want")
}

@test "the README's shell commands are make targets that exist" {
	# Running them here would recurse (make test) or wait for a user
	# (make run); make -n proves each is a target with a recipe.
	readme_block sh | sed 's/ *#.*//' | grep . > "$BATS_TEST_TMPDIR/cmds"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/cmds")" -eq 2 ]
	while read -r cmd; do
		run $cmd -n
		[ "$status" -eq 0 ] || { echo "$cmd: $output"; return 1; }
	done < "$BATS_TEST_TMPDIR/cmds"
}

@test "make help lists targets that exist, the README's among them" {
	run make -s help
	[ "$status" -eq 0 ]
	names=$(sed -n 's/^  \([a-z][a-z, -]*[a-z]\)  .*/\1/p' <<< "$output" |
		tr -d ,)
	[ "$(wc -w <<< "$names")" -ge 15 ]
	for t in $names run test; do
		grep -qw "$t" <<< "$names" || { echo "help lacks $t"; return 1; }
		# make -q exits 2 only for an error: here, no rule for $t.
		run make -q "$t"
		[ "$status" -ne 2 ] || { echo "no target $t: $output"; return 1; }
	done
}

# make test's quiet run (tests/run-suite, tests/run-all) on fake suites:
# one passes, one fails (TAP, as bats prints it), one crashes.
fake_suites() {
	fake=$BATS_TEST_TMPDIR
	results=$BATS_TEST_TMPDIR/results
	cat > "$fake/pass" <<-'END'
	echo "ok 1 first"
	echo "ok 2 ${MSG:-second}"
	echo "2 passed, 0 failed"
	END
	cat > "$fake/fail" <<-'END'
	echo "1..3"
	echo "ok 1 first"
	echo "# what a passing test has to say"
	echo "not ok 2 second"
	echo "# (in test file tests/fake.bats, line 7)"
	echo "#   \`[ 1 -eq 2 ]' failed"
	echo "ok 3 third"
	exit 1
	END
	cat > "$fake/crash" <<-'END'
	echo "ok 1 first"
	echo "crash: fatal error" >&2
	exit 134
	END
}

@test "make test's quiet run: a passing suite is one line, its log kept" {
	fake_suites
	run env V=0 sh tests/run-suite -d "$results" pass sh "$fake/pass"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" =~ ^pass\ +2\ passed,\ 0\ failed\ \ \[[0-9]+\ s\]$ ]]
	diff "$results/pass.log" <(sh "$fake/pass")
	[ "$(cat "$results/pass.count")" = "2 0" ]
}

@test "make test's quiet run: a failing suite shows its failures in full" {
	fake_suites
	run env V=0 sh tests/run-suite -d "$results" fail sh "$fake/fail"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" =~ ^fail\ +2\ passed,\ 1\ failed\ \ \[[0-9]+\ s\]$ ]]
	[ "${lines[1]}" = "not ok 2 second" ]
	[ "${lines[2]}" = "# (in test file tests/fake.bats, line 7)" ]
	[ "${lines[3]}" = "#   \`[ 1 -eq 2 ]' failed" ]
	[ "${lines[4]}" = "(whole log: $results/fail.log)" ]
	[ "${#lines[@]}" -eq 5 ]
	diff "$results/fail.log" <(sh "$fake/fail")
	[ "$(cat "$results/fail.count")" = "2 1" ]
}

@test "make test's quiet run: a crash with no summary line is a failure" {
	fake_suites
	run env V=0 sh tests/run-suite -d "$results" crash sh "$fake/crash"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" =~ ^crash\ +1\ passed,\ 1\ failed ]]
	# A crash shows the whole log: the last "ok" says where it stopped.
	[ "${lines[1]}" = "ok 1 first" ]
	[ "${lines[2]}" = "crash: fatal error" ]
	[ "${lines[3]}" = "crash: exited with status 134" ]
	[ "$(cat "$results/crash.count")" = "1 1" ]
	# Nor is a suite that reports nothing, even if it exits 0.
	run env V=0 sh tests/run-suite -d "$results" silent true
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" =~ ^silent\ +0\ passed,\ 1\ failed ]]
	[ "${lines[1]}" = "silent: reported no result" ]
}

@test "make test's quiet run: V=1 shows each suite's whole output" {
	fake_suites
	run env V=1 sh tests/run-suite -d "$results" fail sh "$fake/fail"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "== fail" ]
	diff <(printf '%s\n' "${lines[@]:1:7}") <(sh "$fake/fail")
	[[ "${lines[8]}" =~ ^fail\ +2\ passed,\ 1\ failed ]]
}

@test "make test's quiet run: run-all runs a list of suites and adds up" {
	fake_suites
	# As the Makefile writes it: the commands' quotes reach the shell.
	printf '%s\n' "pass env MSG='two words' sh $fake/pass" \
		"fail sh $fake/fail" "crash sh $fake/crash" > "$fake/list"
	run env V=0 sh tests/run-all "$results" "$fake/list"
	[ "$status" -eq 1 ]
	# Side by side, reports come as suites end: any order, each whole.
	printf '%s\n' "${lines[@]}" | grep -Eqx 'pass +2 passed, 0 failed  \[[0-9]+ s\]'
	[[ "$output" == *$'fail  '*$'\nnot ok 2 second\n# (in test file'* ]]
	grep -qx 'ok 2 two words' "$results/pass.log"
	[[ "$output" == *"not ok 2 second"* ]]
	[[ "$output" == *"crash: exited with status 134"* ]]
	[ "${lines[${#lines[@]} - 1]}" = "5 passed, 2 failed" ]
	# All pass: status 0, and the last line says so.
	echo "pass sh $fake/pass" > "$fake/list"
	run env V=0 sh tests/run-all "$results" "$fake/list"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[1]}" = "2 passed, 0 failed" ]
}

@test "make test's quiet run: suites run side by side, TEST_JOBS at a time" {
	fake=$BATS_TEST_TMPDIR
	# Each passes only if the other runs at the same time.
	for me in a b; do
		other=$([ $me = a ] && echo b || echo a)
		cat > "$fake/$me" <<-END
		touch "$fake/$me.here"
		for i in \$(seq 50); do
			[ -e "$fake/$other.here" ] && { echo "1 passed, 0 failed"; exit 0; }
			sleep 0.1
		done
		echo "0 passed, 1 failed"
		END
	done
	printf '%s\n' "a sh $fake/a" "b sh $fake/b" > "$fake/list"
	run env V=0 TEST_JOBS=2 sh tests/run-all "$fake/results" "$fake/list"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "2 passed, 0 failed" ]
	# One at a time, the first waits for the second in vain.
	rm -f "$fake"/*.here
	run env V=0 TEST_JOBS=1 sh tests/run-all "$fake/results" "$fake/list"
	[ "$status" -eq 1 ]
	[ "${lines[-1]}" = "1 passed, 1 failed" ]
}

@test "make test's quiet run: V=1 runs suites one at a time, in order" {
	fake_suites
	printf '%s\n' "crash sh $fake/crash" "pass sh $fake/pass" > "$fake/list"
	run env V=1 sh tests/run-all "$results" "$fake/list"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "== crash" ]
	[[ "$output" == *"crash: exited with status 134"*"== pass"* ]]
}

# make, untouched by the make test that runs this (its flags, its level).
make_alone() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make "$@"
}

@test "make is quiet: a compile says CC and its file; V=1 the command" {
	b=$BATS_TEST_TMPDIR/b
	run make_alone V=0 B="$b" "$b/obj/alloc.o"
	[ "$status" -eq 0 ]
	[ "$output" = "  CC  $b/obj/alloc.o" ]
	rm "$b/obj/alloc.o"
	run make_alone -s V=0 B="$b" "$b/obj/alloc.o"
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	rm "$b/obj/alloc.o"
	run make_alone V=1 B="$b" "$b/obj/alloc.o"
	[ "$status" -eq 0 ]
	[[ "$output" == *" -Werror "* ]]
	[[ "$output" == *"-c -o $b/obj/alloc.o src/alloc.c" ]]
	[[ "$output" != *"  CC  "* ]]
}
