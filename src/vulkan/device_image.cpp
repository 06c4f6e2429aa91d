// DeviceImage: an image resident in a Vulkan device's memory, packed in its element type, and
// blurs between such images that never touch the host.
#include <cstring>
#include <string>

#include "core/element.hpp"
#include "core/threads.hpp"
#include "device_access.hpp"
#include "plan/planner.hpp"
#include "fastblur/device.hpp"
#include "fastblur/error.hpp"
#include "vulkan/buffer.hpp"
#include "vulkan/context.hpp"
#include "vulkan/job.hpp"
#include "vulkan/work.hpp"

namespace fastblur {

struct DeviceImage::Impl {
  Device device;
  std::array<std::int64_t, 3> extent{1, 1, 1};
  int channels = 1;
  ElementType type = ElementType::f32;
  std::unique_ptr<vk::Buffer> buffer;

  std::uint64_t count() const { return static_cast<std::uint64_t>(extent[0] * extent[1] * extent[2] * channels); }
  std::uint64_t bytes() const { return vk::wire_bytes(count(), type); }
  vk::Work work_shape() const {
    vk::Work w;
    w.extent = extent;
    w.channels = channels;
    return w;
  }
};

namespace {

void check_same_shape(const DeviceImage& image, const View& v, const char* what) {
  validate_source(v);
  if (v.width() != image.width() || v.height() != image.height() || v.depth() != image.depth() ||
      v.channels != image.channels())
    throw InvalidArgument(std::string(what) + ": the view is " + std::to_string(v.width()) + "x" +
                          std::to_string(v.height()) + "x" + std::to_string(v.depth()) + "x" + std::to_string(v.channels) +
                          ", the device image " + std::to_string(image.width()) + "x" + std::to_string(image.height()) +
                          "x" + std::to_string(image.depth()) + "x" + std::to_string(image.channels()));
}

// Rows of `v` to (ToStaging) or from the packed staging bytes of `type`: one memcpy a row where the
// view's pixels are packed in that type, element by element (converting) otherwise; rows on
// OpenMP's threads where the image is large enough (core::threads_for).
template <bool ToStaging>
void pack_rows(const View& v, ElementType type, std::byte* staging) {
  const std::int64_t W = v.width(), H = v.height(), rows = v.depth() * H;
  const int C = v.channels;
  const std::size_t es = element_size(v.type), ts = element_size(type);
  const std::size_t row = static_cast<std::size_t>(W * C) * ts;
  const bool same = v.type == type && v.stride[0] == static_cast<std::ptrdiff_t>(es * static_cast<std::size_t>(C));
  const int threads = core::threads_for(static_cast<double>(row) * static_cast<double>(rows) * 0.5, 0);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t r = 0; r < rows; ++r) {
    const std::int64_t z = r / H, y = r % H;
    std::byte* s = staging + static_cast<std::size_t>(r) * row;
    if (same) {
      if constexpr (ToStaging) std::memcpy(s, v.pixel(0, y, z), row);
      else std::memcpy(v.pixel(0, y, z), s, row);
      continue;
    }
    for (std::int64_t x = 0; x < W; ++x)
      for (int c = 0; c < C; ++c) {
        std::byte* p = v.pixel(x, y, z) + static_cast<std::size_t>(c) * es;
        std::byte* e = s + static_cast<std::size_t>(x * C + c) * ts;
        if (v.type == type) {  // bits as they are (NaN payloads too)
          if constexpr (ToStaging) std::memcpy(e, p, es);
          else std::memcpy(p, e, es);
        } else if constexpr (ToStaging) {
          core::store_element(type, e, core::load_element(v.type, p));
        } else {
          core::store_element(v.type, p, core::load_element(type, e));
        }
      }
  }
}

}  // namespace

DeviceImage::DeviceImage(const Device& device, std::int64_t width, std::int64_t height, std::int64_t depth, int channels,
                         ElementType type) {
  if (device.is_cpu()) throw InvalidArgument("a DeviceImage lives on a Vulkan device, not the CPU");
  if (width < 1 || height < 1 || depth < 1 || channels < 1 || channels > 4)
    throw InvalidArgument("a DeviceImage needs extents >= 1 and 1 to 4 channels");
  if (type != ElementType::u8 && type != ElementType::u16 && type != ElementType::f16 && type != ElementType::f32)
    throw InvalidArgument("a DeviceImage holds u8, u16, f16 or f32, not " + std::string(to_string(type)) +
                          " (the device computes in float)");
  impl_ = std::make_shared<Impl>();
  impl_->device = device;
  impl_->extent = {width, height, depth};
  impl_->channels = channels;
  impl_->type = type;
  const double floats = static_cast<double>(width) * static_cast<double>(height) * static_cast<double>(depth) * channels;
  const auto context = DeviceAccess::context(device);
  if (floats * 4 > static_cast<double>(context->piece_limit()))
    throw Unsupported("a DeviceImage of " + std::to_string(width) + "x" + std::to_string(height) + "x" +
                      std::to_string(depth) + "x" + std::to_string(channels) + " exceeds what " +
                      context->info().name + " blurs in one piece (" + std::to_string(context->piece_limit()) +
                      " bytes as float32); blur it from host memory, which tiles it");
  impl_->buffer = std::make_unique<vk::Buffer>(context, impl_->bytes(), vk::Buffer::Kind::device);
}

std::int64_t DeviceImage::width() const noexcept { return impl_->extent[0]; }
std::int64_t DeviceImage::height() const noexcept { return impl_->extent[1]; }
std::int64_t DeviceImage::depth() const noexcept { return impl_->extent[2]; }
int DeviceImage::channels() const noexcept { return impl_->channels; }
ElementType DeviceImage::type() const noexcept { return impl_->type; }
const Device& DeviceImage::device() const noexcept { return impl_->device; }

void DeviceImage::upload(const View& src) {
  check_same_shape(*this, src, "DeviceImage::upload");
  const Impl& s = *impl_;
  vk::Job job(DeviceAccess::context(s.device));
  vk::Buffer& staging = job.buffer(s.bytes(), vk::Buffer::Kind::upload);
  pack_rows<true>(src, s.type, static_cast<std::byte*>(staging.data()));
  staging.flush();
  job.copy(staging.handle(), s.buffer->handle(), s.bytes());
  job.run();
}

void DeviceImage::download(const View& dst) const {
  check_same_shape(*this, dst, "DeviceImage::download");
  validate_destination(dst);
  const Impl& s = *impl_;
  vk::Job job(DeviceAccess::context(s.device));
  vk::Buffer& staging = job.buffer(s.bytes(), vk::Buffer::Kind::download);
  job.copy(s.buffer->handle(), staging.handle(), s.bytes());
  job.host_barrier();
  job.run();
  staging.invalidate();
  pack_rows<false>(dst, s.type, static_cast<std::byte*>(staging.data()));
}

void blur(const DeviceImage& src, DeviceImage& dst, const BlurSpec& spec) {
  const auto& a = *src.impl_;
  const auto& b = *dst.impl_;
  if (!(a.device == b.device)) throw InvalidArgument("the two DeviceImages are on different devices");
  if (a.extent != b.extent || a.channels != b.channels) throw InvalidArgument("the two DeviceImages differ in shape");
  const auto context = DeviceAccess::context(a.device);
  const Plan plan = planner::plan_for(spec, vk::shape_on(*context, a.extent, a.channels, a.type, b.type),
                                      planner::Prediction::to_run);
  vk::Job job(context);
  // Float32 images are the work images themselves; others convert on the way in and out.
  vk::Work in = a.work_shape();
  if (a.type == ElementType::f32) {
    in.buffer = a.buffer->handle();
  } else {
    in = vk::work_like(job, in);
    vk::record_convert(job, a.buffer->handle(), 0, in.buffer, a.count(), 0, a.type, false);
  }
  const bool direct = b.type == ElementType::f32 && b.buffer.get() != a.buffer.get();
  vk::Work out = b.work_shape();
  out = direct ? vk::Work{b.buffer->handle(), b.extent, b.channels} : vk::work_like(job, out);
  vk::record_algorithm(job, in, out, plan);
  if (!direct) {
    if (b.type == ElementType::f32) job.copy(out.buffer, b.buffer->handle(), out.bytes());
    else vk::record_convert(job, b.buffer->handle(), 0, out.buffer, b.count(), 0, b.type, true);
  }
  job.run();
}

}  // namespace fastblur
