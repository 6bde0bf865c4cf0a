# ordo — top-level entry points.  CMake does the building, into build/.
#   make          build the library, tools, tests and benchmarks
#   make test     every test: unit + functional (plain and ASan+UBSan), the thread
#                 tests under TSan, launcher, Python, the fault checks
#   make run      the main job: the quick measurement suite and its report (results/latest)
#   make bench    the one-sided benchmarks side by side with ucx_perftest
#   make install  PREFIX=/usr/local
PREFIX ?= /usr/local
BUILD  ?= build
ASAN   ?= build-asan
TSAN   ?= build-tsan
VENV   ?= .venv
JOBS   ?= $(shell nproc)
PY      = $(VENV)/bin/python
CONFIGURE = cmake -S . -B $(BUILD) -G Ninja -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null

.PHONY: all deps deps-peers deps-test build build-suite asan tsan venv test test-c test-asan test-tsan test-python test-faults lint run bench install clean

all: build venv

deps:
	@scripts/deps.sh build

# the peers (Open MPI, MPICH, ucx_perftest) before CMake looks for their mpicc
deps-peers:
	@scripts/deps.sh peers

deps-test:
	@scripts/deps.sh test

build: deps
	@$(CONFIGURE)
	@cmake --build $(BUILD) -j $(JOBS)

# what the suite starts, without the tests (a third of a full build)
build-suite: deps
	@$(CONFIGURE)
	@cmake --build $(BUILD) -j $(JOBS) --target suite_programs

asan: deps
	@cmake -S . -B $(ASAN) -G Ninja -DORDO_SANITIZE=ON -DORDO_BUILD_BENCH=OFF >/dev/null
	@cmake --build $(ASAN) -j $(JOBS)

tsan: deps
	@cmake -S . -B $(TSAN) -G Ninja -DORDO_TSAN=ON -DORDO_BUILD_BENCH=OFF >/dev/null
	@cmake --build $(TSAN) -j $(JOBS)

$(VENV)/.stamp: pyproject.toml
	@python3 -m venv $(VENV)
	@$(VENV)/bin/pip install -q --upgrade pip >/dev/null
	@$(VENV)/bin/pip install -q -e '.[dev]'
	@touch $@

venv: deps $(VENV)/.stamp

test: deps-test test-c test-asan test-tsan test-python test-faults lint

test-c: build
	cd $(BUILD) && ctest -j 2 --output-on-failure --timeout 300

# LeakSanitizer is off in the forked ranks' children only where ptrace is
# unavailable; here it runs.
test-asan: asan
	cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	  LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp) \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest -j 2 --output-on-failure --timeout 600

# ThreadSanitizer over the tests where threads meet: the program's own
# (test_threads) and ordo's (engines, the network helper), label threads;
# any report fails the test.  The longest access history (history_size=7):
# with less, the stack of a race's earlier access can be lost ("failed to
# restore the stack") and the suppressions, which name its function, miss.
test-tsan: tsan
	cd $(TSAN) && TSAN_OPTIONS=halt_on_error=1:exitcode=66:history_size=7:suppressions=$(abspath tests/tsan.supp) \
	  ctest -j 2 -L threads --output-on-failure --timeout 600

test-python: build venv
	ORDO_BUILD=$(abspath $(BUILD)) $(PY) -m pytest -q tests/python

# The fault checks (tests/faults): ranks that die, hang or misbehave, limits,
# bad settings; each under a time limit, its jobs killed as process groups.
test-faults: build venv
	ORDO_BUILD=$(abspath $(BUILD)) FAULT_CHECK_LIMIT=120 $(PY) -m pytest -q tests/faults

lint: venv
	$(VENV)/bin/ruff check python tests

# the peers and the venv are two pip installs into directories of their
# own: side by side they take the time of the longer one
run: deps
	@$(MAKE) --no-print-directory -j 2 deps-peers venv
	@$(MAKE) --no-print-directory build-suite
	ORDO_BUILD=$(abspath $(BUILD)) $(VENV)/bin/ordo-bench run --suite quick

bench: deps-peers build-suite venv
	ORDO_BUILD=$(abspath $(BUILD)) $(PY) -m ordo_bench.peers

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN) $(TSAN)
