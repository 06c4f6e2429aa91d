// Size arithmetic: byte counts, strides and offsets are 64-bit everywhere.
//  - Views just below and above 2^31 and 2^32 elements validate and plan (without allocating them)
//    to the same plan a small image gets, and their packed byte counts are exact.
//  - Byte offsets beyond 2^31 and 2^32 work in every CPU algorithm: views whose strides put pixels
//    gigabytes apart (in a sparse mapping, so only the touched pages exist) blur exactly like packed ones.
//  - A request whose memory cannot exist is refused with OutOfMemory before anything is written; a
//    shape whose sizes overflow 64 bits is an InvalidArgument; nothing wraps.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/size.hpp"
#include "fastblur/fastblur.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

// Never dereferenced: these tests only validate and plan.
void* const kNoMemory = reinterpret_cast<void*>(std::uintptr_t{1} << 40);

struct Shape {
  std::int64_t w, h, d;
  int c;
  const char* what;
};

// Element counts (w*h*d*c) at 2^31 - 1, 2^31, 2^31 + 1, 2^32 - 1, 2^32, 2^32 + 1 as rows, images,
// volumes and interleaved channels.
const std::vector<Shape>& boundary_shapes() {
  static const std::vector<Shape> shapes = {
      {(1LL << 31) - 1, 1, 1, 1, "row of 2^31-1"},
      {1LL << 31, 1, 1, 1, "row of 2^31"},
      {715827883, 3, 1, 1, "image of 2^31+1"},
      {65537, 65535, 1, 1, "image of 2^32-1"},
      {65536, 65536, 1, 1, "image of 2^32"},
      {6700417, 641, 1, 1, "image of 2^32+1"},
      {1LL << 15, 1LL << 14, 1, 4, "RGBA image of 2^31 elements"},
      {(1LL << 15) + 1, 1LL << 14, 1, 4, "RGBA image just above 2^31 elements"},
      {1LL << 15, 1LL << 15, 1, 4, "RGBA image of 2^32 elements"},
      {2048, 1024, 1024, 1, "volume of 2^31"},
      {2049, 1024, 1024, 1, "volume just above 2^31"},
      {2048, 2048, 1024, 1, "volume of 2^32"},
      {2047, 2048, 1025, 1, "volume just below 2^32"},
      {1025, 1025, 1025, 4, "RGBA volume above 2^32 elements"},
  };
  return shapes;
}

unsigned __int128 exact_elements(const Shape& s) {
  return static_cast<unsigned __int128>(s.w) * static_cast<unsigned __int128>(s.h) *
         static_cast<unsigned __int128>(s.d) * static_cast<unsigned __int128>(s.c);
}

TEST(SizeArithmetic, PackedByteCountsAreExactAcrossTwoToThe31And32) {
  for (const Shape& s : boundary_shapes())
    for (ElementType t : test::all_types()) {
      const View v = View::packed(kNoMemory, t, s.w, s.h, s.d, s.c);
      const unsigned __int128 want = exact_elements(s) * element_size(t);
      EXPECT_EQ(static_cast<unsigned __int128>(core::packed_bytes(v, t, "test image")), want) << s.what;
      // Strides of a packed view: one pixel, one row, one plane, in bytes.
      EXPECT_EQ(static_cast<unsigned __int128>(v.stride[2]) * static_cast<unsigned __int128>(s.d),
                want) << s.what;
    }
  EXPECT_EQ(core::checked_product({1ULL << 32, 1ULL << 31, 2}), std::nullopt);  // 2^64
  EXPECT_EQ(core::checked_product({1ULL << 32, (1ULL << 31) - 1, 2}), ~0ULL - (1ULL << 33) + 1);  // 2^64 - 2^33
}

TEST(SizeArithmetic, ShapesAroundTwoToThe31And32ValidateAndPlanLikeSmallOnes) {
  for (const Shape& s : boundary_shapes()) {
    const View v = View::packed(kNoMemory, ElementType::f32, s.w, s.h, s.d, s.c);
    EXPECT_NO_THROW(validate_source(v)) << s.what;
    EXPECT_NO_THROW(validate_destination(v)) << s.what;
    const View small = View::packed(kNoMemory, ElementType::f32, std::min<std::int64_t>(s.w, 300),
                                    std::min<std::int64_t>(s.h, 300), std::min<std::int64_t>(s.d, 300), s.c);
    for (const AlgorithmInfo& info : algorithms()) {
      BlurSpec spec;
      spec.sigma = {3.0, s.h > 1 ? 2.0 : 0.0, s.d > 1 ? 1.5 : 0.0};
      spec.algorithm = info.id;
      if (info.id == Algorithm::automatic) spec.tolerance = 0.02;
      // Either both plans exist and agree, or the algorithm refuses both shapes the same clear way.
      std::string small_error, big_error;
      Plan small_plan, big_plan;
      try {
        small_plan = make_plan(spec, small);
      } catch (const InvalidArgument& e) {
        small_error = "InvalidArgument";
      } catch (const Unsupported& e) {
        small_error = "Unsupported";
      }
      try {
        big_plan = make_plan(spec, v);
      } catch (const InvalidArgument& e) {
        big_error = "InvalidArgument";
      } catch (const Unsupported& e) {
        big_error = "Unsupported";
      } catch (const OutOfMemory& e) {
        big_error = "OutOfMemory";
      }
      const std::string what = std::string(s.what) + ", " + std::string(info.name);
      EXPECT_EQ(big_error, small_error) << what;
      if (!big_error.empty()) continue;
      EXPECT_EQ(big_plan.spec.algorithm, small_plan.spec.algorithm) << what;
      EXPECT_NEAR(big_plan.predicted_max_error, small_plan.predicted_max_error,
                  1e-12 + 1e-9 * small_plan.predicted_max_error) << what;
      EXPECT_TRUE(std::isfinite(big_plan.predicted_cost) && big_plan.predicted_cost > 0.0) << what;
      for (int a = 0; a < 3; ++a) EXPECT_EQ(effective_radius(big_plan.spec, a), effective_radius(small_plan.spec, a)) << what;
    }
  }
}

TEST(SizeArithmetic, ShapesWhoseSizesOverflowAreInvalidArguments) {
  const std::int64_t big = std::int64_t{1} << 31;
  // Element counts of 2^62 and more, and byte spans beyond 64 bits, by extents or by strides.
  for (const View& v : {View::packed(kNoMemory, ElementType::f32, big, big, 1 << 1, 1),
                        View::packed(kNoMemory, ElementType::f64, big * big, 4, 1, 4),
                        View::packed(kNoMemory, ElementType::u8, std::numeric_limits<std::int64_t>::max(), 1, 1, 1)}) {
    EXPECT_THROW(validate_source(v), InvalidArgument);
    EXPECT_THROW(validate_destination(v), InvalidArgument);
    EXPECT_THROW(blur(v, v, BlurSpec::isotropic_2d(1.0)), InvalidArgument);
  }
  View strided = View::packed(kNoMemory, ElementType::f32, 3, 3, 1, 1);
  for (std::ptrdiff_t stride : {std::numeric_limits<std::ptrdiff_t>::min(), std::numeric_limits<std::ptrdiff_t>::max(),
                                std::numeric_limits<std::ptrdiff_t>::max() / 2}) {
    strided.stride[1] = stride;
    EXPECT_THROW(validate_source(strided), InvalidArgument) << stride;
  }
}

// Anonymous memory reserved but not committed: only the pages a blur touches ever exist.
class SparseMemory {
 public:
  explicit SparseMemory(std::size_t bytes) : bytes_(bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    base_ = p == MAP_FAILED ? nullptr : static_cast<std::byte*>(p);
  }
  ~SparseMemory() {
    if (base_) ::munmap(base_, bytes_);
  }
  SparseMemory(const SparseMemory&) = delete;
  SparseMemory& operator=(const SparseMemory&) = delete;
  std::byte* data() const { return base_; }

 private:
  std::size_t bytes_;
  std::byte* base_ = nullptr;
};

TEST(SizeArithmetic, OffsetsBeyondTwoToThe32BlurLikePackedViews) {
  // Pixels 2^30 + 4 bytes apart along x (4 pixels reach 2^32), rows 2^33 + 64 apart, planes
  // 2^35 + 512 apart; the destination is the same layout, flipped along y, in the same mapping.
  const std::int64_t W = 5, H = 4, D = 2;
  const std::ptrdiff_t sx = (std::ptrdiff_t{1} << 30) + 4, sy = (std::ptrdiff_t{1} << 33) + 64,
                       sz = (std::ptrdiff_t{1} << 35) + 512;
  const std::size_t span = static_cast<std::size_t>(sx * (W - 1) + sy * (H - 1) + sz * (D - 1) + 64);
  SparseMemory memory(2 * span);
  if (!memory.data()) GTEST_SKIP() << "cannot reserve " << 2 * span << " bytes of address space";
  auto rng = test::rng_for_test();
  for (ElementType type : {ElementType::f32, ElementType::u16}) {
    View src;
    src.data = memory.data();
    src.type = type;
    src.channels = 2;
    src.extent = {W, H, D};
    src.stride = {sx, sy, sz};
    View dst = src;
    dst.data = memory.data() + span + sy * (H - 1);
    dst.stride[1] = -sy;
    test::fill_random(src, rng);
    test::Buffer packed_src = test::make_buffer(type, W, H, D, 2);
    for (std::int64_t z = 0; z < D; ++z)
      for (std::int64_t y = 0; y < H; ++y)
        for (std::int64_t x = 0; x < W; ++x)
          std::memcpy(packed_src.view.pixel(x, y, z), src.pixel(x, y, z), 2 * element_size(type));
    for (const AlgorithmInfo& info : algorithms()) {
      BlurSpec spec;
      spec.algorithm = info.id;
      spec.threads = 2;
      // Planar algorithms take 2D images: the first plane of the volume.
      spec.sigma = info.planar ? std::array<double, 3>{2.5, 2.2, 0.0} : std::array<double, 3>{2.5, 2.2, 1.8};
      spec.border = {Border::mirror, Border::constant, Border::wrap};
      spec.cval = 3.0;
      if (info.id == Algorithm::automatic) spec.tolerance = 0.05;
      View in = packed_src.view, s = src, d = dst;
      if (info.planar) in.extent[2] = s.extent[2] = d.extent[2] = 1;
      test::Buffer want = test::make_buffer(type, W, H, in.depth(), 2);
      try {
        blur(in, want.view, spec);
      } catch (const Unsupported&) {
        continue;  // a GPU technique
      }
      blur(s, d, spec);
      for (std::int64_t z = 0; z < in.depth(); ++z)
        for (std::int64_t y = 0; y < H; ++y)
          for (std::int64_t x = 0; x < W; ++x)
            for (int c = 0; c < 2; ++c)
              ASSERT_EQ(test::get(d, x, y, z, c), test::get(want.view, x, y, z, c))
                  << info.name << " " << to_string(type) << " at " << x << "," << y << "," << z << "," << c;
    }
  }
}

TEST(SizeArithmetic, MemoryThatCannotExistIsOutOfMemoryBeforeAnythingIsWritten) {
  // 2^50 pixels: valid views (2^52 bytes as f32), whose intermediate images cannot be allocated
  // anywhere. The source is one float repeated (stride 0); the destination's memory does not exist,
  // so a blur that wrote to it before allocating would crash this test.
  // Two destinations: beyond the user address space (no overlap with the source), and over the
  // whole address space (overlapping the source, which the blur then wants to copy first).
  float one = 1.0f;
  View src;
  src.data = &one;
  src.type = ElementType::f32;
  src.extent = {1LL << 24, 1LL << 24, 4};
  src.stride = {0, 0, 0};
  ASSERT_NO_THROW(validate_source(src));
  EXPECT_THROW(core::allocate_bytes(std::size_t{1} << 52, "test"), OutOfMemory);
  for (void* where : {reinterpret_cast<void*>(std::uintptr_t{1} << 47), kNoMemory})
  for (const AlgorithmInfo& info : algorithms()) {
    const View dst = View::packed(where, ElementType::f32, 1LL << 24, 1LL << 24, 4, 1);
    ASSERT_NO_THROW(validate_destination(dst));
    EXPECT_THROW(core::packed_bytes(dst, ElementType::f64, "test"), OutOfMemory);
    BlurSpec spec;
    spec.algorithm = info.id;
    spec.sigma = info.planar ? std::array<double, 3>{2.0, 2.0, 0.0} : std::array<double, 3>{2.0, 2.0, 2.0};
    if (info.id == Algorithm::automatic) spec.tolerance = 0.05;
    View d = dst;
    if (info.planar) d.extent[2] = 1, src.extent[2] = 1;
    else src.extent[2] = 4;
    try {
      blur(src, d, spec);
      ADD_FAILURE() << info.name << ": a blur of 2^50 pixels claimed to succeed";
    } catch (const OutOfMemory& e) {
      EXPECT_NE(std::string(e.what()).find("bytes"), std::string::npos) << info.name << ": " << e.what();
    } catch (const Unsupported&) {
      // a GPU technique: refused before any size matters
    } catch (const Error& e) {
      ADD_FAILURE() << info.name << ": expected OutOfMemory, got " << e.what();
    }
  }
}

}  // namespace
}  // namespace fastblur
