#!/usr/bin/env bash
# Every tracked Python file (*.py and the scripts whose first line runs python) follows black's style
# (pyproject.toml) and passes flake8 (setup.cfg), both Debian's (scripts/setup installs them). To apply
# black: black $(git ls-files '*.py') scripts/dashboard scripts/damage
set -euo pipefail
cd "$1"
for tool in black flake8; do
  command -v $tool > /dev/null || { echo "FAIL: $tool is not installed (scripts/setup installs it)"; exit 1; }
done
mapfile -t files < <(git ls-files '*.py'; git ls-files scripts | while read -r f; do
  case $f in *.*) ;; *) head -1 "$f" | grep -q python && echo "$f" ;; esac; done)
black --check -q "${files[@]}" || { echo "FAIL: black would reformat the files above"; exit 1; }
flake8 "${files[@]}" || { echo "FAIL: flake8 flags the lines above"; exit 1; }
echo "python style: ${#files[@]} files pass black --check and flake8"
