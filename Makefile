# rockcreek: a thin wrapper around CMake + CTest.
#   make            build everything (build/)
#   make demo       build and run the 48-core demo
#   make test       build and run the whole test suite
#   make bench      build and run the benchmarks (results in build/bench-results)
#   make install    install into PREFIX (default /usr/local)
#   make asan       ASan+UBSan build and tests (build-asan/)
#   make tsan       TSan build and native-backend tests (build-tsan/)
#   make deps       install the system packages the project needs (Debian)
#   make update-ref rewrite the sim's reference outputs (tests/sim/ref/)

BUILD ?= build
PREFIX ?= /usr/local
JOBS ?= 2
CMAKE_FLAGS ?=
CTEST_FLAGS ?=

.PHONY: all configure demo test bench install asan tsan deps clean format update-ref

all: configure
	cmake --build $(BUILD) -j $(JOBS)

configure:
	@test -f $(BUILD)/CMakeCache.txt || \
	  cmake -S . -B $(BUILD) -G "$$(command -v ninja >/dev/null && echo Ninja || echo 'Unix Makefiles')" \
	    -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

demo: all
	cmake --build $(BUILD) --target demo

test: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_FLAGS)

update-ref: all
	cmake --build $(BUILD) --target update-ref

bench: all
	cmake --build $(BUILD) --target bench

install: all
	cmake --install $(BUILD) --prefix $(PREFIX)

asan:
	$(MAKE) BUILD=build-asan CMAKE_FLAGS="-DRCK_SANITIZE=address -DCMAKE_BUILD_TYPE=Debug" test

tsan:
	$(MAKE) BUILD=build-tsan CMAKE_FLAGS="-DRCK_SANITIZE=thread -DCMAKE_BUILD_TYPE=Debug" \
	  CTEST_FLAGS="-L 'unit|conformance-native'" test

deps:
	./scripts/install-deps.sh

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build build-asan build-tsan
