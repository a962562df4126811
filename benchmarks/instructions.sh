#!/usr/bin/env bash
# Instructions per game, counted by valgrind's callgrind: a speed figure that does not move
# with the machine's load (games/s on a shared 2-core machine moves by ±30%).
#
#   bash benchmarks/instructions.sh 100 bench_engine.py --sets KS,SS
#   bash benchmarks/instructions.sh 40 bench_policies.py --policies greedy
#
# Runs the benchmark script twice under callgrind, with N games and with 0 (start-up: imports,
# catalog, decks), and prints the difference divided by N. About 50x slower than a plain run.
set -euo pipefail
n=${1:?games}; script=${2:?benchmark script}; shift 2
here=$(cd "$(dirname "$0")" && pwd)
py=${PYTHON:-python3}
count() {
  local games=$1; shift
  local out
  out=$(PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$py" "$here/$script" --games "$games" "$@" 2>&1)
  grep -o 'Collected : [0-9]*' <<<"$out" | grep -o '[0-9]*' || { echo "$out" >&2; exit 1; }
}
with=$(count "$n" "$@")
without=$(count 0 "$@")
echo "$script $*: $(( (with - without) / n )) instructions per game ($n games)"
