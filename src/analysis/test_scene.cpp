// The bundled test scene: everything a blur can get wrong, in one generated image.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "fastblur/analysis.hpp"
#include "fastblur/error.hpp"

namespace fastblur::analysis {

View TestScene::view() {
  return View::packed(rgba.data(), ElementType::f32, width, height, 1, 4);
}

TestScene make_test_scene(std::int64_t width, std::int64_t height) {
  if (width < 16 || height < 16 || width > 65536 || height > 65536)
    throw InvalidArgument("test scene size " + std::to_string(width) + "x" + std::to_string(height) +
                          " is out of range: expected 16..65536 on each side");
  TestScene s{width, height, std::vector<float>(static_cast<std::size_t>(width * height * 4))};
  // Coordinates in a 512x512 design space, so the layout scales with the size.
  const double sx = 512.0 / static_cast<double>(width), sy = 512.0 / static_cast<double>(height);
  auto put = [&](std::int64_t x, std::int64_t y, float r, float g, float b) {
    float* p = &s.rgba[static_cast<std::size_t>((y * width + x) * 4)];
    p[0] = r; p[1] = g; p[2] = b; p[3] = 1.0f;
  };
  for (std::int64_t y = 0; y < height; ++y) {
    for (std::int64_t x = 0; x < width; ++x) {
      const double u = (static_cast<double>(x) + 0.5) * sx, v = (static_cast<double>(y) + 0.5) * sy;
      // Background: a soft diagonal gradient.
      float r = static_cast<float>(0.10 + 0.25 * u / 512.0), g = static_cast<float>(0.12 + 0.2 * v / 512.0), b = 0.2f;
      // Shapes with hard edges: a disc, a rectangle, a triangle.
      if (std::hypot(u - 140.0, v - 130.0) < 80.0) { r = 0.9f; g = 0.25f; b = 0.2f; }
      if (u > 280 && u < 470 && v > 60 && v < 150) { r = 0.2f; g = 0.8f; b = 0.3f; }
      if (v > 180 && v < 300 && std::abs(u - 375.0) < (v - 180.0) * 0.8) { r = 0.25f; g = 0.35f; b = 0.95f; }
      // Fine detail: a zone plate (every spatial frequency up to Nyquist) ...
      if (u >= 40 && u < 240 && v >= 300 && v < 500) {
        const double du = u - 140.0, dv = v - 400.0;
        const float z = static_cast<float>(0.5 + 0.5 * std::cos(std::numbers::pi * (du * du + dv * dv) / 200.0));
        r = g = b = z;
      }
      // ... and one-pixel lines at growing spacing.
      if (u >= 280 && u < 480 && v >= 330 && v < 400) {
        const std::int64_t k = x - static_cast<std::int64_t>(280.0 / sx);
        const bool on = (k % 2 == 0 && k < 40) || (k % 4 == 0 && k < 100) || (k % 8 == 0);
        r = g = b = on ? 1.0f : 0.0f;
      }
      put(x, y, r, g, b);
    }
  }
  // Seed 002's cross-section test: a 12x12 white block on black, whatever the scale.
  const std::int64_t bx = static_cast<std::int64_t>(380.0 / sx), by = static_cast<std::int64_t>(450.0 / sy);
  for (std::int64_t y = by - 24; y < by + 24; ++y)
    for (std::int64_t x = bx - 24; x < bx + 24; ++x)
      if (x >= 0 && y >= 0 && x < width && y < height) {
        const bool in = x >= bx - 6 && x < bx + 6 && y >= by - 6 && y < by + 6;
        put(x, y, in ? 1.0f : 0.0f, in ? 1.0f : 0.0f, in ? 1.0f : 0.0f);
      }
  // One HDR-bright spot (3x3 at 64): halos and ringing show here first.
  const std::int64_t hx = static_cast<std::int64_t>(470.0 / sx), hy = static_cast<std::int64_t>(240.0 / sy);
  for (std::int64_t y = hy - 1; y <= hy + 1; ++y)
    for (std::int64_t x = hx - 1; x <= hx + 1; ++x) put(x, y, 64.0f, 60.0f, 48.0f);
  return s;
}

}  // namespace fastblur::analysis
