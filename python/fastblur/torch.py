"""fastblur for PyTorch: the Gaussian blur of tensors (CPU or CUDA) as a function autograd
differentiates, and as an ``nn.Module``.

``gaussian_blur(x, sigma)`` blurs the last two axes of ``x`` (H and W of (..., H, W): NCHW batches,
CHW images) with fastblur's engine (``fastblur.gaussian_filter``: a CUDA tensor on its own GPU, a
CPU tensor in place of a NumPy array); ``sigma`` is a float, a tuple (sigma along H, along W), or
a tensor with one per sample of a batch - shape (N,) or (N, 2) - which runs as one call
(``fastblur.gaussian_filter_batch``), the random blur strength per image that augmentation
pipelines draw.

Its gradient is the adjoint of the blur, border included: the incoming gradient is padded with
zeros by the kernel's radius, correlated with the (symmetric) kernel, and what fell on the border
is folded back onto the samples the border extension copied it from - the transpose of the
extension, not the same blur again (that would be wrong at the edges for every mode but 'wrap').
``torch.autograd.gradcheck`` holds it to the finite differences of the forward blur in float64
(tests/python/test_torch_blur.py). The gradient flows to ``x`` only (not to sigma or cval).
"""
import numpy as np
import torch

from . import gaussian_filter, gaussian_filter_batch
from ._core import SIGMA_CUTOFF
from ._scipy_args import kernel_radius, mode_name

__all__ = ["gaussian_blur", "GaussianBlur"]


def _extension_index(j, n, mode):
    """The sample index the border mode extends index j (any integer) from, or -1 (cval) - SciPy's
    extensions: reflect (d c b a | a b c d | d c b a), mirror (d c b | a b c d | c b a), nearest, wrap,
    constant, repeated as far as the radius reaches."""
    if 0 <= j < n:
        return j
    if mode == "constant":
        return -1
    if mode == "nearest":
        return min(max(j, 0), n - 1)
    if mode == "wrap":
        return j % n
    if mode == "reflect":
        p = j % (2 * n)
        return p if p < n else 2 * n - 1 - p
    if n == 1:  # mirror of one sample
        return 0
    p = j % (2 * n - 2)
    return p if p < n else 2 * n - 2 - p


def _fold(b, axis, n, r, mode):
    """E^T along `axis` of a tensor of n + 2 r samples there: the interior, plus each border
    sample added onto the sample its extension copies."""
    out = b.narrow(axis, r, n).clone()
    for m in list(range(r)) + list(range(n + r, n + 2 * r)):
        i = _extension_index(m - r, n, mode)
        if i >= 0:
            out.select(axis, i).add_(b.select(axis, m))
    return out


def _pad_last_two(g, rh, rw):
    return torch.nn.functional.pad(g, (rw, rw, rh, rh))


class _GaussianBlur(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, sigmas, per_sample, modes, truncate, cval, algorithm, tolerance):
        ctx.setup = (sigmas, per_sample, modes, truncate, algorithm, tolerance, x.shape)
        return _blur(x.detach(), sigmas, per_sample, modes, truncate, cval, algorithm, tolerance)

    @staticmethod
    def backward(ctx, g):
        sigmas, per_sample, modes, truncate, algorithm, tolerance, shape = ctx.setup
        if not ctx.needs_input_grad[0]:
            return (None,) * 8
        h, w = shape[-2], shape[-1]
        s = np.asarray(sigmas, dtype=np.float64).reshape(-1, 2)
        rh = max(kernel_radius(v, truncate, None) if v > SIGMA_CUTOFF else 0 for v in s[:, 0])
        rw = max(kernel_radius(v, truncate, None) if v > SIGMA_CUTOFF else 0 for v in s[:, 1])
        # C^T g: the gradient zero-padded by the widest radius, correlated with each kernel.
        padded = _pad_last_two(g.contiguous(), rh, rw)
        b = _blur(padded, sigmas, per_sample, ("constant", "constant"), truncate, 0.0, algorithm, tolerance)
        # E^T: the border folded back, along H then W.
        b = _fold(b, b.dim() - 2, h, rh, modes[0])
        return _fold(b, b.dim() - 1, w, rw, modes[1]), None, None, None, None, None, None, None


def _blur(x, sigmas, per_sample, modes, truncate, cval, algorithm, tolerance):
    if per_sample:
        return gaussian_filter_batch(x, sigmas, axes=(-2, -1), mode=list(modes), cval=cval, truncate=truncate,
                                     algorithm=algorithm, tolerance=tolerance)
    lead = (0.0,) * (x.dim() - 2)
    return gaussian_filter(x, lead + tuple(sigmas), mode=list(("reflect",) * (x.dim() - 2) + tuple(modes)), cval=cval,
                           truncate=truncate, algorithm=algorithm, tolerance=tolerance)


def _sigmas(x, sigma):
    """(sigmas, per_sample): a float or a (H, W) tuple for the whole tensor; a tensor or array of
    shape (N,) or (N, 2), one per sample of a batch."""
    if isinstance(sigma, (tuple, list)):
        if len(sigma) != 2:
            raise ValueError("sigma: a float, a (sigma along H, along W) pair, or a tensor with one per sample")
        return (float(sigma[0]), float(sigma[1])), False
    s = sigma.detach().cpu().numpy() if isinstance(sigma, torch.Tensor) else np.asarray(sigma)
    s = np.asarray(s, dtype=np.float64)
    if s.ndim == 0:
        return (float(s), float(s)), False
    if x.dim() < 3:
        raise ValueError("a sigma per sample needs a batch: a tensor of at least 3 dimensions, samples along the first")
    n = x.shape[0]
    if s.shape == (n,):
        return np.repeat(s[:, None], 2, axis=1), True
    if s.shape == (n, 2):
        return s, True
    raise ValueError(f"sigma per sample of a batch of {n}: shape ({n},) or ({n}, 2), not {s.shape}")


def gaussian_blur(x, sigma, mode="reflect", truncate=4.0, *, cval=0.0, algorithm="auto", tolerance=0.0):
    """The Gaussian blur of a tensor's last two axes, differentiable (see the module's doc).

    x: a float tensor of at least 2 dimensions (..., H, W), on the CPU or a CUDA device. sigma: a
    float; a tuple (sigma along H, along W); or a tensor (or array) with one per sample of the first
    axis, shape (N,) or (N, 2). mode: SciPy's names ('reflect',
    'mirror' - PyTorch's 'reflect' padding -, 'nearest', 'wrap', 'constant'), one or a pair.
    truncate, cval, algorithm, tolerance: as ``fastblur.gaussian_filter``. Returns a new tensor of
    x's dtype and device."""
    if not isinstance(x, torch.Tensor):
        raise TypeError("gaussian_blur takes a torch.Tensor; NumPy arrays go to fastblur.gaussian_filter")
    if x.dim() < 2:
        raise ValueError("gaussian_blur blurs the last two axes: a tensor of at least 2 dimensions")
    sigmas, per_sample = _sigmas(x, sigma)
    modes = (mode, mode) if isinstance(mode, str) else tuple(mode)
    if len(modes) != 2:
        raise ValueError("mode: one name, or one for H and one for W")
    modes = tuple(mode_name(m) for m in modes)  # SciPy's names and synonyms, or RuntimeError as SciPy
    return _GaussianBlur.apply(x, sigmas, per_sample, modes, float(truncate), float(cval), algorithm, float(tolerance))


class GaussianBlur(torch.nn.Module):
    """``gaussian_blur`` as a module: ``GaussianBlur(sigma, mode='reflect', truncate=4.0)(x)``."""

    def __init__(self, sigma, mode="reflect", truncate=4.0, *, cval=0.0, algorithm="auto", tolerance=0.0):
        super().__init__()
        self.sigma, self.mode, self.truncate = sigma, mode, truncate
        self.cval, self.algorithm, self.tolerance = cval, algorithm, tolerance

    def forward(self, x):
        return gaussian_blur(x, self.sigma, self.mode, self.truncate, cval=self.cval, algorithm=self.algorithm,
                             tolerance=self.tolerance)

    def extra_repr(self):
        return f"sigma={self.sigma}, mode={self.mode!r}, truncate={self.truncate}"
