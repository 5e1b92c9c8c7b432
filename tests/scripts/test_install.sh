#!/usr/bin/env bash
# cmake --install, then a separate CMake project (tests/consumer) finds glimpse with find_package,
# builds against the installed headers and library, and reads a glimpse of a real task sample.
#   tests/scripts/test_install.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1; build=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" > "$tmp/install.log"
[ -x "$tmp/prefix/bin/glimpse" ] || { echo "FAIL: no bin/glimpse installed"; exit 1; }
[ -f "$tmp/prefix/lib/cmake/glimpse/glimpseConfig.cmake" ] || { echo "FAIL: no package config"; exit 1; }
cmake -S "$src/tests/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_BUILD_TYPE=Release > "$tmp/configure.log"
cmake --build "$tmp/consumer" -j 2 > "$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }
out=$("$tmp/consumer/consumer" "$src/data/mnist")
echo "$out"
[[ "$out" == label=* ]] || { echo "FAIL: unexpected consumer output"; exit 1; }
"$tmp/prefix/bin/glimpse" --version
# The installed binary finds the checkout's MNIST from any folder, without --data-dir.
(cd "$tmp" && "$tmp/prefix/bin/glimpse" render --env mnist28 --count 2 --out "$tmp/two.png" > /dev/null) \
  || { echo "FAIL: the installed glimpse does not find data/mnist of the checkout it was built from"; exit 1; }
echo "install: glimpse found by find_package, linked and run from $tmp/prefix"
