#pragma once
// Which kernels, types and cvals SciPy's sums can be certified for in float32 (cpu/scipy_int_certified.hpp).
#include <cstddef>
#include <vector>

#include "fastblur/view.hpp"

namespace fastblur::kernel {

/// Whether an 8-bit row holds a cval exactly: an integer 0 .. 255 (the GPU's 8-bit normalized images).
bool cval_fits_u8(double cval);

/// Whether source and destination types are SciPy's 8- or 16-bit integer ones whose sums the
/// certified rows make: the same type, int8, uint8, int16, uint16 or bool (SciPy's npy_bool is an
/// unsigned char: uint8's truncation).
bool certified_int_types(ElementType source, ElementType destination);

/// The values of a type certified_int_types takes (bool's are uint8's: SciPy reads its byte).
struct CertifiedIntRange {
  int lowest, highest;
};
CertifiedIntRange certified_int_range(ElementType type);

/// Whether a cval is one of `type`'s values (certified_int_types): the certified rows hold it as an
/// integer (SciPy's line buffer pads with the cval as given, a double).
bool cval_fits_certified_int(ElementType type, double cval);

inline constexpr int kCertifiedIntMaxRadius = 4096;

/// Whether the certified sums suit an image, from a sample of its rows: `exact` of `outputs` took
/// SciPy's double sums there. Each such output costs about 20 certified ones, so past a few percent
/// (16-bit noise over the whole range: neighbours thousands apart, a bound of about 0.05) the double
/// driver is faster (bench/RESULTS.md, issue 43, "int8, int16 and uint16 images' sums certified").
bool certified_int_share_suits(std::size_t exact, std::size_t outputs);

/// Whether correlation weights are symmetric about their centre (exactly: SciPy's pair form), of odd
/// length 3 .. 2 kCertifiedIntMaxRadius + 1, every weight positive - a sampled Gaussian's.
bool certified_int_possible(const std::vector<double>& weights);

}  // namespace fastblur::kernel
