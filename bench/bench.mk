# bench/bench.mk - make bench and make bench-plot (included by the Makefile).
#
# make bench [N=1000000] [RUNS=5]: in one run, medians of RUNS repetitions
# at N IDs of
#   - the idr beside JudyL (lowest free from 0, and from a hint) and a flat
#     array (the physical limit), the IDA beside Judy1 and a flat bitmap:
#     ns/op, bytes per live ID, and ours as ratios (build/bench/bench.tsv);
#     and Linux 6.1's idr as "kernel" (see "The kernel peer" below: when
#     linux-source-6.1 is missing and cannot be installed, one line says
#     so and the rest runs);
#   - the Lua binding beside the table idiom (build/bench/lua.tsv);
#   - the picture: t:dot{} of N IDs, and Graphviz's PNG of it, its size
#     checked against 4000 pixels a side (build/bench/dot.tsv);
#   - a PID allocator (pid, mem-pid): cyclic alloc in [300, 2^22) with
#     1000 live IDs, each step removing a random one, twice round the
#     range: ns per alloc + remove, then bytes per live ID;
#   - finds among changes (mixed): on N IDs, steps of 8 random finds,
#     a lowest-free alloc and a remove of a random ID, ns per op;
#   - churn: alloc + remove at every count of one leaf (0 .. 64 live IDs),
#     ns and the idr's mallocs per pair, by range of counts
#     (build/bench/churn.tsv has every count);
#   - alloc, find, iterate and remove again, each implementation's CPU-time
#     minimum of 9 interleaved rounds, and how many times faster the idr
#     is than the kernel (build/bench/min.tsv);
#   - the cost of the trace hooks (the idr built with them compiled out);
#   - the node cache's lock under contention: a writer's alloc + remove
#     pairs while 1, 3 or 15 threads refill the cache with idr_pre_get()
#     (bench/contend.c), wall and CPU ns per pair;
#   - lock-free readers (bench/rcu.c): an RCU idr's readers beside one
#     writer, against readers under the writer's mutex or a rwlock, at
#     back-to-back and spaced writes, 1 reader and 2 (oversubscribed on
#     2 cores): lookups/s, updates/s, CPU ns a lookup, and the cost of a
#     read-side section around idr_find(), medians of RUNS interleaved;
#   - how long idrsh's default dump (50 lines) of DUMP_N IDs takes, and
#     a sparse tree's dump and picture (DUMP_N / 10 random IDs in
#     [0, 2^31)) against the time building it took;
#   - mark, one alloc and diff on that sparse tree (bench/diff.lua),
#     against building it, and the mark's bytes against the tree's;
#   - instructions and simulated cache misses per operation of the idr's
#     alloc, find, iteration and remove, from valgrind --tool=cachegrind
#     at INSTR_N IDs, and the kernel's (bench/instr.sh; deterministic,
#     unlike the times);
#   - issue 32's targets (instructions and CPU-time minimums against the
#     kernel's, memory against JudyL's), issue 17's, and issue 8's that it keeps, each
#     marked ok or MISSED with its figure (bench/targets.lua);
#   - the replay page of REPLAY_OPS operations on a tree of REPLAY_IDS IDs:
#     its size, and how long headless Chromium takes to open it
#     (build/bench/replay.html); and what recording two allocs on a
#     sparse tree of DUMP_N random IDs costs beside building it
#     (bench/replay-sparse).
# A slow figure never fails it; a wrong result from any implementation does.
#
# make bench-plot: the bench at PLOT_N, drawn by gnuplot as
# build/bench/bench.svg (ns/op and bytes/ID against N).

N ?= 1000000
RUNS ?= 5
DUMP_N ?= 10000000
INSTR_N ?= 100000
PLOT_N ?= 10000 100000 1000000
PLOT_RUNS ?= 3
REPLAY_IDS ?= 100000
REPLAY_OPS ?= 1000

# The peers: tests/bench.bats builds and runs the kernel's idr too.
DEPS_TEST += libjudy-dev linux-source-6.1
DEPS_BENCH := $(DEPS_BUILD) libjudy-dev lua5.4 valgrind chromium time \
	linux-source-6.1

BENCH_SRC := bench/main.c bench/impl_idr.c bench/impl_judy.c \
	bench/impl_flat.c tests/seam.c
BENCH_HDR := bench/args.h bench/bench.h bench/bitmap.h bench/map.h bench/set.h \
	tests/seam.h

# The library is compiled in from its sources, like core below, so that a
# build without the trace branches stays possible.
$(B)/bench/bench: $(BENCH_SRC) $(BENCH_HDR) $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc -Itests -o $@ $(BENCH_SRC) \
		$(LIB_SRC) -lJudy -lm

$(B)/bench/core: bench/core.c bench/args.h $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc -o $@ bench/core.c $(LIB_SRC)

$(B)/bench/core-notrace: bench/core.c bench/args.h $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) -DIDR_NO_TRACE $(CFLAGS) -Isrc -o $@ bench/core.c \
		$(LIB_SRC)

$(B)/bench/contend: bench/contend.c bench/args.h $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc -pthread -o $@ \
		bench/contend.c $(LIB_SRC)

$(B)/bench/rcu: bench/rcu.c bench/args.h $(LIB_SRC) $(RCU_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc -pthread -o $@ bench/rcu.c \
		$(LIB_SRC) $(RCU_SRC) $(URCU_LIBS)

$(B)/bench/instr: bench/instr.c bench/args.h bench/bench.h $(LIB_SRC) \
		$(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc -o $@ bench/instr.c $(LIB_SRC)

# {==================== The kernel peer ====================
#
# Linux 6.1's idr (issue 32), from Debian's linux-source-6.1: at build
# time, the files its own userspace harness (tools/testing/radix-tree)
# builds lib/idr.c with are extracted into $(KDIR) and compiled there,
# nodes 64 slots wide (XA_CHUNK_SHIFT 6, the kernel's own; the harness
# tests at 3).  Nothing of the kernel is in this repository: ours is the
# adapter, bench/kernel_idr.c.  They become one object, kernel.o, whose
# only global names are the adapter's bench_kernel_*, so that the
# kernel's idr_alloc and ours link into one program.
KERNEL_PKG := linux-source-6.1
KERNEL_TAR := /usr/src/linux-source-6.1.tar.xz
KDIR := $(B)/bench/kernel
KSRC := $(KDIR)/linux-source-6.1
KHARNESS := $(KSRC)/tools/testing/radix-tree
KERNEL_FILES := lib/idr.c lib/radix-tree.c lib/xarray.c \
	include/linux/idr.h include/linux/radix-tree.h include/linux/xarray.h \
	include/linux/gfp_types.h include/linux/kconfig.h tools/include \
	tools/lib/find_bit.c tools/lib/slab.c tools/testing/radix-tree
# The harness's objects that idr.c needs: its kmem_cache and bitmap.
KERNEL_C := $(KSRC)/lib/idr.c $(KSRC)/lib/radix-tree.c \
	$(KSRC)/lib/xarray.c $(KHARNESS)/linux.c $(KHARNESS)/bitmap.c \
	$(KSRC)/tools/lib/find_bit.c $(KSRC)/tools/lib/slab.c
KERNEL_CFLAGS = $(OPT) -D_LGPL_SOURCE
KERNEL_BIN := $(B)/bench/bench-kernel $(B)/bench/instr-kernel
KERNEL_SKIPPED := bench: the kernel peer (Linux 6.1's idr) is skipped: \
	$(KERNEL_TAR) is missing; to add it: sudo apt-get install $(KERNEL_PKG)

$(KDIR)/extracted: $(KERNEL_TAR)
	@rm -rf $(KDIR) && mkdir -p $(KDIR)
	$(QUIET_GEN)tar -xJf $(KERNEL_TAR) -C $(KDIR) \
		$(KERNEL_FILES:%=linux-source-6.1/%)
	@echo '#define XA_CHUNK_SHIFT 6' > $(KHARNESS)/generated/map-shift.h
	@echo '#define CONFIG_64BIT 1' > $(KHARNESS)/generated/bit-length.h
	@touch $@

# The kernel's files with its flags; the adapter with ours, the kernel's
# headers as system headers (their warnings are not ours to fix).
$(KDIR)/kernel.o: $(KDIR)/extracted bench/kernel_idr.c bench/kernel.h
	$(Q)for f in $(KERNEL_C); do \
		$(CC) $(KERNEL_CFLAGS) -I$(KHARNESS) -I$(KSRC)/tools/include \
			-c -o $(KDIR)/$$(basename $$f .c).o $$f || exit 1; \
	done
	$(QUIET_CC)$(CC) $(CPPFLAGS) -std=gnu11 $(OPT) $(WARN) -D_LGPL_SOURCE \
		-isystem $(KHARNESS) -isystem $(KSRC)/tools/include -Ibench \
		-c -o $(KDIR)/kernel_idr.o bench/kernel_idr.c
	$(QUIET_LD)$(LD) -r -o $@.all \
		$(addprefix $(KDIR)/,$(notdir $(KERNEL_C:.c=.o))) \
		$(KDIR)/kernel_idr.o
	$(Q)objcopy --wildcard --keep-global-symbol='bench_kernel_*' $@.all $@

$(B)/bench/bench-kernel: $(BENCH_SRC) bench/impl_kernel.c $(BENCH_HDR) \
		bench/kernel.h $(LIB_SRC) $(LIB_HDR) $(KDIR)/kernel.o
	$(QUIET_CC)$(CC) $(CPPFLAGS) -DBENCH_KERNEL $(CFLAGS) -Isrc -Itests \
		-o $@ $(BENCH_SRC) bench/impl_kernel.c $(LIB_SRC) \
		$(KDIR)/kernel.o -lJudy -lm $(URCU_LIBS) -pthread

$(B)/bench/instr-kernel: bench/instr.c bench/args.h bench/bench.h bench/kernel.h \
		$(KDIR)/kernel.o
	$(QUIET_CC)$(CC) $(CPPFLAGS) -DINSTR_KERNEL $(CFLAGS) -Isrc -Ibench \
		-o $@ bench/instr.c $(KDIR)/kernel.o $(URCU_LIBS) -pthread

# }==================== The kernel peer ====================

BENCH_BIN := $(B)/bench/bench $(B)/bench/core $(B)/bench/core-notrace \
	$(B)/bench/instr $(B)/bench/contend $(B)/bench/rcu

.PHONY: deps-bench bench-plot

# The kernel's sources are optional: without them the bench runs the rest.
deps-bench:
	@sh .ci/deps $(filter-out $(KERNEL_PKG),$(DEPS_BENCH))

# The kernel peer when its sources are there or can be installed (as
# root); $(KPEER) says so to the lines after.  The line that decides
# calls $(MAKE), so make runs it even under -n: then it only says so.
KPEER := $(B)/bench/kernel-peer
KSUFFIX = $$(test -f $(KPEER) && echo -kernel)
DRY_RUN := $(findstring n,$(firstword -$(MAKEFLAGS)))

bench: deps-bench $(BENCH_BIN) $(B)/idr.so $(B)/idrsh
	@rm -f $(KPEER)
	@if test -n "$(DRY_RUN)"; then \
		echo "bench: make -n: would install $(KERNEL_PKG) if missing" \
			"(as root) and build $(KERNEL_BIN)"; \
	elif test -f $(KERNEL_TAR) || sh .ci/deps $(KERNEL_PKG) 2>/dev/null; \
	then $(MAKE) -s $(KERNEL_BIN) && touch $(KPEER) || exit 1; \
	else echo "$(KERNEL_SKIPPED)"; fi
	@./$(B)/bench/bench$(KSUFFIX) $(N) $(RUNS) $(B)/bench/bench.tsv \
		$(B)/bench/churn.tsv $(B)/bench/min.tsv
	@LUA_CPATH_5_4='$(B)/?.so;;' $(LUA) bench/lua.lua $(N) $(RUNS) \
		$(B)/bench/lua.tsv
	@LUA_CPATH_5_4='$(B)/?.so;;' $(LUA) bench/dot.lua $(N) $(RUNS) \
		$(B)/bench/dot.tsv
	@./$(B)/bench/core $(N) $(RUNS) > $(B)/bench/traced.tsv
	@./$(B)/bench/core-notrace $(N) $(RUNS) > $(B)/bench/untraced.tsv
	@printf '\n%-12s %10s %10s %10s\n' "trace hooks" "ns/op" "compiled" \
		"ratio"
	@printf '%-12s %10s %10s\n' "(idr only)" "" "out"
	@join -t '	' $(B)/bench/traced.tsv $(B)/bench/untraced.tsv | \
		awk -F '\t' '{ printf "%-12s %10.2f %10.2f %9.3fx\n", \
			$$1, $$2, $$3, $$2 / $$3 }'
	@printf '\n%-12s %7s %10s %10s %10s\n' "contention" threads \
		"wall ns" slowest "CPU ns"
	@for t in 2 4 16; do ./$(B)/bench/contend $$t 50000 $(RUNS) || exit 1; done
	@printf '\nlock-free readers (RCU idr) against locking ones, %s IDs\n' 100000
	@./$(B)/bench/rcu $(RUNS)
	@LUA_CPATH_5_4='$(B)/?.so;;' $(LUA) bench/dump.lua $(DUMP_N) $(RUNS)
	@LUA_CPATH_5_4='$(B)/?.so;;' $(LUA) bench/diff.lua \
		$$(($(DUMP_N) / 10)) $(RUNS)
	@sh bench/instr.sh $(B)/bench/instr $(INSTR_N) $(B)/bench/instr.tsv \
		$$(test -f $(KPEER) && echo $(B)/bench/instr-kernel)
	@$(LUA) bench/targets.lua $(B)/bench/bench.tsv $(B)/bench/lua.tsv \
		$(B)/bench/instr.tsv $(B)/bench/min.tsv
	@echo "figures for tools: $(B)/bench/bench.tsv $(B)/bench/lua.tsv" \
		"$(B)/bench/dot.tsv $(B)/bench/instr.tsv $(B)/bench/min.tsv"
	@echo
	@LUA_CPATH_5_4='$(B)/?.so;;' $(LUA) bench/replay.lua \
		$(B)/bench/replay.html $(REPLAY_IDS) $(REPLAY_OPS)
	@sh bench/replay-load $(B)/bench/replay.html
	@sh bench/replay-sparse $(B)/idrsh $(B)/bench $$(($(DUMP_N) / 10))

bench-plot: deps-bench $(B)/bench/bench
	@sh .ci/deps gnuplot-nox
	@for n in $(PLOT_N); do \
		echo "bench: N=$$n" >&2; \
		./$(B)/bench/bench $$n $(PLOT_RUNS) $(B)/bench/plot-$$n.tsv \
			> /dev/null || exit 1; \
	done
	@awk 'NR == 1 || FNR > 1' $(PLOT_N:%=$(B)/bench/plot-%.tsv) \
		> $(B)/bench/plot.tsv
	@gnuplot -e "data='$(B)/bench/plot.tsv'" bench/plot.gp \
		> $(B)/bench/bench.svg
	@echo "wrote $(B)/bench/bench.svg"

TEST_DEPS += $(BENCH_BIN)
