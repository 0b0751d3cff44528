#!/bin/sh
# bench/instr.sh - instructions (and simulated last-level misses) per
# operation of the idr's four operations and a PID allocator's step, from valgrind --tool=cachegrind
# runs of bench/instr that stop after each phase: the difference between
# consecutive runs, over N.  Deterministic, unlike time.  Given the
# kernel's build of the same program (bench/instr-kernel), Linux 6.1's
# idr's too, the same way.
#
#	sh bench/instr.sh INSTR_BINARY [N [OUT.tsv [KERNEL_BINARY]]]
#
# OUT.tsv gets the same figures as "op instr d1_miss ll_miss n" lines,
# for bench/targets.lua; the kernel's ops are named kernel-alloc and so on.
set -e
bin=$1
n=${2:-100000}
out=${3:-/dev/null}
kbin=$4
if ! command -v valgrind >/dev/null 2>&1; then
	echo "instr: valgrind not found, no instruction counts" >&2
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'op\tinstr\td1_miss\tll_miss\tn\n' > "$out"

# measure BINARY NAME PREFIX: its table, and its lines into OUT.tsv.
measure() {
	for upto in 0 1 2 3 4 5; do
		valgrind --tool=cachegrind --cache-sim=yes \
			--cachegrind-out-file="$tmp/cg.$upto" "$1" "$n" \
			"$upto" 2>/dev/null
		# The totals line: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw.
		awk '/^summary:/ { print $2, $6 + $9, $7 + $10 }' \
			"$tmp/cg.$upto" > "$tmp/sum.$upto"
	done
	printf '\n%-12s %10s %10s %10s   (cachegrind, N = %s)\n' "$2" \
		"instr/op" "D1 miss" "LL miss" "$n"
	for p in 1:alloc 2:find 3:iterate 4:remove 5:pid; do
		i=${p%%:*}
		paste "$tmp/sum.$((i - 1))" "$tmp/sum.$i" | awk \
			-v op="${p#*:}" -v pre="$3" -v n="$n" -v out="$out" '{
			# A phase of almost no misses may have fewer than
			# none: the teardown after it differs between runs.
			i = ($4 - $1) / n; d = ($5 - $2) / n; l = ($6 - $3) / n
			if (d < 0) d = 0
			if (l < 0) l = 0
			printf "%-12s %10.1f %10.2f %10.2f\n", op, i, d, l
			printf "%s%s\t%.1f\t%.2f\t%.2f\t%d\n", pre, op, i, d,
				l, n >> out }'
	done
}

measure "$bin" idr ""
[ -z "$kbin" ] || measure "$kbin" "kernel" kernel-
