#!/usr/bin/python3
"""Where a run reads, from the glimpses it logged of its first test images at an evaluation.

    scripts/draw_reads.py RUN.h5 [--evaluation E]     (E: index into /trajectories, default -1: last)

For every attention whose glimpses can be drawn (the retina's policies, DRAW, the spatial transformer,
pathwise, the Gumbel grid): per glimpse, the share of the images whose glimpse centre lies on the
digit's box, and whose finest scale overlaps it (the boxes rendered again by the run's task, seed and
data).
For DRAM (--agent dram) on a two-digit task: per glimpse, the digit it serves (glimpses 1..K the first
digit left to right, K+1..2K the second) and the share whose centre lies on that digit's box, whose
finest scale overlaps it, and whose centre lies on the other digit's box.
For DRAW also the mean and the spread over the images of its read (grid centre, span, filter width),
decoded as src/attention/draw_read.h does: the grid centre in units of half the canvas (0 = centre;
+-1 = an edge); the span, the distance covered by the N filter centres, N x delta, in pixels; sigma,
the filters' standard deviation in pixels. A spread of ~0 means the read does not depend on the image.
"""
import argparse
import os
import sys

import numpy as np

# Experiment names and the compiled part are this checkout's, whichever checkout Python's glimpse.pth names.
os.environ.setdefault("GLIMPSE_ROOT", os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from glimpse import geometry, runs  # noqa: E402  (runs.load_run checks the file's checksum)


def _logged(run, evaluation):
    """The glimpses the run logged at an evaluation: (config, its read parameters (images, T, P): the
    locations, or a differentiable read's parameters, its epoch, the canvas's H, W)."""
    tj = run["trajectories"]
    params = np.asarray(tj["locations" if "locations" in tj else "read_params"][evaluation])
    H, W = runs.trajectory_images(run).shape[-2:]
    return run["config"], params, int(tj["epoch"][evaluation]), H, W


def read_table(run, evaluation=-1):
    """DRAW's reads, per glimpse: (glimpse, the grid centre's x and y (mean, sd), the span (mean, sd),
    sigma (mean)), at the evaluation; and that evaluation's epoch."""
    if run["config"].get("attention") != "draw":
        raise ValueError(f"{run['path']}: --attention {run['config'].get('attention')}, not draw")
    config, rp, epoch, H, W = _logged(run, evaluation)  # rp (images, T, 5)
    N = int(config.get("patch"))
    d = geometry.decode_draw(rp, H, W, N)  # each (images, T)
    rows = []
    for t in range(rp.shape[1]):
        gx, gy, span = d["gx_t"][:, t], d["gy_t"][:, t], N * d["delta"][:, t]
        rows.append((t + 1, gx.mean(), gx.std(), gy.mean(), gy.std(), span.mean(), span.std(), d["sigma"][:, t].mean()))
    return epoch, rows


def _on(box, cx, cy):
    """Whether the centre (cx, cy) lies on box (x0, y0, x1, y1, x1 and y1 exclusive), in display
    coordinates, where pixel column j is centred at x = j: the box spans [x0 - 0.5, x1 - 0.5)."""
    x0, y0, x1, y1 = box
    return x0 - 0.5 <= cx < x1 - 0.5 and y0 - 0.5 <= cy < y1 - 0.5


def _overlaps(box, poly):
    """Whether the outline poly (its corners, display coordinates) overlaps box, as in _on."""
    x0, y0, x1, y1 = box
    px, py = poly[:, 0], poly[:, 1]
    return px.min() < x1 - 0.5 and x0 - 0.5 < px.max() and py.min() < y1 - 0.5 and y0 - 0.5 < py.max()


def cover_table(run, evaluation=-1):
    """Per glimpse: (glimpse, % of images whose centre lies on the digit's box, % whose finest scale
    overlaps the box), at the evaluation; and that evaluation's epoch."""
    config, params, epoch, H, W = _logged(run, evaluation)
    boxes = np.asarray(runs.trajectory_boxes(run))  # (images, 4): x0, y0, x1, y1 (exclusive)
    rows = []
    for t in range(params.shape[1]):
        on, sees = 0, 0
        for i in range(params.shape[0]):
            polys, (cx, cy) = geometry.outlines(config, params[i, t], H, W)
            on += _on(boxes[i], cx, cy)
            sees += _overlaps(boxes[i], polys[0])
        n = params.shape[0]
        rows.append((t + 1, 100 * on / n, 100 * sees / n))
    return epoch, rows


def object_table(run, evaluation=-1):
    """DRAM on two digits, per glimpse: (glimpse, the digit it serves (1, 2), % of images whose centre
    lies on that digit's box, % whose finest scale overlaps it, % whose centre lies on the other digit's
    box), at the evaluation; and that evaluation's epoch."""
    if run["config"].get("agent") != "dram":
        raise ValueError(f"{run['path']}: --agent {run['config'].get('agent')}, not dram")
    config, params, epoch, H, W = _logged(run, evaluation)  # params (images, T, 2)
    boxes = np.asarray(runs.trajectory_object_boxes(run))  # (images, 2, 4)
    K = int(config.get("glimpses"))
    rows = []
    for t in range(params.shape[1]):
        j = min(t // K, 1)
        own, sees, other = 0, 0, 0
        for i in range(params.shape[0]):
            polys, (cx, cy) = geometry.outlines(config, params[i, t], H, W)
            own += _on(boxes[i, j], cx, cy)
            sees += _overlaps(boxes[i, j], polys[0])
            other += _on(boxes[i, 1 - j], cx, cy)
        n = params.shape[0]
        rows.append((t + 1, j + 1, 100 * own / n, 100 * sees / n, 100 * other / n))
    return epoch, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("run")
    ap.add_argument("--evaluation", type=int, default=-1)
    a = ap.parse_args()
    try:
        run = runs.load_run(a.run)  # checks the file first
        config = run["config"]
        if config.get("agent") == "dram":  # the digit box of the one-digit table would be the first digit's
            epoch, objects, cover = *object_table(run, a.evaluation), []
        else:
            (epoch, cover), objects = cover_table(run, a.evaluation), []
        rows = read_table(run, a.evaluation)[1] if config.get("attention") == "draw" else []
    except (ValueError, OSError, KeyError, IndexError) as e:
        sys.exit(f"draw_reads.py: {a.run}: {e}")
    print(f"{a.run}: glimpses of the logged test images after epoch {epoch}")
    if cover:
        print("| glimpse | centre on the digit % | finest scale overlaps the digit % |")
        print("|---|---|---|")
    for t, on, sees in cover:
        print(f"| {t} | {on:.0f} | {sees:.0f} |")
    if objects:
        print("| glimpse | the digit it serves | centre on it % | finest scale overlaps it % | centre on the other % |")
        print("|---|---|---|---|---|")
    for t, j, own, sees, other in objects:
        print(f"| {t} | {j} | {own:.0f} | {sees:.0f} | {other:.0f} |")
    if rows:
        print("\n| glimpse | centre x (mean +- sd) | centre y | span px | sigma px |")
        print("|---|---|---|---|---|")
    for t, gx, sx, gy, sy, span, sspan, sigma in rows:
        print(f"| {t} | {gx:+.2f} +- {sx:.2f} | {gy:+.2f} +- {sy:.2f} | {span:.1f} +- {sspan:.1f} | {sigma:.1f} |")


if __name__ == "__main__":
    main()
