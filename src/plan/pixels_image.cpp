// Schedule::pixels_image's request: the plan's y and z moved to x and y, x's values to channels.
#include "plan/pixels_image.hpp"

namespace fastblur::planner {

std::optional<PixelsImage> pixels_image(const Plan& plan, const algo::Shape& shape) {
  const Schedule& s = plan.schedule;
  const std::int64_t values = shape.extent[0] * shape.channels;
  if (shape.backend != Backend::cpu || s.driver != CpuDriver::scipy_order || !s.x_across_rows || values > algo::kMostPixelValues)
    return std::nullopt;
  if (plan.spec.axis_order[2] != 0 || !(plan.axes[1].active || plan.axes[2].active)) return std::nullopt;
  // Old axis a is new axis moved[a]: y -> x, z -> y, x -> z (left unfiltered: its pass runs apart).
  constexpr int moved[3] = {2, 0, 1};
  PixelsImage image{plan.spec, shape};
  BlurSpec& spec = image.spec;
  for (int a = 1; a < 3; ++a) {
    const auto from = static_cast<std::size_t>(a), to = static_cast<std::size_t>(moved[a]);
    spec.sigma[to] = plan.spec.sigma[from];
    spec.border[to] = plan.spec.border[from];
    spec.radius[to] = plan.spec.radius[from];
    spec.order[to] = plan.spec.order[from];
    spec.weights[to] = plan.spec.weights[from];
  }
  spec.sigma[2] = 0.0, spec.radius[2] = std::nullopt, spec.order[2] = 0, spec.weights[2].clear();
  spec.border[2] = plan.spec.border[0];
  for (auto& a : spec.axis_order) a = moved[a];
  image.shape.extent = {shape.extent[1], shape.extent[2], 1};
  image.shape.channels = static_cast<int>(values);
  return image;
}

}  // namespace fastblur::planner
