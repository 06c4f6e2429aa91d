// Devices: the CPU, or a Vulkan device (when the build has the Vulkan backend).
#include "fastblur/device.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "fastblur/error.hpp"
#include "device_access.hpp"
#include "fastblur/plan.hpp"
#include "fastblur/serialize.hpp"
#include "fastblur/validate.hpp"
#include "front_door.hpp"
#include "plan/planner.hpp"

#ifdef FASTBLUR_HAVE_VULKAN
#include "vulkan/context.hpp"
#include "vulkan/gpu_blur.hpp"
#include "vulkan/work.hpp"
#endif

namespace fastblur {

Device Device::cpu() { return Device(); }

bool Device::operator==(const Device& other) const noexcept {
  return DeviceAccess::context(*this) == DeviceAccess::context(other);
}

Plan make_plan(const BlurSpec& spec, const View& src, const Device& device) {
  return make_plan(spec, src, src.type, device);
}


Device Device::parse(std::string_view text, const OptionNames& names) {
  const DeviceName name = parse_device_name(text, names);  // the grammar (validate.hpp)
  switch (name.kind) {
    case DeviceName::Kind::cpu: return cpu();
    case DeviceName::Kind::vulkan: return vulkan();
    case DeviceName::Kind::vulkan_index: return vulkan(name.index);
    case DeviceName::Kind::vulkan_name: return vulkan(std::string_view(name.name));
  }
  return cpu();
}

#ifdef FASTBLUR_HAVE_VULKAN

bool vulkan_available() noexcept { return true; }

std::vector<DeviceInfo> vulkan_devices() {
  std::vector<DeviceInfo> out;
  const auto devices = vk::physical_devices();
  for (std::size_t i = 0; i < devices.size(); ++i) out.push_back(vk::describe(devices[i], static_cast<int>(i)));
  return out;
}

namespace {

int choose_device(const std::vector<DeviceInfo>& devices) {
  if (devices.empty()) throw DeviceError("no Vulkan device with a compute queue");
  if (const char* env = std::getenv("FASTBLUR_DEVICE"); env && *env) {
    const std::string want = env;
    char* end = nullptr;
    const long index = std::strtol(env, &end, 10);
    if (end && *end == '\0') {
      if (index < 0 || index >= static_cast<long>(devices.size()))
        throw DeviceError("FASTBLUR_DEVICE=" + want + ": there is no Vulkan device " + want + " (there are " +
                          std::to_string(devices.size()) + ")");
      return static_cast<int>(index);
    }
    for (const auto& d : devices)
      if (d.name.find(want) != std::string::npos) return d.index;
    throw DeviceError("FASTBLUR_DEVICE=" + want + ": no Vulkan device's name contains it");
  }
  for (const char* type : {"discrete", "integrated"})
    for (const auto& d : devices)
      if (d.type == type) return d.index;
  return 0;
}

}  // namespace

Device Device::vulkan(int index) {
  return DeviceAccess::make(vk::context_for(index < 0 ? choose_device(vulkan_devices()) : index));
}

Device Device::vulkan(std::string_view name_part) {
  for (const auto& info : vulkan_devices())
    if (info.name.find(name_part) != std::string::npos) return vulkan(info.index);
  throw DeviceError("no Vulkan device's name contains '" + std::string(name_part) + "'");
}

std::string Device::description() const {
  if (!impl_) return "cpu";
  const vk::Context& ctx = *impl_->context;
  return "vulkan:" + std::to_string(ctx.info().index) + " (" + ctx.info().name + ")";
}

Plan make_plan(const BlurSpec& spec, const View& src, ElementType destination, const Device& device) {
  if (device.is_cpu()) return make_plan(spec, src, destination, Backend::cpu);
  return planner::plan_for(
      spec, vk::shape_on(*DeviceAccess::context(device), src.extent, src.channels, src.type, destination));
}

void blur(const View& src, const View& dst, const BlurSpec& spec, const Device& device) {
  if (device.is_cpu()) {
    blur(src, dst, spec);
    return;
  }
  front_door::check_views(src, dst);
  const Plan plan = planner::plan_for(
      spec, vk::shape_on(*DeviceAccess::context(device), src.extent, src.channels, src.type, dst.type),
      planner::Prediction::to_run);
  front_door::record_run(plan);
  front_door::with_separate_source(src, dst, [&](const View& source) {
    vk::gpu_blur(DeviceAccess::context(device), source, dst, plan);
  });
}

void blur(const View& src, const View& dst, const Plan& plan, const Device& device) {
  if (plan.schedule.backend == Backend::cpu) {
    if (!device.is_cpu()) throw InvalidArgument("this plan is for the CPU, not " + device.description());
    blur(src, dst, plan);
    return;
  }
  if (device.is_cpu()) throw InvalidArgument("this plan is for the Vulkan backend: give its device");
  front_door::check_views(src, dst);
  planner::check_plan_fits(plan, src, dst);
  const auto context = DeviceAccess::context(device);
  // The plan may come from another device (or none): this one must run it as it stands.
  algo::descriptor(plan.algorithm)
      .check(plan.spec, vk::shape_on(*context, src.extent, src.channels, src.type, dst.type));
  front_door::record_run(plan);
  front_door::with_separate_source(src, dst, [&](const View& source) { vk::gpu_blur(context, source, dst, plan); });
}

#else  // a build without Vulkan


bool vulkan_available() noexcept { return false; }
Plan make_plan(const BlurSpec& spec, const View& src, ElementType destination, const Device& device) {
  if (!device.is_cpu()) throw Unsupported("this build of fastblur has no Vulkan backend");
  return make_plan(spec, src, destination, Backend::cpu);
}
void blur(const View& src, const View& dst, const Plan& plan, const Device& device) {
  if (!device.is_cpu() || plan.schedule.backend != Backend::cpu)
    throw Unsupported("this build of fastblur has no Vulkan backend");
  blur(src, dst, plan);
}
std::vector<DeviceInfo> vulkan_devices() { throw Unsupported("this build of fastblur has no Vulkan backend"); }
Device Device::vulkan(int) { throw Unsupported("this build of fastblur has no Vulkan backend"); }
Device Device::vulkan(std::string_view) { throw Unsupported("this build of fastblur has no Vulkan backend"); }
std::string Device::description() const { return "cpu"; }
void blur(const View& src, const View& dst, const BlurSpec& spec, const Device& device) {
  if (!device.is_cpu()) throw Unsupported("this build of fastblur has no Vulkan backend");
  blur(src, dst, spec);
}

// Device images need the backend; no Device but the CPU exists here.
struct DeviceImage::Impl {};
DeviceImage::DeviceImage(const Device&, std::int64_t, std::int64_t, std::int64_t, int, ElementType) {
  throw Unsupported("this build of fastblur has no Vulkan backend: DeviceImage needs it");
}
void DeviceImage::upload(const View&) { throw Unsupported("this build of fastblur has no Vulkan backend"); }
void DeviceImage::download(const View&) const { throw Unsupported("this build of fastblur has no Vulkan backend"); }
std::int64_t DeviceImage::width() const noexcept { return 0; }
std::int64_t DeviceImage::height() const noexcept { return 0; }
std::int64_t DeviceImage::depth() const noexcept { return 0; }
int DeviceImage::channels() const noexcept { return 0; }
ElementType DeviceImage::type() const noexcept { return ElementType::f32; }
const Device& DeviceImage::device() const noexcept {
  static const Device cpu = Device::cpu();
  return cpu;
}
void blur(const DeviceImage&, DeviceImage&, const BlurSpec&) {
  throw Unsupported("this build of fastblur has no Vulkan backend");
}

#endif

std::string devices_json() {
  std::vector<DeviceInfo> vulkan;
  if (vulkan_available()) {
    try {
      vulkan = vulkan_devices();
    } catch (const Error&) {  // no loader or driver: the CPU alone (`fastblur devices` says why)
    }
  }
  return devices_json(vulkan);
}

}  // namespace fastblur
