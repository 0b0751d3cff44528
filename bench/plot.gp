# bench/plot.gp - make bench-plot: ns/op and bytes per live ID against N,
# from the TSV of several bench runs (gnuplot -e "data='...'").  SVG on
# stdout.

set terminal svg size 1100,460 dynamic font "sans,11"
set datafile separator whitespace
set logscale x
set key top left box opaque
set grid
set xlabel "N (IDs)"

impls = "idr judyl-hint flat"

# One series: column col of the rows of scenario s and implementation i.
series(s, i, col) = sprintf("< awk -F '\t' -v s=%s -v i=%s '$1 == s && $2 == i && $%d != \"-\" { print $3, $%d }' %s", s, i, col, col, data)

set multiplot layout 1,2 title "make bench: medians, the same run for each N"

set title "time per operation (dense)"
set ylabel "ns/op"
set logscale y
plot for [i in impls] series("alloc", i, 5) with linespoints lw 2 \
	title i . " alloc", \
     for [i in impls] series("find", i, 5) with linespoints dt 2 \
	title i . " find"

set title "memory per live ID (random occupancy)"
set ylabel "bytes/ID"
plot for [i in impls] series("mem-100", i, 6) with linespoints lw 2 \
	title i . " 100%", \
     for [i in impls] series("mem-10", i, 6) with linespoints dt 2 \
	title i . " 10%"

unset multiplot
