// The public entry point on the CPU: the front door (views), the plan (cached), the executor.
#include <cmath>
#include <string>

#include "cpu/execute.hpp"
#include "fastblur/blur.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"
#include "fastblur/plan.hpp"
#include "front_door.hpp"
#include "plan/planner.hpp"

namespace fastblur {

std::string_view to_string(Rounding rounding) noexcept {
  return rounding == Rounding::scipy ? "scipy" : "nearest";
}

Rounding parse_rounding(std::string_view name) {
  if (name == "nearest") return Rounding::nearest;
  if (name == "scipy") return Rounding::scipy;
  throw InvalidArgument("unknown rounding '" + std::string(name) + "': expected nearest or scipy");
}

bool has_derivative(const BlurSpec& spec) {
  for (std::size_t a = 0; a < 3; ++a) {
    if (spec.order[a] < 0 || spec.order[a] > 64)
      throw InvalidArgument("derivative order along " + std::string(1, "xyz"[a]) + " is " +
                            std::to_string(spec.order[a]) + ": expected 0 to 64");
    if (spec.order[a] != 0 && spec.sigma[a] > kSigmaCutoff) return true;
  }
  return false;
}

int effective_radius(const BlurSpec& spec, int axis) {
  const double sigma = spec.sigma[static_cast<std::size_t>(axis)];
  const char* names[] = {"x", "y", "z"};
  if (!std::isfinite(sigma) || sigma < 0.0)
    throw InvalidArgument(std::string("sigma along ") + names[axis] + " is " + std::to_string(sigma) +
                          ": expected a finite value >= 0");
  if (!std::isfinite(spec.truncate) || spec.truncate < 0.0)
    throw InvalidArgument("truncate is " + std::to_string(spec.truncate) + ": expected a finite value >= 0");
  const auto& r = spec.radius[static_cast<std::size_t>(axis)];
  if (r && (*r < 0 || *r > kMaxRadius))
    throw InvalidArgument(std::string("radius along ") + names[axis] + " is " + std::to_string(*r) +
                          ": expected 0.." + std::to_string(kMaxRadius));
  if (sigma <= kSigmaCutoff) return 0;  // scipy leaves such an axis alone
  return r ? *r : kernel::radius_from_truncate(sigma, spec.truncate);
}

void blur(const View& src, const View& dst, const BlurSpec& spec) {
  front_door::check_views(src, dst);
  const Plan plan = planner::plan_for(spec, planner::shape_of(src, dst, Backend::cpu), planner::Prediction::to_run);
  front_door::record_run(plan);
  front_door::with_separate_source(src, dst, [&](const View& source) { cpu::execute(plan, source, dst); });
}

void blur(const View& src, const View& dst, const Plan& plan) {
  front_door::check_views(src, dst);
  planner::check_plan_fits(plan, src, dst);
  if (plan.schedule.backend != Backend::cpu)
    throw Unsupported("this plan is for the Vulkan backend: run it with blur(src, dst, plan, device)");
  front_door::record_run(plan);
  front_door::with_separate_source(src, dst, [&](const View& source) { cpu::execute(plan, source, dst); });
}

}  // namespace fastblur
