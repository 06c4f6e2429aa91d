// Border index arithmetic against scipy.ndimage's documented extensions.
#include <gtest/gtest.h>

#include "core/border.hpp"
#include "fastblur/error.hpp"

namespace fastblur::core {
namespace {

// Extends "abcd" (indices 0..3) from -6 to 9 and compares with scipy's pictures.
std::string extend(Border b) {
  std::string s;
  for (int i = -6; i < 10; ++i) {
    const auto m = border_index(i, 4, b);
    s += m < 0 ? 'k' : static_cast<char>('a' + m);
  }
  return s;
}

TEST(Border, MatchesScipyDefinitions) {
  EXPECT_EQ(extend(Border::reflect), "cddcbaabcddcbaab");  // d c b a | a b c d | d c b a (numpy symmetric)
  EXPECT_EQ(extend(Border::mirror), "abcdcbabcdcbabcd");   // d c b | a b c d | c b a (numpy reflect)
  EXPECT_EQ(extend(Border::nearest), "aaaaaaabcddddddd");
  EXPECT_EQ(extend(Border::wrap), "cdabcdabcdabcdab");
  EXPECT_EQ(extend(Border::constant), "kkkkkkabcdkkkkkk");
}

TEST(Border, SingleSampleLines) {
  for (Border b : {Border::reflect, Border::mirror, Border::nearest, Border::wrap})
    for (int i = -50; i < 50; ++i) EXPECT_EQ(border_index(i, 1, b), 0);
  EXPECT_EQ(border_index(-1, 1, Border::constant), -1);
}

TEST(Border, FarOutsideStaysInRange) {
  for (Border b : {Border::reflect, Border::mirror, Border::nearest, Border::wrap})
    for (std::int64_t n : {1, 2, 3, 7})
      for (std::int64_t i : {-1000003LL, -99LL, 57LL, 1000000007LL}) {
        const auto m = border_index(i, n, b);
        EXPECT_GE(m, 0);
        EXPECT_LT(m, n);
      }
  EXPECT_EQ(border_index(1000000007LL, 7, Border::wrap), 1000000007LL % 7);
}

TEST(Border, ParsesNamesAndScipyAliases) {
  EXPECT_EQ(parse_border("wrap"), Border::wrap);
  EXPECT_EQ(parse_border("grid-mirror"), Border::reflect);
  EXPECT_THROW(parse_border("Reflect101"), InvalidArgument);
}

}  // namespace
}  // namespace fastblur::core
