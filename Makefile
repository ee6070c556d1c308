# The two commands of README.md. Both install what is missing, configure,
# build, and then run; a second run only rebuilds what changed.
BUILD ?= build
JOBS ?= $(shell nproc)
LIT = python3 /usr/lib/llvm-19/build/utils/lit/lit.py

# The LibTorch whose headers the test suites parse: a LibTorch zip's folder
# (make test TORCH_PREFIX=/opt/libtorch); empty: Debian's libtorch-dev.
TORCH_PREFIX ?=

FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60

.PHONY: all setup build test demo bench clean fuzz fuzz-build fuzz-smoke install package FORCE

all: build

setup:
	@bash scripts/setup.sh

# Rewritten only when TORCH_PREFIX changes, which configures the build again.
$(BUILD)/torch-prefix: FORCE
	@mkdir -p $(BUILD) && echo '$(abspath $(TORCH_PREFIX))' | cmp -s - $@ || echo '$(abspath $(TORCH_PREFIX))' > $@

$(BUILD)/build.ninja: $(BUILD)/torch-prefix | setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTORCH_PREFIX='$(abspath $(TORCH_PREFIX))' \
	  > $(BUILD).configure.log 2>&1 || { cat $(BUILD).configure.log; exit 1; }
	@touch $@

build: setup $(BUILD)/build.ninja
	@ninja -C $(BUILD) --quiet

test: build
	@$(LIT) -sv -j $(JOBS) $(BUILD)/test
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@$(MAKE) --no-print-directory fuzz-smoke

# The parsers' libFuzzer targets (test/fuzz, docs/reliability.md) need clang,
# so they have their own build directory.
$(FUZZ_BUILD)/build.ninja: | setup
	@CC=clang-19 CXX=clang++-19 cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DTORCHTIDY_FUZZ=ON > $(FUZZ_BUILD).configure.log 2>&1 || { cat $(FUZZ_BUILD).configure.log; exit 1; }

fuzz-build: setup $(FUZZ_BUILD)/build.ninja
	@ninja -C $(FUZZ_BUILD) --quiet fuzzers

# FUZZ_SECONDS per target; make test runs each for 5 s.
fuzz: fuzz-build
	@bash test/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

fuzz-smoke:
	@$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=5

demo: build
	@bash examples/run-demo.sh $(BUILD)

# Lint speed against clang++ -fsyntax-only and clang-tidy (docs/performance.md);
# e.g. make bench BENCH_ARGS='--n 32 --only-torchtidy'. Then one edited file
# alone per include layout (a pre-commit hook's run), the language server's
# latency on a save and its memory (docs/editors.md), and two CI runners
# sharing the remote result cache (docs/performance.md).
bench: build
	@python3 bench/lint_speed.py --build $(BUILD) $(BENCH_ARGS)
	@python3 bench/precommit_speed.py --build $(BUILD)
	@python3 bench/lsp_latency.py --build $(BUILD)
	@python3 bench/remote_cache.py --build $(BUILD)

# make install PREFIX=/opt/torchtidy; make package writes build/torchtidy_*.deb.
PREFIX ?= /usr/local
install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

package: build
	@cd $(BUILD) && cpack -G DEB > cpack.log 2>&1 || { cat cpack.log; exit 1; }

clean:
	rm -rf $(BUILD) $(BUILD).configure.log $(FUZZ_BUILD) $(FUZZ_BUILD).configure.log
