#!/bin/sh
# bench/instr.sh - instructions (and simulated last-level misses) per
# operation of the idr's four operations, from valgrind --tool=cachegrind
# runs of bench/instr that stop after each phase: the difference between
# consecutive runs, over N.  Deterministic, unlike time.
#
#	sh bench/instr.sh INSTR_BINARY [N]
set -e
bin=$1
n=${2:-100000}
if ! command -v valgrind >/dev/null 2>&1; then
	echo "instr: valgrind not found, no instruction counts" >&2
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for upto in 0 1 2 3 4; do
	valgrind --tool=cachegrind --cache-sim=yes \
		--cachegrind-out-file="$tmp/cg.$upto" "$bin" "$n" "$upto" \
		2>/dev/null
	# The totals line: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw.
	awk '/^summary:/ { print $2, $6 + $9, $7 + $10 }' "$tmp/cg.$upto" \
		> "$tmp/sum.$upto"
done
printf '\n%-12s %10s %10s %10s   (cachegrind, N = %s)\n' "idr" "instr/op" \
	"D1 miss" "LL miss" "$n"
for p in 1:alloc 2:find 3:iterate 4:remove; do
	i=${p%%:*}
	paste "$tmp/sum.$((i - 1))" "$tmp/sum.$i" | awk -v op="${p#*:}" \
		-v n="$n" '{ printf "%-12s %10.1f %10.2f %10.2f\n", op,
			($4 - $1) / n, ($5 - $2) / n, ($6 - $3) / n }'
done
