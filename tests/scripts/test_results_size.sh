#!/usr/bin/env bash
# The committed results stay light: the run files and figures git tracks under results/ may not
# together exceed BUDGET_MB (the one place the budget is written; docs/results.md says what it holds).
set -euo pipefail
BUDGET_MB=275
cd "$1"
bytes=$(git ls-files -z results | xargs -0 stat -c %s 2>/dev/null | awk '{s += $1} END {print s + 0}')
mb=$((bytes / 1000000))
echo "results/: $mb MB tracked, budget $BUDGET_MB MB"
if [ "$mb" -gt "$BUDGET_MB" ]; then
  echo "FAIL: results/ holds $mb MB, over its budget of $BUDGET_MB MB: commit a screen as a curves-only copy"
  echo "      (glimpse slim --curves-only), or move superseded results out of the tree (docs/results.md)"
  exit 1
fi
# A sweep's full run files and logs, in any experiment folder, nested or new, stay out of git; its
# slim copies in runs/ do not (.gitignore).
for f in results/any_new/nested/run-s3.h5 results/any_new/run.h5 results/any_new/run-s12.log; do
  git check-ignore -q "$f" || { echo "FAIL: .gitignore lets a full run file or log in: $f"; exit 1; }
done
git check-ignore -q results/any_new/nested/runs/run-s3.h5 && { echo "FAIL: .gitignore hides a slim copy in runs/"; exit 1; }
echo "full run files ignored, slim copies in runs/ not"
