#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time over a copy of its seed corpus.
# FUZZ_SECONDS (default 60) per target; the targets run side by side, so the wall time is about
# FUZZ_SECONDS whatever their number.  Needs clang with libFuzzer (libclang-rt-14-dev).
# A crashing input is kept in _build-fuzz/artifacts/ and its log is printed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
if ! command -v clang >/dev/null; then
  echo "fuzz: clang not installed, skipped"
  exit 0
fi
dir=_build-fuzz
if [ ! -f "$dir/build.ninja" ]; then
  CC=clang meson setup "$dir" -Dfuzzing=true -Dgui=false -Dbuildtype=debugoptimized
fi

# Only the fuzzers: the rest of the tree is built and tested by the other passes.
names=()
for src in tests/fuzz/fuzz-*.c; do
  names+=("$(basename "$src" .c)")
done
ninja -C "$dir" "${names[@]/#/tests/fuzz/}" tests/make-hostile-seeds

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The hostile inputs of issue #27 (names colliding under g_str_hash, a split part that lies, a
# feed as heavy as allowed), generated rather than committed: seeds beside each corpus.
"$dir/tests/make-hostile-seeds" "$work/hostile"
artifacts=$dir/artifacts
mkdir -p "$artifacts"

# LeakSanitizer needs ptrace-like access some containers deny; without it the run is still
# worth having (ASan + UBSan), so fall back rather than fail on the environment.
run_one() {
  local name=$1 target=$dir/tests/fuzz/$1 leaks=1
  local corpus=tests/fuzz/corpus/${name#fuzz-}
  local dict=tests/fuzz/${name#fuzz-}.dict
  # -timeout: one input's limit.  The generated hostile seeds (400 KB of colliding names) take
  # ~1 s of CPU each under ASan; ten fuzzers share two cores here, so one took 10.6 s of wall
  # time on a loaded machine and failed the run: 30 s still catches a hang.
  local args=(-max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1
              -artifact_prefix="$artifacts/$name-")
  [ -f "$dict" ] && args+=(-dict="$dict")
  mkdir -p "$work/$name"
  [ -d "$corpus" ] && cp -r "$corpus"/. "$work/$name"/
  [ -d "$work/hostile/${name#fuzz-}" ] && cp -r "$work/hostile/${name#fuzz-}"/. "$work/$name"/
  while :; do
    if G_DEBUG=fatal-criticals ASAN_OPTIONS=detect_leaks=$leaks "$target" "${args[@]}" "$work/$name" \
         </dev/null >"$work/$name.log" 2>&1; then
      return 0
    fi
    if [ $leaks = 1 ] && grep -q "LeakSanitizer has encountered a fatal error\|LeakSanitizer does not work" \
         "$work/$name.log"; then
      echo "fuzz: $name: LeakSanitizer unavailable here, running without leak checks"
      leaks=0
      continue
    fi
    return 1
  done
}

pids=()
for name in "${names[@]}"; do
  echo "fuzz: $name for ${seconds}s"
  run_one "$name" &
  pids+=($!)
done

status=0
for i in "${!names[@]}"; do
  name=${names[$i]}
  if wait "${pids[$i]}"; then
    echo "fuzz: $name: $(grep -E '^Done [0-9]+ runs' "$work/$name.log" | tail -1)"
  else
    echo "fuzz: $name FAILED (inputs kept in $artifacts/)"
    tail -60 "$work/$name.log"
    status=1
  fi
done
exit $status
