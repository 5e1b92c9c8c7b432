# Sourced by the tests that run documented commands (test_readme_tour.sh, test_docs_blocks.sh), with the
# checkout's root as $1: sets root, tmp (a temporary folder) and work ($tmp/checkout, a detached worktree
# of HEAD with the build and data/mnist linked in), removed again on exit. Needs the build and data/mnist.
root=$(cd "$1" && pwd)
tmp=$(mktemp -d)
work=$tmp/checkout
cleanup() { git -C "$root" worktree remove --force "$work" > /dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
[ -d "$root/data/mnist" ] || { echo "FAIL: data/mnist is missing: run scripts/setup"; exit 1; }
git -C "$root" worktree add --detach "$work" HEAD > /dev/null 2>&1
ln -s "$root/build" "$work/build"
ln -s "$root/data" "$work/data"
