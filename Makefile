# GesturePad — the two commands a user needs:
#   make run    set up, build (release) and serve the touchpad page
#   make test   set up and run every test (Swift, traces, integration, browser, Autobahn)
# ARGS passes options to `gesturepad serve`, e.g. make run ARGS="--port 9000 --verbose".

PY      := .venv/bin/python
BIN     := .build/debug/gesturepad
SHARED  := ../shared

.PHONY: run test setup setup-test build release lint swift-test traces py-test autobahn bench clean

run: setup release
	.build/release/gesturepad serve $(ARGS)

test: setup-test build lint swift-test traces py-test autobahn

setup:
	@scripts/setup.sh

setup-test:
	@scripts/setup.sh --test

build:
	swift build

release:
	swift build -c release --product gesturepad

# Formatting and the no-force-unwrap / no-try! rules (.swift-format), on the shipped code.
lint:
	swift format lint --strict -r Sources Package.swift

swift-test:
	swift test

# The shared trace checker, when the team's shared folder sits beside the clone.
traces: build
	@if [ -x $(SHARED)/tools/check-traces ]; then \
		$(SHARED)/tools/check-traces --replay "$(BIN) replay"; \
	else \
		echo "traces: no $(SHARED)/tools/check-traces here; tests/traces covers the fixtures"; \
	fi

py-test: build
	GESTUREPAD_BIN=$(BIN) GESTUREPAD_REQUIRE_BROWSER=1 GESTUREPAD_REQUIRE_X11=1 GESTUREPAD_REQUIRE_PORTAL=1 $(PY) -m pytest -q tests

# WebSocket conformance: Autobahn|Testsuite's fuzzing client against `serve --test-echo`, judged
# against tests/autobahn/expected.txt. Needs Python 2.7 (pyenv's is found); installs the pinned
# suite into .autobahn/ the first time. About a minute; report in artifacts/autobahn/.
autobahn: build
	GESTUREPAD_BIN=$(BIN) tests/autobahn/run.sh

# Benchmarks, not tests (never part of `make test`): installs what they need, builds release,
# runs about two minutes and prints one table. See BENCHMARKS.md.
bench:
	bench/run.sh

clean:
	rm -rf .build .venv .autobahn artifacts
