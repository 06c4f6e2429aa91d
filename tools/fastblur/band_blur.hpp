#pragma once
// Streaming: a file blurred in bands - of rows for an image, of slices for a volume - each read with
// a halo of the plan's support, so that memory follows one band, not the whole height or depth, and
// reading, blurring and writing of neighbouring bands overlap on threads. Each band is one piece of
// the whole call (tiling/pieces: a halo as wide as the support gives the whole call's result), so fir
// is bit-identical to blurring the whole at once, and the approximations differ only by rounding.
#include <array>
#include <cstdint>
#include <functional>
#include <string>

#include "fastblur/device.hpp"
#include "fastblur/missing_data.hpp"
#include "fastblur/plan.hpp"

namespace fastblur::cli {

/// The data as the bands see it: packed, `extent` (x, y, z) with `channels` interleaved (any number:
/// blurred in groups of 4), cut along `axis`, its outermost (y for images, z for volumes) - a slice
/// is everything at one index of it.
struct Banded {
  std::array<std::int64_t, 3> extent{1, 1, 1};
  int channels = 1;
  int axis = 1;
  ElementType in = ElementType::u8, out = ElementType::u8;
  /// Elements in one slice (all channels).
  std::int64_t slice_elements() const;
};

/// How the data is cut into bands.
struct Bands {
  std::int64_t slices = 0;   ///< interior slices per band (the last may be shorter); the length: one band
  std::int64_t halo = 0;     ///< slices read before and after a band (0 at the data's ends)
  std::string whole_reason;  ///< why the data is one band ("" when it is cut, or small enough)
};

/// The bands for `plan` (made for the shape of one band's window, or the whole). One band when the
/// data is small, or when the plan cannot be cut along the axis: a wrap border there (the start
/// needs the end), or a planar algorithm whose levels depend on the size (dual-kawase, mip-poisson).
/// `max_band` (0: chosen) caps the interior slices, for tests.
Bands choose_bands(const Plan& plan, const Banded& data, std::int64_t max_band = 0);

/// Reads slices [first, end) into `out` (packed, `Banded::in`); called in order, each slice once.
using ReadSlices = std::function<void(std::int64_t first, std::int64_t end, std::byte* out)>;
/// Writes slices [first, end) from `slices` (packed, `Banded::out`); called in order, each once.
using WriteSlices = std::function<void(std::int64_t first, std::int64_t end, const std::byte* slices)>;

/// Reads the data band by band, blurs each with `plan.spec` on `device`, and writes the interiors.
/// With `missing` (at most 4 channels), each band is a normalized convolution; its mask, if any, is
/// the whole data's (packed, the data's extents), viewed a band at a time.
void blur_in_bands(const ReadSlices& read, const WriteSlices& write, const Banded& data, const Plan& plan,
                   const Bands& bands, const Device& device, const MissingData& missing = {});

}  // namespace fastblur::cli
