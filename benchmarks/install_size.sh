#!/usr/bin/env bash
# Install mythos from a checkout into a fresh virtual environment with an empty pip cache and
# print the figures of README's install: wall time, size of the environment, packages.
#   bash benchmarks/install_size.sh [CHECKOUT] [EXTRA]     e.g. bash benchmarks/install_size.sh . cluster
set -euo pipefail
src=$(cd "${1:-$(dirname "$0")/..}" && pwd)
extra=${2:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --upgrade pip >/dev/null
base=$(du -sk "$work/venv" | cut -f1)
base_n=$("$work/venv/bin/python" -m pip list --format=freeze 2>/dev/null | wc -l)
target="$src"; [ -n "$extra" ] && target="$src[$extra]"
start=$(date +%s.%N)
PIP_CACHE_DIR="$work/cache" "$work/venv/bin/python" -m pip install --quiet "$target"
end=$(date +%s.%N)
size=$(du -sk "$work/venv" | cut -f1)
n=$("$work/venv/bin/python" -m pip list --format=freeze 2>/dev/null | wc -l)
printf 'install %s: %.0f s, %d MB added to the venv (%d MB in all), %d packages (plus %d of a bare venv)\n' \
  "${extra:+[$extra]}" "$(echo "$end - $start" | bc)" $(((size - base) / 1024)) $((size / 1024)) $((n - base_n)) "$base_n"
"$work/venv/bin/python" -m pip list --format=freeze 2>/dev/null | cut -d= -f1 | tr '\n' ' '; echo
