// core::gather_pixels / scatter_pixels against a byte-by-byte copy: every pixel size from 1 to 40
// bytes (the fixed-size ones and the rest), strides forward, backward and wider than a pixel.
#include <gtest/gtest.h>

#include <cstddef>
#include <random>
#include <vector>

#include "core/pixel_runs.hpp"
#include "support/test_support.hpp"

namespace fastblur::core {
namespace {

TEST(PixelRuns, GatherAndScatterCopyEveryPixelOfEverySizeAndStride) {
  std::mt19937_64 rng = test::rng_for_test();
  for (std::size_t pixel = 1; pixel <= 40; ++pixel)
    for (const std::ptrdiff_t gap : {0, 1, 5, 64}) {  // bytes between pixels beyond the pixel itself
      for (const int sign : {1, -1}) {
        const std::int64_t pixels = 1 + static_cast<std::int64_t>(rng() % 37);
        const std::ptrdiff_t stride = sign * (static_cast<std::ptrdiff_t>(pixel) + gap);
        const std::size_t span = static_cast<std::size_t>(pixels) * (pixel + static_cast<std::size_t>(gap));
        std::vector<std::byte> memory(span + pixel), packed(static_cast<std::size_t>(pixels) * pixel), back(memory.size());
        for (auto& b : memory) b = static_cast<std::byte>(rng());
        // The first pixel where a stride of that sign starts.
        const std::size_t first = sign > 0 ? 0 : span - (pixel + static_cast<std::size_t>(gap));
        gather_pixels(memory.data() + first, stride, pixel, pixels, packed.data());
        for (std::int64_t x = 0; x < pixels; ++x)
          for (std::size_t b = 0; b < pixel; ++b)
            ASSERT_EQ(packed[static_cast<std::size_t>(x) * pixel + b],
                      memory[static_cast<std::size_t>(static_cast<std::ptrdiff_t>(first) + x * stride) + b])
                << "pixel " << pixel << " stride " << stride << " x " << x;
        back = memory;
        for (auto& b : packed) b = static_cast<std::byte>(rng());
        scatter_pixels(packed.data(), pixel, pixels, back.data() + first, stride);
        std::vector<std::byte> want = memory;
        for (std::int64_t x = 0; x < pixels; ++x)
          for (std::size_t b = 0; b < pixel; ++b)
            want[static_cast<std::size_t>(static_cast<std::ptrdiff_t>(first) + x * stride) + b] =
                packed[static_cast<std::size_t>(x) * pixel + b];
        ASSERT_EQ(back, want) << "pixel " << pixel << " stride " << stride;  // the gaps untouched
      }
    }
}

}  // namespace
}  // namespace fastblur::core
