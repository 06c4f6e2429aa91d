// A plan as text (`--explain`, fastblur.plan()['description']): the chosen algorithm, each axis's
// resolved parameters and reach, the schedule, and the candidates weighed.
#include <cstdio>
#include <algorithm>
#include <string>

#include "algorithms/gpu_variants.hpp"
#include "algorithms/iir.hpp"
#include "algorithms/kawase.hpp"
#include "fastblur/plan.hpp"

namespace fastblur {
namespace {

const char* recursion_name(GpuPass::Recursion r) {
  switch (r) {
    case GpuPass::Recursion::young_van_vliet: return "young-van-vliet";
    case GpuPass::Recursion::deriche_parallel: return "deriche parallel form";
    case GpuPass::Recursion::none: break;
  }
  return "";
}

std::string format(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string format(const ParameterValue& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&v)) return format(*d);
  if (const auto* b = std::get_if<bool>(&v)) return *b ? "true" : "false";
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  std::string out;
  for (double d : std::get<std::vector<double>>(v)) out += (out.empty() ? "" : " ") + format(d);
  return out.empty() ? "-" : out;
}

}  // namespace

std::string describe_schedule(const Plan& p) {
  const Schedule& s = p.schedule;
  std::string out;
  if (s.backend == Backend::cpu) {
    out += "cpu, driver " + std::string(to_string(s.driver)) + ", " + std::to_string(s.threads) + " thread" +
           (s.threads == 1 ? "" : "s") + ", intermediate " +
           (s.driver == CpuDriver::fixed_point ? std::string("int16 (pixels x 64, weights in Q15)")
                                               : std::string(to_string(s.intermediate)));
    if (s.driver == CpuDriver::scipy_order) {
      std::string order;
      for (int a : p.spec.axis_order)
        if (p.axes[static_cast<std::size_t>(a)].sigma > 0.0) order += (order.empty() ? "" : ", ") + std::string(1, "xyz"[a]);
      // SciPy's bits, or its order rounded once (Rounding::nearest: float64 or integer outputs).
      const bool once = p.spec.rounding != Rounding::scipy;
      const std::string into = std::string(to_string(p.destination));
      out += std::string(once ? ", SciPy's order rounded once: axes " : ", rounding scipy: axes ") +
             (order.empty() ? std::string("none") : order) +
             (once ? ", doubles between them, the result rounded to nearest into " + into
                   : ", each converted to " + into + (is_integer(p.destination) ? " (truncated)" : "")) +
             (p.spec.weights[0].empty() && p.spec.weights[1].empty() && p.spec.weights[2].empty() ? "" : ", the caller's weights") +
             (s.fused_axes ? ", both axes in one pass through a ring of rows" : "") +
             (s.scipy_int_certified ? " of " + std::string(to_string(p.destination)) + ", its sums certified in float32 where a sample of rows allows" : "") +
             (s.fused_z ? (s.z_source_planes ? ", z's pass over the source's planes where they lie, each plane's y and x while in cache"
                                             : ", z's pass through a ring of planes, each plane's y and x while in cache")
                        : "");
    }
    if (s.x_across_rows) {
      out += ", x rows of " + std::to_string(p.extent[0] * p.channels) + " values filtered across rows";
      if ((s.driver == CpuDriver::axis_passes && (p.axes[1].active || p.axes[2].active)) || s.pixels_image)
        out += ", y and z as the x and y of an image of " + std::to_string(p.extent[0] * p.channels) + "-value pixels";
      if (s.driver == CpuDriver::axis_passes && s.fused_axes)
        out += " through a ring of rows, x across each source row's pixels as it enters";
      if (s.pixels_image)
        out += " (" + describe_schedule(*s.pixels_image) + "), then x across the pixels" +
               (s.pixels_image->schedule.fused_axes && p.channels == 1 ? " of each output row while in cache" : " in place");
    }
    if (s.stream_destination) out += ", destination streamed past the caches";
    if (s.driver == CpuDriver::axis_passes)
      for (int a = 1; a < 3; ++a)
        if (p.axes[static_cast<std::size_t>(a)].active && s.strip[static_cast<std::size_t>(a)] > 0)
          out += ", " + std::string(1, "xyz"[a]) + " strips of " + std::to_string(s.strip[static_cast<std::size_t>(a)]);
  } else {
    out += "vulkan";
    const std::string_view variant = algo::gpu_variant_of(p);
    if (!variant.empty()) out += ", variant " + std::string(variant);
    for (int a = 0; a < 3; ++a) {  // each pass's variant, as the recorders run it
      const GpuPass& g = s.gpu[static_cast<std::size_t>(a)];
      if (g.shader.empty()) continue;
      out += ", " + std::string(1, "xyz"[a]) + " " + g.shader;
      if (g.tile > 0) out += " tile " + std::to_string(g.tile);
      else if (a == 0 && g.shader.rfind("fir_line_", 0) == 0) out += " taps from device memory";  // not fir_linear
      if (a == 0 && algo::kawase_pairs_passes(p)) out += " passes paired through shared memory";
      else if (g.block > 0) out += (algo::iir_chunks_pass(g) ? " chunks of " : " block ") + std::to_string(g.block);
      if (g.batch > 0) out += " batches of " + std::to_string(g.batch) + (g.shader == "box_scan" ? " lines" : " lanes");
      if (g.recursion != GpuPass::Recursion::none) out += std::string(" ") + recursion_name(g.recursion);
      if (g.real == ElementType::f64) out += " in float64";
    }
    out += s.gpu_interleave_scratch ? ", scratch interleaved" : ", scratch by line";
    if (s.transfer_parts > 1) out += ", " + std::to_string(s.transfer_parts) + " transfer parts";
    if (s.gpu_io == GpuIo::direct) out += ", the caller's float32 buffers read and written directly";
    if (s.cuda_handoff == CudaHandoff::semaphores)
      out += ", CUDA stream ordered by a shared timeline semaphore (no host wait)";
    else if (s.cuda_handoff == CudaHandoff::host_waits)
      out += ", CUDA stream ordered by host waits (the driver exports no timeline semaphore)";
    else if (s.cuda_handoff != CudaHandoff::none)
      out += ", CUDA stream ordered by " + std::string(to_string(s.cuda_handoff));
    out += ", " + std::to_string(s.pieces) + (s.pieces == 1 ? " piece" : " pieces") + " of " +
           std::to_string(s.tile[0]) + "x" + std::to_string(s.tile[1]) + "x" + std::to_string(s.tile[2]);
  }
  return out;
}

std::string describe(const Plan& plan) {
  char head[256];
  std::snprintf(head, sizeof head, "%s, predicted max error %.3g, cost %.1f", std::string(to_string(plan.algorithm)).c_str(),
                plan.predicted_max_error, plan.predicted_cost);
  std::string out = std::string("plan: ") + head + "\n";
  out += "  why: " + plan.reason + "\n";
  if (plan.schedule.backend == Backend::vulkan)
    out += "  costs: " + (plan.cost_profile.empty() ? std::string("the model (no measured profile of this device)")
                                                    : plan.cost_profile) + "\n";
  for (const PlanParameter& q : plan.parameters)
    if (q.axis < 0) out += "  " + q.key + ": " + format(q.value) + "\n";
  for (int a = 0; a < 3; ++a) {
    const AxisPlan& ax = plan.axes[static_cast<std::size_t>(a)];
    if (!(ax.sigma > 0.0)) continue;
    out += std::string("  axis ") + "xyz"[a] + ": sigma " + format(ax.sigma) + (ax.active ? "" : " (not filtered)") +
           ", support " + std::to_string(ax.support) + (ax.align > 1 ? " (blocks of " + std::to_string(ax.align) + ")" : "") +
           ", achieved sigma " + format(ax.achieved_sigma) + ", predicted error " + format(ax.predicted_error);
    for (const PlanParameter& q : plan.parameters)
      if (q.axis == a) out += ", " + q.key + " " + format(q.value);
    if (ax.weights) {  // the kernel as data: short ones in full
      out += ", kernel " + std::to_string(ax.weights->size()) + " taps";
      if (ax.weights->size() <= 9) out += " " + format(ParameterValue(*ax.weights));
    }
    out += "\n";
  }
  out += "  schedule: " + describe_schedule(plan) + "\n";
  out += "  considered:\n";
  for (const std::string& c : plan.considered) out += "    " + c + "\n";
  return out;
}

std::string describe(const SlicedPlan& plan) {
  std::string out = "stack of " + std::to_string(plan.slices.size()) + " slices, each with its own plan";
  if (plan.stacked) {
    out += "; on the device one pass per axis over the stack, each slice with its own kernel:";
    for (int a = 0; a < 3; ++a) {
      const GpuPass& g = plan.stacked_passes[static_cast<std::size_t>(a)];
      if (g.shader.empty()) continue;
      out += " " + std::string(1, "xyz"[a]) + " " + g.shader;
      if (g.tile > 0) out += " tile " + std::to_string(g.tile);
    }
  } else if (!plan.slices.empty() && plan.slices.front().schedule.backend == Backend::vulkan) {
    out += "; on the device each slice's passes in turn, one submission";
  }
  if (plan.gpu_io == GpuIo::direct) out += "; the caller's float32 buffers read and written directly";
  if (plan.cuda_handoff == CudaHandoff::semaphores) out += "; CUDA stream ordered by a shared timeline semaphore";
  else if (plan.cuda_handoff == CudaHandoff::host_waits) out += "; CUDA stream ordered by host waits";
  out += "\n";
  // Each distinct plan once, with the slices that run it, in the order of their first slice.
  std::vector<std::pair<std::string, std::string>> plans;  // text, slices
  for (std::size_t k = 0; k < plan.slices.size(); ++k) {
    const std::string text = describe(plan.slices[k]);
    auto it = std::find_if(plans.begin(), plans.end(), [&](const auto& p) { return p.first == text; });
    if (it == plans.end()) plans.emplace_back(text, std::to_string(k));
    else it->second += "," + std::to_string(k);
  }
  for (const auto& [text, which] : plans) out += "slices " + which + ":\n" + text;
  return out;
}

}  // namespace fastblur
