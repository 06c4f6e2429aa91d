// The plan of a stack of slices each with its own spec (a batch with a sigma per sample): a plan per
// slice, and on a Vulkan device whether the stack's passes run at once (every slice fir on the same
// axes and borders: one pass per axis, each slice with its own kernel).
#include <algorithm>
#include <map>
#include <string>

#include "algorithms/gpu_passes.hpp"
#include "fastblur/error.hpp"
#include "plan/planner.hpp"

namespace fastblur::planner {
namespace {

// Whether slices planned as `a` and `b` can share the stack's fir passes.
bool same_passes(const Plan& a, const Plan& b) {
  if (a.algorithm != Algorithm::fir || b.algorithm != Algorithm::fir || a.spec.cval != b.spec.cval) return false;
  for (std::size_t x = 0; x < 3; ++x)
    if (a.axes[x].active != b.axes[x].active || (a.axes[x].active && a.axes[x].border != b.axes[x].border)) return false;
  return true;
}

// fir_line_slices along x with the widest slice's tile (0 where a slice reads its taps from device
// memory), fir_across_slices along y.
std::array<GpuPass, 3> stacked_passes(const std::vector<Plan>& slices, int channels) {
  std::array<GpuPass, 3> g{};
  const Plan& first = slices.front();
  if (first.axes[0].active) {
    g[0].shader = "fir_line_slices_c" + std::to_string(channels);
    g[0].tile = 0;
    bool shared = true;
    for (const Plan& p : slices) {
      shared = shared && p.schedule.gpu[0].tile > 0;
      g[0].tile = std::max(g[0].tile, p.schedule.gpu[0].tile);
    }
    if (!shared) g[0].tile = 0;
  }
  if (first.axes[1].active) g[1].shader = "fir_across_slices";
  return g;
}

}  // namespace

SlicedPlan plan_slices(const std::vector<BlurSpec>& specs, const algo::Shape& stack) {
  if (static_cast<std::int64_t>(specs.size()) != stack.extent[2])
    throw InvalidArgument("a spec per slice: " + std::to_string(specs.size()) + " specs for a stack of " +
                          std::to_string(stack.extent[2]) + " slices");
  algo::Shape slice = stack;
  slice.extent[2] = 1;
  SlicedPlan sliced;
  sliced.slices.reserve(specs.size());
  for (std::size_t k = 0; k < specs.size(); ++k) {
    if (specs[k].sigma[2] > kSigmaCutoff)
      throw InvalidArgument("slice " + std::to_string(k) + "'s spec blurs along z (sigma " + std::to_string(specs[k].sigma[2]) +
                            "): each slice of a stack is blurred in 2D");
    sliced.slices.push_back(plan_for(specs[k], slice, Prediction::to_run));
  }
  if (stack.backend != Backend::vulkan || sliced.slices.empty()) return sliced;
  const bool one_piece = stack.piece_bytes == 0 || static_cast<double>(stack.elements()) * 4.0 <= static_cast<double>(stack.piece_bytes);
  sliced.stacked = one_piece && std::all_of(sliced.slices.begin(), sliced.slices.end(),
                                            [&](const Plan& p) { return same_passes(p, sliced.slices.front()); });
  if (sliced.stacked) sliced.stacked_passes = stacked_passes(sliced.slices, stack.channels);
  const bool floats = stack.source == ElementType::f32 && stack.destination == ElementType::f32;
  sliced.gpu_io = stack.caller_buffers_bindable && floats ? GpuIo::direct : GpuIo::converted;
  sliced.cuda_handoff = stack.cuda_handoff;
  return sliced;
}

}  // namespace fastblur::planner
