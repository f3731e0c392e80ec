#!/usr/bin/env bash
# Installs what is missing, builds trainyard and runs every test: a g++ build with warnings as
# errors, then a clang-14 build with ASan+UBSan, then the
# C++ test binaries under clang-14 TSan. Prints how long each stage took.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
# Tests run two to a core: most of their time is spent waiting (on a server, a child process, a
# poll interval), and at one a core the cores idle through it.
test_jobs=$((jobs * 2))
# Each test binary runs as this many processes rather than one per test case (tests/CMakeLists.txt).
shards=4
# ccache (when the build finds it) hashes paths relative to the checkout, so a fresh clone elsewhere
# reuses what an earlier clone compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}" CCACHE_NOHASHDIR=1

stage_start=$SECONDS
stage() {
  local name=$1; shift
  local t0=$SECONDS
  echo "=== stage: $name"
  "$@"
  echo "=== stage: $name took $((SECONDS - t0)) s"
}

format_check() {
  local files
  files=$(git ls-files '*.cpp' '*.hpp' 2>/dev/null || find . -name '*.[ch]pp' -not -path './build*')
  # shellcheck disable=SC2086
  clang-format --dry-run --Werror $files
}

curses_check() {
  local n
  n=$(grep -rlE '#\s*include\s*[<"](n?curses(w)?/)?n?curses\.h[>"]' --include='*.cpp' --include='*.hpp' \
      app backend widgets themes tests bench 2>/dev/null | wc -l)
  if ((n > 1)); then echo "curses is included from $n files; only app's ncurses terminal may"; return 1; fi
}

# Line tables are the debug information a test failure's backtrace needs; full -g would cost a
# quarter of the g++ build (TRAINYARD_DEBUG_INFO in cmake/trainyard_options.cmake).
configure_gcc() {
  cmake -S . -B build-ci -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRAINYARD_WERROR=ON \
    -DTRAINYARD_DEBUG_INFO=lines \
    -DTRAINYARD_TEST_SHARDS="$shards" >/dev/null
}
configure_asan() {
  CC=clang-14 CXX=clang++-14 cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DTRAINYARD_DEBUG_INFO=lines -DTRAINYARD_WERROR=ON -DTRAINYARD_SANITIZE=address -DTRAINYARD_FUZZ=ON \
    -DTRAINYARD_TEST_SHARDS="$shards" >/dev/null
}
configure_tsan() {
  CC=clang-14 CXX=clang++-14 cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DTRAINYARD_DEBUG_INFO=lines -DTRAINYARD_WERROR=ON -DTRAINYARD_SANITIZE=thread -DTRAINYARD_TEST_SHARDS="$shards" >/dev/null
}
# The gtest binaries (and the TSan-built trainyard they start); the shell and Python suites that
# only drive the binary from outside ran in the stages before.
run_ctest_tsan() {
  TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/tsan.supp" \
    ctest --test-dir build-tsan --output-on-failure -j "$test_jobs" --timeout 900 \
    -E '^(conformance_|e2e_|fault_soak|emulator_http_test|fuzz_)'
}
run_ctest() {
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir "$1" --output-on-failure -j "$test_jobs" --timeout 600
}

TRAINYARD_WITH_CLANG=1 TRAINYARD_WITH_CLIENTS=1 stage "install dependencies" scripts/install-deps.sh
if command -v clang-format >/dev/null; then stage "clang-format" format_check; fi
stage "curses confined to one file" curses_check
stage "build g++ -Werror" bash -c "$(declare -f configure_gcc); shards=$shards configure_gcc && cmake --build build-ci -j $jobs"
stage "tests (g++)" run_ctest build-ci
stage "build clang-14 ASan+UBSan" bash -c "$(declare -f configure_asan); shards=$shards configure_asan && cmake --build build-asan -j $jobs"
stage "tests (ASan+UBSan)" run_ctest build-asan
stage "build clang-14 TSan" bash -c "$(declare -f configure_tsan); shards=$shards configure_tsan && cmake --build build-tsan -j $jobs"
stage "tests (TSan)" bash -c "$(declare -f run_ctest_tsan); test_jobs=$test_jobs run_ctest_tsan"
echo "=== all stages took $((SECONDS - stage_start)) s"
