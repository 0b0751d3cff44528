# bench/bench.mk - make bench (included by the Makefile).

# make bench: medians of 7 runs at N IDs (default 1,000,000).  For now:
# the core operations, with the trace branches and with them compiled out.
N ?= 1000000
$(B)/bench/core: bench/core.c $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Isrc -o $@ bench/core.c $(LIB_SRC)

$(B)/bench/core-notrace: bench/core.c $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DIDR_NO_TRACE $(CFLAGS) -Isrc -o $@ bench/core.c \
		$(LIB_SRC)

bench: $(B)/bench/core $(B)/bench/core-notrace
	@./$(B)/bench/core $(N) > $(B)/bench/traced.tsv
	@./$(B)/bench/core-notrace $(N) > $(B)/bench/untraced.tsv
	@printf '%-10s %12s %12s %8s\n' "N=$(N)" "ns/op" "no trace" ratio
	@join -t '	' $(B)/bench/traced.tsv $(B)/bench/untraced.tsv | \
		awk -F '\t' '{ printf "%-10s %12.2f %12.2f %8.3f\n", $$1, $$2, $$3, $$2 / $$3 }'

TEST_DEPS += $(B)/bench/core $(B)/bench/core-notrace
