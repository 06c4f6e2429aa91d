#pragma once
// Data with holes: the normalized convolution out = G*(x w) / G*w, with the weights w from NaNs, a
// mask, or an alpha channel (the premultiplied-alpha blur). The weights travel as one more channel
// of a float image through one blur of the request's own plan (any algorithm, the CPU or a Vulkan
// device), then the weighted sums are divided back.
#include <limits>

#include "fastblur/blur.hpp"
#include "fastblur/device.hpp"
#include "fastblur/view.hpp"

namespace fastblur {

/// Where a request's weights come from; several may combine (their product).
struct MissingData {
  /// NaN samples are missing (float data only; integer data has none to omit).
  bool omit_nan = false;
  /// The last channel is alpha: the colour channels are weighted by it and divided back, alpha
  /// itself blurred plainly (integers' alpha scaled by their maximum; float alpha taken as given,
  /// in [0, 1]). Needs 2 channels or more.
  bool alpha = false;
  /// Optional: the same extents and channels as the source (or one channel, for every channel).
  /// bool / uint8: nonzero = missing (numpy.ma's convention); float32 / float64: certainty weights in [0, 1].
  View mask{};
  /// Float outputs: NaN where the source had NaN (astropy's preserve_nan).
  bool preserve_nan = false;
  /// The output where no valid sample lies under the kernel: NaN for float outputs, `cval`
  /// (converted) for integer ones, unless set.
  double empty_value = std::numeric_limits<double>::quiet_NaN();

  bool any() const noexcept { return omit_nan || alpha || mask.data != nullptr; }
};

/// An alpha blur's weight is alpha over this: integers' maximum (u8 255, u16 65535, ...), 1 for
/// float types (alpha in [0, 1]).
double alpha_scale(ElementType type) noexcept;

/// Blurs `src` into `dst` as normalized convolution (see above) with `spec`'s blur (its algorithm,
/// tolerance, sigmas, borders; always rounded to nearest: SciPy's bits are not defined for it).
/// Borders: reflect, mirror, nearest and wrap extend data and weights alike; constant extends with
/// `cval` present (weight 1), or missing where `cval` is NaN. Work is in float64 where the source or
/// destination is float64 or a constant border's cval is present, else float32 (a pixel whose weight under the kernel is below 4 float
/// epsilons of the kernel's is empty there). Throws InvalidArgument, one line, nothing written: a mask
/// of another shape or type, weights outside [0, 1] or NaN, omit_nan on integer data without a mask,
/// alpha on one channel; what blur throws. With no weights requested, the plain blur.
void blur(const View& src, const View& dst, const BlurSpec& spec, const MissingData& missing);
void blur(const View& src, const View& dst, const BlurSpec& spec, const MissingData& missing, const Device& device);

}  // namespace fastblur
