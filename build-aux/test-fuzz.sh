#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time over a copy of its seed corpus.
# FUZZ_SECONDS (default 60) per target; needs clang with libFuzzer (libclang-rt-14-dev).
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
ninja -C "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for target in "$dir"/tests/fuzz/fuzz-*; do
  [ -x "$target" ] || continue
  name=$(basename "$target")
  corpus=tests/fuzz/corpus/${name#fuzz-}
  mkdir -p "$work/$name"
  [ -d "$corpus" ] && cp -r "$corpus"/. "$work/$name"/
  echo "fuzz: $name for ${seconds}s"
  if ! ASAN_OPTIONS=detect_leaks=1 "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$work/$name-" "$work/$name" 2>"$work/$name.log"; then
    echo "fuzz: $name FAILED"; tail -40 "$work/$name.log"; status=1
  else
    grep -E "^(Done|#[0-9]+ +DONE)" "$work/$name.log" | tail -1 || true
  fi
done
exit $status
