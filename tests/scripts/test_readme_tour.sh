#!/usr/bin/env bash
# README.md's five-minute tour works as written: every command block between "## A five-minute tour"
# and the next section runs, in a scratch worktree of the checkout (so the experiment it creates and
# the runs it trains leave the checkout alone) with /tmp/ paths moved into a temporary folder; a block
# that starts with "import" runs as Python; the dashboard, which follows the runs until stopped, makes
# one pass (--once). Needs the build and data/mnist (linked in).
set -euo pipefail
. "$(dirname "$0")/scratch_worktree.sh"  # root, tmp and the worktree work, removed on exit
cp "$root/README.md" "$work/README.md"  # the tour as it stands in the working tree
# The tour's blocks: runs of lines indented by four spaces, continuation lines joined.
awk '/^## A five-minute tour/ {on = 1; next} /^## / {on = 0} on' "$work/README.md" > "$tmp/tour.md"
blocks=0 n=0
block=""
run_block() {
  [ -n "$block" ] || return 0
  blocks=$((blocks + 1))
  local text=${block//\/tmp\//$tmp/}
  if [[ "$text" == import* ]]; then
    (cd "$work" && GLIMPSE_ROOT="$work" /usr/bin/python3 -c "$text") > "$tmp/out" 2>&1 \
      || { cat "$tmp/out"; echo "FAIL: the tour's Python block $blocks"; exit 1; }
    n=$((n + 1))
  else
    while IFS= read -r cmd; do
      [ -n "$cmd" ] || continue
      [[ "$cmd" == scripts/dashboard* ]] && cmd+=" --once"  # the live page refreshes until stopped: one pass
      (cd "$work" && bash -c "$cmd") > "$tmp/out" 2>&1 || { cat "$tmp/out"; echo "FAIL: the tour's command: $cmd"; exit 1; }
      n=$((n + 1))
    done < <(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' <<< "$text" | sed 's/  *#.*$//')
  fi
  block=""
}
while IFS= read -r line; do
  if [[ "$line" == "    "* ]]; then block+="${line#    }"$'\n'; else run_block; fi
done < "$tmp/tour.md"
run_block
[ "$n" -ge 10 ] || { echo "FAIL: only $n commands found in the tour"; exit 1; }
echo "README tour: $n passed, 0 failed ($blocks blocks)"
