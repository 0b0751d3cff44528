# The build's promises: the README's C example, install, pkg-config.

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
	[ -x "$dest/opt/idr/bin/idrsh" ]
	[ -f "$dest/opt/idr/lib/lua/5.4/idr.so" ]
	[ -f "$dest/opt/idr/share/man/man3/idr_alloc.3" ]
	[ -f "$dest/opt/idr/lib/libidr.a" ]
	[ -x "$dest/opt/idr/lib/libidr.so.0.1.0" ]
	[ "$(readlink "$dest/opt/idr/lib/libidr.so")" = libidr.so.0 ]
	[ -f "$dest/opt/idr/lib/pkgconfig/idr.pc" ]
	[ -L "$dest/opt/idr/lib/pkgconfig/libidr.pc" ]
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
	[ "$output" = "0.1.0" ]
	run sh -c "cc -o '$BATS_TEST_TMPDIR/shared' '$BATS_TEST_TMPDIR/example.c' \
		\$(pkg-config --cflags --libs idr)"
	[ "$status" -eq 0 ]
	run env LD_LIBRARY_PATH="$dest/opt/idr/lib" "$BATS_TEST_TMPDIR/shared"
	[ "$status" -eq 0 ]
	[ "$output" = "1 0 second" ]
}

@test "the shared library exports only the public API" {
	run sh -c "nm -D --defined-only build/libidr.so | awk '{print \$3}' |
		grep -v -e '^idr_' -e '^ida_' -e '^IDA_BITMAP_BITS$' -e '^_'"
	[ "$output" = "" ]
	# idr_for_each_entry()'s out-of-line step is the one private export.
	run sh -c "nm -D --defined-only build/libidr.so | grep ' idr__' |
		awk '{print \$3}'"
	[ "$output" = "idr__iter_slow" ]
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
