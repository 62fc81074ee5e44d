# TroubleshootKB — `make run` checks the knowledge base and builds the site; `make test` runs every test.
SWIFT ?= swift
KB := .build/release/kb
# The Swift runtime and Foundation are linked into kb (--static-swift-stdlib): the installed binary
# runs without the toolchain's libraries, and each kb command starts in about 5 ms instead of 13.
RELEASE_BUILD = $(SWIFT) build -c release --product kb --static-swift-stdlib
BENCH_N ?= 10000
PREFIX ?= /usr/local
FUZZ_SECONDS ?= 600
FUZZ_SMOKE_SECONDS ?= 30

.PHONY: run test check build deps deps-test bench clean fuzz fuzz-smoke install uninstall theme

run: deps build
	$(KB) lint entries
	$(KB) list
	@# The check report feeds the site's verdicts and model rules; a stale entry is reported, the site still built.
	-$(KB) check --jobs 2
	$(KB) build --out _site
	@echo "Open file://$(CURDIR)/_site/index.html"

build: deps
	$(RELEASE_BUILD)

deps:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	rm -rf .build/test-site .build/test-cache
	# The browser tests' site carries check results (check tables, badges, the model page's uses).
	KB_CACHE=.build/test-cache .build/debug/kb check
	KB_CACHE=.build/test-cache .build/debug/kb build --out .build/test-site
	node --test --test-concurrency=1 Tests/js/
	@$(MAKE) --no-print-directory fuzz-smoke

# libFuzzer targets (front matter reader, entry parser, Gherkin parser); see docs/robustness.md.
# `make fuzz FUZZ_SECONDS=600` runs each target for that long; crashers land in .build/fuzz/artifacts/.
fuzz: deps
	scripts/fuzz.sh run $(FUZZ_SECONDS)

# A short run of each fuzz target (part of `make test`); says why and passes when the toolchain
# cannot build fuzzers.
fuzz-smoke: deps
	scripts/fuzz.sh smoke $(FUZZ_SMOKE_SECONDS)

# Run the entries' check scenarios (entries needing a missing program are reported as skipped).
check: build
	$(KB) check --jobs 4 --junit .kb/junit.xml

# The release binary, shell completions (bash, zsh, fish) and the man page under PREFIX
# (default /usr/local; DESTDIR is honoured). See README.md, "Install".
# Needs only kb's own build dependencies (the kb profile), not the programs this repository's
# entries run in their scenarios.
install:
	@scripts/install-deps.sh kb
	$(RELEASE_BUILD)
	scripts/install.sh "$(PREFIX)" $(KB)

uninstall:
	scripts/install.sh --uninstall "$(PREFIX)"

# Re-embeds site/ into the binary's built-in theme after a theme file changed.
theme:
	scripts/embed-theme.py

bench: build
	@scripts/install-deps.sh bench
	BENCH_BASELINE="$(BENCH_BASELINE)" scripts/bench.sh $(BENCH_N)

clean:
	rm -rf .build _site .kb
