#!/usr/bin/env bash
# The folders depend one way (docs/architecture.md):
#   core <- nn <- attention <- rl <- model <- store <- train <- cli (and python, the bindings, beside cli),
#   and envs <- core only;
# a folder may include its own headers and those of folders to its left; envs is included by train,
# cli and python only. Reads every #include "src/..." / "envs/..." of src/ and envs/ and fails, naming the
# file and the include, on any that runs against that order.
#   tests/scripts/check_layers.sh [SOURCE_DIR]
set -euo pipefail
cd "${1:-$(dirname "$0")/../..}"
find src envs \( -name '*.h' -o -name '*.cpp' \) -print0 | sort -z | xargs -0 awk '
  BEGIN {
    split("core nn attention rl model store train cli", order, " ")
    for (i in order) rank[order[i]] = i - 1
    rank["envs"] = "envs"
    rank["python"] = rank["cli"]
  }
  function folder(path,   parts) {  # src/nn/linear.h -> nn; envs/idx.h -> envs; else ""
    split(path, parts, "/")
    if (parts[1] == "src") return parts[2]
    if (parts[1] == "envs") return "envs"
    return ""
  }
  /^[ \t]*#[ \t]*include[ \t]*"/ {
    inc = $0; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
    from = folder(FILENAME); to = folder(inc)
    if (to == "") next
    checked++
    ok = 1
    if (!(from in rank) || !(to in rank)) ok = 0
    else if (from == "envs") ok = (to == "envs" || to == "core")
    else if (to == "envs") ok = (rank[from] >= rank["train"])
    else ok = (rank[to] <= rank[from])
    if (!ok) { printf "layer violation: %s (%s) includes %s (%s)\n", FILENAME, from, inc, to; bad++ }
  }
  END {
    if (checked < 100) { printf "check_layers: only %d includes found; wrong folder?\n", checked; exit 1 }
    printf "check_layers: %d includes between folders read, %d against the order\n", checked, bad
    exit bad > 0
  }'
