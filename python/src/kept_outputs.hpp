#pragma once
// New output arrays whose memory is kept when NumPy frees them, so that the next output of the same
// size is written into pages already backed. A fresh array of tens of megabytes costs the kernel a
// zeroing of every page on first write (37.7 MB: 2-3.5 ms here, a third of a k7 blur's call) and its
// unmapping when freed; a loop of calls (frames, tiles, a benchmark) pays that each time.
#include <pybind11/numpy.h>

#include <cstddef>
#include <vector>

namespace fastblur::python {

/// An uninitialised C-ordered array of `dtype` and `shape` (every element is to be written by the
/// caller). Of at least 1 MiB: memory of the same rounded size freed by an earlier such array, else
/// fresh pages; smaller ones are NumPy's own.
pybind11::array new_output(const pybind11::dtype& dtype, const std::vector<pybind11::ssize_t>& shape);

/// Bytes kept for reuse at most (default 512 MiB or a 16th of the memory, the less; FASTBLUR_KEPT_OUTPUT_MIB
/// when the module loads);
/// setting it returns the old value and frees what is over it. 0 keeps nothing.
std::size_t set_kept_output_limit(std::size_t bytes);

/// Bytes kept now, and how many blocks: for tests and for users who watch their memory.
std::size_t kept_output_bytes();
std::size_t kept_output_blocks();

}  // namespace fastblur::python
