// blur_slices (device.hpp): a stack of 2D slices, each blurred with its own spec - a batch with a
// sigma per sample - in one call. The plan is the planner's SlicedPlan; on the CPU the slices run on
// the threads, a slice per thread (each with its plan's arithmetic, so bit for bit what blurring it
// alone gives); on a Vulkan device each slice's plan runs as a host-view blur.
#include <exception>
#include <string>
#include <vector>

#include <omp.h>

#include "cpu/execute.hpp"
#include "device_access.hpp"
#include "fastblur/device.hpp"
#include "fastblur/error.hpp"
#include "front_door.hpp"
#include "plan/planner.hpp"

#ifdef FASTBLUR_HAVE_VULKAN
#include "vulkan/gpu_blur.hpp"
#include "vulkan/work.hpp"
#endif

namespace fastblur {
namespace {

View slice_of(const View& v, std::int64_t k) {
  View s = v;
  s.data = v.pixel(0, 0, k);
  s.extent[2] = 1;
  return s;
}

algo::Shape stack_shape(const View& src, ElementType destination, const Device& device) {
#ifdef FASTBLUR_HAVE_VULKAN
  if (!device.is_cpu())
    return vk::shape_on(*DeviceAccess::context(device), src.extent, src.channels, src.type, destination);
#else
  if (!device.is_cpu()) throw Unsupported("this build of fastblur has no Vulkan backend");
#endif
  return planner::shape_of(src, destination, Backend::cpu);
}

// Each slice on its own thread, as many threads as the first spec asks for (0: every core).
void run_on_cpu(const SlicedPlan& plan, const View& src, const View& dst, int threads) {
  const auto n = static_cast<std::int64_t>(plan.slices.size());
  std::exception_ptr failure;
#pragma omp parallel for schedule(dynamic) num_threads(threads > 0 ? threads : omp_get_max_threads())
  for (std::int64_t k = 0; k < n; ++k) {
    try {
      Plan p = plan.slices[static_cast<std::size_t>(k)];
      p.schedule.threads = 1;  // the slices are the parallel work; a slice's result does not depend on it
      cpu::execute(p, slice_of(src, k), slice_of(dst, k));
    } catch (...) {
#pragma omp critical(fastblur_slices_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

}  // namespace

SlicedPlan make_sliced_plan(const std::vector<BlurSpec>& specs, const View& src, ElementType destination,
                            const Device& device) {
  validate_source(src);
  return planner::plan_slices(specs, stack_shape(src, destination, device));
}

void blur_slices(const View& src, const View& dst, const std::vector<BlurSpec>& specs, const Device& device) {
  front_door::check_views(src, dst);
  const SlicedPlan plan = planner::plan_slices(specs, stack_shape(src, dst.type, device));
  if (plan.slices.empty()) return;
  front_door::record_run(plan.slices.back());
  front_door::with_separate_source(src, dst, [&](const View& source) {
    if (device.is_cpu()) return run_on_cpu(plan, source, dst, specs.front().threads);
#ifdef FASTBLUR_HAVE_VULKAN
    for (std::size_t k = 0; k < plan.slices.size(); ++k) {
      const auto z = static_cast<std::int64_t>(k);
      vk::gpu_blur(DeviceAccess::context(device), slice_of(source, z), slice_of(dst, z), plan.slices[k]);
    }
#endif
  });
}

}  // namespace fastblur
