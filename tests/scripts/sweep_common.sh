# Shared by the sweep tests: a tiny experiment with fake data in $tmp (the caller sets root, tmp).
make_tiny_experiment() {
  /usr/bin/python3 - "$tmp/data" <<'PY'
import os, struct, sys, random
d = sys.argv[1]; os.makedirs(d, exist_ok=True)
random.seed(2)
def write(path, kind, n):
    with open(path, "wb") as f:
        if kind == "images":
            f.write(bytes([0, 0, 8, 3]) + struct.pack(">III", n, 28, 28))
            f.write(bytes(random.choice([0, 0, 0, 180]) for _ in range(n * 784)))
        else:
            f.write(bytes([0, 0, 8, 1]) + struct.pack(">I", n) + bytes(random.randrange(10) for _ in range(n)))
write(f"{d}/train-images-idx3-ubyte", "images", 10064); write(f"{d}/train-labels-idx1-ubyte", "labels", 10064)
write(f"{d}/t10k-images-idx3-ubyte", "images", 24); write(f"{d}/t10k-labels-idx1-ubyte", "labels", 24)
PY
  mkdir -p "$tmp/experiments/tiny"
  cat > "$tmp/experiments/tiny/config.ini" <<INI
data-dir = $tmp/data
glimpses = 2
patch = 6
hidden = 16
glimpse-hidden = 8
batch = 8
epochs = 2
val-images = 16
trajectories = 2
INI
  printf 'a  --seed 1\nb  --seed 2 --baseline average\n' > "$tmp/experiments/tiny/runs.txt"
  export GLIMPSE_EXPERIMENTS=$tmp/experiments GLIMPSE_RESULTS=$tmp/results
}

expect_finished() {
  for id in "$@"; do
    s=$("$root/build/glimpse" summarize --status "$tmp/results/tiny/$id.h5")
    [ "$s" = finished ] || { echo "FAIL: tiny/$id is '$s', expected finished"; exit 1; }
  done
}
