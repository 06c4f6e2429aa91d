// The Vulkan backend on host views: the image travels in its own element type (u8 moves a byte per
// value) and is widened to float32 on the device (convert.comp), blurred by the algorithm's
// recorder, narrowed and sent back. Images beyond what one piece may hold (the storage-buffer range,
// or the 2D image limit of the texture-based algorithms) are blurred in the plan's tiles
// (tiling/pieces.hpp): each cut out with a halo as wide as the plan's support, extended by the border
// modes on the host where it leaves the image, and only its interior kept - the same result as in one
// piece.
#include "vulkan/gpu_blur.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/border.hpp"
#include "core/element.hpp"
#include "core/element_convert.hpp"
#include "core/overlap.hpp"
#include "core/threads.hpp"
#include "fastblur/error.hpp"
#include "tiling/pieces.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/shaders.hpp"
#include "vulkan/stopwatch.hpp"
#include "vulkan/work.hpp"

namespace fastblur::vk {
namespace {


// Host rows [first, last) of `v` (any layout; rows numbered z H + y) to the packed bytes of its
// wire type (ToWire), or back; row r at wire + r * row bytes. f64 and NumPy's other types travel as f32,
// u8, u16, f16 and f32 in their own type, a row at a time where its pixels are packed; rows on OpenMP's threads where there are enough
// (core::threads_for), each thread with its own scratch.
template <bool ToWire>
void transfer(const View& v, std::byte* wire, std::int64_t first, std::int64_t last) {
  const ElementType wt = wire_type(v.type);
  const std::int64_t W = v.width(), H = v.height();
  const std::size_t px = element_size(v.type) * static_cast<std::size_t>(v.channels);
  const std::size_t row = static_cast<std::size_t>(W * v.channels) * element_size(wt);
  const int threads = core::threads_for(static_cast<double>(row) * static_cast<double>(last - first) * 0.5, 0);
#pragma omp parallel num_threads(threads)
  {
    std::vector<std::byte> scratch(static_cast<std::size_t>(W * v.channels) * 8);
    std::vector<float> f(wt != v.type ? static_cast<std::size_t>(W * v.channels) : 0);
#pragma omp for schedule(static)
    for (std::int64_t r = first; r < last; ++r) {
      const std::int64_t z = r / H, y = r % H;
      std::byte* w = wire + static_cast<std::size_t>(r) * row;
      if (wt != v.type) {
        if constexpr (ToWire) {
          core::read_row(v, 0, y, z, W, f.data(), scratch.data());
          std::memcpy(w, f.data(), row);
        } else {
          std::memcpy(f.data(), w, row);
          core::write_row(f.data(), v, 0, y, z, W, scratch.data());
        }
      } else if (v.stride[0] == static_cast<std::ptrdiff_t>(px)) {
        if constexpr (ToWire) std::memcpy(w, v.pixel(0, y, z), row);
        else std::memcpy(v.pixel(0, y, z), w, row);
      } else {
        for (std::int64_t x = 0; x < W; ++x) {
          if constexpr (ToWire) std::memcpy(w + static_cast<std::size_t>(x) * px, v.pixel(x, y, z), px);
          else std::memcpy(v.pixel(x, y, z), w + static_cast<std::size_t>(x) * px, px);
        }
      }
    }
  }
}

// One piece: float32 in, float32 out, through the device.
void blur_piece(const std::shared_ptr<Context>& ctx, const std::vector<float>& in, std::vector<float>& out,
                std::array<std::int64_t, 3> extent, int channels, const Plan& plan, std::array<std::int64_t, 2> origin,
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
  record_algorithm(job, a, b, plan, origin);
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


// One piece: the image travels in its own type and is converted on the device. A large image goes
// in parts of rows: each part's upload is submitted as soon as it is packed, so the host packs the
// next part while the device copies this one, and on the way back each part is unpacked while the
// next one downloads.
void blur_whole(const std::shared_ptr<Context>& ctx, const View& src, const View& dst, const Plan& plan, Timing* timing,
                Clock::time_point start) {
  const std::int64_t W = src.width(), H = src.height(), D = src.depth();
  const int C = src.channels;
  Job job(ctx);
  Work a;
  a.extent = {W, H, D};
  a.channels = C;
  const std::uint64_t count = static_cast<std::uint64_t>(a.pixels() * C);
  const ElementType in_type = wire_type(src.type), out_type = wire_type(dst.type);
  const std::uint64_t in_bytes = wire_bytes(count, in_type), out_bytes = wire_bytes(count, out_type);
  const std::int64_t rows = H * D;
  const std::int64_t parts = std::clamp<std::int64_t>(plan.schedule.transfer_parts, 1, rows);  // the plan's
  const auto row_of = [&](std::int64_t part) { return rows * part / parts; };
  const std::uint64_t in_row = static_cast<std::uint64_t>(W * C) * element_size(in_type);
  const std::uint64_t out_row = static_cast<std::uint64_t>(W * C) * element_size(out_type);
  Buffer& up = job.buffer(in_bytes, Buffer::Kind::upload);
  Buffer& in_words = job.buffer(in_bytes, Buffer::Kind::device);
  a.buffer = in_type == ElementType::f32 ? in_words.handle() : job.buffer(a.bytes(), Buffer::Kind::device).handle();
  Work b = a;
  Buffer& out_words = job.buffer(out_bytes, Buffer::Kind::device);
  b.buffer = out_type == ElementType::f32 ? out_words.handle() : job.buffer(a.bytes(), Buffer::Kind::device).handle();
  Buffer& down = job.buffer(out_bytes, Buffer::Kind::download);
  double pack_ms = 0.0;
  job.timestamp("start");
  for (std::int64_t part = 0; part < parts; ++part) {
    const auto pack_start = Clock::now();
    transfer<true>(src, static_cast<std::byte*>(up.data()), row_of(part), row_of(part + 1));
    pack_ms += ms_since(pack_start);
    up.flush();
    const std::uint64_t at = static_cast<std::uint64_t>(row_of(part)) * in_row;
    job.copy(up.handle(), in_words.handle(), static_cast<std::uint64_t>(row_of(part + 1)) * in_row - at, at, at);
    if (part + 1 < parts) job.submit_part();
  }
  job.timestamp("uploaded");  // the blur's time includes the conversions from and to the wire type
  if (in_type != ElementType::f32) record_convert(job, in_words.handle(), 0, a.buffer, count, 0, in_type, false);
  record_algorithm(job, a, b, plan);
  if (out_type != ElementType::f32) record_convert(job, out_words.handle(), 0, b.buffer, count, 0, out_type, true);
  job.timestamp("blurred");
  std::vector<std::size_t> downloaded;
  for (std::int64_t part = 0; part < parts; ++part) {
    const std::uint64_t at = static_cast<std::uint64_t>(row_of(part)) * out_row;
    job.copy(out_words.handle(), down.handle(), static_cast<std::uint64_t>(row_of(part + 1)) * out_row - at, at, at);
    job.host_barrier();
    if (part + 1 == parts) job.timestamp("downloaded");
    downloaded.push_back(job.submit_part());
  }
  for (std::int64_t part = 0; part < parts; ++part) {
    job.wait_part(downloaded[static_cast<std::size_t>(part)]);
    down.invalidate();
    const auto unpack_start = Clock::now();
    transfer<false>(dst, static_cast<std::byte*>(down.data()), row_of(part), row_of(part + 1));
    pack_ms += ms_since(unpack_start);
  }
  job.run();  // nothing left to run: the timestamps' results
  if (timing) {
    const auto t = job.timestamps();
    if (t.size() == 4) {
      timing->gpu_blur_ms = t[2].second - t[1].second;
      // With parts, the spans of the uploads and downloads (the device waits for packed parts).
      timing->gpu_transfer_ms = t[1].second + (t[3].second - t[2].second);
    }
    timing->total_ms = ms_since(start);
    timing->host_pack_ms = pack_ms;
    timing->host_overhead_ms = std::max(0.0, timing->total_ms - pack_ms - (t.size() == 4 ? t[3].second : 0.0));
    timing->transfer_parts = static_cast<int>(parts);
  }
}

// Pieces with their halos, each gathered, blurred and put back in float32 (blur_piece).
void blur_in_pieces(const std::shared_ptr<Context>& ctx, const View& src, const View& dst, const Plan& plan, Timing* timing,
                    const std::vector<tiling::Piece>& pieces) {
  const std::int64_t W = src.width(), H = src.height(), D = src.depth();
  const int C = src.channels;
  // Read the whole source first where writing the destination could change it (in place).
  std::vector<std::byte> snapshot;
  View source = src;
  if (core::views_overlap(src, dst)) {
    snapshot.resize(static_cast<std::size_t>(W * H * D * C) * element_size(src.type));
    source = core::copy_packed(src, snapshot.data());
  }
  std::vector<float> in, out;
  for (const tiling::Piece& p : pieces) {
    const auto e = p.extent();
    const std::size_t floats = static_cast<std::size_t>(e[0] * e[1] * e[2] * C);
    in.resize(floats);
    out.resize(floats);
    tiling::gather(source, p, plan.spec.border, plan.spec.cval, in.data());
    blur_piece(ctx, in, out, e, C, plan, {p.lo[0] - p.halo[0], p.lo[1] - p.halo[1]}, timing);
    tiling::put(out.data(), p, dst);
  }
}

}  // namespace

void gpu_blur(const std::shared_ptr<Context>& ctx, const View& src, const View& dst, const Plan& plan, Timing* timing) {
  const auto start = Clock::now();
  if (timing) *timing = Timing{};
  if (std::max({src.width(), src.height(), src.depth()}) > (1 << 30))
    throw Unsupported("an axis longer than 2^30 samples on the Vulkan backend");
  const std::vector<tiling::Piece> pieces = tiling::pieces(src.extent, plan.schedule.tile, tiling::piece_grid(plan).halo);
  if (timing) timing->pieces = static_cast<int>(pieces.size());
  if (pieces.size() == 1) return blur_whole(ctx, src, dst, plan, timing, start);
  blur_in_pieces(ctx, src, dst, plan, timing, pieces);
  if (timing) timing->total_ms = ms_since(start);
}

}  // namespace fastblur::vk
