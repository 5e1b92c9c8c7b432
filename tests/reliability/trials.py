#!/usr/bin/env python3
"""The reliability trials: each finding of a tester's 1,144 trials against glimpse's guarantees
(slim, full disks, diverging reads, concurrent writers, links, the Python API, smaller holes),
replayed on tiny runs and counted by outcome.

    tests/reliability/trials.py ROOT [--check-doc docs/guarantees.md]

Outcomes: ok (refused with a message, or done right), lost (a protected file changed, or a written
file does not verify), crash (ended by a signal), hang (past its time limit), silent (exit 0 with a
wrong, unrecorded or misleading result). Prints a markdown table; exits 1 when any trial is not ok,
or when --check-doc finds another table between the markers in that file. The full-disk and
read-only-folder trials need root (a small tmpfs, a read-only bind mount): without it the script
says so and exits 77, which ctest shows as skipped.
"""
import argparse
import fcntl
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else ".")
GLIMPSE = os.path.join(ROOT, "build", "glimpse")
PY = "/usr/bin/python3"
FINDINGS = [
    ("slim", "1. slim --force onto the run itself or onto a run being written"),
    ("concurrent", "2. concurrent slims to one --out, slims killed midway"),
    ("disk", "3. a full disk during train, resume, slim and a recording eval"),
    ("diverge", "4. diverging DRAW and spatial-transformer reads (train, resume, Python)"),
    ("record", "5. eval recording: lock busy, concurrent evals, read-only folder, slim copies"),
    ("links", "6. links planted at temporary names, one file under two names"),
    ("python", "7. Python API misuse"),
    ("holes", "8. smaller holes (dashboard, options, damaged sizes, other data, messages)"),
]
OUTCOMES = ["ok", "lost", "crash", "hang", "silent"]
TINY = ["--epochs", "1", "--train-images", "500", "--val-images", "200", "--threads", "1"]


class Tally:
    def __init__(self):
        self.counts = {k: dict.fromkeys(OUTCOMES, 0) for k, _ in FINDINGS}
        self.notes = []
        self.verbose = False

    def add(self, finding, outcome, what):
        self.counts[finding][outcome] += 1
        if outcome != "ok":
            self.notes.append(f"{finding}: {outcome}: {what}")
        if self.verbose:
            print(f"{finding}: {outcome}: {what}", flush=True)

    def table(self):
        lines = ["| finding | trials | " + " | ".join(OUTCOMES) + " |", "|---|---|" + "---|" * len(OUTCOMES)]
        for key, name in FINDINGS:
            c = self.counts[key]
            lines.append(f"| {name} | {sum(c.values())} | " + " | ".join(str(c[o]) for o in OUTCOMES) + " |")
        total = {o: sum(self.counts[k][o] for k, _ in FINDINGS) for o in OUTCOMES}
        lines.append(f"| all | {sum(total.values())} | " + " | ".join(str(total[o]) for o in OUTCOMES) + " |")
        return "\n".join(lines)


T = Tally()


def run(args, timeout=120, cwd=None, env=None):
    """(returncode, output); returncode None on a hang (killed at the limit)."""
    try:
        p = subprocess.run(
            args, cwd=cwd, env=env, timeout=timeout, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")


def glimpse(*args, timeout=120, cwd=None):
    return run([GLIMPSE, *args], timeout=timeout, cwd=cwd)


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest() if os.path.exists(path) else None


def whole(path):
    return glimpse("verify", path, timeout=60)[0] == 0


def classify(rc, refused_ok=True, zero_ok=True):
    """crash / hang from a return code, else None (the caller decides the rest)."""
    if rc is None:
        return "hang"
    if rc < 0 or rc >= 128:
        return "crash"
    return None


def expect_refusal(finding, what, rc, out, protected=(), pattern=None):
    """A refusal (exit 1 or 2 with a message) that left every (path, digest) of protected unchanged."""
    bad = classify(rc)
    if bad is None and any(sha(p) != h for p, h in protected):
        bad = "lost"
    if bad is None and rc == 0:
        bad = "silent"
    if bad is None and pattern and not re.search(pattern, out):
        bad = "silent"  # refused, but without saying why
    T.add(finding, bad or "ok", f"{what}: rc={rc} {out.strip().splitlines()[-1:] if out.strip() else ''}")


class Lock:
    """Holds glimpse's writer lock on a file (REAL.lock, flock), as a training run does."""

    def __init__(self, path):
        self.f = open(os.path.realpath(path) + ".lock", "w")
        fcntl.flock(self.f, fcntl.LOCK_EX)

    def release(self):
        os.remove(self.f.name)
        self.f.close()


def base_run(tmp):
    path = os.path.join(tmp, "base.h5")
    rc, out = glimpse("train", *TINY, "--out", path)
    if rc != 0:
        sys.exit(f"trials: cannot make the base run: {out}")
    return path


def copy(src, dst):
    shutil.copyfile(src, dst)
    return dst


def leftovers(folder, stem):
    return [f for f in os.listdir(folder) if f.startswith(stem) and re.search(r"\.(tmp|work)-", f)]


# ---- 1. slim --force onto itself or onto a run being written -----------------------------------------


def trials_slim(tmp, base):
    a = copy(base, os.path.join(tmp, "a.h5"))
    os.link(a, os.path.join(tmp, "hard.h5"))
    os.symlink("a.h5", os.path.join(tmp, "sym.h5"))
    for out in (
        "./a.h5",
        os.path.join(tmp, "sym.h5"),
        os.path.join(tmp, "hard.h5"),
        os.path.join(tmp, "x", "..", "a.h5"),
    ):
        h = sha(a)
        rc, o = glimpse("slim", "--run", "a.h5", "--out", out, "--force", cwd=tmp)
        expect_refusal("slim", f"slim --out {out} --force", rc, o, [(a, h)], "is the run file itself")
    t = copy(base, os.path.join(tmp, "t.h5"))
    h = sha(t)
    lock = Lock(t)
    rc, o = glimpse("slim", "--run", a, "--out", t, "--force")
    lock.release()
    expect_refusal("slim", "slim --force onto a run being written", rc, o, [(t, h)], "being written")
    rc, o = glimpse("slim", "--run", a, "--out", os.path.join(tmp, "missing", "deep", "s.h5"))
    T.add(
        "slim",
        "ok" if rc == 0 and whole(os.path.join(tmp, "missing", "deep", "s.h5")) else classify(rc) or "lost",
        "slim into a new folder",
    )


# ---- 2. concurrent slims, killed slims -------------------------------------------------------------


def trials_concurrent(tmp, base):
    out = os.path.join(tmp, "c.h5")
    for round_ in range(8):
        procs = [
            subprocess.Popen(
                [GLIMPSE, "slim", "--run", base, "--out", out, "--force"],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for _ in range(4)
        ]
        results = [(p.wait(timeout=120), p.stdout.read()) for p in procs]
        ok_out = whole(out)
        for rc, o in results:
            bad = classify(rc)
            if bad is None and rc != 0 and "being written" not in o:
                bad = "silent"
            if bad is None and not ok_out:
                bad = "lost" if rc != 0 else "silent"
            T.add("concurrent", bad or "ok", f"round {round_}: rc={rc} {o.strip()[-120:]}")
        if leftovers(tmp, "c.h5"):
            T.add("concurrent", "lost", f"round {round_} left {leftovers(tmp, 'c.h5')}")
    k = os.path.join(tmp, "k.h5")
    glimpse("slim", "--run", base, "--out", k)
    for i in range(8):
        h = sha(k)
        p = subprocess.Popen(
            [GLIMPSE, "slim", "--run", base, "--out", k, "--force"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.03 * i)
        p.send_signal(signal.SIGKILL)
        p.wait()
        after = sha(k)
        state_ok = after == h or whole(k)  # the old copy, or the new one complete
        rc, o = glimpse("slim", "--run", base, "--out", k, "--force")
        bad = classify(rc)
        if bad is None and (not state_ok or rc != 0 or not whole(k) or leftovers(tmp, "k.h5")):
            bad = "lost"
        T.add("concurrent", bad or "ok", f"slim killed after {0.03 * i:.2f} s: rc={rc} {o.strip()[-120:]}")


# ---- 3. a full disk ---------------------------------------------------------------------------------


def tmpfs(path, size):
    os.makedirs(path)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", path], check=True)


def trials_disk(tmp, base):
    for size in ("200k", "1m", "3m", "7m"):  # a new run fills the disk at its first commits or later
        mnt = os.path.join(tmp, "disk_" + size)
        tmpfs(mnt, size)
        try:
            rc, o = glimpse("train", *TINY, "--out", os.path.join(mnt, "new.h5"))
            bad = classify(rc)
            if bad is None and os.path.exists(os.path.join(mnt, "new.h5")) and not whole(os.path.join(mnt, "new.h5")):
                bad = "lost"
            if bad is None and rc == 0 and size != "7m":
                bad = "silent"
            T.add("disk", bad or "ok", f"train on a {size} disk: rc={rc} {o.strip()[-160:]}")
        finally:
            subprocess.run(["umount", mnt], check=False)
    slim = os.path.join(tmp, "disk_slim.h5")
    glimpse("slim", "--run", base, "--out", slim)
    mnt = os.path.join(tmp, "disk_full")
    tmpfs(mnt, "24m")
    try:
        for free in (20_000, 200_000, 1_000_000, 3_000_000, 6_000_000):  # free bytes left on the disk
            for f in os.listdir(mnt):
                os.remove(os.path.join(mnt, f))
            r = copy(base, os.path.join(mnt, "r.h5"))
            s = copy(slim, os.path.join(mnt, "s.h5"))
            st = os.statvfs(mnt)
            with open(os.path.join(mnt, "fill"), "wb") as f:
                f.write(b"\0" * max(0, st.f_bavail * st.f_frsize - free))
            for what, args, path in (
                ("resume", ["train", "--resume", "r.h5", "--epochs", "3"], r),
                ("slim --force", ["slim", "--run", base, "--out", "s.h5", "--force"], s),
                ("eval", ["eval", "--run", "s.h5", "--split", "val", "--wait", "1", "--record"], s),
            ):
                h = sha(path)
                rc, o = glimpse(*args, cwd=mnt)
                bad = classify(rc)
                if bad is None and rc != 0 and sha(path) != h:
                    bad = "lost"
                if bad is None and not whole(path):
                    bad = "lost"
                if bad is None and rc == 0 and what == "eval" and "recorded in" not in o:
                    bad = "silent"
                if bad is None and rc != 0 and "recorded in" in o:
                    bad = "silent"  # says both
                T.add("disk", bad or "ok", f"{what} with {free} bytes free: rc={rc} {o.strip()[-160:]}")
    finally:
        subprocess.run(["umount", mnt], check=False)


# ---- 4. diverging reads ----------------------------------------------------------------------------


def attributes(path):
    code = f"import h5py; print(list(h5py.File({path!r}, 'r', locking=False).attrs))"
    return run([PY, "-c", code])[1]


def trials_diverge(tmp):
    for att in ("draw", "stn"):
        for on_nan in ("stop", "rollback"):
            path = os.path.join(tmp, f"div_{att}_{on_nan}.h5")
            args = [
                "train",
                "--env",
                "cluttered60",
                "--attention",
                att,
                "--optimizer",
                "adam",
                "--lr",
                "30",
                "--on-nan",
                on_nan,
                "--max-rollbacks",
                "2",
                *TINY,
                "--out",
                path,
            ]
            rc, o = glimpse(*args, timeout=300)
            bad = classify(rc)
            if bad is None and rc != 0 and "stopped_reason" not in attributes(path):
                bad = "silent"
            T.add("diverge", bad or "ok", f"{att} lr 30 --on-nan {on_nan}: rc={rc} {o.strip()[-160:]}")
            rc, o = glimpse("train", "--resume", path, "--epochs", "2", timeout=300)
            T.add("diverge", classify(rc) or "ok", f"{att} resume: rc={rc} {o.strip()[-160:]}")
    code = """
import numpy as np, glimpse
img = np.random.default_rng(0).random((2, 60, 60), dtype=np.float32)
for bad in (np.nan, np.inf, -np.inf, 1e30, -1e30):
    d = glimpse.draw_read(img, np.full((2, 5), bad, np.float32))
    s = glimpse.stn_read(img, np.full((2, 6), bad, np.float32))
    r = glimpse.retina(img, np.full((2, 2), bad, np.float32), patch=8, scales=3)
    for name, g in (("draw", d), ("stn", s), ("retina", r)):
        assert np.isnan(bad) <= np.isnan(g).all() or not np.isnan(bad), (name, bad)
print("ok")
"""
    rc, o = run([PY, "-c", code], timeout=120)
    T.add(
        "diverge",
        classify(rc) or ("ok" if rc == 0 and o.strip().endswith("ok") else "silent"),
        f"Python reads with NaN and huge parameters: rc={rc} {o.strip()[-200:]}",
    )


# ---- 5. eval recording -----------------------------------------------------------------------------


def evaluations(path):
    code = f"import h5py; f = h5py.File({path!r}, 'r', locking=False); print(len(f['evaluations/error']) if 'evaluations' in f else 0)"
    return int(run([PY, "-c", code])[1].strip() or -1)


def trials_record(tmp, base, root_ok):
    e = os.path.join(tmp, "e.h5")
    glimpse("slim", "--run", base, "--out", e)
    lock = Lock(e)
    n = evaluations(e)
    rc, o = glimpse("eval", "--run", e, "--split", "val", "--wait", "0.5", "--record")
    lock.release()
    bad = classify(rc)
    if bad is None and (rc == 0 or "val_error=" in o or evaluations(e) != n):
        bad = "silent"
    T.add("record", bad or "ok", f"eval while the lock is held: rc={rc} {o.strip()[-160:]}")
    n = evaluations(e)
    procs = [
        subprocess.Popen(
            [GLIMPSE, "eval", "--run", e, "--split", "val", "--record"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(6)
    ]
    results = [(p.wait(timeout=300), p.stdout.read()) for p in procs]
    rows = evaluations(e)
    for rc, o in results:
        bad = classify(rc)
        if bad is None and (rc != 0 or "recorded in" not in o):
            bad = "silent"
        T.add("record", bad or "ok", f"6 evals at once: rc={rc} {o.strip()[-160:]}")
    T.add("record", "ok" if rows == n + 6 else "silent", f"6 evals at once recorded {rows - n} rows")
    h = sha(e)  # a slim copy (what results/ commits) is left as it is unless --record
    rc, o = glimpse("eval", "--run", e, "--split", "val")
    bad = classify(rc)
    if bad is None and (rc != 0 or sha(e) != h or "not recorded" not in o):
        bad = "silent"
    T.add("record", bad or "ok", f"eval of a slim copy without --record: rc={rc} {o.strip()[-160:]}")
    if root_ok:
        ro = os.path.join(tmp, "ro")
        os.makedirs(ro)
        copy(e, os.path.join(ro, "e.h5"))
        subprocess.run(["mount", "--bind", ro, ro], check=True)
        subprocess.run(["mount", "-o", "remount,bind,ro", ro], check=True)
        try:
            rc, o = glimpse("eval", "--run", os.path.join(ro, "e.h5"), "--split", "val", "--record")
            bad = classify(rc)
            if bad is None and (rc == 0 or "val_error=" in o):
                bad = "silent"
            T.add("record", bad or "ok", f"eval in a read-only folder: rc={rc} {o.strip()[-160:]}")
            rc, o = glimpse("eval", "--run", os.path.join(ro, "e.h5"), "--split", "val", "--no-record")
            T.add(
                "record",
                classify(rc) or ("ok" if rc == 0 and "val_error=" in o else "silent"),
                f"eval --no-record in a read-only folder: rc={rc}",
            )
        finally:
            subprocess.run(["umount", ro], check=False)


# ---- 6. links ----------------------------------------------------------------------------------------


def intact(victim):
    return open(victim, "rb").read() == b"precious\n"


def trials_links(tmp, base):
    d = os.path.join(tmp, "links")
    os.makedirs(d)
    victim = os.path.join(d, "victim")
    with open(victim, "w") as f:
        f.write("precious\n")
    for name in ("r.h5.work", "s.h5.tmp", "index.html.part", "curves.png.part"):
        os.symlink(victim, os.path.join(d, name))
    rc, o = glimpse("train", *TINY, "--out", "r.h5", cwd=d)
    T.add(
        "links",
        classify(rc) or ("ok" if rc == 0 and intact(victim) else "lost"),
        f"train beside planted links: rc={rc}",
    )
    rc, o = glimpse("slim", "--run", "r.h5", "--out", "s.h5", cwd=d)
    T.add(
        "links", classify(rc) or ("ok" if rc == 0 and intact(victim) else "lost"), f"slim beside planted links: rc={rc}"
    )
    rc, o = run([PY, os.path.join(ROOT, "scripts", "dashboard"), os.path.join(d, "s.h5"), "--out", d, "--once"])
    T.add(
        "links",
        classify(rc) or ("ok" if rc == 0 and intact(victim) else "lost"),
        f"dashboard beside planted links: rc={rc} {o.strip()[-160:]}",
    )
    os.symlink("r.h5", os.path.join(d, "alias.h5"))
    h = sha(os.path.join(d, "r.h5"))
    lock = Lock(os.path.join(d, "r.h5"))
    rc, o = glimpse("train", "--resume", "alias.h5", "--epochs", "2", cwd=d)
    lock.release()
    expect_refusal(
        "links",
        "resume through a link while the real file is written",
        rc,
        o,
        [(os.path.join(d, "r.h5"), h)],
        "being written",
    )
    rc, o = glimpse("summarize", "r.h5", "alias.h5", "./r.h5", cwd=d)
    rows = [ln for ln in o.splitlines() if ln.startswith("| ") and "r.h5" in ln or "alias" in ln and ln.startswith("|")]
    T.add(
        "links",
        classify(rc) or ("ok" if rc == 0 and "counted once" in o and len(rows) == 1 else "silent"),
        f"summarize one file under three names: rc={rc} rows={len(rows)}",
    )
    code = f"""
import glimpse.runs as r
df = r.load_runs([{os.path.join(d, 'r.h5')!r}, {os.path.join(d, 'alias.h5')!r}])
print(len(df))
"""
    rc, o = run([PY, "-c", code])
    T.add(
        "links",
        classify(rc) or ("ok" if rc == 0 and o.strip() == "1" else "silent"),
        f"Python reader, one file under two names: rc={rc} {o.strip()[-80:]}",
    )


# ---- 7. Python API -----------------------------------------------------------------------------------

PY_CASES = [
    ("batch beyond 2**62", "t.batch('train', 2**62, 2**62)"),
    ("batch start + count overflowing int64", "t.batch('train', 2**63 - 1, 2)"),
    ("count a float", "t.batch('train', 0, 2.9)"),
    ("count a string", "t.batch('train', 0, '3')"),
    ("epoch a float", "t.batch('train', 0, 2, epoch=1.5)"),
    ("indices of floats", "t.samples('train', [1.5, 2.0])"),
    ("train_order past the epochs a run can have", "t.train_order(2**40)"),
    ("seed a string", "glimpse.Task('mnist28', seed='1')"),
    ("patch a float", "glimpse.retina(np.zeros((1, 28, 28), np.float32), np.zeros((1, 2), np.float32), patch=8.5)"),
    (
        "draw_read n a string",
        "glimpse.draw_read(np.zeros((1, 28, 28), np.float32), np.zeros((1, 5), np.float32), n='4')",
    ),
    (
        "retina with images of the wrong rank",
        "glimpse.retina(np.zeros((28, 28), np.float32), np.zeros((1, 2), np.float32))",
    ),
]


def trials_python(tmp):
    for what, call in PY_CASES:
        code = f"""
import numpy as np, glimpse
t = glimpse.Task('mnist28', seed=1)
try:
    {call}
    print('no error')
except ValueError as e:
    print('ValueError', e)
"""
        rc, o = run([PY, "-c", code], timeout=60)
        T.add(
            "python",
            classify(rc) or ("ok" if rc == 0 and "ValueError" in o else "silent"),
            f"{what}: rc={rc} {o.strip()[-160:]}",
        )
    code = """
import glimpse, time
t = glimpse.Task('mnist28', seed=1)
print('start', flush=True)
try:
    t.train_order(10**6 - 1)
    print('finished')
except KeyboardInterrupt:
    print('interrupted')
"""
    p = subprocess.Popen([PY, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    p.stdout.readline()
    time.sleep(1)
    p.send_signal(signal.SIGINT)
    try:
        out, _ = p.communicate(timeout=10)
        T.add(
            "python", "ok" if "interrupted" in out else "silent", f"train_order(10**6) and Ctrl-C: {out.strip()[-80:]}"
        )
    except subprocess.TimeoutExpired:
        p.kill()
        T.add("python", "hang", "train_order(10**6) ignored Ctrl-C")


# ---- 8. smaller holes --------------------------------------------------------------------------------


def trials_holes(tmp, base):
    d = os.path.join(tmp, "holes")
    os.makedirs(d)
    # a run file with a non-integer epochs: write_run refuses it; one made by hand is skipped by the dashboard
    code = f"""
import glimpse.runs as r
try:
    r.write_run({d!r} + '/w.h5', {{'env': 'mnist28', 'epochs': 1.5}}, {{'step': [1]}},
                {{'step': [1], 'epoch': [1], 'val_error': [0.5], 'test_error': [0.5]}}, 'hand', 1)
    print('written')
except ValueError as e:
    print('ValueError', e)
r.write_run({d!r} + '/w.h5', {{'env': 'mnist28', 'epochs': 1}}, {{'step': [1], 'images': [1], 'wall_s': [1]}},
            {{'step': [1], 'epoch': [1], 'val_error': [0.5], 'test_error': [0.5]}}, 'hand', 1)
import h5py, numpy as np
with h5py.File({d!r} + '/w.h5', 'r+') as f:
    f.attrs['epochs'] = np.bytes_(b'1.5')
r.reseal({d!r} + '/w.h5')
"""
    rc, o = run([PY, "-c", code])
    T.add(
        "holes",
        classify(rc) or ("ok" if rc == 0 and "ValueError" in o else "silent"),
        f"write_run epochs 1.5: {o.strip()[-120:]}",
    )
    rc, o = run([PY, os.path.join(ROOT, "scripts", "dashboard"), os.path.join(d, "w.h5"), base, "--out", d, "--once"])
    T.add(
        "holes",
        classify(rc) or ("ok" if rc == 0 and "1 skipped" in o else "silent"),
        f"dashboard, epochs 1.5: rc={rc} {o.strip()[-160:]}",
    )
    for every in ("nan", "inf", "0"):
        rc, o = run([PY, os.path.join(ROOT, "scripts", "dashboard"), base, "--out", d, "--every", every], timeout=20)
        expect_refusal("holes", f"dashboard --every {every}", rc, o, pattern="--every")
    rc, o = glimpse(
        "train", "--config", os.path.join(ROOT, "experiments", "ram_mnist28"), "--out", os.path.join(d, "c.h5")
    )
    expect_refusal("holes", "--config DIR", rc, o, pattern="is a folder")
    for opt in (
        ["--semi-sampling", "7"],
        ["--std", "1e30"],
        ["--entropy", "-1e30"],
        ["--hidden", "65536"],
        ["--threads", "1024"],
        ["--train-images", "10000000"],
        ["--std", "nan"],
    ):
        rc, o = glimpse("train", *TINY[:2], *opt, "--out", os.path.join(d, "o.h5"))
        expect_refusal("holes", " ".join(opt), rc, o, pattern=opt[0])
        if os.path.exists(os.path.join(d, "o.h5")):
            T.add("holes", "silent", f"{opt} left a run file")
            os.remove(os.path.join(d, "o.h5"))
    # a run file declaring a huge series: refused by summarize, verify and the Python reader, naming it
    huge = os.path.join(d, "huge.h5")
    copy(base, huge)
    code = f"""
import h5py, glimpse.runs as r
with h5py.File({huge!r}, 'r+') as f:
    for g in ('train', 'eval'):
        for ds in f[g].values():
            ds.resize((2**40,))
r.reseal({huge!r})
"""
    run([PY, "-c", code])
    for what, args in (
        ("summarize", [GLIMPSE, "summarize", huge]),
        ("verify", [GLIMPSE, "verify", huge]),
        ("Python", [PY, "-c", f"import glimpse.runs as r; r.load_run({huge!r})"]),
    ):
        rc, o = run(args, timeout=60)
        expect_refusal("holes", f"{what} of a file declaring 2**40 values", rc, o, pattern="huge.h5")
    # eval against other data: the same shapes, one label changed
    other = os.path.join(d, "other_data")
    shutil.copytree(os.path.join(ROOT, "data", "mnist"), other)
    labels = os.path.join(other, "t10k-labels-idx1-ubyte")
    raw = bytearray(open(labels, "rb").read())
    raw[8] = (raw[8] + 1) % 10
    open(labels, "wb").write(bytes(raw))
    rc, o = glimpse("eval", "--run", base, "--data-dir", other, "--no-record")
    expect_refusal("holes", "eval against another data folder", rc, o, pattern="fingerprint")
    rc, o = glimpse("eval", "--run", d, "--no-record")
    expect_refusal("holes", "a folder given as a run", rc, o, pattern=re.escape(d))
    rc, o = glimpse("summarize", d)
    expect_refusal("holes", "a folder given to summarize", rc, o, pattern=re.escape(d))


def is_root_with_mounts(tmp):
    if os.geteuid() != 0:
        return "not root"
    probe = os.path.join(tmp, "probe")
    os.makedirs(probe)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], capture_output=True, text=True)
    if p.returncode != 0:
        return "cannot mount a tmpfs: " + p.stderr.strip()
    subprocess.run(["umount", probe])
    return None


def check_doc(path, table):
    text = open(path).read()
    m = re.search(r"<!-- trials:begin -->\n(.*?)\n<!-- trials:end -->", text, re.S)
    if not m:
        return f"{path}: no table between <!-- trials:begin --> and <!-- trials:end -->"
    return None if m.group(1).strip() == table.strip() else f"{path}: the trials table differs from the count:\n{table}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", nargs="?", default=".")
    ap.add_argument("--check-doc", help="fail when the table between the trials markers of this file differs")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every trial and its outcome")
    a = ap.parse_args()
    T.verbose = a.verbose
    if not os.path.exists(GLIMPSE):
        sys.exit(f"trials: {GLIMPSE} is missing: build first (scripts/setup)")
    if not os.path.exists(os.path.join(ROOT, "data", "mnist", "t10k-labels-idx1-ubyte")):
        sys.exit("trials: data/mnist is missing: scripts/setup fetches it")
    tmp = tempfile.mkdtemp(prefix="glimpse_trials_")
    try:
        why_not = is_root_with_mounts(tmp)
        if why_not:
            print(f"SKIPPED: the full-disk and read-only trials need root and a tmpfs ({why_not})")
            return 77
        base = base_run(tmp)
        trials_slim(tmp, base)
        trials_concurrent(tmp, base)
        trials_disk(tmp, base)
        trials_diverge(tmp)
        trials_record(tmp, base, True)
        trials_links(tmp, base)
        trials_python(tmp)
        trials_holes(tmp, base)
    finally:
        subprocess.run(["umount", "-R", "-q", tmp], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    table = T.table()
    print(table)
    for n in T.notes:
        print("NOT OK:", n)
    problem = (
        check_doc(
            os.path.join(ROOT, a.check_doc) if a.check_doc and not os.path.isabs(a.check_doc) else a.check_doc, table
        )
        if a.check_doc
        else None
    )
    if problem:
        print(problem)
    return 1 if T.notes or problem else 0


if __name__ == "__main__":
    sys.exit(main())
