# bench/bench.mk - make bench and make bench-plot (included by the Makefile).
#
# make bench [N=1000000] [RUNS=5]: in one run, medians of RUNS repetitions
# at N IDs of
#   - the idr beside JudyL (lowest free from 0, and from a hint) and a flat
#     array (the physical limit), the IDA beside Judy1 and a flat bitmap:
#     ns/op, bytes per live ID, and ours as ratios (build/bench/bench.tsv);
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
#     at INSTR_N IDs (bench/instr.sh; deterministic, unlike the times);
#   - issue 32's targets (instructions against the kernel's, memory
#     against JudyL's), issue 17's, and issue 8's that it keeps, each
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

DEPS_TEST += libjudy-dev
DEPS_BENCH := $(DEPS_BUILD) libjudy-dev lua5.4 valgrind chromium time

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

$(B)/bench/instr: bench/instr.c bench/args.h $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc -o $@ bench/instr.c $(LIB_SRC)

BENCH_BIN := $(B)/bench/bench $(B)/bench/core $(B)/bench/core-notrace \
	$(B)/bench/instr $(B)/bench/contend $(B)/bench/rcu

.PHONY: deps-bench bench-plot

deps-bench:
	@sh .ci/deps $(DEPS_BENCH)

bench: deps-bench $(BENCH_BIN) $(B)/idr.so $(B)/idrsh
	@./$(B)/bench/bench $(N) $(RUNS) $(B)/bench/bench.tsv \
		$(B)/bench/churn.tsv
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
	@sh bench/instr.sh $(B)/bench/instr $(INSTR_N) $(B)/bench/instr.tsv
	@$(LUA) bench/targets.lua $(B)/bench/bench.tsv $(B)/bench/lua.tsv \
		$(B)/bench/instr.tsv
	@echo "figures for tools: $(B)/bench/bench.tsv $(B)/bench/lua.tsv" \
		"$(B)/bench/dot.tsv $(B)/bench/instr.tsv"
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
