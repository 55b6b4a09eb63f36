# GesturePad — the two commands a user needs:
#   make run    set up, build (release) and serve the touchpad page
#   make test   set up and run every test (Swift, traces, integration, browser, kernel, packaging,
#               Autobahn, a short fuzz of every target); what CI runs
# and while working on it:
#   make check  the quick loop (≤ 3 minutes on 2 cores with a warm build): lint, the debug
#               build, the Swift tests in parallel, the trace and integration pytest
#   make sanitize: the Swift tests under ASan and TSan
# ARGS passes options to `gesturepad serve`, e.g. make run ARGS="--port 9000 --verbose".
#
# Installing (docs/install.md):
#   make install [PREFIX=/usr/local] [DESTDIR=]   the release binary, the page, the systemd user
#                                                 unit, the man page, examples; a manifest
#   make uninstall [PREFIX=…] [DESTDIR=]          removes exactly what install put there
#   make deb [DEBDIR=.build/deb]                  DEBDIR/gesturepad_VERSION_ARCH.deb (dpkg-deb)

PY      := .venv/bin/python
BIN     := .build/debug/gesturepad
RELEASE := .build/release/gesturepad
SHARED  := ../shared
PREFIX  ?= /usr/local
DESTDIR ?=
DEBDIR  ?= .build/deb
DEB_LEVEL ?= 6
# The one release configuration (the Swift runtime linked statically: it is not in Debian);
# make bench and make soak build through the same script, so none throws the others' build away.
# The benchmark tools are a package of their own, bench/Package.swift (its build in bench/.build):
# the app's `swift build`, `swift test` and `make check` never build them.
RELEASE_BUILD := scripts/build-release.sh gesturepad

.PHONY: run test check setup setup-test setup-check build release release-noop lint swift-test \
	traces py-test py-check kernel-test fuzz-smoke fuzz sanitize sanitize-address sanitize-thread autobahn \
	bench bench-test soak clean install uninstall deb

# Fuzzing (docs/testing.md): seconds per target in `make test` (fixed seed, fresh working
# corpus; the four with their build take about 4 minutes on 2 cores) and in `make fuzz`
# (e.g. make fuzz FUZZ_SECONDS=3600 for an hour each).
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_SECONDS       ?= 60

run: setup release
	$(RELEASE) serve $(ARGS)

test: setup-test build release release-noop lint swift-test bench-test traces py-test autobahn fuzz-smoke

# Lint first (seconds, and the most common mistake), then one debug build of the server and
# the tests, the Swift tests in parallel, the trace checker and the loopback pytest. Installs
# nothing but what `setup` does (no Chromium, no .deb, no Autobahn).
check: setup-check lint
	swift build --build-tests
	swift test --skip-build
	@$(MAKE) --no-print-directory traces py-check

setup:
	@scripts/setup.sh

setup-test:
	@scripts/setup.sh --test

setup-check:
	@scripts/setup.sh --check

build:
	swift build

release:
	$(RELEASE_BUILD)

# install needs a release binary, but builds one only when there is none or a source is newer:
# `make && sudo make install` must not need Swift in root's PATH.
$(RELEASE): Package.swift $(shell find Sources -name '*.swift' -o -name '*.h' -o -name '*.modulemap')
	$(RELEASE_BUILD)

install: $(RELEASE)
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh install $(RELEASE)

uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install.sh uninstall

deb: $(RELEASE)
	DEB_LEVEL="$(DEB_LEVEL)" scripts/make-deb.sh $(RELEASE) $(DEBDIR)

# Formatting and the no-force-unwrap / no-try! rules (.swift-format), on the shipped code and
# on the bench package's (the same house style).
lint:
	swift format lint --strict -r Sources Package.swift Fuzz bench/Sources bench/Tests bench/Package.swift

# In parallel: hooks start, time out and restart on their sink's own thread (WorkerExecutor),
# never on the test process's cooperative pool, so tests keeping the pool busy cannot delay
# them; the suites that share a process-wide resource are `.serialized` (docs/testing.md).
swift-test:
	swift test

# The shared trace checker, when the team's shared folder sits beside the clone.
traces: build
	@if [ -x $(SHARED)/tools/check-traces ]; then \
		$(SHARED)/tools/check-traces --replay "$(BIN) replay"; \
	else \
		echo "traces: no $(SHARED)/tools/check-traces here; tests/traces covers the fixtures"; \
	fi

# make run's build step is a no-op right after make bench's (issue 22: no build ping-pong; make
# bench builds the app into .build and its own package into bench/.build, both the same way).
release-noop: release
	scripts/release-noop.sh

# The loopback part of py-test, for make check: the trace checker, the real server with real
# WebSocket clients, hooks end to end; on two workers (pytest-xdist: every test has its own
# server on a free port and its own folders), most of their time is paced input, not CPU.
py-check:
	GESTUREPAD_BIN=$(BIN) $(PY) -m pytest -q -n 2 tests/traces tests/integration tests/hooks

# tests/browser runs its scenario suite in Chromium, Firefox ESR and WebKitGTK (each required here);
# tests/packaging installs, packages and removes the release binary (one build, reused);
# tests/gnome runs the portal backend against a real headless GNOME (under a minute);
# tests/sway the wlroots backend against a real headless sway;
# tests/kernel the uinput and touchpad backends in a User-Mode Linux kernel (below).
py-test: build release
	GESTUREPAD_BIN=$(BIN) GESTUREPAD_RELEASE_BIN=$(RELEASE) GESTUREPAD_REQUIRE_BROWSER=1 GESTUREPAD_REQUIRE_FIREFOX=1 \
		GESTUREPAD_REQUIRE_WEBKIT=1 GESTUREPAD_REQUIRE_X11=1 GESTUREPAD_REQUIRE_PORTAL=1 GESTUREPAD_REQUIRE_GNOME=1 \
		GESTUREPAD_REQUIRE_KDE=1 GESTUREPAD_REQUIRE_SWAY=1 GESTUREPAD_REQUIRE_PACKAGING=1 \
		GESTUREPAD_REQUIRE_KERNEL=1 GESTUREPAD_REQUIRE_MEDIA=1 $(PY) -m pytest -q tests

# The uinput and touchpad backends against a real kernel, udev and libinput: a User-Mode Linux
# kernel built once (cached in .build/uml/; 5–12 minutes the first time on 2 cores), booted
# for each backend (docs/testing.md). Part of py-test; this runs them alone.
kernel-test: build
	GESTUREPAD_BIN=$(BIN) GESTUREPAD_REQUIRE_KERNEL=1 $(PY) -m pytest -q tests/kernel

# WebSocket conformance: Autobahn|Testsuite's fuzzing client against `serve --test-echo`, judged
# against tests/autobahn/expected.txt. Needs Python 2.7 (pyenv's is found); installs the pinned
# suite into .autobahn/ the first time. About a minute; report in artifacts/autobahn/.
autobahn: build
	GESTUREPAD_BIN=$(BIN) tests/autobahn/run.sh

# A short run of every fuzz target; a crash fails it and leaves its input in artifacts/fuzz/.
fuzz-smoke:
	scripts/fuzz.sh --fresh --seconds $(FUZZ_SMOKE_SECONDS)

# Longer runs; the working corpus in artifacts/fuzz/ grows from run to run.
fuzz:
	scripts/fuzz.sh --seconds $(FUZZ_SECONDS)

# The Swift tests under AddressSanitizer (with LeakSanitizer) and under ThreadSanitizer, each
# in its own scratch path, one test at a time (under the sanitizers, parallel tests starve the
# hook tests' timers on 2 cores). Suppressions, each with its reason: Tests/Sanitizers/.
# Not part of `make test`: two more full builds of the package (see docs/testing.md).
sanitize: sanitize-address sanitize-thread

sanitize-address:
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp \
		swift test --disable-xctest --no-parallel --sanitize=address --scratch-path .build-asan

sanitize-thread:
	TSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/tsan.supp \
		swift test --disable-xctest --no-parallel --sanitize=thread --scratch-path .build-tsan

# Benchmarks, not tests (never part of `make test`): installs what they need, builds release
# (gesturepad, and the bench package's gesturepad-bench and gesturepad-loadgen), runs about
# two minutes and prints one table. See BENCHMARKS.md.
bench:
	bench/run.sh

# The bench package's own tests (the load generator's connection stages and run phases on a
# virtual clock): a debug build of bench/Package.swift in bench/.build. In make test, so an
# API change of the engine, the protocol or the mapping that breaks the tools fails there.
bench-test:
	swift test --package-path bench

# Soak, not a test either: N connections × M Hz for T minutes with misbehaving hooks; prints one
# table (bench/out/soak.json). SOAK_CONNECTIONS=200 SOAK_RATE=120 SOAK_MINUTES=10 by default.
# Builds gesturepad and the bench package's gesturepad-loadgen as make bench does.
soak:
	bench/soak.sh

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan bench/.build .venv .autobahn artifacts
