#!/usr/bin/env bash
# The C++ sources follow .clang-format: clang-format (Debian's clang-format, scripts/setup installs it)
# would change no tracked .cpp or .h file. To apply it: git ls-files '*.cpp' '*.h' | xargs clang-format -i
set -euo pipefail
cd "$1"
command -v clang-format > /dev/null || { echo "FAIL: clang-format is not installed (scripts/setup installs it)"; exit 1; }
if ! git ls-files '*.cpp' '*.h' | xargs clang-format --dry-run --Werror 2> /tmp/format_check.$$; then
  grep -m 10 "error:" /tmp/format_check.$$ || true
  rm -f /tmp/format_check.$$
  echo "FAIL: files differ from .clang-format; apply it with: git ls-files '*.cpp' '*.h' | xargs clang-format -i"
  exit 1
fi
rm -f /tmp/format_check.$$
echo "format: $(git ls-files '*.cpp' '*.h' | wc -l) C++ files follow .clang-format ($(clang-format --version))"
