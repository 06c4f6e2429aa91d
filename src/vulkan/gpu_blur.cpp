// The Vulkan backend on host views: the image travels in its own element type (u8 moves a byte per
// value) and is widened to float32 on the device (convert.comp), blurred by the algorithm's
// recorder, narrowed and sent back. Images beyond what one piece may hold (the storage-buffer range,
// or the 2D image limit of the texture-based algorithms) are blurred in tiles: each tile is cut out
// with a halo as wide as the algorithm's reach, extended by the border modes on the host where it
// leaves the image, and only its interior is kept - the same result as in one piece.
#include "vulkan/gpu_blur.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/border.hpp"
#include "core/element.hpp"
#include "core/overlap.hpp"
#include "cpu/box.hpp"
#include "cpu/downsample.hpp"
#include "cpu/dual_kawase.hpp"
#include "cpu/kawase.hpp"
#include "cpu/line_io.hpp"
#include "cpu/mip_poisson.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"
#include "fastblur/kernel_iir.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// Host rows of `v` (any layout) <-> packed bytes of its wire type.
void gather(const View& v, std::byte* out) {
  const ElementType wt = wire_type(v.type);
  const std::int64_t W = v.width();
  const std::size_t row = static_cast<std::size_t>(W * v.channels) * element_size(wt);
  std::vector<std::byte> scratch(static_cast<std::size_t>(W * v.channels) * 8);
  std::vector<float> f(v.type == ElementType::f64 ? static_cast<std::size_t>(W * v.channels) : 0);
  for (std::int64_t z = 0; z < v.depth(); ++z)
    for (std::int64_t y = 0; y < v.height(); ++y) {
      std::byte* o = out + static_cast<std::size_t>(z * v.height() + y) * row;
      if (v.type == ElementType::f64) {
        cpu::read_row(v, 0, y, z, W, f.data(), scratch.data());
        std::memcpy(o, f.data(), row);
        continue;
      }
      const std::size_t px = element_size(v.type) * static_cast<std::size_t>(v.channels);
      for (std::int64_t x = 0; x < W; ++x) std::memcpy(o + static_cast<std::size_t>(x) * px, v.pixel(x, y, z), px);
    }
}
void scatter(const std::byte* in, const View& v) {
  const ElementType wt = wire_type(v.type);
  const std::int64_t W = v.width();
  const std::size_t row = static_cast<std::size_t>(W * v.channels) * element_size(wt);
  std::vector<std::byte> scratch(static_cast<std::size_t>(W * v.channels) * 8);
  std::vector<float> f(v.type == ElementType::f64 ? static_cast<std::size_t>(W * v.channels) : 0);
  for (std::int64_t z = 0; z < v.depth(); ++z)
    for (std::int64_t y = 0; y < v.height(); ++y) {
      const std::byte* i = in + static_cast<std::size_t>(z * v.height() + y) * row;
      if (v.type == ElementType::f64) {
        std::memcpy(f.data(), i, row);
        cpu::write_row(f.data(), v, 0, y, z, W, scratch.data());
        continue;
      }
      const std::size_t px = element_size(v.type) * static_cast<std::size_t>(v.channels);
      for (std::int64_t x = 0; x < W; ++x) std::memcpy(v.pixel(x, y, z), i + static_cast<std::size_t>(x) * px, px);
    }
}

// How far the algorithm's output reaches along an axis (the tiles' halo), and the block its
// non-shift-invariant grids are anchored to (tiles start on multiples of it).
struct Reach {
  std::array<std::int64_t, 3> halo{0, 0, 0};
  std::int64_t align = 1;
  bool image_based = false;  // limited by the 2D image size too
  std::array<std::int64_t, 2> image_pad{0, 0};  // the padding its images add
};

Reach reach_of(const BlurSpec& spec, const View& src) {
  Reach r;
  std::array<bool, 3> active{};
  for (int a = 0; a < 3; ++a)
    active[static_cast<std::size_t>(a)] = spec.sigma[static_cast<std::size_t>(a)] > 1e-15;
  switch (spec.algorithm) {
    case Algorithm::fir:
    case Algorithm::fir_incremental:
    case Algorithm::fir_linear:
      for (int a = 0; a < 3; ++a)
        if (active[static_cast<std::size_t>(a)]) r.halo[static_cast<std::size_t>(a)] = effective_radius(spec, a) + 1;
      r.image_based = spec.algorithm == Algorithm::fir_linear;
      r.image_pad = {r.halo[0], r.halo[1]};
      break;
    case Algorithm::box:
      for (int a = 0; a < 3; ++a)
        if (active[static_cast<std::size_t>(a)])
          for (const auto& q : cpu::box_passes_for(spec, a, spec.box_passes == 0 ? 3 : spec.box_passes))
            r.halo[static_cast<std::size_t>(a)] += q.radius + 1;
      break;
    case Algorithm::iir:
      for (int a = 0; a < 3; ++a)
        if (active[static_cast<std::size_t>(a)]) {
          const double s = spec.sigma[static_cast<std::size_t>(a)];
          const double pole = spec.iir_variant == IirVariant::deriche ? kernel::deriche_coefficients(s).pole_radius
                                                                      : kernel::young_van_vliet_coefficients(s).pole_radius;
          r.halo[static_cast<std::size_t>(a)] = kernel::recursive_decay_length(pole, 1e-8);
        }
      break;
    case Algorithm::downsample:
      for (int a = 0; a < 3; ++a)
        if (active[static_cast<std::size_t>(a)]) {
          const int f = cpu::downsample_factor_for(spec, a);
          const double low = kernel::downsample_low_sigma(spec.sigma[static_cast<std::size_t>(a)], f, spec.truncate);
          r.halo[static_cast<std::size_t>(a)] = static_cast<std::int64_t>(f) * (std::max(1, kernel::radius_from_truncate(low, spec.truncate)) + 4);
          r.align = std::max<std::int64_t>(r.align, f);
        }
      break;
    case Algorithm::kawase:
      for (int a = 0; a < 2; ++a)
        if (active[static_cast<std::size_t>(a)]) {
          r.halo[static_cast<std::size_t>(a)] = 1;
          for (double d : cpu::kawase_offsets_for(spec, a)) r.halo[static_cast<std::size_t>(a)] += static_cast<std::int64_t>(std::floor(d)) + 1;
        }
      r.image_based = true;
      r.image_pad = {r.halo[0], r.halo[1]};
      break;
    case Algorithm::dual_kawase: {
      const auto s = cpu::dual_kawase_schedule_for(spec);
      const auto px = cpu::dual_kawase_padding(src.width(), s.levels, s.offset[0]);
      const auto py = cpu::dual_kawase_padding(src.height(), s.levels, s.offset[1]);
      r.halo = {px.before, py.before, 0};
      r.align = std::int64_t{1} << s.levels;
      r.image_based = true;
      r.image_pad = {px.size - src.width(), py.size - src.height()};
      break;
    }
    case Algorithm::mip_poisson: {
      const auto s = cpu::mip_poisson_schedule_for(spec);
      const auto px = cpu::mip_poisson_padding(src.width(), s);
      const auto py = cpu::mip_poisson_padding(src.height(), s);
      r.halo = {px.before, py.before, 0};
      r.align = std::int64_t{1} << s.max_level;
      r.image_based = true;
      r.image_pad = {px.size - src.width(), py.size - src.height()};
      break;
    }
    default: break;
  }
  for (auto& h : r.halo) h = (h + r.align - 1) / r.align * r.align;
  return r;
}

// One piece: its interior [lo, hi) per axis and the halo around it.
struct Piece {
  std::array<std::int64_t, 3> lo{}, hi{}, halo{};
  std::array<std::int64_t, 3> extent() const {
    return {hi[0] - lo[0] + 2 * halo[0], hi[1] - lo[1] + 2 * halo[1], hi[2] - lo[2] + 2 * halo[2]};
  }
};

bool fits(const Context& ctx, const Reach& reach, std::array<std::int64_t, 3> e, int channels, bool whole) {
  const double floats = static_cast<double>(e[0]) * static_cast<double>(e[1]) * static_cast<double>(e[2]) * channels;
  if (floats * 4 > static_cast<double>(ctx.piece_limit())) return false;
  if (reach.image_based) {
    // A whole image pads itself by image_pad; a tile's halo is its padding already, plus the
    // algorithm's own padding of the tile again.
    const std::int64_t lim = ctx.limits().maxImageDimension2D;
    const std::int64_t pad_x = whole ? reach.image_pad[0] : 2 * reach.halo[0] + reach.image_pad[0];
    const std::int64_t pad_y = whole ? reach.image_pad[1] : 2 * reach.halo[1] + reach.image_pad[1];
    if (e[0] + pad_x > lim || e[1] + pad_y > lim) return false;
  }
  return true;
}

std::vector<Piece> plan_pieces(const Context& ctx, const Reach& reach, const View& src) {
  const std::array<std::int64_t, 3> n{src.width(), src.height(), src.depth()};
  Piece whole;
  whole.hi = n;
  if (fits(ctx, reach, n, src.channels, true)) return {whole};
  // Tile sizes per axis (the whole axis, or multiples of the alignment growing by about 1.5x): of
  // the combinations that fit, the one that processes the least volume, halos included (fewer
  // pieces on a tie). Halos only where an axis is cut.
  std::array<std::vector<std::int64_t>, 3> options;
  for (std::size_t k = 0; k < 3; ++k) {
    options[k].push_back(n[k]);
    for (std::int64_t m = 1; m * reach.align < n[k]; m = std::max(m + 1, m * 3 / 2)) options[k].push_back(m * reach.align);
  }
  std::array<std::int64_t, 3> tile{};
  double best = INFINITY, best_count = INFINITY;
  for (std::int64_t tz : options[2])
    for (std::int64_t ty : options[1])
      for (std::int64_t tx : options[0]) {
        const std::array<std::int64_t, 3> t{tx, ty, tz};
        std::array<std::int64_t, 3> e{};
        double count = 1.0;
        for (std::size_t k = 0; k < 3; ++k) {
          e[k] = t[k] + (t[k] < n[k] ? 2 * reach.halo[k] : 0);
          count *= static_cast<double>((n[k] + t[k] - 1) / t[k]);
        }
        if (!fits(ctx, reach, e, src.channels, false)) continue;
        const double volume = count * static_cast<double>(e[0]) * static_cast<double>(e[1]) * static_cast<double>(e[2]);
        if (volume < best || (volume == best && count < best_count)) best = volume, best_count = count, tile = t;
      }
  if (!std::isfinite(best))
    throw Unsupported("the image cannot be tiled for Vulkan device " + ctx.info().name +
                      ": one tile with the algorithm's reach still exceeds its limits (" + std::to_string(ctx.piece_limit()) +
                      " bytes per buffer); use the CPU");
  std::vector<Piece> pieces;
  for (std::int64_t z = 0; z < n[2]; z += tile[2])
    for (std::int64_t y = 0; y < n[1]; y += tile[1])
      for (std::int64_t x = 0; x < n[0]; x += tile[0]) {
        Piece p;
        p.lo = {x, y, z};
        p.hi = {std::min(x + tile[0], n[0]), std::min(y + tile[1], n[1]), std::min(z + tile[2], n[2])};
        for (std::size_t k = 0; k < 3; ++k) p.halo[k] = tile[k] < n[k] ? reach.halo[k] : 0;
        pieces.push_back(p);
      }
  return pieces;
}

// The tile with its halo as packed float32, extended by the border modes where it leaves the image.
void gather_piece(const View& src, const BlurSpec& spec, const Piece& p, float* out) {
  const auto e = p.extent();
  const int C = src.channels;
  std::vector<std::int64_t> map_x(static_cast<std::size_t>(e[0]));
  for (std::int64_t i = 0; i < e[0]; ++i)
    map_x[static_cast<std::size_t>(i)] = core::border_index(p.lo[0] - p.halo[0] + i, src.width(), spec.border[0]);
  std::vector<float> row(static_cast<std::size_t>(src.width() * C));
  std::vector<std::byte> scratch(row.size() * 8);
  const float cval = static_cast<float>(spec.cval);
  for (std::int64_t z = 0; z < e[2]; ++z) {
    const std::int64_t sz = core::border_index(p.lo[2] - p.halo[2] + z, src.depth(), spec.border[2]);
    for (std::int64_t y = 0; y < e[1]; ++y) {
      const std::int64_t sy = core::border_index(p.lo[1] - p.halo[1] + y, src.height(), spec.border[1]);
      float* o = out + static_cast<std::size_t>((z * e[1] + y) * e[0] * C);
      if (sz < 0 || sy < 0) {
        std::fill(o, o + e[0] * C, cval);
        continue;
      }
      cpu::read_row(src, 0, sy, sz, src.width(), row.data(), scratch.data());
      for (std::int64_t x = 0; x < e[0]; ++x) {
        const std::int64_t sx = map_x[static_cast<std::size_t>(x)];
        for (int c = 0; c < C; ++c) o[x * C + c] = sx < 0 ? cval : row[static_cast<std::size_t>(sx * C + c)];
      }
    }
  }
}

void put_piece(const float* in, const Piece& p, const View& dst) {
  const auto e = p.extent();
  const int C = dst.channels;
  const std::int64_t w = p.hi[0] - p.lo[0];
  std::vector<std::byte> scratch(static_cast<std::size_t>(w * C) * 8);
  for (std::int64_t z = p.lo[2]; z < p.hi[2]; ++z)
    for (std::int64_t y = p.lo[1]; y < p.hi[1]; ++y) {
      const float* row = in + static_cast<std::size_t>(((z - p.lo[2] + p.halo[2]) * e[1] + (y - p.lo[1] + p.halo[1])) * e[0] * C +
                                                       p.halo[0] * C);
      View part = dst;
      part.extent[0] = w;
      part.data = dst.pixel(p.lo[0], 0, 0);
      cpu::write_row(row, part, 0, y, z, w, scratch.data());
    }
}

// One piece: float32 in, float32 out, through the device.
void blur_piece(const std::shared_ptr<Context>& ctx, const std::vector<float>& in, std::vector<float>& out,
                std::array<std::int64_t, 3> extent, int channels, const BlurSpec& spec, std::array<std::int64_t, 2> origin,
                Timing* timing) {
  Job job(ctx);
  Work a;
  a.extent = extent;
  a.channels = channels;
  const std::uint64_t bytes = a.bytes();
  Buffer& up = job.buffer(bytes, Buffer::Kind::upload);
  std::memcpy(up.data(), in.data(), bytes);
  up.flush();
  a.buffer = job.buffer(bytes, Buffer::Kind::device).handle();
  const Work b = work_like(job, a);
  Buffer& down = job.buffer(bytes, Buffer::Kind::download);
  job.timestamp("start");
  job.copy(up.handle(), a.buffer, bytes);
  job.timestamp("uploaded");
  record_algorithm(job, a, b, spec, origin);
  job.timestamp("blurred");
  job.copy(b.buffer, down.handle(), bytes);
  job.host_barrier();
  job.timestamp("downloaded");
  job.run();
  down.invalidate();
  std::memcpy(out.data(), down.data(), bytes);
  if (timing) {
    const auto t = job.timestamps();
    if (t.size() == 4) {
      timing->gpu_blur_ms += t[2].second - t[1].second;
      timing->gpu_transfer_ms += t[1].second + (t[3].second - t[2].second);
    }
  }
}

}  // namespace

void gpu_blur(const std::shared_ptr<Context>& ctx, const View& src, const View& dst, const BlurSpec& spec, Timing* timing) {
  const auto start = Clock::now();
  if (timing) *timing = Timing{};
  const std::int64_t W = src.width(), H = src.height(), D = src.depth();
  const int C = src.channels;
  if (std::max({W, H, D}) > (1 << 30)) throw Unsupported("an axis longer than 2^30 samples on the Vulkan backend");
  const Reach reach = reach_of(spec, src);
  const std::vector<Piece> pieces = plan_pieces(*ctx, reach, src);
  if (timing) timing->pieces = static_cast<int>(pieces.size());

  if (pieces.size() == 1) {
    // One piece: the image travels in its own type and is converted on the device.
    Job job(ctx);
    Work a;
    a.extent = {W, H, D};
    a.channels = C;
    const std::uint64_t count = static_cast<std::uint64_t>(a.pixels() * C);
    const ElementType in_type = wire_type(src.type), out_type = wire_type(dst.type);
    const std::uint64_t in_bytes = wire_bytes(count, in_type), out_bytes = wire_bytes(count, out_type);
    Buffer& up = job.buffer(in_bytes, Buffer::Kind::upload);
    gather(src, static_cast<std::byte*>(up.data()));
    up.flush();
    Buffer& in_words = job.buffer(in_bytes, Buffer::Kind::device);
    a.buffer = in_type == ElementType::f32 ? in_words.handle() : job.buffer(a.bytes(), Buffer::Kind::device).handle();
    Work b = a;
    Buffer& out_words = job.buffer(out_bytes, Buffer::Kind::device);
    b.buffer = out_type == ElementType::f32 ? out_words.handle() : job.buffer(a.bytes(), Buffer::Kind::device).handle();
    Buffer& down = job.buffer(out_bytes, Buffer::Kind::download);
    job.timestamp("start");
    job.copy(up.handle(), in_words.handle(), in_bytes);
    if (in_type != ElementType::f32) record_convert(job, in_words.handle(), 0, a.buffer, count, 0, in_type, false);
    job.timestamp("uploaded");
    record_algorithm(job, a, b, spec);
    job.timestamp("blurred");
    if (out_type != ElementType::f32) record_convert(job, out_words.handle(), 0, b.buffer, count, 0, out_type, true);
    job.copy(out_words.handle(), down.handle(), out_bytes);
    job.host_barrier();
    job.timestamp("downloaded");
    job.run();
    down.invalidate();
    scatter(static_cast<const std::byte*>(down.data()), dst);
    if (timing) {
      const auto t = job.timestamps();
      if (t.size() == 4) {
        timing->gpu_blur_ms = t[2].second - t[1].second;
        timing->gpu_transfer_ms = t[1].second + (t[3].second - t[2].second);
      }
      timing->total_ms = ms_since(start);
    }
    return;
  }

  // Tiles. Read the whole source first where writing the destination could change it.
  std::vector<std::byte> snapshot;
  View source = src;
  if (core::views_overlap(src, dst)) {
    snapshot.resize(static_cast<std::size_t>(W * H * D * C) * element_size(src.type));
    source = core::copy_packed(src, snapshot.data());
  }
  std::vector<float> in, out;
  for (const Piece& p : pieces) {
    const auto e = p.extent();
    const std::size_t floats = static_cast<std::size_t>(e[0] * e[1] * e[2] * C);
    in.resize(floats);
    out.resize(floats);
    gather_piece(source, spec, p, in.data());
    blur_piece(ctx, in, out, e, C, spec, {p.lo[0] - p.halo[0], p.lo[1] - p.halo[1]}, timing);
    put_piece(out.data(), p, dst);
  }
  if (timing) timing->total_ms = ms_since(start);
}

}  // namespace fastblur::vk
