// Every CPU algorithm on a stack of images (a volume whose z axis is not blurred): each plane as the
// image it is, in place too - or, for the planar algorithms, one clear refusal. The fixed-point
// driver once wrote only the first plane (issue 31's fuzz finding); this holds every driver to it.
#include <gtest/gtest.h>

#include <cstring>

#include "support/test_support.hpp"

namespace fastblur {
namespace {

TEST(Stacks, EveryAlgorithmBlursEveryPlane) {
  auto rng = test::rng_for_test();
  for (const AlgorithmInfo& info : algorithms()) {
    if (info.id == Algorithm::automatic || !info.capabilities.cpu) continue;
    for (ElementType t : {ElementType::u8, ElementType::f32, ElementType::i16}) {
      BlurSpec spec = BlurSpec::isotropic_2d(3.0);
      spec.algorithm = info.id;
      auto src = test::make_buffer(t, 37, 23, 3, 2);
      test::fill_random(src.view, rng);
      auto out = test::make_buffer(t, 37, 23, 3, 2);
      if (info.planar) {
        EXPECT_THROW(blur(src.view, out.view, spec), InvalidArgument) << info.name;
        continue;
      }
      blur(src.view, out.view, spec);
      for (std::int64_t z = 0; z < 3; ++z) {
        View plane = src.view;
        plane.data = src.view.pixel(0, 0, z);
        plane.extent[2] = 1;
        auto alone = test::make_buffer(t, 37, 23, 1, 2);
        blur(plane, alone.view, spec);
        EXPECT_EQ(std::memcmp(alone.view.data, out.view.pixel(0, 0, z), alone.bytes.size()), 0)
            << info.name << " " << to_string(t) << " plane " << z;
      }
      auto in_place = src;
      in_place.view.data = in_place.bytes.data();
      blur(in_place.view, in_place.view, spec);
      EXPECT_EQ(in_place.bytes, out.bytes) << info.name << " " << to_string(t) << " in place";
    }
  }
}

}  // namespace
}  // namespace fastblur
