# fuzz/fuzz.mk - libFuzzer targets (included by the Makefile).
#
#   make fuzz        build each target, run each FUZZ_TIME seconds (60)
#   make fuzz-merge  minimise what the runs found, for a look at it
#   make test        replays every committed corpus file (fuzz-replay)
#
# Targets: ops (the C API against the model), ops-b3 (the same with 3
# bits per level, so that deep trees come from small IDs; it shares ops's
# corpus), shell (idrsh's command language), lua (the binding's argument
# handling, and re-entry: finalizers, collector modes, coroutines), load
# (the save file's reader); see each file's head.
# The committed seeds in fuzz/corpus/TARGET are copied into
# build/fuzz/corpus/TARGET, which the runs grow; crashes land in
# build/fuzz/artifacts/TARGET.

FUZZ_TIME ?= 60
FUZZ_TARGETS := ops ops-b3 shell lua load
FUZZ_BIN := $(FUZZ_TARGETS:%=$(B)/fuzz/%)
FUZZ_CFLAGS := -std=c11 -g -O1 $(WARN) -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
# Per target: longest input, and the shell's dictionary.
FUZZ_OPTS_ops := -max_len=2048
FUZZ_OPTS_ops-b3 := -max_len=2048
FUZZ_OPTS_shell := -max_len=4096 -dict=fuzz/shell.dict
FUZZ_OPTS_lua := -max_len=2048
FUZZ_OPTS_load := -max_len=4096 -dict=fuzz/load.dict

$(B)/fuzz/ops: fuzz/ops.c fuzz/input.h tests/unit/model.c \
		tests/unit/model.h tests/seam.c tests/seam.h $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)clang $(CPPFLAGS) $(FUZZ_CFLAGS) -Isrc -Itests/unit -Itests -o $@ \
		fuzz/ops.c tests/unit/model.c tests/seam.c $(LIB_SRC)

$(B)/fuzz/ops-b3: fuzz/ops.c fuzz/input.h tests/unit/model.c \
		tests/unit/model.h tests/seam.c tests/seam.h $(LIB_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)clang $(CPPFLAGS) -DIDR_BITS=3 $(FUZZ_CFLAGS) -Isrc -Itests/unit \
		-Itests -o $@ fuzz/ops.c tests/unit/model.c tests/seam.c $(LIB_SRC)

# idrsh.c is compiled inside fuzz/shell.c, its main() renamed; the
# shell's other files (idrsh_history.c, idrsh_sys.c) are linked as they are.
$(B)/fuzz/shell: fuzz/shell.c $(IDRSH_SRC) $(IDRSH_HDR) $(LIDR) \
		$(B)/idrsh_lua.h $(LIB_SRC) $(RCU_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)clang $(CPPFLAGS) $(FUZZ_CFLAGS) $(LUA_CFLAGS) -Isrc -I$(B) \
		-Dmain=idrsh_main -o $@ fuzz/shell.c \
		$(filter-out src/idrsh.c,$(IDRSH_SRC)) $(LIDR_SRC) $(LIB_SRC) \
		$(RCU_SRC) $(LUA_LIBS) $(READLINE_LIBS) $(URCU_LIBS)

$(B)/fuzz/lua: fuzz/lua.c fuzz/input.h $(LIDR) $(LIB_SRC) $(RCU_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)clang $(CPPFLAGS) $(FUZZ_CFLAGS) $(LUA_CFLAGS) -Isrc -I$(B) -o $@ \
		fuzz/lua.c $(LIDR_SRC) $(LIB_SRC) $(RCU_SRC) $(LUA_LIBS) \
		$(URCU_LIBS) -lm

# The save file's reader: idr.load_text() of each input.
$(B)/fuzz/load: fuzz/load.c $(LIDR) $(LIB_SRC) $(RCU_SRC) $(LIB_HDR)
	@mkdir -p $(@D)
	$(QUIET_CC)clang $(CPPFLAGS) $(FUZZ_CFLAGS) $(LUA_CFLAGS) -Isrc -I$(B) -o $@ \
		fuzz/load.c $(LIDR_SRC) $(LIB_SRC) $(RCU_SRC) $(LUA_LIBS) \
		$(URCU_LIBS) -lm

.PHONY: fuzz fuzz-merge fuzz-build
fuzz-build: $(FUZZ_BIN)

# One target after another; the last lines say how many inputs each ran.
fuzz: $(FUZZ_BIN)
	@rm -f $(B)/fuzz/executions
	@status=0; \
	$(foreach t,$(FUZZ_TARGETS),sh fuzz/run $(B)/fuzz $(t) $(FUZZ_TIME) \
		$(FUZZ_OPTS_$(t)) || status=1;) \
	echo "== executions"; cat $(B)/fuzz/executions; exit $$status

# The runs' corpora, minimised into build/fuzz/merged/TARGET: seeds worth
# committing are picked from there by hand.
fuzz-merge: $(FUZZ_BIN)
	@$(foreach t,$(FUZZ_TARGETS),rm -rf $(B)/fuzz/merged/$(t) && \
		mkdir -p $(B)/fuzz/merged/$(t) $(B)/fuzz/corpus/$(t) && \
		./$(B)/fuzz/$(t) -merge=1 $(FUZZ_OPTS_$(t)) \
			$(B)/fuzz/merged/$(t) fuzz/corpus/$(t:-b3=) \
			$(B)/fuzz/corpus/$(t) > $(B)/fuzz/$(t)-merge.log 2>&1 && \
		echo "$(t): $$(ls $(B)/fuzz/merged/$(t) | wc -l) inputs in \
			$(B)/fuzz/merged/$(t)" &&) true

# make test: every committed corpus file through its target.
EXTRA_SUITES += fuzz-replay
SUITE_fuzz-replay := sh fuzz/replay $(B)/fuzz $(FUZZ_TARGETS)
TEST_DEPS += $(FUZZ_BIN)
