#pragma once
// A destination's pages made present before threads write it. A fresh output (NumPy's np.empty, the
// SciPy drop-in's default) is mapped but not backed: first writes fault a page each, and faults
// taken by several threads at once cost far more than one thread's (measured in this VM: about 20 ms
// for an 18 MB float64 image on two threads, against 0.3-0.5 ms for MADV_POPULATE_WRITE). The kernel
// zeroes what it backs, so large ranges are asked for in parts, one a thread.
#include "fastblur/view.hpp"

namespace fastblur::core {

/// Where a view of at least 1 MiB that fills at least half its byte range has pages not yet present, asks the kernel to back its byte range
/// for writing (MADV_POPULATE_WRITE, Linux 5.14+), in parts on up to `threads` threads (0: OpenMP's
/// count). Does nothing elsewhere or on failure: it only saves time, it changes no value.
void populate_for_write(const View& v, int threads) noexcept;

}  // namespace fastblur::core
