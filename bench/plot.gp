# bench/plot.gp - make bench-plot: ns/op and bytes per live ID against N,
# from the TSV of several bench runs (gnuplot -e "data='...'").  SVG on
# stdout.

set terminal svg size 1100,500 dynamic font "sans,11"
set datafile separator whitespace
set logscale x
set key below horizontal
set grid
set xlabel "N (IDs)"

# A colour per implementation; solid and dashed lines per scenario.
impls = "idr judyl-hint flat"

# One series: column col of the rows of scenario s and implementation i.
series(s, i, col) = sprintf("< awk -F '\t' -v s=%s -v i=%s " . \
	"'$1 == s && $2 == i && $%d != \"-\" { print $3, $%d }' %s", \
	s, i, col, col, data)

set multiplot layout 1,2 title "make bench: medians, the same run for each N"

set title "time per operation (dense)"
set ylabel "ns/op"
set logscale y
plot for [k = 1:3] series("alloc", word(impls, k), 5) with linespoints \
	lc k lw 2 title word(impls, k) . " alloc", \
     for [k = 1:3] series("find", word(impls, k), 5) with linespoints \
	lc k dt 2 title word(impls, k) . " find"

set title "memory per live ID (random occupancy)"
set ylabel "bytes/ID"
plot for [k = 1:3] series("mem-100", word(impls, k), 6) with linespoints \
	lc k lw 2 title word(impls, k) . " 100%", \
     for [k = 1:3] series("mem-10", word(impls, k), 6) with linespoints \
	lc k dt 2 title word(impls, k) . " 10%"

unset multiplot
