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

.PHONY: run test deps test-deps bench

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
