#!/usr/bin/python3
"""Where a DRAW run reads: per glimpse, the mean and the spread over the logged test images of its
read (grid centre, span, filter width), decoded as src/attention/draw_read.h does.

    scripts/draw_reads.py RUN.h5 [--evaluation E]     (E: index into /trajectories, default -1: last)

The grid centre is in units of half the canvas (0 = centre; +-1 = an edge); the span is the
distance covered by the N filter centres, N x delta, in pixels; sigma is the filters' standard
deviation in pixels. A spread of ~0 over the images means the read does not depend on the image.
"""
import argparse
import os
import sys

# Experiment names and the compiled part are this checkout's, whichever checkout Python's glimpse.pth names.
os.environ.setdefault("GLIMPSE_ROOT", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from glimpse import geometry, runs  # noqa: E402  (runs.load_run checks the file's checksum)


def read_table(path, evaluation=-1):
    run = runs.load_run(path)  # checks the file first
    config, tj = run["config"], run["trajectories"]
    if config.get("attention") != "draw":
        raise ValueError(f"{path}: --attention {config.get('attention')}, not draw")
    rp = tj["read_params"][evaluation]  # (images, T, 5)
    epoch = int(tj["epoch"][evaluation])
    H, W = runs.trajectory_images(run).shape[-2:]
    N = int(config.get("patch"))
    d = geometry.decode_draw(rp, H, W, N)  # each (images, T)
    rows = []
    for t in range(rp.shape[1]):
        gx, gy, span = d["gx_t"][:, t], d["gy_t"][:, t], N * d["delta"][:, t]
        rows.append((t + 1, gx.mean(), gx.std(), gy.mean(), gy.std(), span.mean(), span.std(), d["sigma"][:, t].mean()))
    return epoch, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run")
    ap.add_argument("--evaluation", type=int, default=-1)
    a = ap.parse_args()
    try:
        epoch, rows = read_table(a.run, a.evaluation)
    except (ValueError, OSError, KeyError, IndexError) as e:
        sys.exit(f"draw_reads.py: {a.run}: {e}")
    print(f"{a.run}: reads of the logged test images after epoch {epoch}")
    print("| glimpse | centre x (mean +- sd) | centre y | span px | sigma px |")
    print("|---|---|---|---|---|")
    for t, gx, sx, gy, sy, span, sspan, sigma in rows:
        print(f"| {t} | {gx:+.2f} +- {sx:.2f} | {gy:+.2f} +- {sy:.2f} | {span:.1f} +- {sspan:.1f} | {sigma:.1f} |")


if __name__ == "__main__":
    main()
