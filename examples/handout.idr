idr-save 1
# 3 trees; the format is in idrsh(1), FILES
tree fds ida
range 0 2
tree handles tagged base=0 cursor=0 id_bits=8 retire=no seed=0
gen 1 1
gen 2 1
id 0 "timer A"
id 1 "timer D"
tree minors idr base=1 cursor=5
id 1 "/dev/ttyS0"
id 2 "/dev/ttyS1"
id 3 "line\twith a tab"
id 4 "cyclic"
current handles
end
