#!/usr/bin/env bash
# The whole test suite again, built with AddressSanitizer and UndefinedBehaviorSanitizer.
# Any report is fatal (halt_on_error); leaks are checked separately by valgrind over the CLI
# (tests/test-valgrind.sh), since GTK/fontconfig keep process-lifetime allocations.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=_build-asan
if [ ! -f "$dir/build.ninja" ]; then
  meson setup "$dir" -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
fi
ninja -C "$dir"
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# valgrind cannot run ASan binaries; the accuracy replay is the same code as in the plain run.
meson test -C "$dir" --print-errorlogs --no-suite valgrind --timeout-multiplier 3
