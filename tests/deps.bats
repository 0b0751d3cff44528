# make test installs what its tests call: tests/deps-check, which the
# deps suite runs on the real tree, tried on small made-up ones, and the
# README's list of packages against the Makefile's.

setup() {
	load test_helper
	cd "$BATS_TEST_TMPDIR" || return 1
	CHECK="$TOP/tests/deps-check"
}

@test "deps-check: a compiler the recipes call but the list leaves out fails" {
	printf 'printf CC x; g++ -std=c++17 -o x x.cc\n' > recipes
	run -1 sh "$CHECK" 'gcc make' recipes
	[[ "$output" == *"not ok g++: /usr/bin/g++ is from g++, which make test does not install"* ]]
	[[ "${lines[-1]}" == *" passed, 1 failed" ]]
	run -0 sh "$CHECK" 'gcc make g++' recipes
	[[ "$output" == *"ok g++ (g++)"* ]]
}

@test "deps-check: commands after run, env, pipes and \$( count; here-documents do not" {
	: > recipes
	cat > t.sh <<-'OUT'
	f() {
		run -0 env A=1 dot -Tsvg x | wc -l
		n=$(lua5.4 -v)
		cat <<-'LUA'
		valgrind would be a command here, were this not text for Lua
		LUA
	}
	OUT
	run -1 sh "$CHECK" 'gcc' recipes t.sh
	[[ "$output" == *"not ok dot: "*"graphviz"* ]]
	[[ "$output" == *"not ok lua5.4: "*"lua5.4"* ]]
	[[ "$output" == *"ok wc (coreutils)"* ]]
	[[ "$output" != *valgrind* ]]
}

@test "deps-check: a package counts when an installed one depends on it" {
	# cc is gcc-12's, which the list's gcc depends on.
	printf 'cc -c x.c\n' > recipes
	run -0 sh "$CHECK" 'gcc' recipes
	[[ "$output" == *"ok cc (gcc-12)"* ]]
}

# dpkg-buildpackage refuses to start without every Build-Depends and
# build-essential (a fresh Debian 12 lacked build-essential).
@test "make test installs debian/control's Build-Depends and build-essential" {
	cd "$TOP" || return 1
	local list missing= p
	list=" $(make -s deps-list) "
	for p in build-essential $(sed -n '/^Build-Depends:/,/^[A-Z]/p' \
		debian/control | sed 's/^Build-Depends://; /^[A-Z]/d; s/([^)]*)//g; s/,/ /g'); do
		[ "$p" = debhelper-compat ] && p=debhelper # its Provides
		[[ "$list" == *" $p "* ]] || missing="$missing $p"
	done
	[ -z "$missing" ] || { echo "make deps-list lacks:$missing"; return 1; }
}

@test "the README names every package make test may install" {
	cd "$TOP" || return 1
	local missing= p
	for p in $(make -s deps-list); do
		grep -q "\`$p\`" README.md || missing="$missing $p"
	done
	[ -z "$missing" ] || { echo "README.md does not name:$missing"; return 1; }
}
