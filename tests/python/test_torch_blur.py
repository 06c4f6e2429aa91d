"""fastblur.torch (python/fastblur/torch.py) and fastblur.gaussian_filter_batch: a sigma per sample in
one call, each sample as blurring it alone (SciPy's bits on the CPU); the blur's gradient the
adjoint of the forward blur for every border mode - torch.autograd.gradcheck in float64, the
backward against the transposed matrix of the forward, radii beyond the image, a sigma per sample.
Random data: the seed is printed (conftest.py)."""
import numpy as np
import pytest
import scipy.ndimage as ndi
import torch

import fastblur
import fastblur.torch as fbt
from fastblur._scipy_args import scipy_kernel, scipy_kernels

MODES = ["reflect", "mirror", "nearest", "wrap", "constant"]


def test_batched_scipy_kernels_have_each_kernels_bits(rng):
    for r in (0, 1, 3, 8, 17):
        sigmas = rng.uniform(0.05, 6.0, 40)
        for s, w in zip(sigmas, scipy_kernels(sigmas, r)):
            assert np.array_equal(w, scipy_kernel(float(s), 0, r)), (s, r)


@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.float32, np.float64])
def test_a_batch_gives_each_sample_scipys_bits(rng, dtype):
    x = (rng.random((6, 3, 33, 41)) * 200).astype(dtype)
    sigmas = rng.uniform(0.1, 3.0, 6)
    sigmas[2] = 0.0  # left alone, as SciPy leaves a sigma of 0
    for mode in MODES:
        got = fastblur.gaussian_filter_batch(x, sigmas, mode=mode, cval=1.5)
        want = np.stack([ndi.gaussian_filter(x[i], (0, s, s), mode=mode, cval=1.5) for i, s in enumerate(sigmas)])
        assert got.dtype == x.dtype and np.array_equal(got, want), mode


def test_a_batch_takes_channels_last_pairs_strides_and_outputs(rng):
    x = rng.random((5, 24, 30, 3)).astype(np.float32)
    pairs = rng.uniform(0.2, 2.5, (5, 2))
    want = np.stack([ndi.gaussian_filter(x[i], (p[0], p[1], 0), mode="wrap") for i, p in enumerate(pairs)])
    assert np.array_equal(fastblur.gaussian_filter_batch(x, pairs, axes=(1, 2), mode="wrap"), want)
    out = np.empty_like(x)
    assert fastblur.gaussian_filter_batch(x, pairs, axes=(1, 2), mode="wrap", output=out) is out
    assert np.array_equal(out, want)
    y = x.copy()
    fastblur.gaussian_filter_batch(y, pairs, axes=(1, 2), mode="wrap", output=y)  # in place
    assert np.array_equal(y, want)
    v = x[:, ::2]  # strided rows
    assert np.array_equal(fastblur.gaussian_filter_batch(v, pairs, axes=(1, 2)),
                          np.stack([ndi.gaussian_filter(v[i], (p[0], p[1], 0)) for i, p in enumerate(pairs)]))
    c_major = np.ascontiguousarray(x.transpose(3, 0, 1, 2)).transpose(1, 2, 3, 0)  # samples not one axis with channels
    assert np.array_equal(fastblur.gaussian_filter_batch(c_major, pairs, axes=(1, 2), mode="wrap"), want)
    one = fastblur.gaussian_filter_batch(x, 1.5, axes=(1, 2))  # a scalar: every sample alike
    assert np.array_equal(one, ndi.gaussian_filter(x, (0, 1.5, 1.5, 0)))


def test_a_batch_refuses_what_is_not_one(rng):
    x = rng.random((4, 10, 12)).astype(np.float32)
    with pytest.raises(ValueError, match="sigma for a batch of 4"):
        fastblur.gaussian_filter_batch(x, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="two axes after"):
        fastblur.gaussian_filter_batch(x, 1.0, axes=(0, 1))
    with pytest.raises(ValueError, match="at least 3"):
        fastblur.gaussian_filter_batch(x[0], 1.0)
    with pytest.raises(RuntimeError, match="boundary mode"):
        fastblur.gaussian_filter_batch(x, 1.0, mode="bogus")
    with pytest.raises(ValueError, match="finite"):
        fastblur.gaussian_filter_batch(x, [1.0, np.nan, 1.0, 1.0])


def test_torch_cpu_tensors_blur_as_gaussian_filter(rng):
    x = torch.from_numpy(rng.random((2, 3, 20, 26)))
    y = fbt.gaussian_blur(x, (1.5, 2.5), mode="mirror")
    assert isinstance(y, torch.Tensor) and y.dtype == x.dtype
    assert np.array_equal(y.numpy(), ndi.gaussian_filter(x.numpy(), (0, 0, 1.5, 2.5), mode="mirror"))
    per = torch.tensor([0.5, 2.0])
    y = fbt.GaussianBlur(per, mode="nearest")(x)
    assert np.array_equal(y.numpy(), np.stack([ndi.gaussian_filter(x[i].numpy(), (0, s, s), mode="nearest")
                                               for i, s in enumerate(per.tolist())]))


def dense_matrix(n, sigma, mode, truncate=4.0):
    """The forward blur of a length-n signal (as the last axis of a 1 x n image) as an n x n matrix."""
    rows = []
    for j in range(n):
        e = torch.zeros(1, 1, 1, n, dtype=torch.float64)
        e[..., j] = 1.0
        rows.append(fbt.gaussian_blur(e, (0.0, sigma), mode=mode, truncate=truncate)[0, 0, 0].numpy())
    return np.array(rows).T  # column j: the response to sample j


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n,sigma", [(9, 1.3), (3, 2.0), (1, 1.0), (14, 4.5)])  # radii 5, 8 (> n), 4, 18
def test_the_backward_is_the_transposed_forward(mode, n, sigma):
    a = dense_matrix(n, sigma, mode)
    g = torch.from_numpy(np.random.default_rng(n).random((1, 1, 1, n)))
    x = torch.zeros(1, 1, 1, n, dtype=torch.float64, requires_grad=True)
    fbt.gaussian_blur(x, (0.0, sigma), mode=mode).backward(g)
    assert np.allclose(x.grad[0, 0, 0].numpy(), a.T @ g[0, 0, 0].numpy(), rtol=0, atol=1e-13)


@pytest.mark.parametrize("mode", MODES)
def test_gradcheck_in_float64(mode, rng):
    x = torch.from_numpy(rng.random((2, 2, 7, 9))).requires_grad_(True)
    assert torch.autograd.gradcheck(lambda t: fbt.gaussian_blur(t, (1.2, 0.8), mode=mode), (x,), eps=1e-6, atol=1e-9)
    assert torch.autograd.gradcheck(lambda t: fbt.gaussian_blur(t, 2.5, mode=(mode, "wrap")), (x,), eps=1e-6, atol=1e-9)


@pytest.mark.parametrize("mode", MODES)
def test_gradcheck_with_a_sigma_per_sample(mode, rng):
    x = torch.from_numpy(rng.random((3, 2, 6, 8))).requires_grad_(True)
    sigmas = torch.tensor([[0.4, 1.7], [2.2, 0.0], [1.0, 3.1]], dtype=torch.float64)  # one axis left alone; r > n
    assert torch.autograd.gradcheck(lambda t: fbt.gaussian_blur(t, sigmas, mode=mode), (x,), eps=1e-6, atol=1e-9)


def test_torch_refusals_are_clear():
    with pytest.raises(TypeError, match="torch.Tensor"):
        fbt.gaussian_blur(np.zeros((4, 4)), 1.0)
    with pytest.raises(ValueError, match="per sample of a batch of 3"):
        fbt.gaussian_blur(torch.zeros(3, 4, 4), torch.ones(5))
    with pytest.raises(ValueError, match="pair"):
        fbt.gaussian_blur(torch.zeros(3, 4, 4), (1.0, 2.0, 3.0))
    with pytest.raises(RuntimeError, match="boundary mode"):
        fbt.gaussian_blur(torch.zeros(4, 4), 1.0, mode="bogus")
