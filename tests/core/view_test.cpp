#include <gtest/gtest.h>

#include <limits>

#include "core/overlap.hpp"
#include "fastblur/error.hpp"
#include "fastblur/view.hpp"

namespace fastblur {
namespace {

TEST(View, PackedLayout) {
  float data[4 * 3 * 2 * 3];
  const View v = View::packed(data, ElementType::f32, 4, 3, 2, 3);
  EXPECT_EQ(v.stride[0], 12);
  EXPECT_EQ(v.stride[1], 48);
  EXPECT_EQ(v.stride[2], 144);
  EXPECT_TRUE(v.is_packed());
  EXPECT_NO_THROW(validate_destination(v));
}

TEST(View, RejectsOverlappingDestinationAndOverflow) {
  float data[64];
  View v = View::packed(data, ElementType::f32, 4, 4, 1, 4);
  v.stride[1] = 8;  // rows of 64 bytes squeezed into 8
  EXPECT_THROW(validate_destination(v), InvalidArgument);
  EXPECT_NO_THROW(validate_source(v));  // reading overlapping pixels is harmless
  View huge = View::packed(data, ElementType::f32, std::numeric_limits<std::int64_t>::max() / 2, 4, 1, 1);
  EXPECT_THROW(validate_source(huge), InvalidArgument);
  View big = View::packed(data, ElementType::f32, 1LL << 40, 1LL << 20, 1LL << 10, 1);
  EXPECT_THROW(validate_source(big), InvalidArgument);
}

TEST(View, OverlapAndSameLayout) {
  float data[100];
  const View a = View::packed(data, ElementType::f32, 10, 5, 1, 1);
  View b = a;
  EXPECT_TRUE(core::same_layout(a, b));
  b.data = data + 50;
  b.extent[1] = 5;
  EXPECT_FALSE(core::views_overlap(View::packed(data, ElementType::f32, 10, 5), b));
  b.data = data + 49;
  EXPECT_TRUE(core::views_overlap(View::packed(data, ElementType::f32, 10, 5), b));
}

}  // namespace
}  // namespace fastblur
