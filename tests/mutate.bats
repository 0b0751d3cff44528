# tests/mutate, the mutation tester (make mutate): its output, and that
# it never leaves a mutant in src/.

setup() {
	load test_helper
	# These test the tool, not the library: its runs leave out the unit
	# suite's slowest cases (each runs in the unit suites of make test),
	# which took most of this file's time, a suite run each.
	UNIT_SKIP='fault_each fault_from model_base view_dump_big'
	UNIT_SKIP+=' legacy_threads legacy_model ida_fault_each tag_model'
	export UNIT_SKIP+=' pack_lone_random ida_model'
}

# A run left in the background by a failed test would share build/mutate
# with the next test's: end it, and wait for it.
teardown() {
	local pid

	[ -f "$BATS_TEST_TMPDIR/pid" ] || return 0
	pid=$(cat "$BATS_TEST_TMPDIR/pid")
	kill -TERM "$pid" 2> /dev/null || true
	while kill -0 "$pid" 2> /dev/null; do sleep 0.2; done
}

src_state() {
	git status --porcelain -- src; git diff -- src | md5sum
}

@test "mutate on three mutants: a line each, the equivalent ones listed, a score; src/ untouched" {
	before=$(src_state)
	run sh tests/mutate 3 7
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^mutate:\ [0-9]+\ places\ in\ src/\*\.c\;\ drawing\ 3\ with\ seed\ 7$ ]]
	n=0
	for l in "${lines[@]}"; do
		[[ "$l" =~ ^(killed|survived|stillborn)\ src/[a-z]+\.c:[0-9]+:\ .+\ -\>\ .+$ ]] &&
			n=$((n + 1))
	done
	[ "$n" -eq 3 ]
	[[ "$output" == *"equivalent (left out): src/ida.c:"* ]]
	# Every entry of the list, each at the one place it names.
	[ "$(grep -c '^equivalent (left out): src/' <<< "$output")" -eq \
		"$(grep -c '^src/' tests/mutate.equivalent)" ]
	[[ "${lines[-1]}" =~ ^mutate:\ seed\ 7,\ [0-3]\ mutants:\ [0-3]\ killed,\ [0-3]\ survived ]]
	[ "$(src_state)" = "$before" ]
	[ ! -e build/mutate/mutant ]
}

@test "mutate kills a mutant the suite must notice" {
	line=$(grep -n 'if (node->full != ALL_SLOTS)' src/tree.c | head -n 1 | cut -d: -f1)
	[ -n "$line" ]
	MUTATE_AT=tree.c:$line run sh tests/mutate 1 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"killed src/tree.c:$line: != -> =="* ]]
	[[ "${lines[-1]}" == *"1 mutants: 1 killed, 0 survived"* ]]
	# A place as mutate prints it, src/ and all, draws it again.
	MUTATE_AT=src/tree.c:$line SANITIZE= run sh tests/mutate 1 1
	[ "$status" -eq 0 ]
	[[ "${lines[-1]}" == *"1 mutants: 1 killed, 0 survived"* ]]
}

@test "a suite that fails without a mutant stops the run: no mutant counted as killed" {
	# The suite takes seconds: a timeout of 10 ms fails it pristine.
	MUTATE_TIMEOUT=0.01 run sh tests/mutate 3 1
	[ "$status" -eq 1 ]
	[[ "$output" == *"mutate: the unit suite fails without a mutant (see build/mutate/plain/suite.log); fix it first"* ]]
	[[ "$output" != *killed* ]]
	[[ "$output" != *score* ]]
	[ ! -e build/mutate/mutant ]
}

@test "a suite that does not build without a mutant stops the run, pointing to the build log" {
	CFLAGS=-DIDR_BITS=99 run sh tests/mutate 3 1
	[ "$status" -eq 1 ]
	[[ "$output" == *"mutate: the unit suite fails without a mutant (see build/mutate/plain/build.log); fix it first"* ]]
	grep -q 'IDR_BITS must be 3..6' build/mutate/plain/build.log
	[[ "$output" != *"IDR_BITS must be"* ]]
	[[ "$output" != *killed* ]]
}

@test "a mutant whose suite crashes is killed; the shell's crash message stays in the log" {
	line=$(grep -n 'if (node->full != ALL_SLOTS)' src/tree.c | head -n 1 | cut -d: -f1)
	[ -n "$line" ]
	# A compiler that links the mutant's suite as a program that crashes.
	cat > "$BATS_TEST_TMPDIR/cc" <<'EOF'
#!/bin/sh
case " $* " in *" -o build/mutate/mutant/unit "*)
	echo 'int main(void) { return *(volatile int *)0; }' \
		> build/mutate/mutant/crash.c
	exec cc -o build/mutate/mutant/unit build/mutate/mutant/crash.c ;;
esac
exec cc "$@"
EOF
	chmod +x "$BATS_TEST_TMPDIR/cc"
	CC=$BATS_TEST_TMPDIR/cc MUTATE_AT=tree.c:$line SANITIZE= run sh tests/mutate 1 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"killed src/tree.c:$line: != -> =="* ]]
	[[ "$output" != *"Segmentation fault"* ]]
}

@test "an interrupted run leaves src/ as it was" {
	before=$(src_state)
	# Any first mutant will do, killed, survived or timed out: a short
	# timeout keeps one that hangs from holding the test.
	MUTATE_TIMEOUT=30 sh tests/mutate 50 3 > "$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	echo "$pid" > "$BATS_TEST_TMPDIR/pid"
	# Once a mutant has run, the next one is in build/mutate: stop then.
	# The first takes a build and a suite run: minutes on a loaded
	# machine, so the wait is long, and ends as soon as one has run.
	for _ in $(seq 1800); do
		grep -Eq '^(killed|survived|stillborn) ' "$BATS_TEST_TMPDIR/out" &&
			break
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.5
	done
	ran=$(grep -Ec '^(killed|survived|stillborn) ' "$BATS_TEST_TMPDIR/out" ||
		true)
	# A background job ignores SIGINT without job control: TERM it.
	kill -TERM "$pid" 2> /dev/null || true
	wait "$pid" || true
	# Stopped mid-run, not before the first mutant nor after the last.
	[ "$ran" -ge 1 ]
	! grep -q ' score ' "$BATS_TEST_TMPDIR/out"
	[ "$(src_state)" = "$before" ]
	[ ! -e build/mutate/mutant ]
}

@test "a survivor runs again in the sanitizer build, reported apart; SANITIZE= skips it" {
	# idr_init_base()'s "<" is listed as equivalent: drawn by name, it
	# survives.
	# A survivor must not die of the default timeout on a loaded machine
	# (the sanitizer build's suite took over 120 s there).
	export MUTATE_TIMEOUT=900
	line=$(grep -n 'base < 0 ? 0 : base' src/idr.c | cut -d: -f1)
	[ -n "$line" ]
	MUTATE_AT=idr.c:$line run sh tests/mutate 1 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"survived src/idr.c:$line: < -> <="* ]]
	[[ "${lines[-2]}" == "mutate: the sanitizer pass kills 0 of the 1 survivors: 0 killed in all, score 0%" ]]
	[[ "${lines[-1]}" == *"1 mutants: 0 killed, 1 survived"* ]]
	[ -d build/mutate/san ]
	MUTATE_AT=idr.c:$line SANITIZE= run sh tests/mutate 1 1
	[ "$status" -eq 0 ]
	[[ "$output" != *"sanitizer pass"* ]]
	[ ! -d build/mutate/san ]
}

@test "a sanitizer build that fails without a mutant: no second pass, the plain score still printed" {
	line=$(grep -n 'base < 0 ? 0 : base' src/idr.c | cut -d: -f1)
	[ -n "$line" ]
	# The second pass's flags fail every compile.
	MUTATE_AT=idr.c:$line SANITIZE=-DIDR_BITS=99 run sh tests/mutate 1 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"mutate: the sanitizer build fails without a mutant (see build/mutate/san/build.log); no second pass"* ]]
	grep -q 'IDR_BITS must be 3..6' build/mutate/san/build.log
	[[ "$output" == *"survived src/idr.c:$line: < -> <="* ]]
	[[ "$output" != *"sanitizer pass kills"* ]]
	[[ "${lines[-1]}" == "mutate: seed 1, 1 mutants: 0 killed, 1 survived (0 stillborn, not counted); score 0%" ]]
}

@test "a listed place is left out of the draw and listed with its change" {
	line=$(grep -n 'base < 0 ? 0 : base' src/idr.c | cut -d: -f1)
	[ -n "$line" ]
	list=$BATS_TEST_TMPDIR/equivalent
	printf '%s\n\t%s\n' \
		'src/idr.c: idr_init_base(): < -> <=: base < 0 ? 0 : base' \
		'At 0 both arms give 0.' > "$list"
	MUTATE_EQUIVALENT=$list SANITIZE= run sh tests/mutate 0 1
	[ "$status" -eq 0 ]
	[ "$(grep -c '^equivalent (left out)' <<< "$output")" -eq 1 ]
	[[ "$output" == *"equivalent (left out): src/idr.c:$line: < -> <="* ]]
	listed=$(sed -n 's/^mutate: \([0-9]*\) places.*/\1/p' <<< "$output")
	# With nothing listed, that place is drawn from too.
	: > "$list"
	MUTATE_EQUIVALENT=$list SANITIZE= run sh tests/mutate 0 1
	[ "$status" -eq 0 ]
	[[ "$output" != *"left out"* ]]
	all=$(sed -n 's/^mutate: \([0-9]*\) places.*/\1/p' <<< "$output")
	[ "$all" -eq $((listed + 1)) ]
}

@test "an entry that names no place, or more than one, stops make mutate, naming the entry" {
	# Texts on no line, on two, and holding no change or two of it.
	list=$BATS_TEST_TMPDIR/equivalent
	cat > "$list" <<'EOF'
src/idr.c: idr_init_base(): < -> <=: base < 0 ? 0 : base
	Found: no complaint.
src/idr.c: idr_init_base(): < -> <=: base <= 0 ? 0 : base
	The line as it might have been once.
src/ida.c: > -> >=: if (max > INT_MAX)
	On two lines: a function must say which.
src/ida.c: alloc_range(): < -> <=: if (max > INT_MAX)
	Not that line's change.
src/ida.c: nosuch(): > -> >=: if (max > INT_MAX)
	No such function.
src/check.c: check_children(): != -> ==: if (!!(node->present & bit(off)) != (child != NULL))
	Two of the change: the text must name one.
EOF
	MUTATE_EQUIVALENT=$list run make mutate MUTANTS=3
	[ "$status" -ne 0 ]
	[[ "$output" == *"mutate: $list:3: \"base <= 0 ? 0 : base\" is on no line of idr_init_base() in src/idr.c"* ]]
	[[ "$output" == *"mutate: $list:5: \"if (max > INT_MAX)\" is on 2 lines of src/ida.c ("*"): it must name one"* ]]
	[[ "$output" == *"mutate: $list:7: \"if (max > INT_MAX)\" (src/ida.c:"*") holds no < -> <="* ]]
	[[ "$output" == *"mutate: $list:9: nosuch() is defined on no line of src/ida.c"* ]]
	[[ "$output" == *"mutate: $list:11: \"if (!!(node->present & bit(off)) != (child != NULL))\" (src/check.c:"*") holds 2 != -> ==: it must hold one"* ]]
	[[ "$output" != *"$list:1:"* ]]
	[[ "$output" != *places* ]]
	[ ! -e build/mutate/plain ]
}
