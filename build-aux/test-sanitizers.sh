#!/usr/bin/env bash
# The whole test suite again, built with AddressSanitizer and UndefinedBehaviorSanitizer.
# Any report is fatal (halt_on_error); leaks are checked separately by valgrind over the CLI
# (tests/test-valgrind.sh), since GTK/fontconfig keep process-lifetime allocations.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=_build-asan
if [ ! -f "$dir/build.ninja" ]; then
  # GCC leaves float-cast-overflow out of "undefined"; a sizing engine fed 1e300 needs it.
  meson setup "$dir" -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug \
    -Dc_args=-fsanitize=float-cast-overflow -Dc_link_args=-fsanitize=float-cast-overflow
fi
ninja -C "$dir"
# detect_leaks=0: GTK, fontconfig and the GL drivers keep process-lifetime allocations.
# verify_asan_link_order=0: CI images that LD_PRELOAD something (libeatmydata, …) would otherwise
# abort every test before main().  The widget tests run under xvfb-run (see tests/meson.build).
export ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1:strict_string_checks=1:verify_asan_link_order=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# valgrind cannot run ASan binaries.
meson test -C "$dir" --print-errorlogs --no-suite valgrind --timeout-multiplier 3 </dev/null
