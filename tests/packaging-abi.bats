# The ABI (doc/install.md, "ABI and soname"): removing or changing an
# exported symbol, or the layout of a public structure, bumps the soname
# (libidr.so.1, package libidr1, since 0.2.0); adding one is a new minor version and a
# new line in debian/libidr1.symbols.  Either way the symbols file must say so: the
# package build checks it with dpkg-gensymbols -c4, and so do these tests,
# on build/libidr.so, without building the packages.

setup() {
	load test_helper
	VERSION=$(sed -n 's/^#define IDR_VERSION "\(.*\)"/\1/p' src/idr.h)
}

@test "every symbol build/libidr.so exports is in debian/libidr1.symbols, and back" {
	make -s build/libidr.so
	nm -D --defined-only build/libidr.so | awk '$3 !~ /^_/ { print $3 }' |
		sort > "$BATS_TEST_TMPDIR/exported"
	sed -n 's/^ \([^@]*\)@Base .*/\1/p' debian/libidr1.symbols |
		sort > "$BATS_TEST_TMPDIR/listed"
	[ -s "$BATS_TEST_TMPDIR/listed" ]
	run comm -3 "$BATS_TEST_TMPDIR/listed" "$BATS_TEST_TMPDIR/exported"
	[ -z "$output" ] || {
		echo "left column: listed, no longer exported (an ABI break: bump the soname)"
		echo "right column: exported, not listed (add it with the version)"
		echo "$output"
		return 1
	}
}

@test "every symbol build/libidr-rcu.so exports is in debian/libidr-rcu1.symbols, and back" {
	make -s build/libidr-rcu.so
	nm -D --defined-only build/libidr-rcu.so |
		awk '$3 !~ /^_/ { print $3 }' | sort > "$BATS_TEST_TMPDIR/exported"
	sed -n 's/^ \([^@]*\)@Base .*/\1/p' debian/libidr-rcu1.symbols |
		sort > "$BATS_TEST_TMPDIR/listed"
	[ -s "$BATS_TEST_TMPDIR/listed" ]
	run comm -3 "$BATS_TEST_TMPDIR/listed" "$BATS_TEST_TMPDIR/exported"
	[ -z "$output" ] || { echo "$output"; return 1; }
	run readelf -d build/libidr-rcu.so
	[[ "$output" == *'[libidr-rcu.so.1]'* ]]
	[ "$(head -n 1 debian/libidr-rcu1.symbols)" = \
		'libidr-rcu.so.1 libidr-rcu1 #MINVER#' ]
}

@test "the soname is libidr.so.1, as the symbols file and libidr1 say" {
	run readelf -d build/libidr.so
	[[ "$output" == *'[libidr.so.1]'* ]]
	[ "$(head -n 1 debian/libidr1.symbols)" = 'libidr.so.1 libidr1 #MINVER#' ]
	grep -q '^Package: libidr1$' debian/control
	! grep -q 'libidr0' debian/control
	[ ! -e debian/libidr0.symbols ] && [ -f debian/libidr1.install ]
}

@test "dpkg-gensymbols, as the package build runs it, fails when a symbol disappears" {
	make -s build/libidr.so
	gensymbols() {
		dpkg-gensymbols -plibidr1 -P"$BATS_TEST_TMPDIR" \
			-ebuild/libidr.so -I"$1" \
			-O"$BATS_TEST_TMPDIR/out.symbols" -c4 -v"$VERSION-1"
	}
	run gensymbols debian/libidr1.symbols
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# A symbols file that promises one more symbol than the library has
	# is what the build sees when an exported function is dropped.
	{ cat debian/libidr1.symbols; echo ' idr_gone@Base 0.2.0'; } \
		> "$BATS_TEST_TMPDIR/more.symbols"
	run gensymbols "$BATS_TEST_TMPDIR/more.symbols"
	[ "$status" -ne 0 ]
	[[ "$output" == *'idr_gone@Base'* ]]
}
