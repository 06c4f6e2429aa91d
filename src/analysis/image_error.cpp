#include <cmath>
#include <limits>

#include "core/element.hpp"
#include "fastblur/analysis.hpp"
#include "fastblur/error.hpp"

namespace fastblur::analysis {

ImageError compare(const View& result, const View& reference, double peak) {
  if (result.extent != reference.extent || result.channels != reference.channels)
    throw InvalidArgument("compare: the images differ in shape");
  if (!(peak > 0.0)) throw InvalidArgument("compare: peak must be > 0");
  ImageError e;
  double sum_abs = 0.0, sum_sq = 0.0;
  const std::size_t ea = element_size(result.type), eb = element_size(reference.type);
  for (std::int64_t z = 0; z < result.depth(); ++z)
    for (std::int64_t y = 0; y < result.height(); ++y)
      for (std::int64_t x = 0; x < result.width(); ++x)
        for (int c = 0; c < result.channels; ++c) {
          const double a = core::load_element(result.type, result.pixel(x, y, z) + c * ea);
          const double b = core::load_element(reference.type, reference.pixel(x, y, z) + c * eb);
          const double d = std::abs(a - b);
          e.max_abs = std::max(e.max_abs, d);
          sum_abs += d;
          sum_sq += d * d;
        }
  const double n = static_cast<double>(result.pixel_count()) * result.channels;
  e.mean_abs = sum_abs / n;
  e.psnr_db = sum_sq == 0.0 ? std::numeric_limits<double>::infinity() : 10.0 * std::log10(peak * peak / (sum_sq / n));
  return e;
}

}  // namespace fastblur::analysis
