# make install to a PREFIX of the user's own (issue 18): a program built
# with pkg-config runs via -rpath, via LD_LIBRARY_PATH, and linked
# statically; make install says where everything went and make uninstall
# removes exactly that; man -k finds the three pages after mandb.

setup() {
	load test_helper
	P=$BATS_TEST_TMPDIR/prefix
	export PKG_CONFIG_PATH=$P/lib/pkgconfig
	unset PKG_CONFIG_SYSROOT_DIR LD_LIBRARY_PATH
	readme_block c > "$BATS_TEST_TMPDIR/example.c"
}

install_prefix() {
	run make -s install PREFIX="$P"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}

# cc the README's C example to $BATS_TEST_TMPDIR/$1 with the other flags.
build() {
	local out=$BATS_TEST_TMPDIR/$1
	shift
	cc -std=c11 -Wall -Werror -o "$out" "$BATS_TEST_TMPDIR/example.c" "$@"
}

@test "make install PREFIX=DIR prints every file it installed, and the loader hint" {
	install_prefix
	printf '%s\n' "$output" | sed -n "s|^  \($P/[^ :]*\)$|\1|p" | sort > "$BATS_TEST_TMPDIR/said"
	find "$P" \( -type f -o -type l \) ! -path "$P/share/man/*" | sort \
		> "$BATS_TEST_TMPDIR/there"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/there")" -ge 10 ]
	diff "$BATS_TEST_TMPDIR/said" "$BATS_TEST_TMPDIR/there"
	[[ "$output" == *"$P/share/man: idrsh(1), idr(3), idr(3lua) and "* ]]
	[[ "$output" == *"$P/lib is not where the dynamic linker looks"* ]]
	[[ "$output" == *"-Wl,-rpath,$P/lib"* ]]
}

@test "without rpath or LD_LIBRARY_PATH, the issue's error: libidr.so.1 not found" {
	install_prefix
	build plain $(pkg-config --cflags --libs idr)
	run -127 "$BATS_TEST_TMPDIR/plain"
	[[ "$output" == *"libidr.so.1: cannot open shared object file"* ]]
	run env LD_LIBRARY_PATH="$P/lib" "$BATS_TEST_TMPDIR/plain"
	[ "$status" -eq 0 ] && [ "$output" = "1 0 second" ]
}

@test "built with -Wl,-rpath from pkg-config's libdir, it runs as is" {
	install_prefix
	[ "$(pkg-config --variable=libdir idr)" = "$P/lib" ]
	build rpath $(pkg-config --cflags --libs idr) \
		-Wl,-rpath,"$(pkg-config --variable=libdir idr)"
	run "$BATS_TEST_TMPDIR/rpath"
	[ "$status" -eq 0 ] && [ "$output" = "1 0 second" ]
	run ldd "$BATS_TEST_TMPDIR/rpath"
	[[ "$output" == *"libidr.so.1 => $P/lib/libidr.so.1"* ]]
}

@test "linked statically with pkg-config --static, it runs with the prefix gone" {
	install_prefix
	build static -static $(pkg-config --static --cflags --libs idr)
	run readelf -d "$BATS_TEST_TMPDIR/static"
	[[ "$output" != *libidr* ]]
	make -s uninstall PREFIX="$P"
	run "$BATS_TEST_TMPDIR/static"
	[ "$status" -eq 0 ] && [ "$output" = "1 0 second" ]
}

@test "make uninstall removes exactly what make install put in the prefix" {
	mkdir -p "$P/lib" "$P/share/man/man3" "$P/bin"
	touch "$P/lib/libother.so" "$P/share/man/man3/other.3" "$P/bin/other"
	install_prefix
	run make -s uninstall PREFIX="$P"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ "$output" == *"removed from $P"* ]]
	run find "$P" -type f -o -type l
	[ "$(printf '%s\n' "$output" | sort)" = "$(printf '%s\n' \
		"$P/bin/other" "$P/lib/libother.so" "$P/share/man/man3/other.3")" ] ||
		{ echo "$output"; return 1; }
}

@test "lua5.4 finds the module with the prefix's LUA_CPATH, and idrsh runs" {
	install_prefix
	run env LUA_CPATH_5_4="$P/lib/lua/5.4/?.so" lua5.4 -e \
		'print(require("idr").new():alloc("x"))'
	[ "$status" -eq 0 ] && [ "$output" = 0 ]
	run "$P/bin/idrsh" -c 'alloc a' -c 'alloc b'
	[ "$output" = "$(printf '0\n1')" ]
}

@test "man -k idr finds idr(3), idr(3lua) and idrsh(1) after mandb" {
	install_prefix
	run mandb -q "$P/share/man"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	run man -k --manpath="$P/share/man" idr
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	for page in 'idr (3) ' 'idr (3lua) ' 'idrsh (1) '; do
		grep -q "^$page" <<< "$output" || { echo "no $page in:"; echo "$output"; return 1; }
	done
}

@test "the three pages' SEE ALSO name each other and the kernel's documentation" {
	for page in man/idr.3 man/idr.3lua man/idrsh.1; do
		sed -n '/^\.SH SEE ALSO/,/^\.SH/p' "$page" > "$BATS_TEST_TMPDIR/see"
		for ref in 'idr (3)' 'idr (3lua)' 'idrsh (1)'; do
			case "$page:$ref" in
			'man/idr.3:idr (3)' | 'man/idr.3lua:idr (3lua)' | 'man/idrsh.1:idrsh (1)')
				continue ;;
			esac
			grep -qF ".BR $ref" "$BATS_TEST_TMPDIR/see" ||
				{ echo "$page: SEE ALSO lacks $ref"; return 1; }
		done
		grep -q 'Documentation/core-api/idr.rst' "$BATS_TEST_TMPDIR/see" ||
			{ echo "$page: SEE ALSO lacks the kernel's documentation"; return 1; }
	done
}
