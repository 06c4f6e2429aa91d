#!/usr/bin/env python3
"""Downsampling chain (seed 002): what its prefilter costs in accuracy.

Per axis: the line reduced by a factor f onto low-resolution samples at block centres, blurred there
with a Gaussian of sigma_low (in low-resolution samples), interpolated linearly back. The reduction
is either the block average (fastblur's downsample today) or the tent splat, the transpose of the
linear interpolation (each sample shared between its two nearest centres by distance; [1,3,3,1]/8 at
f = 2). Prints the worst phase's max error of the 2D impulse response (separable: the product of two
1D responses), relative to the Gaussian's peak, with sigma_low chosen to minimise it.
    /usr/bin/python3 bench/downsample_prefilter_error.py
"""
import numpy as np


def gauss(x, s):
    return np.exp(-x ** 2 / (2 * s * s)) / (np.sqrt(2 * np.pi) * s)


def response(sigma, f, phase, prefilter, sigma_low):
    """The 1D response to an impulse at phase `phase` of its block, and the Gaussian, on offsets."""
    half = int(8 * sigma) + 8 * f
    half -= half % f
    n = 2 * half
    p = half + phase
    centres = np.arange(n // f) * f + (f - 1) / 2
    if prefilter == "block":
        low = (np.arange(n // f) == p // f) / f
    else:
        low = np.maximum(0.0, 1.0 - np.abs(p - centres) / f) / f
    r = int(np.ceil(5 * sigma_low)) + 2
    k = gauss(np.arange(-r, r + 1), sigma_low)
    low = np.convolve(low, k / k.sum(), mode="same")
    x = np.arange(n)
    return np.interp(x, centres, low), gauss(x - p, sigma)


def error_2d(sigma, f, prefilter, sigma_low):
    responses = [response(sigma, f, ph, prefilter, sigma_low) for ph in range(f)]
    peak = gauss(0.0, sigma) ** 2
    worst = 0.0
    for ka, ga in responses:
        for kb, gb in responses:
            worst = max(worst, np.abs(np.outer(ka, kb) - np.outer(ga, gb)).max() / peak)
    return worst


def best(sigma, f, prefilter):
    lo, hi = 0.3 * sigma / f, 1.1 * sigma / f  # golden-section search on sigma_low
    g = (np.sqrt(5) - 1) / 2
    a, b = hi - g * (hi - lo), lo + g * (hi - lo)
    ea, eb = error_2d(sigma, f, prefilter, a), error_2d(sigma, f, prefilter, b)
    for _ in range(30):
        if ea < eb:
            hi, b, eb = b, a, ea
            a = hi - g * (hi - lo)
            ea = error_2d(sigma, f, prefilter, a)
        else:
            lo, a, ea = a, b, eb
            b = lo + g * (hi - lo)
            eb = error_2d(sigma, f, prefilter, b)
    return min((ea, a), (eb, b))


if __name__ == "__main__":
    sigmas = (3.0, 4.0, 5.8, 10.0, 20.0, 50.0)
    print("| prefilter | factor | " + " | ".join(f"sigma {s:g}" for s in sigmas) + " |")
    print("| --- | ---: | " + " | ".join("---:" for _ in sigmas) + " |")
    for prefilter in ("block", "tent"):
        for f in (2, 4, 8):
            cells = []
            for s in sigmas:
                e, _ = best(s, f, prefilter)
                cells.append(f"{e:.2g}")
            print(f"| {prefilter} | {f} | " + " | ".join(cells) + " |")
