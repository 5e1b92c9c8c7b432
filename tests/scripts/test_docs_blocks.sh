#!/usr/bin/env bash
# The docs' runnable command blocks work as written (README.md's tour has its own test, readme_tour).
# In docs/*.md and scripts/README.md, every indented block is read: a block that starts with "import"
# or "from" runs as Python; in the others each command line (continuations joined, comments dropped,
# optional [...] parts left out) that starts with build/glimpse or scripts/ runs unless it still holds
# a placeholder (an upper-case word such as RUN or NAME, or a choice a|b). Training runs on tiny inputs:
# --epochs 1 --train-images 512 --val-images 500 are added where the line does not set them. Everything
# runs in a scratch worktree of the checkout (its docs as they stand in the working tree), so the files
# the commands write leave the checkout alone. Needs the build and data/mnist (linked in).
set -euo pipefail
. "$(dirname "$0")/scratch_worktree.sh"  # root, tmp and the worktree work, removed on exit
docs=$(cd "$root" && ls docs/*.md scripts/README.md)
for d in $docs; do cp "$root/$d" "$work/$d"; done

ran=0 shown=0
run_python() {  # $1: the doc, $2: the block
  echo "$1: a Python block of $(wc -l <<< "$2") lines"
  (cd "$work" && GLIMPSE_ROOT="$work" /usr/bin/python3 -c "$2") > "$tmp/out" 2>&1 \
    || { cat "$tmp/out"; echo "FAIL: $1's Python block:"; echo "$2"; exit 1; }
  ran=$((ran + 1))
}
run_shell() {  # $1: the doc, $2: the block
  local cmd
  while IFS= read -r cmd; do
    cmd=$(sed -e 's/ *\[[^]]*\]//g' -e 's/[[:space:]]*$//' <<< "$cmd")
    [ -n "$cmd" ] || continue
    if [[ ! "$cmd" =~ ^(build/glimpse|scripts/) ]] || [[ "$cmd" =~ (^|[^A-Za-z_.-])[A-Z]+([^A-Za-z_]|$) ]] \
      || [[ "$cmd" == *"|"* ]] || [[ "$cmd" == *"..."* ]]; then
      shown=$((shown + 1))
      continue
    fi
    if [[ "$cmd" == "build/glimpse train"* ]] && [[ "$cmd" != *"--resume"* ]]; then
      for opt in "--epochs 1" "--train-images 512" "--val-images 500"; do
        [[ "$cmd" == *"${opt% *} "* ]] || cmd+=" $opt"
      done
    fi
    [[ "$cmd" == scripts/dashboard* ]] && cmd+=" --once"  # the live page refreshes until stopped: one pass
    cmd=${cmd//\/tmp\//$tmp/}
    echo "$1: $cmd"
    (cd "$work" && bash -c "$cmd") > "$tmp/out" 2>&1 || { cat "$tmp/out"; echo "FAIL: $1: $cmd"; exit 1; }
    ran=$((ran + 1))
  done < <(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' <<< "$2" | sed 's/  *#.*$//')
}
for d in $docs; do
  block=""
  flush() {
    [ -n "$block" ] || return 0
    if [[ "$block" =~ ^(import|from)\  ]]; then run_python "$d" "$block"; else run_shell "$d" "$block"; fi
    block=""
  }
  while IFS= read -r line; do
    if [[ "$line" == "    "* ]]; then block+="${line#    }"$'\n'; elif [ -n "$line" ]; then flush; fi
  done < "$work/$d"
  flush
done
[ "$ran" -ge 8 ] || { echo "FAIL: only $ran runnable commands found in the docs"; exit 1; }
echo "docs blocks: $ran ran, $shown shown with placeholders (not run)"
