#include "algorithms/gpu_passes.hpp"

#include <algorithm>
#include <string>

#include "algorithms/kawase.hpp"
#include "fastblur/error.hpp"
#include "kernel/certified_int.hpp"
#include "tiling/pieces.hpp"

namespace fastblur::algo {

std::uint64_t scratch_budget(std::uint64_t piece_bytes) noexcept {
  constexpr std::uint64_t kBudget = 64ull << 20;
  return piece_bytes > 0 ? std::min(kBudget, piece_bytes) : kBudget;
}

std::int64_t lines_per_batch(std::uint64_t budget, std::uint64_t bytes_per_line, std::int64_t lines) {
  if (bytes_per_line > budget)
    throw Unsupported("a line with its padding needs " + std::to_string(bytes_per_line) +
                      " bytes of scratch, more than the Vulkan backend's budget of " + std::to_string(budget));
  return std::max<std::int64_t>(1, std::min<std::int64_t>(lines, static_cast<std::int64_t>(budget / bytes_per_line)));
}

std::uint64_t fir_pixel_bytes(int channels) noexcept { return channels == 3 ? 16 : 4ull * static_cast<std::uint64_t>(channels); }

std::uint64_t fir_tile_slots(std::int64_t reach, int channels, int outputs) noexcept {
  const std::uint64_t pad_every = channels == 1 ? 32 : channels == 2 ? 16 : 8;
  const std::uint64_t k = 64 * static_cast<std::uint64_t>(outputs) + 2 * static_cast<std::uint64_t>(reach);
  return k + k / pad_every + 1;
}

void schedule_fir_gpu(Plan& plan, const Shape& shape, int outputs) {
  if (shape.backend != Backend::vulkan) return;
  const std::uint64_t shared = shared_memory(shape);
  const int C = shape.channels;
  for (std::size_t a = 0; a < 3; ++a) {
    GpuPass& g = plan.schedule.gpu[a];
    g = GpuPass{};
    if (!plan.axes[a].active) continue;
    const std::string blocked = outputs == 4 ? "" : "_o" + std::to_string(outputs);
    if (outputs != 4) g.block = outputs;
    if (a != 0) {
      g.shader = "fir_across" + blocked;
      continue;
    }
    // The tile is sized for a bucket of radii (the next power of two, at least 8), so an animated
    // sigma reuses a few pipelines instead of compiling one per radius; a radius whose bucket would
    // not fit shared memory gets a tile of its own size, and one that does not fit at all reads
    // device memory per tap.
    const std::int64_t r = plan.axes[a].radius;
    std::int64_t reach = 8;
    while (reach < r) reach *= 2;
    if (fir_tile_slots(reach, C, outputs) * fir_pixel_bytes(C) > shared) reach = r;
    g.shader = "fir_line" + blocked + "_c" + std::to_string(C);
    g.tile = fir_tile_slots(reach, C, outputs) * fir_pixel_bytes(C) <= shared ? reach : 0;
  }
}

const char* box_shader(BoxSchedule schedule) noexcept {
  switch (schedule) {
    case BoxSchedule::prefix_sums: return "box_scan";
    case BoxSchedule::fused: return "box_fused";
    case BoxSchedule::running_sums: break;
  }
  return "box_chunk";
}

BoxSchedule box_schedule_of(std::string_view shader) noexcept {
  for (BoxSchedule b : {BoxSchedule::prefix_sums, BoxSchedule::fused})
    if (shader == box_shader(b)) return b;
  return BoxSchedule::running_sums;
}

const char* downsample_shader(GpuDownsample design) noexcept {
  return design == GpuDownsample::per_axis ? "downsample_line" : "downsample_chain";
}

GpuDownsample downsample_design_of(std::string_view shader) noexcept {
  return shader == downsample_shader(GpuDownsample::per_axis) ? GpuDownsample::per_axis : GpuDownsample::chain;
}

std::vector<std::string> planned_shaders(const Plan& plan) {
  std::vector<std::string> out;
  const auto add = [&](const std::string& s) {
    if (!s.empty() && std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  };
  for (const GpuPass& g : plan.schedule.gpu) add(g.shader);
  if (kawase_pairs_passes(plan)) add(kawase_pair_shader(plan));  // its paired dispatches' shader
  return out;
}

void schedule_gpu_batches(Plan& plan, const Shape& shape) {
  const auto halo = tiling::piece_grid(plan).halo;
  std::array<std::int64_t, 3> piece{};
  for (std::size_t a = 0; a < 3; ++a) piece[a] = std::min(shape.extent[a], plan.schedule.tile[a] + 2 * halo[a]);
  descriptor(plan.algorithm).schedule_gpu_batches(plan, shape, piece);
}

void schedule_image_gpu(Plan& plan, const Shape& shape, const char* base, ElementType images) {
  if (shape.backend != Backend::vulkan) return;
  for (GpuPass& g : plan.schedule.gpu) g = GpuPass{};
  GpuPass& g = plan.schedule.gpu[0];
  const int C = image_channels(shape.channels);
  g.shader = std::string(base) + "_c" + std::to_string(C);
  // float16 holds an 8-bit or float16 source exactly (and its sums within 2^-11 of their size); a
  // wider source's values could exceed its range (65504). 4 channels: the format every device
  // stores to and filters.
  if (images == ElementType::f16 && C == 4 && (shape.source == ElementType::u8 || shape.source == ElementType::f16)) {
    g.shader += "_half";
    g.real = ElementType::f16;
  }
  // 8-bit normalized holds an 8-bit source (and an integer cval of 0 .. 255) exactly, each later
  // pass's results rounded to 1/255 of the range; a quarter of float32's bytes, filtered at full rate.
  const bool constant = plan.spec.border[0] == Border::constant || plan.spec.border[1] == Border::constant;
  if (images == ElementType::u8 && C == 4 && shape.source == ElementType::u8 && (!constant || kernel::cval_fits_u8(plan.spec.cval))) {
    g.shader += "_unorm8";
    g.real = ElementType::u8;
  }
}

ElementType wire_type(ElementType t) noexcept {
  return t == ElementType::u8 || t == ElementType::u16 || t == ElementType::f16 ? t : ElementType::f32;
}

std::uint64_t wire_bytes(std::uint64_t elements, ElementType t) noexcept {
  const std::uint64_t per_word = 4 / element_size(wire_type(t));  // values a 32-bit word holds
  return (elements + per_word - 1) / per_word * 4;
}

std::int64_t transfer_parts(std::uint64_t bytes, std::int64_t rows) noexcept {
  constexpr std::uint64_t kPartBytes = 4ull << 20;  // below this a part's submission costs more than it hides
  return std::max<std::int64_t>(1, std::min<std::int64_t>({8, rows, static_cast<std::int64_t>(bytes / kPartBytes)}));
}

}  // namespace fastblur::algo
