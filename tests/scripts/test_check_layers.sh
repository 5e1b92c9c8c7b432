#!/usr/bin/env bash
# check_layers.sh passes on the tree, and fails, naming the include, on a copy with one include
# against the order added (nn including model) and on one where envs includes a sensor.
set -euo pipefail
src="${1:-$(cd "$(dirname "$0")/../.." && pwd)}"
"$src/tests/scripts/check_layers.sh" "$src"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for bad in 'src/nn/linear.h:src/model/rollout.h' 'envs/batch.h:src/attention/sensor.h'; do
  file=${bad%%:*}; inc=${bad#*:}
  rm -rf "$tmp/tree"; mkdir -p "$tmp/tree"; cp -r "$src/src" "$src/envs" "$tmp/tree/"
  echo "#include \"$inc\"" >> "$tmp/tree/$file"
  if out=$("$src/tests/scripts/check_layers.sh" "$tmp/tree"); then
    echo "FAILED: $file including $inc was not caught"; exit 1
  fi
  echo "$out" | grep -q "layer violation: $file .* includes $inc" || { echo "FAILED: no message for $file: $out"; exit 1; }
  echo "caught: $file includes $inc"
done
echo "1 passed, 0 failed"
