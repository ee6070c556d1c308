# The two commands of README.md. Both install what is missing, configure,
# build, and then run; a second run only rebuilds what changed.
BUILD ?= build
JOBS ?= $(shell nproc)
LIT = python3 /usr/lib/llvm-19/build/utils/lit/lit.py

.PHONY: all setup build test demo bench clean

all: build

setup:
	@bash scripts/setup.sh

$(BUILD)/build.ninja: | setup
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo > $(BUILD).configure.log 2>&1 \
	  || { cat $(BUILD).configure.log; exit 1; }

build: setup $(BUILD)/build.ninja
	@ninja -C $(BUILD) --quiet

test: build
	@$(LIT) -sv -j $(JOBS) $(BUILD)/test
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

demo: build
	@bash examples/run-demo.sh $(BUILD)

# Lint speed against clang++ -fsyntax-only and clang-tidy (docs/performance.md);
# e.g. make bench BENCH_ARGS='--n 32 --only-torchtidy'.
bench: build
	@python3 bench/lint_speed.py --build $(BUILD) $(BENCH_ARGS)

clean:
	rm -rf $(BUILD) $(BUILD).configure.log
