#pragma once
/// @file
/// Where a blur runs: the CPU, or a Vulkan compute device.
///
/// `blur(src, dst, spec, Device::vulkan())` uploads host views, blurs on the device and downloads
/// the result, with the same contract as the CPU `blur` (borders, aliasing, types, errors). Data
/// travels as packed float32 (every element type converts exactly; integer outputs are rounded
/// and saturated on the host, as on the CPU). Errors: no Vulkan loader or device, out of device
/// memory, a lost device, an algorithm the backend lacks - each a fastblur::Error (DeviceError,
/// OutOfMemory, Unsupported), never a silent CPU fallback.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "fastblur/blur.hpp"
#include "fastblur/plan.hpp"
#include "fastblur/validate.hpp"

namespace fastblur {

/// One Vulkan physical device as `vulkan_devices` lists it.
struct DeviceInfo {
  int index = 0;
  std::string name;
  std::string type;                     ///< "discrete", "integrated", "virtual", "cpu" or "other"
  std::string api_version;              ///< e.g. "1.3.230"
  std::uint64_t memory_bytes = 0;       ///< the largest device-local heap
  std::uint32_t max_shared_memory = 0;  ///< maxComputeSharedMemorySize
  std::uint32_t subgroup_size = 0;
  std::uint64_t max_storage_buffer_range = 0;
  /// VkPhysicalDeviceIDProperties::deviceUUID as 32 hex digits: the same bytes as CUDA's
  /// cuDeviceGetUuid for the same GPU (how fastblur::cuda finds a CUDA array's Vulkan device).
  std::string uuid;
};

/// Whether this build has the Vulkan backend.
bool vulkan_available() noexcept;

/// The devices present as JSON (serialize.hpp's devices_json): the CPU, then every Vulkan device
/// (none where the build has no Vulkan, or no loader or driver is found). The one list the front ends
/// show (fastblur.devices(), the explorer).
std::string devices_json();

/// The Vulkan devices present, in the loader's order. Throws DeviceError if the Vulkan loader or
/// an instance cannot be had, Unsupported in a build without Vulkan.
std::vector<DeviceInfo> vulkan_devices();

class Device {
 public:
  /// The CPU backend (the default of blur(src, dst, spec)).
  static Device cpu();
  /// A Vulkan device by index into vulkan_devices(); -1 chooses: the environment variable
  /// FASTBLUR_DEVICE (an index, or part of a device's name) if set, else the first discrete GPU,
  /// else the first integrated GPU, else the first device. Throws DeviceError when there is none
  /// or the index is out of range.
  static Device vulkan(int index = -1);
  /// The first Vulkan device whose name contains `name_part`.
  static Device vulkan(std::string_view name_part);
  /// A device by name, as the CLI's --device and Python's device= take it: "cpu", "vulkan" (the
  /// choice of vulkan(-1)), "vulkan:N" (an index) or "vulkan:NAME" (part of a device's name).
  /// The grammar is parse_device_name's (validate.hpp): InvalidArgument for any other text, naming
  /// the option as `names` spell it; DeviceError or Unsupported as vulkan() does.
  static Device parse(std::string_view text, const OptionNames& names = OptionNames());

  bool is_cpu() const noexcept { return !impl_; }
  /// "cpu", or "vulkan:N (name)".
  std::string description() const;
  /// Whether two devices are the same one (both the CPU, or the same Vulkan device and queue).
  bool operator==(const Device& other) const noexcept;

  struct Impl;  ///< the backend's state (src/device_access.hpp); null for the CPU

 private:
  std::shared_ptr<const Impl> impl_;
  friend struct DeviceAccess;
};

/// Blurs src into dst on `device` (see blur.hpp for the contract). Which algorithms the Vulkan
/// backend runs, and on which shapes, is the registry's (algorithm.hpp: AlgorithmInfo::runs_on);
/// others throw Unsupported there. automatic plans for the device. Images larger than the device
/// holds in one piece are blurred in tiles, with the same result.
void blur(const View& src, const View& dst, const BlurSpec& spec, const Device& device);

/// The plan for `device`: the CPU's, or the Vulkan device's (its traits decide box's schedule, iir's
/// precision and the tiles). The destination is taken to have the source's type unless given.
Plan make_plan(const BlurSpec& spec, const View& src, const Device& device);
Plan make_plan(const BlurSpec& spec, const View& src, ElementType destination, const Device& device);

/// Runs a plan made for `device` (make_plan above), with its schedule as it stands.
void blur(const View& src, const View& dst, const Plan& plan, const Device& device);

/// A stack of 2D images (slice k at z = k: a batch, each sample's channels interleaved or each
/// channel a slice of its own) blurred slice by slice, slice k with specs[k] (specs.size() ==
/// src.depth(); no spec blurs along z): a batch with a sigma per sample. Slice k of dst is what
/// blur(slice k of src, slice k of dst, specs[k], device) gives, bit for bit on the CPU, in one call:
/// the CPU runs the slices on its threads (specs[0].threads; a slice per thread); a Vulkan device
/// runs each slice's plan (CUDA arrays run the stack in one submission: cuda.hpp). The plan is
/// SlicedPlan's (make_sliced_plan). Throws what blur() throws, and InvalidArgument for the count.
void blur_slices(const View& src, const View& dst, const std::vector<BlurSpec>& specs, const Device& device);
/// The plan blur_slices runs on `device` for a stack of src's shape.
SlicedPlan make_sliced_plan(const std::vector<BlurSpec>& specs, const View& src, ElementType destination, const Device& device);

/// An image that stays in a Vulkan device's memory, so several blurs can be chained without
/// round trips through the host: upload once, blur as often as needed (into other device images
/// or in place), download once. Stored packed in its element type (u8, u16, f16 or f32; 1 to 4
/// interleaved channels; 2D or 3D). Copies share the same device memory. Its float32 form must fit
/// the device's storage-buffer range (lavapipe: 128 MiB); larger images blur from host memory,
/// which tiles them.
class DeviceImage {
 public:
  /// Allocates an image of this shape on `device` (a Vulkan device). Contents are undefined until
  /// uploaded or blurred into. Throws InvalidArgument (bad shape, f64, a CPU device), Unsupported
  /// (too large), OutOfMemory.
  DeviceImage(const Device& device, std::int64_t width, std::int64_t height, std::int64_t depth, int channels,
              ElementType type);
  /// Host -> device; `src` has the image's extents and channels, any element type and layout.
  void upload(const View& src);
  /// Device -> host; `dst` has the image's extents and channels, any element type and layout.
  void download(const View& dst) const;

  std::int64_t width() const noexcept;
  std::int64_t height() const noexcept;
  std::int64_t depth() const noexcept;
  int channels() const noexcept;
  ElementType type() const noexcept;
  const Device& device() const noexcept;

  struct Impl;  ///< the device buffer (src/vulkan/device_image.cpp)

 private:
  std::shared_ptr<Impl> impl_;
  friend void blur(const DeviceImage& src, DeviceImage& dst, const BlurSpec& spec);
};

/// Blurs a device image into another of the same shape on the same device (or into itself),
/// without touching host memory. Same contract as blur() otherwise (automatic plans for the GPU).
void blur(const DeviceImage& src, DeviceImage& dst, const BlurSpec& spec);

}  // namespace fastblur
