# multidraw: `make run` renders/benchmarks the default scene, `make test` runs every test.
# Both install what they need on a fresh Debian/Ubuntu machine first (a Vulkan driver; the CPU
# one, lavapipe, from mesa-vulkan-drivers).

CARGO ?= cargo
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_PACKAGES := mesa-vulkan-drivers libvulkan1
# The meshopt crate compiles meshoptimizer's C++ sources (through the cc crate) while building.
BUILD_APT_PACKAGES := g++
# The viewer test runs a real window under Xvfb; winit loads these X11 libraries at run time.
TEST_APT_PACKAGES := xvfb libxkbcommon-x11-0 libxcursor1 libxrandr2 libxi6 libx11-xcb1
# Without a runtime dir, libwayland (loaded by the Vulkan driver's window-system code) prints
# "XDG_RUNTIME_DIR is invalid" on every device open, even headless.
export XDG_RUNTIME_DIR ?= $(shell d=/tmp/runtime-$$(id -u); mkdir -p -m 700 $$d; echo $$d)

.PHONY: run test deps test-deps bench web test-web web-tools

# The main job: the default scene through the benchmark, at full detail and with levels of
# detail and occlusion culling.
run: deps
	$(CARGO) run --release -- bench --compare-detail

# One test at a time: lavapipe already uses every core, and tests that open devices or set
# environment variables should not overlap. (RUST_TEST_THREADS, not --test-threads: the
# criterion bench, run here once in test mode, does not take libtest's flags.) The examples are
# built first as programs: tests/embed.rs runs examples/embed (test mode builds them under a
# hashed name). `--all-targets`
# leaves out the doc tests (the crate docs' example), so they run next; the docs must build
# without a warning. Last, the library as an embedder builds it (`default-features = false`):
# every target that needs no feature is checked (no code generation) and must have no warning
# either; the first time its dependencies are checked anew with fewer features (about a minute
# on 2 cores), after that it takes seconds.
test: deps test-deps
	$(CARGO) build --examples
	RUST_TEST_THREADS=1 $(CARGO) test --all-targets
	RUST_TEST_THREADS=1 $(CARGO) test --doc
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps
	@log=$$(mktemp); $(CARGO) check --all-targets --no-default-features 2>$$log; status=$$?; cat $$log; \
	if [ $$status -ne 0 ] || grep -q '^warning' $$log; then \
		rm -f $$log; echo "cargo check --no-default-features: errors or warnings above" >&2; exit 1; \
	fi; rm -f $$log
	$(MAKE) test-web

bench: deps
	$(CARGO) bench --bench record

# Installs the Vulkan loader and Mesa's drivers when no Vulkan driver manifest is present, and
# a C++ compiler when there is none.
deps:
	@if ! ls /usr/share/vulkan/icd.d/*.json /etc/vulkan/icd.d/*.json >/dev/null 2>&1 || ! ldconfig -p | grep -q libvulkan.so.1; then \
		echo "installing a Vulkan driver: $(APT_PACKAGES)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(APT_PACKAGES); \
	fi
	@if ! command -v g++ >/dev/null 2>&1 && ! command -v c++ >/dev/null 2>&1; then \
		echo "installing a C++ compiler for meshoptimizer: $(BUILD_APT_PACKAGES)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(BUILD_APT_PACKAGES); \
	fi

# Installs Xvfb and winit's X11 libraries when Xvfb is missing.
test-deps:
	@if ! command -v Xvfb >/dev/null 2>&1; then \
		echo "installing Xvfb for the viewer test: $(TEST_APT_PACKAGES)"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $(TEST_APT_PACKAGES); \
	fi

# --- In the browser (web/, README § "In the browser") ---------------------------------------
# rustup cannot add wasm32 here, so the web build uses Debian's rustc-web (1.96) with its std
# sources (-Zbuild-std), linked by lld; wasm-bindgen's command-line tool is built from crates.io
# at the wasm-bindgen crate's version in Cargo.lock, without optimisation (~2 min on 2 cores;
# the default release build took 15 min of CPU). Everything lands in target/web-tools.
WEB_TOOLS := $(CURDIR)/target/web-tools
WEB_ROOT := $(WEB_TOOLS)/root
WASM_BINDGEN_VERSION := $(shell awk '/^name = "wasm-bindgen"$$/ {getline; gsub(/"/, "", $$3); print $$3}' Cargo.lock)
WEB_ENV := PATH=$(WEB_ROOT)/usr/bin:$(WEB_TOOLS)/bin:$$PATH LD_LIBRARY_PATH=$(WEB_ROOT)/usr/lib/x86_64-linux-gnu \
	RUSTC=$(WEB_ROOT)/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld-22 \
	CARGO_TARGET_DIR=$(CURDIR)/target/web
WEB_PORT ?= 8040

# Only what is missing: a machine's own Node.js (e.g. NodeSource's, which bundles npm and
# conflicts with Debian's npm) is kept.
web-tools:
	@packages=""; \
	command -v wasm-ld-22 >/dev/null 2>&1 || packages="$$packages libllvm22 libgit2-1.5 lld-22"; \
	command -v chromium >/dev/null 2>&1 || packages="$$packages chromium"; \
	command -v node >/dev/null 2>&1 || packages="$$packages nodejs"; \
	command -v npm >/dev/null 2>&1 || packages="$$packages npm"; \
	if [ -n "$$packages" ]; then \
		echo "installing the web build's linker and the browser:$$packages"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$packages; \
	fi
	@if [ ! -x $(WEB_ROOT)/usr/bin/rustc ]; then \
		echo "fetching Debian's rustc-web and its std sources into $(WEB_ROOT)"; \
		mkdir -p $(WEB_TOOLS)/debs && cd $(WEB_TOOLS)/debs && \
		apt-get download rustc-web cargo-web rust-web-src libstd-rust-web-dev libstd-rust-web-1.96 && \
		for f in *.deb; do dpkg -x $$f $(WEB_ROOT); done; \
	fi
	@if [ "$$($(WEB_TOOLS)/bin/wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $(WASM_BINDGEN_VERSION)" ]; then \
		echo "building wasm-bindgen-cli $(WASM_BINDGEN_VERSION) (about 2 minutes)"; \
		CARGO_PROFILE_RELEASE_OPT_LEVEL=1 CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_LTO=false \
		$(CARGO) install -q wasm-bindgen-cli --version =$(WASM_BINDGEN_VERSION) --root $(WEB_TOOLS); \
	fi
	@if [ ! -d $(WEB_TOOLS)/node_modules/playwright-core ]; then \
		echo "installing playwright-core (drives Debian's chromium; downloads no browser)"; \
		cd $(WEB_TOOLS) && npm install -s --no-save --prefix $(WEB_TOOLS) playwright-core@1; \
	fi

# The page: web/pkg holds the wasm and its JS glue.
web: web-tools
	cd web && $(WEB_ENV) $(CARGO) build --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort --profile web
	$(WEB_TOOLS)/bin/wasm-bindgen --target web --out-dir web/pkg target/web/wasm32-unknown-unknown/web/multidraw_web.wasm
	@echo "built web/pkg; serve it with: make serve-web (http://127.0.0.1:$(WEB_PORT)/index.html)"

serve-web: web
	@echo "multidraw in the browser: http://127.0.0.1:$(WEB_PORT)/index.html"
	cd web && python3 -m http.server --bind 127.0.0.1 $(WEB_PORT)

# The browser test: the page in headless Chromium against the native render of the same frame.
test-web: web
	$(CARGO) run -q -- render --objects 1000 --size 640x360 --soft-raster off --out target/web-native.png
	WEB_TOOLS=$(WEB_TOOLS) NATIVE_PNG=$(CURDIR)/target/web-native.png OUT_DIR=$(CURDIR)/target/web-test \
		node web/test.mjs
