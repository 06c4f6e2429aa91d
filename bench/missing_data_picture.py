#!/usr/bin/env python3
"""Draws docs/missing_data.png: a field with holes (NaN in blobs and scattered, as a satellite raster's
gaps), SciPy's plain Gaussian (each NaN spreads over its kernel) and fastblur's nan_policy='omit'
(the normalized convolution), side by side. NaN is drawn in grey.

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/missing_data_picture.py [OUT.png]
"""
import sys

import numpy as np
from PIL import Image, ImageDraw

import fastblur
import scipy.ndimage as nd


def colour(v, lo, hi):
    """A blue-to-yellow ramp (no matplotlib needed); NaN grey."""
    t = np.nan_to_num(np.clip((v - lo) / (hi - lo), 0, 1))
    stops = np.array([[48, 18, 59], [40, 120, 200], [30, 190, 150], [180, 220, 60], [250, 240, 40]], float)
    x = t * (len(stops) - 1)
    i = np.minimum(x.astype(int), len(stops) - 2)
    f = (x - i)[..., None]
    rgb = stops[i] * (1 - f) + stops[i + 1] * f
    rgb[np.isnan(v)] = (128, 128, 128)
    return rgb.astype(np.uint8)


def main(out):
    rng = np.random.default_rng(45)
    h, w = 240, 320
    y, x = np.mgrid[0:h, 0:w] / 40.0
    field = np.sin(x) * np.cos(0.7 * y) + 0.5 * np.sin(0.3 * x * y) + 0.3 * rng.standard_normal((h, w))
    holes = rng.random((h, w)) < 0.002  # scattered dropouts, and blobs
    for cy, cx, r in [(60, 80, 22), (170, 230, 30), (120, 150, 12), (200, 60, 18)]:
        holes |= (np.mgrid[0:h, 0:w][0] - cy) ** 2 + (np.mgrid[0:h, 0:w][1] - cx) ** 2 <= r * r
    data = np.where(holes, np.nan, field)
    sigma = 4.0
    panels = [("with holes", data), ("scipy.ndimage.gaussian_filter", nd.gaussian_filter(data, sigma)),
              ("fastblur nan_policy='omit'", fastblur.gaussian_filter(data, sigma, nan_policy="omit"))]
    lo, hi = np.nanpercentile(field, 1), np.nanpercentile(field, 99)
    gap, top = 8, 22
    canvas = Image.new("RGB", (3 * w + 2 * gap, h + top), (255, 255, 255))
    draw = ImageDraw.Draw(canvas)
    for k, (name, v) in enumerate(panels):
        canvas.paste(Image.fromarray(colour(v, lo, hi)), (k * (w + gap), top))
        draw.text((k * (w + gap) + 4, 5), f"{name}" + ("" if k == 0 else f", sigma {sigma:g}"), fill=(0, 0, 0))
    canvas.save(out)
    print(f"wrote {out}: {100 * holes.mean():.0f}% missing; NaN left: plain {np.isnan(panels[1][1]).mean():.0%}, "
          f"omit {np.isnan(panels[2][1]).mean():.1%}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/missing_data.png")
