#!/usr/bin/env bash
# valgrind --leak-check=full over the CLI's main commands: no definite leaks, no errors.
set -u
cli=${HEADROOM_CLI:?}
command -v valgrind >/dev/null || { echo "1..0 # SKIP valgrind not installed"; exit 0; }
cases=(
  "list models --json"
  "estimate --model glm-4.5-air --gpu mlu590-80gb --context 32768 --json"
  "estimate --model deepseek-v3 --gpu h100-80gb-sxm --gpus 8 --quant FP8 --engine vllm"
  "matrix --model qwen3-30b-a3b --gpu rtx-4090-24gb --json"
  "compare --model glm-4.5-air --gpu rtx-5090-32gb --gpu h100-80gb-sxm --csv"
  "finetune --model llama-3.1-8b --method qlora --json"
  "estimate --model nope --gpu h100-80gb-sxm"
)
echo "1..${#cases[@]}"
n=0; fail=0
for c in "${cases[@]}"; do
  n=$((n+1))
  log=$(mktemp)
  # shellcheck disable=SC2086
  valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=99 \
    "$cli" $c >/dev/null 2>"$log"
  rc=$?
  if [ $rc -eq 99 ]; then
    echo "not ok $n - $c"; sed 's/^/# /' "$log" | head -60; fail=1
  else
    echo "ok $n - $c (exit $rc)"
  fi
  rm -f "$log"
done
exit $fail
