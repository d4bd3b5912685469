# callscope build.
#
# Knobs:
#   O=DIR            build directory (default: build)
#   V=1              show the commands
#   SAN=address,undefined   build the offline tools and tests with sanitizers;
#                    any finding stops the program, so a test sees it
#                    (scripts/test-sanitized.sh, run by scripts/test.sh)
#   WERROR=1         turn warnings into errors (CI sets it)
#
# Targets: all (default), check (unit tests, then prove tests/t), unit,
#   e2e, fuzz-smoke, fuzz (long runs, not in CI), bench, clean.

O ?= build
CC ?= cc
V ?=
Q := $(if $(V),,@)

# every compile of ours reads it first: the functions we do not call.  The
# objects depend on it by name, as a flag's header is in no .d file until
# the object is compiled with it.
BANNED_H := common/banned.h
BANNED := -include $(BANNED_H)
WARN := -Wall -Wextra -Wshadow -Wundef -Wwrite-strings -Wmissing-prototypes \
	-Wstrict-prototypes -Wno-missing-field-initializers
ifeq ($(WERROR),1)
WARN += -Werror
endif

# The runtime is a guest in someone else's process: libc only, hidden
# symbols, never instrumented itself, no SIMD registers in the hooks.
RUNTIME_CFLAGS := -std=gnu11 -O2 -g -fPIC -fvisibility=hidden \
	-fno-omit-frame-pointer -fno-stack-protector -ftls-model=initial-exec \
	-mgeneral-regs-only -I include -I common $(WARN) $(BANNED)
RUNTIME_LDFLAGS := -shared -Wl,--no-undefined -Wl,--version-script=runtime/exports.map \
	-Wl,-z,now -Wl,-z,noexecstack

SANFLAGS := $(if $(SAN),-fsanitize=$(SAN) -fno-sanitize-recover=all -fno-omit-frame-pointer,)
TOOL_CFLAGS := -std=gnu11 -D_GNU_SOURCE -O2 -g -fno-math-errno $(SANFLAGS) -I include -I common -I lib -I . $(WARN) $(BANNED) -MMD -MP
# elfutils, jansson and zlib are loaded when first called, not linked
# (lib/lazy_library.h), and libm is not needed: -fno-math-errno makes sqrt
# an instruction.  record, whose start is part of the time it adds to the
# program it measures, then starts with libc alone.
TOOL_LIBS := -liberty

RUNTIME_SRC := \
	common/call_before.c \
	common/contract.c \
	common/plt_stub.c \
	common/x86_length.c \
	runtime/aggregate.c \
	runtime/api.c \
	runtime/backtrace.c \
	runtime/calibrate.c \
	runtime/clone.c \
	runtime/context.c \
	runtime/control.c \
	runtime/counters.c \
	runtime/cpu_wait.c \
	runtime/cfi.c \
	runtime/eh_frame.c \
	runtime/exceptions.c \
	runtime/fd_above_limit.c \
	runtime/fast_exit.c \
	runtime/frame_pointers.c \
	runtime/hook_cost_shared.c \
	runtime/hook_samples.c \
	runtime/hook_sites.c \
	runtime/hooks.c \
	runtime/init.c \
	runtime/libcall/enter.c \
	runtime/libcall/kinds.c \
	runtime/libcall/patch.c \
	runtime/libcall/slot_reads.c \
	runtime/patch/apply.c \
	runtime/patch/calibration.c \
	runtime/patch/enter.c \
	runtime/patch/live.c \
	runtime/patch/loader_hook.c \
	runtime/patch/moved.c \
	runtime/patch/plan.c \
	runtime/patch/pool.c \
	runtime/patch/site.c \
	runtime/patch/trap.c \
	runtime/patch/unwind_info.c \
	runtime/patch/unwind_register.c \
	runtime/own_thread.c \
	runtime/process.c \
	runtime/sampled_count.c \
	runtime/sampler.c \
	runtime/exec.c \
	runtime/exec_target.c \
	runtime/sigaction.c \
	runtime/signals.c \
	runtime/thread.c \
	runtime/thread_buffer.c \
	runtime/trace.c \
	runtime/unwind_threads.c \
	runtime/util.c
RUNTIME_ASM := runtime/arch/x86_64/hooks.S runtime/arch/x86_64/calibration_targets.S \
	runtime/arch/x86_64/libcall.S runtime/arch/x86_64/patch.S \
	runtime/arch/x86_64/call_on_stack.S runtime/arch/x86_64/keep_vectors.S

# Everything the CLI is made of except its main(); tests link it too.  Every
# .c file in these directories belongs to the tools: adding a source file
# needs no edit here.
TOOL_DIRS := lib formats symbols patch model load report gprof optimize cli
TOOL_SRC := common/call_before.c common/contract.c common/plt_stub.c common/x86_length.c \
	$(filter-out cli/main.c,$(sort $(wildcard $(addsuffix /*.c,$(TOOL_DIRS)))))

RUNTIME_OBJ := $(patsubst %.c,$(O)/rt/%.o,$(RUNTIME_SRC)) $(patsubst %.S,$(O)/rt/%.o,$(RUNTIME_ASM))
TOOL_OBJ := $(patsubst %.c,$(O)/tool/%.o,$(TOOL_SRC))
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(O)/tests/%,$(UNIT_SRC))
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
# the fault-injection shims the end-to-end tests preload (see their sources)
INJECT := $(patsubst tests/inject/%.c,$(O)/tests/lib%.so,$(wildcard tests/inject/*.c))
FUZZ_BIN := $(patsubst tests/fuzz/%.c,$(O)/fuzz/%,$(FUZZ_SRC))

all: $(O)/callscope $(O)/libcallscope.so $(O)/libcallscope-idle-hooks.so

$(O)/libcallscope.so: $(RUNTIME_OBJ) runtime/exports.map
	@echo "  LD      $@"
	$(Q)$(CC) $(RUNTIME_LDFLAGS) -o $@ $(RUNTIME_OBJ) -lpthread

# record --mode=sample preloads it ahead of the runtime (see its source)
$(O)/libcallscope-idle-hooks.so: $(O)/rt/runtime/arch/x86_64/idle_hooks.o
	@echo "  LD      $@"
	$(Q)$(CC) -shared -Wl,-z,noexecstack -o $@ $<

# Objects are rebuilt when the compile flags change (a new warning, a new
# -include), not only when their sources do: the stamp holds the flags and
# is rewritten only when they differ, so its date moves only then.
# -Werror changes no object, so switching WERROR rebuilds nothing.
FLAGS_STAMP := $(O)/compile-flags
COMPILE_FLAGS := $(filter-out -Werror,$(CC) $(RUNTIME_CFLAGS) | $(TOOL_CFLAGS))
$(FLAGS_STAMP): FORCE
	@mkdir -p $(dir $@)
	@printf '%s\n' '$(COMPILE_FLAGS)' | cmp -s - $@ || printf '%s\n' '$(COMPILE_FLAGS)' >$@
# what every compiled target depends on besides its sources
COMPILE_DEPS := $(BANNED_H) $(FLAGS_STAMP)

$(O)/rt/%.o: %.c $(COMPILE_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(RUNTIME_CFLAGS) -MMD -MP -c -o $@ $<

$(O)/rt/%.o: %.S $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	@echo "  AS      $@"
	$(Q)$(CC) -c -o $@ $<

$(O)/tool/%.o: %.c $(COMPILE_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(TOOL_CFLAGS) -c -o $@ $<

$(O)/callscope: $(O)/tool/cli/main.o $(TOOL_OBJ)
	@echo "  LD      $@"
	$(Q)$(CC) $(SANFLAGS) -o $@ $^ $(TOOL_LIBS)

$(O)/tests/%: tests/unit/%.c $(TOOL_OBJ) $(COMPILE_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(TOOL_CFLAGS) -o $@ $< $(TOOL_OBJ) $(TOOL_LIBS) -lcmocka

# Fuzz harnesses: libFuzzer with clang when asked (make fuzz), otherwise a
# plain driver that replays the seed corpus (make fuzz-smoke, run in CI).
$(O)/fuzz/%: tests/fuzz/%.c tests/fuzz/driver.c $(TOOL_OBJ) $(COMPILE_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(TOOL_CFLAGS) -o $@ $< tests/fuzz/driver.c $(TOOL_OBJ) $(TOOL_LIBS)

# checks the relocated code of a patch plan against the binary (tests/patch/)
PLAN_CHECK := $(O)/tests/plan_check
$(PLAN_CHECK): tests/patch/plan_check.c $(TOOL_OBJ) $(COMPILE_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(TOOL_CFLAGS) -o $@ $< $(TOOL_OBJ) $(TOOL_LIBS) -lcapstone

# names a binary's addresses as the reports do (tests/symbols/)
SYMBOLIZE := $(O)/tests/symbolize
$(SYMBOLIZE): tests/symbols/symbolize.c $(TOOL_OBJ) $(COMPILE_DEPS)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(TOOL_CFLAGS) -o $@ $< $(TOOL_OBJ) $(TOOL_LIBS)

$(O)/tests/lib%.so: tests/inject/%.c
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) -std=gnu11 -O2 -fPIC -shared $(WARN) -o $@ $< -ldl

# what a single TAP test needs besides 'all': prove tests/t/NNNN-*.t
shims: $(INJECT) $(SYMBOLIZE)

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do echo "# $$t"; $$t; done

# The live-control tests (07*) run one at a time: 'live list' removes a
# killed program's socket from the shared /tmp/callscope-UID, which one of
# them checks is left behind.  The others run beside them.  --failures
# prints each failing file's 'not ok' lines, whose descriptions carry the
# values seen, so a rare failure in CI says what went wrong.
e2e: all shims $(PLAN_CHECK)
	prove -j2 --failures --rules='seq=tests/t/07*.t' --rules='par=**' tests/t

fuzz-smoke: $(FUZZ_BIN)
	@set -e; for f in $(FUZZ_BIN); do n=$$(basename $$f); \
		$$f tests/fuzz/seeds/$${n#fuzz_} --mutate 20000; done

# Long runs with clang's libFuzzer + ASan/UBSan, not in CI (needs clang and
# libclang-rt-14-dev): make fuzz [FUZZ_SECONDS=300].  Crashes land in
# $(O)/fuzz-long/crashes/; each one found becomes a seed file.  Undefined
# behaviour stops a fuzzer as a crash does (-fno-sanitize-recover), so
# that it leaves its input there too; every fuzzer runs, and the target
# fails at the end if any found something.
FUZZ_SECONDS ?= 300
FUZZ_LONG := $(patsubst tests/fuzz/%.c,$(O)/fuzz-long/%,$(FUZZ_SRC))
fuzz: $(FUZZ_LONG)
	@mkdir -p $(O)/fuzz-long/crashes
	@found=""; for h in $(FUZZ_LONG); do n=$$(basename $$h); d=$(O)/fuzz-long/corpus-$${n#fuzz_}; \
		mkdir -p $$d; cp tests/fuzz/seeds/$${n#fuzz_}/* $$d/; \
		$$h -max_total_time=$(FUZZ_SECONDS) -artifact_prefix=$(O)/fuzz-long/crashes/ $$d || \
			found="$$found $$n"; done; \
	if [ -n "$$found" ]; then echo "fuzz: found something:$$found; see $(O)/fuzz-long/crashes/" >&2; exit 1; fi

$(O)/fuzz-long/fuzz_%: tests/fuzz/fuzz_%.c $(filter-out cli/%,$(TOOL_SRC))
	@mkdir -p $(dir $@)
	clang -std=gnu11 -D_GNU_SOURCE -g -O1 -fno-math-errno -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -I include -I common -I lib -I . $(BANNED) -o $@ $^ $(TOOL_LIBS)

check: all unit fuzz-smoke e2e

bench: all
	bench/run.sh

# --- Installing ------------------------------------------------------------
# make install / uninstall [PREFIX=/usr/local] [DESTDIR=]: the layout the
# peers use and the CLI expects (it finds the runtime in ../lib/callscope/
# from its own bin/).  Manual pages are written from docs/ by pandoc
# (scripts/man/), so they say what the docs say.  Distribution builds hand
# their hardening flags in the usual variables; they reach the offline
# tools, while the runtime keeps its own (it is a guest in the program).
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/callscope
PKGCONFIGDIR ?= $(DATADIR)/pkgconfig
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
INSTALL ?= install

TOOL_CFLAGS += $(CPPFLAGS) $(CFLAGS)
TOOL_LIBS += $(LDFLAGS)

MAN_STAMP := $(O)/man/.written
man: $(MAN_STAMP)
$(MAN_STAMP): $(O)/callscope $(wildcard docs/*.md) scripts/man/manpages.sh scripts/man/manpage.lua
	@echo "  MAN     $(O)/man"
	$(Q)rm -rf $(O)/man && sh scripts/man/manpages.sh $(O)/callscope $(O)/man && touch $@

$(O)/callscope.pc: scripts/callscope.pc.in
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e "s|@VERSION@|$$($(O)/callscope --version | sed 's/^callscope //')|" $< > $@
$(O)/callscope.pc: $(O)/callscope FORCE

INSTALL_DOCS := README.md $(wildcard docs/*.md)

install: all man $(O)/callscope.pc
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR)/callscope $(DESTDIR)$(INCLUDEDIR) \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DOCDIR)/examples \
		$(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 755 $(O)/callscope $(DESTDIR)$(BINDIR)/callscope
	$(INSTALL) -m 644 $(O)/libcallscope.so $(O)/libcallscope-idle-hooks.so \
		$(DESTDIR)$(LIBDIR)/callscope/
	$(INSTALL) -m 644 include/callscope.h $(DESTDIR)$(INCLUDEDIR)/callscope.h
	$(INSTALL) -m 644 $(O)/callscope.pc $(DESTDIR)$(PKGCONFIGDIR)/callscope.pc
	$(INSTALL) -m 644 $(O)/man/*.1 $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 644 $(INSTALL_DOCS) $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 examples/*.c $(DESTDIR)$(DOCDIR)/examples/
	$(INSTALL) -m 644 scripts/completion.bash $(DESTDIR)$(BASHCOMPDIR)/callscope

# Removes exactly what install wrote (the manual pages by the command
# table's names), then the folders that only callscope uses.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/callscope $(DESTDIR)$(INCLUDEDIR)/callscope.h \
		$(DESTDIR)$(LIBDIR)/callscope/libcallscope.so \
		$(DESTDIR)$(LIBDIR)/callscope/libcallscope-idle-hooks.so \
		$(DESTDIR)$(PKGCONFIGDIR)/callscope.pc $(DESTDIR)$(BASHCOMPDIR)/callscope \
		$(DESTDIR)$(MANDIR)/man1/callscope.1 $(DESTDIR)$(MANDIR)/man1/callscope-*.1
	rm -rf $(DESTDIR)$(DOCDIR)
	-rmdir $(DESTDIR)$(LIBDIR)/callscope 2>/dev/null

FORCE:
.PHONY: install uninstall man FORCE
# --- end of installing -------------------------------------------------------

clean:
	rm -rf $(O)

.PHONY: all shims unit e2e check fuzz fuzz-smoke bench clean
-include $(shell find $(O) -name '*.d' 2>/dev/null)
