"""What ``mask=`` may be, stated once for NumPy and CUDA arrays: bool or integer flags (nonzero =
missing) or float certainty weights, of the data's shape or broadcast to it."""
import numpy as np


def check_mask(dtype, shape, data_shape):
    """Raises TypeError for a mask of another kind, ValueError for one that does not broadcast to the
    data's shape (one line each)."""
    if np.dtype(dtype).kind not in "biuf":
        raise TypeError(f"mask must be a bool array (True = missing) or float weights in [0, 1], not {dtype}")
    try:
        broadcast = np.broadcast_shapes(tuple(shape), tuple(data_shape))
    except ValueError:
        broadcast = None
    if broadcast != tuple(data_shape):
        raise ValueError(f"the mask's shape {tuple(shape)} differs from the data's {tuple(data_shape)}")
