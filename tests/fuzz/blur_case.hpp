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
#include <vector>

namespace fastblur::fuzz {

/// Values that stress validation and arithmetic: zero, denormals, the 1e-15 cut-off, huge, non-finite.
inline constexpr double kSpecialDoubles[] = {
    0.0, -0.0, 5e-324, 1e-300, 1e-15, 2e-15, 1e-6, 0.25, 0.5, 1.0, 1e4, 1e6, 1e9, 1e300,
    std::numeric_limits<double>::max(), std::numeric_limits<double>::infinity(),
    -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(), -1.0, -1e-300};
inline constexpr std::int32_t kSpecialInts[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 16, 255, 256, 4096, 4097, 1 << 24,
                                                (1 << 24) + 1, -1, -2, std::numeric_limits<std::int32_t>::max(),
                                                std::numeric_limits<std::int32_t>::min()};

/// Algorithms decode by their place in the registry (algorithm_list.def, which only grows: a new
/// algorithm is appended). Inputs of the first format (the stored corpus and regressions, made while
/// the registry held auto and eleven algorithms) take the algorithm byte modulo kV1Algorithms, so
/// they keep their meaning as algorithms are added. Inputs that start with kV2Magic take the byte as
/// the index itself (beyond the registry: auto), reaching every algorithm, and after the first
/// format's fields read every parameter that is not one of kV1Keys, in the registry's order, each
/// by its kind (v2_parameter).
inline constexpr std::size_t kV1Algorithms = 12;
inline constexpr std::uint8_t kV2Magic[4] = {'F', 'B', 'v', '2'};
inline constexpr std::string_view kV1Keys[] = {"box_passes",         "box_integer_widths", "kawase_offsets",
                                               "kawase_passes",      "downsample_factor",  "iir_variant",
                                               "sliding_dct_order",  "dual_kawase_levels", "dual_kawase_offset",
                                               "mip_poisson_samples", "mip_poisson_frame"};
inline bool is_v1_key(std::string_view key) {
  for (std::string_view k : kV1Keys)
    if (k == key) return true;
  return false;
}
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
///  u8 algorithm (index % algorithm count, registry order), number tolerance (scale 0.5),
///  integer box passes (8), u8 integer widths, u8 kawase offset count (v % 9) + that many numbers
///  (scale 12), integer kawase passes (12), integer downsample factor (6), u8 iir variant (v % 3,
///  2 invalid), integer sliding-dct order (10), integer dual-kawase levels (18), number dual-kawase
///  offset (scale 4), integer mip-poisson samples (264), integer frame (1000), 3 x u8 derivative
///  order (v % 4; 255 gives 65, invalid), u8 threads (v % 3),
///  then the pixel bytes of the source, repeated to fill it.
inline constexpr int kBlurCaseFormatVersion = 1;

}  // namespace fastblur::fuzz
