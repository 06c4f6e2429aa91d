// One blur's device-memory traffic, pass by pass as the recorders in src/vulkan/gpu_*.cpp record
// them. Each pass reads its input and writes its output once; neighbours a pass reads again (a
// filter's taps, a bilinear fetch's texels) are counted once, the cache serving them, except fir's
// x tile halo and box's fresh windows, which each workgroup or chunk reads again from memory.
#include "gpu_model.hpp"

#include <algorithm>

#include "algorithms/box.hpp"
#include "algorithms/downsample.hpp"
#include "algorithms/dual_kawase.hpp"
#include "algorithms/gpu_passes.hpp"
#include "algorithms/iir.hpp"
#include "algorithms/kawase.hpp"
#include "algorithms/mip_poisson.hpp"
#include "vulkan/image.hpp"
#include "vulkan/work.hpp"

namespace fastblur::bench {

std::optional<double> model_bytes(const Plan& plan, ElementType type, int channels, std::array<std::int64_t, 3> extent) {
  const double C = channels, N = static_cast<double>(extent[0] * extent[1] * extent[2]);
  const double es = static_cast<double>(element_size(vk::wire_type(type)));
  const double ic = vk::stored_channels(channels);  // a float image's channels (3 are stored as 4)
  double bytes = 0.0;
  // The conversions from the element type into the float work buffer and back.
  if (vk::wire_type(type) != ElementType::f32) bytes += 2 * N * C * (es + 4);
  const auto sigma = [&](int a) { return plan.axes[static_cast<std::size_t>(a)].sigma > 0 && extent[static_cast<std::size_t>(a)] > 1; };
  // An image pass's texels: 4 bytes a channel, 2 in float16, 1 in 8-bit normalized (the plan's GpuPass::real).
  const double texel = plan.schedule.gpu[0].real == ElementType::f16 ? 2 : plan.schedule.gpu[0].real == ElementType::u8 ? 1 : 4;
  // pad_image.comp: the work buffer read once, a padded float image of P pixels written.
  const auto pad = [&](double P) { return N * C * 4 + P * ic * texel; };
  switch (plan.algorithm) {
    case Algorithm::fir:
    case Algorithm::fir_incremental:
    case Algorithm::correlate:
    case Algorithm::binomial:
      for (int a = 0; a < 3; ++a) {
        if (!sigma(a)) continue;
        // fir_line.comp reads a tile of 256 outputs with its halo on each side; fir_across.comp
        // reads each value once (its rows shared through the cache) and writes once.
        const double halo = static_cast<double>(plan.axes[static_cast<std::size_t>(a)].radius);
        bytes += N * C * (a == 0 ? 4 * (1 + 2 * halo / 256) + 4 : 8);
      }
      return bytes;
    case Algorithm::iir:
      for (int a = 0; a < 3; ++a) {
        if (!sigma(a)) continue;
        const auto& g = plan.schedule.gpu[static_cast<std::size_t>(a)];
        if (algo::iir_chunks_pass(g)) {
          // iir_chunks.comp: each chunk read twice (zero-state sums, then the outputs) and written
          // once; per chunk and lane 32 bytes of states written, read and written by the carries,
          // read again.
          bytes += N * C * (4 + 4 + 4 + 128.0 / static_cast<double>(g.block));
          continue;
        }
        // Both directions read the line, the causal sweep writes its scratch (float or double) and the
        // anti-causal one reads it back and writes the result.
        const double real = g.real == ElementType::f64 ? 8 : 4;
        bytes += N * C * (8 + 2 * real + 4);
      }
      return bytes;
    case Algorithm::sliding_dct:
      for (int a = 0; a < 3; ++a) {
        if (!sigma(a)) continue;
        // sdct_chunks.comp: each output written once; a chunk reads its samples at the window's
        // four ends (through the cache: each sample about once from memory) and 2 (2R + 1) for its
        // direct start.
        const auto& g = plan.schedule.gpu[static_cast<std::size_t>(a)];
        const double window = 2.0 * static_cast<double>(plan.axes[static_cast<std::size_t>(a)].support) - 1.0;  // support R + 1
        bytes += N * C * (4 + 4 + 8 * window / static_cast<double>(std::max<std::int64_t>(g.block, 1)));
      }
      return bytes;
    case Algorithm::box: {
      const auto& r = algo::resolved_as<algo::BoxResolved>(plan);
      for (int a = 0; a < 3; ++a) {
        if (!sigma(a)) continue;
        if (plan.schedule.gpu[static_cast<std::size_t>(a)].shader == algo::box_shader(BoxSchedule::prefix_sums)) {
          // box_scan.comp, a workgroup per line: the line extended into scratch (read, write), then per
          // box its values read, the prefix sums' two halves written and read back, the box written;
          // the centre back.
          bytes += N * C * (8 + 24.0 * static_cast<double>(r.passes[static_cast<std::size_t>(a)].size()) + 8);
          continue;
        }
        if (plan.schedule.gpu[static_cast<std::size_t>(a)].shader == algo::box_shader(BoxSchedule::fused)) {
          // box_fused.comp: each chunk's line with its margins read, the outputs written; the rings
          // stay in the cache (counted as none).
          const double reach = static_cast<double>(r.reach[static_cast<std::size_t>(a)]);
          const double outputs = static_cast<double>(plan.schedule.gpu[static_cast<std::size_t>(a)].block);
          bytes += N * C * (4 * (1 + 2 * reach / outputs) + 4);
          continue;
        }
        double per_value = 8 + 8;  // the line into the extended lanes and the centre back
        const auto& passes = r.passes[static_cast<std::size_t>(a)];
        const auto& outputs = plan.schedule.gpu[static_cast<std::size_t>(a)].pass_outputs;  // the plan's, a thread
        for (std::size_t k = 0; k < passes.size(); ++k)
          per_value += 4 * (1 + (2.0 * passes[k].radius + 1) / static_cast<double>(outputs.at(k))) + 4;
        bytes += N * C * per_value;
      }
      return bytes;
    }
    case Algorithm::downsample: {
      // Each filtered axis's blocks: (n + 2 pad) / f samples (an axis left alone: its samples).
      const auto& r = algo::resolved_as<algo::DownsampleResolved>(plan);
      double blocks = 1.0;
      int axes = 0;
      for (int a = 0; a < 3; ++a) {
        const auto ax = static_cast<std::size_t>(a);
        const auto& d = r.axes[ax];
        const bool on = sigma(a) && d.factor > 0;
        axes += on;
        blocks *= on ? static_cast<double>((extent[ax] + 2 * d.pad) / d.factor) : static_cast<double>(extent[ax]);
      }
      if (algo::downsample_design_of(plan.schedule.gpu[0].shader) == GpuDownsample::chain)
        // The source read once into the blocks, each blurred axis reads and writes them, the
        // interpolation reads them and writes the destination.
        return bytes + N * C * 8 + blocks * C * 4 * (2 + 2 * axes);
      for (int a = 0; a < 3; ++a) {
        const auto ax = static_cast<std::size_t>(a);
        const auto& d = r.axes[ax];
        if (!sigma(a) || d.factor == 0) continue;
        // The line into its blocks, the blocks blurred, interpolated back: per axis.
        const double line_blocks = N / static_cast<double>(extent[ax]) * static_cast<double>((extent[ax] + 2 * d.pad) / d.factor);
        bytes += N * C * 8 + line_blocks * C * 4 * 4;
      }
      return bytes;
    }
    case Algorithm::fir_linear: {
      const double iw = static_cast<double>(extent[0] + (sigma(0) ? 2 * (plan.axes[0].radius + 1) : 0));
      const double ih = static_cast<double>(extent[1] + (sigma(1) ? 2 * (plan.axes[1].radius + 1) : 0));
      const double P = iw * ih;
      // Padding, then the x pass over the padded image, then the y pass into the work buffer.
      return bytes + pad(P) + (sigma(0) && sigma(1) ? 2 * P * ic * texel : 0) + P * ic * texel + N * C * 4;
    }
    case Algorithm::kawase: {
      const auto& r = algo::resolved_as<algo::KawaseResolved>(plan);
      // A dispatch reads the image and writes the next (paired passes: one read and one write for two).
      const std::size_t dispatches = algo::kawase_dispatches(r.offsets, algo::kawase_pairs_passes(plan)).size();
      if (dispatches == 0) return bytes + 2 * N * C * 4;
      const double iw = static_cast<double>(extent[0] + 2 * (1 + algo::kawase_reach(r.offsets[0])));
      const double ih = static_cast<double>(extent[1] + 2 * (1 + algo::kawase_reach(r.offsets[1])));
      const double P = iw * ih;
      return bytes + pad(P) + static_cast<double>(dispatches - 1) * 2 * P * ic * texel + P * ic * texel + N * C * 4;
    }
    case Algorithm::dual_kawase: {
      const auto& s = algo::resolved_as<algo::DualKawaseResolved>(plan).schedule;
      const auto px = algo::dual_kawase_padding(extent[0], s.levels, s.offset[0]);
      const auto py = algo::dual_kawase_padding(extent[1], s.levels, s.offset[1]);
      const auto level = [&](int l) { return static_cast<double>((px.size >> l) * (py.size >> l)); };
      bytes += pad(level(0));
      for (int l = 0; l < s.levels; ++l) bytes += (level(l) + level(l + 1)) * ic * texel;      // down
      for (int l = s.levels - 1; l >= 1; --l) bytes += (level(l + 1) + level(l)) * ic * texel;  // up
      return bytes + level(1) * ic * texel + N * C * 4;                                         // the last up pass
    }
    case Algorithm::mip_poisson: {
      const auto& s = algo::resolved_as<algo::MipPoissonResolved>(plan).schedule;
      const auto px = algo::mip_poisson_padding(extent[0], s);
      const auto py = algo::mip_poisson_padding(extent[1], s);
      const auto level = [&](int l) { return static_cast<double>((px.size >> l) * (py.size >> l)); };
      bytes += pad(level(0));
      for (int l = 0; l < s.max_level; ++l) bytes += (level(l) + level(l + 1)) * ic * 4;  // the mip chain
      return bytes + level(0) * ic * 4 + N * C * 4;  // the samples (level 0 dominates) and the result
    }
    default:
      return std::nullopt;
  }
}

std::optional<std::uint64_t> model_dispatches(const Plan& plan, ElementType type, int channels, std::array<std::int64_t, 3> extent) {
  if (!model_bytes(plan, type, channels, extent)) return std::nullopt;
  std::uint64_t n = vk::wire_type(type) != ElementType::f32 ? 2 : 0;  // the conversions
  const auto filtered = [&](int a) { return plan.axes[static_cast<std::size_t>(a)].sigma > 0 && extent[static_cast<std::size_t>(a)] > 1; };
  int axes = 0;
  for (int a = 0; a < 3; ++a) axes += filtered(a);
  switch (plan.algorithm) {
    case Algorithm::fir:
    case Algorithm::fir_incremental:
    case Algorithm::correlate:
    case Algorithm::binomial:
      return n + static_cast<std::uint64_t>(axes);  // fir_line along x, fir_across along y and z
    case Algorithm::iir:
      for (int a = 0; a < 3; ++a)
        if (filtered(a)) n += algo::iir_chunks_pass(plan.schedule.gpu[static_cast<std::size_t>(a)]) ? 3 : 1;
      return n;
    case Algorithm::sliding_dct:  // sdct_chunks.comp: a dispatch an axis
      return n + static_cast<std::uint64_t>(axes);
    case Algorithm::box: {
      const auto& r = algo::resolved_as<algo::BoxResolved>(plan);
      for (int a = 0; a < 3; ++a)
        if (filtered(a)) {  // fused and prefix sums: one; running sums: the extension, each box, the centre back
          const BoxSchedule b = algo::box_schedule_of(plan.schedule.gpu[static_cast<std::size_t>(a)].shader);
          n += b == BoxSchedule::fused || b == BoxSchedule::prefix_sums ? 1 : r.passes[static_cast<std::size_t>(a)].size() + 2;
        }
      return n;
    }
    case Algorithm::downsample:  // chain: the tent, a blur per axis, the interpolation; else three per axis
      return n + static_cast<std::uint64_t>(
                     algo::downsample_design_of(plan.schedule.gpu[0].shader) == GpuDownsample::chain ? 2 + axes : 3 * axes);
    case Algorithm::fir_linear:
      return n + 1 + static_cast<std::uint64_t>(axes);  // padding, a pass an axis
    case Algorithm::kawase: {
      const auto& r = algo::resolved_as<algo::KawaseResolved>(plan);
      const std::size_t dispatches = algo::kawase_dispatches(r.offsets, algo::kawase_pairs_passes(plan)).size();
      return n + (dispatches ? 1 + dispatches : 0);  // padding and the passes, one or two a dispatch (none: a copy)
    }
    case Algorithm::dual_kawase:  // padding, the levels down, up, and the last up pass into the work buffer
      return n + 1 + 2 * static_cast<std::uint64_t>(algo::resolved_as<algo::DualKawaseResolved>(plan).schedule.levels);
    case Algorithm::mip_poisson:  // padding, the mip levels, the samples
      return n + 2 + static_cast<std::uint64_t>(algo::resolved_as<algo::MipPoissonResolved>(plan).schedule.max_level);
    default:
      return std::nullopt;
  }
}

}  // namespace fastblur::bench
