#pragma once
/// @file
/// Vulkan interop for engines: blur images and buffers that live on the caller's own Vulkan device
/// (bloom, depth of field, UI blur), without a trip through host memory. The only public header
/// that includes <vulkan/vulkan.h>; the rest of fastblur needs none. fastblur links only Vulkan's
/// headers and opens the loader (libvulkan.so.1) at run time, at adopt() at the latest: an engine
/// that calls Vulkan itself links the loader as ever (CMake: Vulkan::Vulkan).
///
/// Synchronisation: blur() submits to the adopted queue and waits; record() only records into the
/// caller's command buffer (after a barrier that waits for earlier compute, transfer and colour
/// writes), and the caller submits it, waits, and only then destroys the Recording. Either way the
/// caller must not use the queue from another thread meanwhile (Vulkan's rule for queues).
///
/// Queue families: a resource created VK_SHARING_MODE_CONCURRENT (with the adopted queue's family
/// among its families), or EXCLUSIVE and last used on the adopted queue's family, needs nothing.
/// An EXCLUSIVE resource owned by another family (say the engine's graphics queue while fastblur
/// runs on its async-compute queue) names that family in `owner_family`: fastblur then records the
/// acquire half of Vulkan's ownership transfer before its first use and the release half back to
/// that family after its last; the caller records the matching release (before) and acquire
/// (after) on a queue of that family, with the same layouts, and orders them with semaphores.
/// Without both halves the contents are undefined on GPUs that keep per-family caches or
/// compression. VK_QUEUE_FAMILY_EXTERNAL names memory shared with another API (fastblur/cuda.hpp's
/// buffers, which CUDA writes and reads).
#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>

#include "fastblur/device.hpp"
#include "fastblur/plan.hpp"

namespace fastblur::vulkan {

/// A fastblur Device on the caller's Vulkan device and a queue of `queue_family` (which must support
/// compute). fastblur creates its own command pool, pipeline cache, pipelines and samplers there and
/// destroys them with the last copy of the Device; it never destroys the caller's handles, which
/// must outlive it. `float64_enabled`: whether the caller enabled shaderFloat64. iir's Deriche variant
/// never needs it (float32 in its parallel form, stable at any sigma); Young-van Vliet uses double
/// only beyond sigma 20, and without shaderFloat64 larger sigmas throw Unsupported.
Device adopt(VkPhysicalDevice physical, VkDevice device, VkQueue queue, std::uint32_t queue_family,
             bool float64_enabled = false);

/// A packed image in the caller's VkBuffer, created with VK_BUFFER_USAGE_STORAGE_BUFFER_BIT: element
/// ((z H + y) W + x) C + c at byte `offset` onwards, of type u8, u16, f16 or f32 (offset a multiple
/// of the element size). Only the image's bytes are read and written: the buffer is bound directly
/// where `offset` meets the device's minStorageBufferOffsetAlignment and the image's size is a
/// multiple of 4 bytes; otherwise the image is copied byte-exactly through a staging buffer, which
/// needs VK_BUFFER_USAGE_TRANSFER_SRC_BIT (source) / TRANSFER_DST_BIT (destination) too.
struct BufferImage {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceSize offset = 0;
  std::int64_t width = 1, height = 1, depth = 1;
  int channels = 1;
  ElementType type = ElementType::f32;
  /// Queue-family ownership (see the file's comment): the family that owns an EXCLUSIVE buffer
  /// used on another family than the adopted queue's; VK_QUEUE_FAMILY_IGNORED when it is owned by
  /// the adopted queue's family or created VK_SHARING_MODE_CONCURRENT.
  std::uint32_t owner_family = VK_QUEUE_FAMILY_IGNORED;
};

/// The caller's 2D VkImage (one mip level, one layer). Sources need VK_IMAGE_USAGE_SAMPLED_BIT and
/// any float or normalised colour format; destinations need VK_IMAGE_USAGE_STORAGE_BIT and one of
/// VK_FORMAT_R8G8B8A8_UNORM, R16G16B16A16_SFLOAT, R32G32B32A32_SFLOAT or R32_SFLOAT. `layout` is the
/// image's layout before the blur, and it is left in that layout (UNDEFINED is not allowed for a
/// source). Normalised formats are blurred as their 0..1 values.
struct ImageRef {
  VkImage image = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  std::uint32_t width = 0, height = 0;
  VkImageLayout layout = VK_IMAGE_LAYOUT_GENERAL;
  int channels = 4;  ///< how many components to blur (and write): 4 for RGBA formats, 1 for R32_SFLOAT
  /// As BufferImage::owner_family; the ownership transfer keeps `layout` (UNDEFINED destinations are
  /// released in VK_IMAGE_LAYOUT_GENERAL).
  std::uint32_t owner_family = VK_QUEUE_FAMILY_IGNORED;
};

/// Blurs on the caller's device, submitting to its queue and waiting. src and dst may be the same.
/// Same contract as fastblur::blur otherwise; the image must fit the device in one piece.
void blur(const Device& device, const BufferImage& src, const BufferImage& dst, const BlurSpec& spec);
void blur(const Device& device, const ImageRef& src, const ImageRef& dst, const BlurSpec& spec);
/// The plan blur() makes for these buffers (their shapes and types are read, not their memory), and
/// blur() running a plan as it stands (made here or by plan(); checked to fit these buffers).
Plan plan(const Device& device, const BufferImage& src, const BufferImage& dst, const BlurSpec& spec);
void blur(const Device& device, const BufferImage& src, const BufferImage& dst, const Plan& plan);

/// GPU work recorded into a caller's command buffer, with the temporary buffers and images it uses.
/// Destroy it only once that command buffer has finished executing.
class Recording {
 public:
  Recording(Recording&&) noexcept;
  Recording& operator=(Recording&&) noexcept;
  ~Recording();

  struct Impl;  ///< the recorded job (src/vulkan/interop.cpp)

 private:
  explicit Recording(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend Recording record(const Device&, VkCommandBuffer, const BufferImage&, const BufferImage&, const BlurSpec&);
  friend Recording record(const Device&, VkCommandBuffer, const ImageRef&, const ImageRef&, const BlurSpec&);
};

/// Records the blur into `commands` (begun, not ended; from a pool of the adopted queue's family).
Recording record(const Device& device, VkCommandBuffer commands, const BufferImage& src, const BufferImage& dst,
                 const BlurSpec& spec);
Recording record(const Device& device, VkCommandBuffer commands, const ImageRef& src, const ImageRef& dst,
                 const BlurSpec& spec);

}  // namespace fastblur::vulkan
