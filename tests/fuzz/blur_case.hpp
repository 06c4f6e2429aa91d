#pragma once
// The input format of fuzz_blur: a byte string decoded field by field into views (types, shapes,
// strides, aliasing) and a BlurSpec, the remaining bytes being the pixels. Shared with the seed
// generator, which writes cases through BlurCaseWriter, so seeds and harness cannot drift apart.
//
// Numbers are not read as raw doubles (random bits would almost always be NaN or 1e300 and stop at
// the first validation); each has a selector byte that picks a realistic range or a special value.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "fastblur/algorithm.hpp"

namespace fastblur::fuzz {

/// Values that stress validation and arithmetic: zero, denormals, the 1e-15 cut-off, huge, non-finite.
inline constexpr double kSpecialDoubles[] = {
    0.0, -0.0, 5e-324, 1e-300, 1e-15, 2e-15, 1e-6, 0.25, 0.5, 1.0, 1e4, 1e6, 1e9, 1e300,
    std::numeric_limits<double>::max(), std::numeric_limits<double>::infinity(),
    -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(), -1.0, -1e-300};
inline constexpr std::int32_t kSpecialInts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 255, 256, 4096, 4097, 1 << 24,
                                                (1 << 24) + 1, -1, -2, std::numeric_limits<std::int32_t>::max(),
                                                std::numeric_limits<std::int32_t>::min()};

/// Algorithms and parameters decode by name, from lists frozen with each format, never by their
/// place in the registry: adding, moving or renaming an algorithm or a parameter cannot change what
/// a stored input means (a renamed one fails to decode, loudly). Inputs of the first format (the
/// stored regressions) take the algorithm byte modulo the size of kV1AlgorithmNames. Inputs that
/// start with kV2Magic take the byte as an index into kV2AlgorithmNames (beyond it: auto) and, after
/// the first format's fields, read the parameters kV2Keys names, in that order, each by its kind. A
/// new algorithm is reached by a new format (its magic, its lists), which the seeds then write.
inline constexpr std::string_view kV1AlgorithmNames[] = {
    "auto", "fir", "box", "kawase", "downsample", "fft", "iir", "sliding-dct", "fir-incremental", "fir-linear",
    "dual-kawase", "mip-poisson"};
inline constexpr std::size_t kV1Algorithms = std::size(kV1AlgorithmNames);
inline constexpr std::uint8_t kV2Magic[4] = {'F', 'B', 'v', '2'};
inline constexpr std::string_view kV2AlgorithmNames[] = {
    "auto", "fir", "box", "kawase", "downsample", "fft", "iir", "sliding-dct", "fir-incremental", "fir-linear",
    "dual-kawase", "mip-poisson", "correlate", "binomial"};
// The first format's list is the second's start: the seeds write one index for both.
static_assert([] {
  for (std::size_t i = 0; i < kV1Algorithms; ++i)
    if (kV1AlgorithmNames[i] != kV2AlgorithmNames[i]) return false;
  return true;
}());
inline constexpr std::string_view kV2Keys[] = {"downsample_low_truncate", "sliding_dct_fit", "correlate_weights",
                                               "binomial_order"};

/// The registry as the decoder sees it: algorithms by name, parameters by key. FASTBLUR_FUZZ_FAKE_REGISTRY=1
/// puts an algorithm and a parameter that do not exist first in both (check_corpus_meaning.sh replays
/// the stored inputs so): a decoder that went by the registry's order would decode them to other cases.
struct RegistryView {
  std::vector<std::pair<std::string, Algorithm>> algorithms;
  std::vector<ParameterInfo> parameters;

  static RegistryView of_library(bool with_fake) {
    RegistryView v;
    if (with_fake) {
      v.algorithms.emplace_back("fake-algorithm", static_cast<Algorithm>(250));
      ParameterInfo fake;
      fake.key = "fake_parameter", fake.flag = "fake", fake.kind = ParameterInfo::Kind::real_list, fake.max = 9.0;
      v.parameters.push_back(fake);
    }
    for (const AlgorithmInfo& a : fastblur::algorithms()) v.algorithms.emplace_back(std::string(a.name), a.id);
    for (const ParameterInfo& p : all_parameters()) v.parameters.push_back(p);
    return v;
  }
  Algorithm algorithm(std::string_view name) const {
    for (const auto& [n, id] : algorithms)
      if (n == name) return id;
    throw std::logic_error("fuzz_blur: the format names algorithm '" + std::string(name) + "', which the registry lacks");
  }
  const ParameterInfo& parameter(std::string_view key) const {
    for (const ParameterInfo& p : parameters)
      if (p.key == key) return p;
    throw std::logic_error("fuzz_blur: the format names parameter '" + std::string(key) + "', which the registry lacks");
  }
};
/// The scale of a v2 real parameter (and of each item of a list): a quarter beyond its range, at most 1e6.
inline double v2_scale(double max) { return std::min(std::abs(max), 1e6) * 1.25 + 1.0; }
/// The most items a v2 list parameter decodes to.
inline constexpr int kV2MaxList = 16;

/// Reads fields from the front of the data; past the end every field reads as zero.
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> data) : data_(data) {}
  std::uint8_t u8() { return pos_ < data_.size() ? data_[pos_++] : 0; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(u8() | (u8() << 8)); }
  std::uint32_t u32() { return u16() | (static_cast<std::uint32_t>(u16()) << 16); }
  double raw_double() {
    const std::uint64_t bits = u32() | (static_cast<std::uint64_t>(u32()) << 32);
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  /// Selector 0-199: a value in [0, scale) from 16 bits; 200-239: a special value; 240-255: raw bits.
  double number(double scale) {
    const std::uint8_t sel = u8();
    if (sel < 200) return u16() / 65536.0 * scale;
    if (sel < 240) return kSpecialDoubles[u8() % std::size(kSpecialDoubles)];
    return raw_double();
  }
  /// Selector 0-199: 0..range-1; 200-255: a special value.
  std::int32_t integer(std::int32_t range) {
    const std::uint8_t sel = u8();
    if (sel < 200) return static_cast<std::int32_t>(u16() % static_cast<std::uint32_t>(range));
    return kSpecialInts[u8() % std::size(kSpecialInts)];
  }
  std::span<const std::uint8_t> rest() const { return data_.subspan(std::min(pos_, data_.size())); }

 private:
  std::span<const std::uint8_t> data_;
  std::size_t pos_ = 0;
};

/// Writes what ByteReader reads (for the seed generator).
class BlurCaseWriter {
 public:
  BlurCaseWriter& u8(std::uint8_t v) {
    bytes.push_back(v);
    return *this;
  }
  BlurCaseWriter& u16(std::uint16_t v) { return u8(static_cast<std::uint8_t>(v)).u8(static_cast<std::uint8_t>(v >> 8)); }
  /// A number in [0, scale) (rounded to the 16-bit grid).
  BlurCaseWriter& number(double value, double scale) {
    return u8(0).u16(static_cast<std::uint16_t>(std::min(65535.0, std::max(0.0, value / scale * 65536.0))));
  }
  BlurCaseWriter& special(std::size_t index) { return u8(200).u8(static_cast<std::uint8_t>(index)); }
  BlurCaseWriter& integer(std::uint16_t v) { return u8(0).u16(v); }
  BlurCaseWriter& special_int(std::size_t index) { return u8(200).u8(static_cast<std::uint8_t>(index)); }
  std::vector<std::uint8_t> bytes;
};

/// The field order of a case (fuzz_blur.cpp decodes in exactly this order):
///  u8 src type, u8 dst type (index % 5 into u8 u16 f16 f32 f64),
///  u8 channels (1 + v % 4; 250-255 give 0 or 5..9, invalid),
///  u8 width, u8 height, u8 depth (1 + v % 24, 1 + v % 24, 1 + v % 6; 255 gives 0, invalid),
///  u8 src layout, u8 dst layout (bits: 0-1 padding bytes after each pixel, 2 padding after each row,
///     3-5 flip x/y/z (negative stride), 6 swap the x and y strides, 7 (src only) stride 0 on x),
///  u8 aliasing (v % 4: 0 separate buffers, 1 in place, 2 dst a shifted view of src's buffer, 3 separate),
///  number sigma x, y, z (scale 24), u8 truncate flag (odd: explicit) + number truncate (scale 8),
///  3 x u8 radius flag (odd: explicit) + integer radius (range 40),
///  3 x u8 border (v % 5), number cval (scale 512),
///  u8 algorithm (v1: index % 12 into kV1AlgorithmNames; v2: index into kV2AlgorithmNames), number
///  tolerance (scale 0.5),
///  integer box passes (8), u8 integer widths, u8 kawase offset count (v % 9) + that many numbers
///  (scale 12), integer kawase passes (12), integer downsample factor (6), u8 iir variant (v % 3,
///  2 invalid), integer sliding-dct order (10), integer dual-kawase levels (18), number dual-kawase
///  offset (scale 4), integer mip-poisson samples (264), integer frame (1000), 3 x u8 derivative
///  order (v % 4; 255 gives 65, invalid), u8 threads (v % 3),
///  v2 only: each parameter kV2Keys names, by its kind (integer, number, u8 flag, u8 choice, u8 count
///  + numbers),
///  then the pixel bytes of the source, repeated to fill it.
inline constexpr int kBlurCaseFormatVersion = 1;

}  // namespace fastblur::fuzz
