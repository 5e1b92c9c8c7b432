#!/usr/bin/env bash
# The documents hold together: every relative link of a tracked markdown file names a file or folder
# that exists, and README.md stays a front door (at most 250 lines; the reference lives in docs/).
set -euo pipefail
cd "$1"
fail=0
while IFS= read -r md; do
  dir=$(dirname "$md")
  while IFS= read -r target; do
    path=${target%%#*}
    [ -z "$path" ] && continue
    case "$path" in http://*|https://*|mailto:*) continue ;; esac
    if [ ! -e "$dir/$path" ]; then echo "FAIL: $md links to $target, which does not exist"; fail=1; fi
  done < <(grep -o '](\([^)]*\))' "$md" | sed 's/^](//; s/)$//' || true)
done < <(git ls-files '*.md'; git ls-files --others --exclude-standard '*.md')
lines=$(wc -l < README.md)
if [ "$lines" -gt 250 ]; then echo "FAIL: README.md has $lines lines (at most 250)"; fail=1; fi
[ "$fail" = 0 ] && echo "docs links: ok"
exit $fail
