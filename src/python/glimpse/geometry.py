"""Where a glimpse looks, from what a run file logs: the outline of every scale of a glimpse on the
canvas, decoded as the C++ sensors decode it (src/attention/retina.h, draw_read.h,
spatial_transformer.h, gumbel_grid.h). Used by scripts/plot.py (trajectories, animate) and
scripts/draw_reads.py.

Coordinates are display coordinates of imshow: pixel (row i, column j) is centred at (x, y) = (j, i).
`outlines(config, params, H, W)` takes one glimpse's logged parameters (the retina's location (2,),
DRAW's read (5,), the transformer's affine (6,) or scale-translation (3,), the Gumbel grid's cell
logits (N * N,)) and returns a list, one per scale (finest first), of closed polygons as arrays
(5, 2) of (x, y), and the glimpse's centre.
"""
import numpy as np


def _square(cx, cy, half):
    return np.array(
        [
            [cx - half, cy - half],
            [cx + half, cy - half],
            [cx + half, cy + half],
            [cx - half, cy + half],
            [cx - half, cy - half],
        ]
    )


def retina(loc, H, W, patch, scales, unit_pixels=0):
    """The retina at loc (x, y) in [-1, 1]: square patches of patch * 2^s pixels (retina.h: pixel
    (i, j) covers [j, j+1), the centre at W/2 + x * unit, unit = W/2 when unit_pixels is 0)."""
    ux, uy = (unit_pixels or W / 2), (unit_pixels or H / 2)
    cx, cy = W / 2 + loc[0] * ux - 0.5, H / 2 + loc[1] * uy - 0.5
    return [_square(cx, cy, patch * 2**s / 2) for s in range(scales)], (cx, cy)


def decode_draw(params, H, W, n):
    """DRAW's read parameters (..., 5) = (gx~, gy~, log sigma^2, log delta~, log gamma), clamped and
    decoded as draw_read.h does: a dict of arrays (...) gx_t, gy_t (the grid centre in units of half
    the canvas, 0 = centre), gx, gy (the centre in pixels), delta (the finest scale's stride, pixels)
    and sigma (the finest scale's filter standard deviation, pixels)."""
    p = np.asarray(params, dtype=np.float64)
    gx_t, gy_t = np.clip(p[..., 0], -3, 3), np.clip(p[..., 1], -3, 3)
    return {
        "gx_t": gx_t,
        "gy_t": gy_t,
        "gx": (W + 1) / 2 * (gx_t + 1),
        "gy": (H + 1) / 2 * (gy_t + 1),
        "delta": (max(H, W) - 1) / max(n - 1, 1) * np.exp(np.clip(p[..., 3], -8, 3)),
        "sigma": np.sqrt(np.clip(np.exp(p[..., 2]), 1e-4, (2 * max(H, W)) ** 2)),
    }


def draw(params, H, W, n, scales):
    """DRAW's read (decode_draw): the area its N filter centres span at each scale (stride delta 2^m),
    centred on (gx, gy)."""
    d = decode_draw(params, H, W, n)
    gx, gy, delta = float(d["gx"]), float(d["gy"]), float(d["delta"])
    # Filter centres gx + (i - N/2 - 0.5) delta, i = 1..N, centred on gx; each covers delta.
    return [_square(gx, gy, n * delta * 2**m / 2) for m in range(scales)], (gx, gy)


def stn(params, H, W, patch, scales):
    """The spatial transformer's sampling grid at each scale (A 2^m): the polygon through its corner
    samples widened by half a grid step, in pixels (normalised -1..1 spans pixel centres 0..W-1)."""
    if len(params) == 3:
        s, tx, ty = params
        A, t = np.array([[s, 0.0], [0.0, s]]), np.array([tx, ty])
    else:
        A, t = np.array([[params[0], params[1]], [params[3], params[4]]]), np.array([params[2], params[5]])
    e = 1 + 1 / max(patch - 1, 1)
    corners = np.array([[-e, -e], [e, -e], [e, e], [-e, e], [-e, -e]])
    scale_px = np.array([(W - 1) / 2, (H - 1) / 2])
    polys = [((corners @ (A * 2**m).T) + t + 1) * scale_px for m in range(scales)]
    centre = (t + 1) * scale_px
    return polys, (centre[0], centre[1])


def outlines(config, params, H, W):
    """The outlines of one glimpse of a run with this configuration (run["config"]), its logged
    parameters `params`; raises ValueError for an attention whose reads cannot be drawn from them."""
    attention = config.get("attention", "gaussian")
    patch, scales = int(config.get("patch", 8)), int(config.get("scales", 1))
    if attention == "draw":
        return draw(params, H, W, patch, scales)
    if attention == "stn":
        return stn(params, H, W, patch, scales)
    if attention == "pathwise":  # the retina at l = tanh(p) (pathwise_retina.h)
        return retina(
            np.tanh(np.asarray(params, dtype=np.float64)), H, W, patch, scales, float(config.get("unit-pixels", 0) or 0)
        )
    if attention == "gumbel":  # the retina at the centre of the cell with the largest logit (gumbel_grid.h)
        n = int(config.get("grid", 4))
        k = int(np.argmax(params))
        centre = (-1 + (2 * (k % n) + 1) / n, -1 + (2 * (k // n) + 1) / n)  # cell k = (row k / n, column k % n)
        return retina(centre, H, W, patch, scales, float(config.get("unit-pixels", 0) or 0))
    if attention == "whole":
        return [_square((W - 1) / 2, (H - 1) / 2, W / 2)], ((W - 1) / 2, (H - 1) / 2)
    if len(params) == 2:  # a location policy over the retina (gaussian, categorical, random, centre)
        return retina(params, H, W, patch, scales, float(config.get("unit-pixels", 0) or 0))
    raise ValueError(
        f"--attention {attention}: its logged read parameters (a query and a gate) do not say "
        "where it reads; its weights over the grid depend on the image's keys"
    )
