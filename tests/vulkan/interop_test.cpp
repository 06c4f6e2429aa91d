// fastblur/vulkan.hpp as an engine uses it: the test plays the engine, with its own instance,
// device, queue, buffers and images; fastblur adopts the device and blurs the engine's objects,
// synchronously and recorded into the engine's command buffer. Results against the CPU.
#include <gtest/gtest.h>

#include <cstring>

#include "core/element.hpp"
#include "fastblur/error.hpp"
#include "fastblur/vulkan.hpp"
#include "support/test_support.hpp"
#include "vulkan/validation.hpp"
#include "vulkan/vulkan_test_support.hpp"

namespace fastblur {
namespace {

#define VK_OK(call) ASSERT_EQ((call), VK_SUCCESS) << #call

// A minimal engine: one device, one queue, host-visible buffers and device-local images.
class Engine : public ::testing::Test {
 protected:
  void SetUp() override {
    const bool must_run = vk::validation_requested();  // then a missing device or layer fails
    if (!vulkan_available()) {
      if (must_run) GTEST_FAIL() << "FASTBLUR_VULKAN_VALIDATION is set but this build has no Vulkan backend";
      GTEST_SKIP() << "this build has no Vulkan backend";
    }
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_1;
    // The engine's instance carries the validation layer too: fastblur's calls on the adopted
    // device are reported through it.
    try {
      handles_ = vk::create_instance(app);
    } catch (const Error& e) {
      if (must_run) GTEST_FAIL() << e.what();
      GTEST_SKIP() << e.what();
    }
    instance_ = handles_.instance;
    watch_.start();
    std::uint32_t n = 0;
    vkEnumeratePhysicalDevices(instance_, &n, nullptr);
    if (n == 0) {
      if (must_run) GTEST_FAIL() << "no Vulkan device";
      GTEST_SKIP() << "no Vulkan device";
    }
    std::vector<VkPhysicalDevice> all(n);
    vkEnumeratePhysicalDevices(instance_, &n, all.data());
    physical_ = all[0];
    std::uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &nf, nullptr);
    std::vector<VkQueueFamilyProperties> fams(nf);
    vkGetPhysicalDeviceQueueFamilyProperties(physical_, &nf, fams.data());
    for (std::uint32_t i = 0; i < nf; ++i)
      if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
        family_ = i;
        break;
      }
    const float priority = 1.0f;
    VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    q.queueFamilyIndex = family_;
    q.queueCount = 1;
    q.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &q;
    VK_OK(vkCreateDevice(physical_, &dci, nullptr, &device_));
    vkGetDeviceQueue(device_, family_, 0, &queue_);
    VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = family_;
    VK_OK(vkCreateCommandPool(device_, &pci, nullptr, &pool_));
    vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  }
  void TearDown() override {
    if (device_) {
      vkDeviceWaitIdle(device_);
      for (auto& [b, m] : buffers_) vkDestroyBuffer(device_, b, nullptr), vkFreeMemory(device_, m, nullptr);
      for (auto& [i, m] : images_) vkDestroyImage(device_, i, nullptr), vkFreeMemory(device_, m, nullptr);
      if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
      vkDestroyDevice(device_, nullptr);
    }
    vk::destroy_instance(handles_);
    if (instance_) watch_.check();
  }

  std::uint32_t memory_type(std::uint32_t bits, VkMemoryPropertyFlags want) const {
    for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
      if ((bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & want) == want) return i;
    return 0;
  }
  // A host-visible, coherent buffer the engine maps.
  std::pair<VkBuffer, void*> buffer(VkDeviceSize bytes) {
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = bytes;
    bci.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkBuffer b = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateBuffer(device_, &bci, nullptr, &b), VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device_, b, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    VkDeviceMemory m = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateMemory(device_, &ai, nullptr, &m), VK_SUCCESS);
    EXPECT_EQ(vkBindBufferMemory(device_, b, m, 0), VK_SUCCESS);
    void* p = nullptr;
    EXPECT_EQ(vkMapMemory(device_, m, 0, VK_WHOLE_SIZE, 0, &p), VK_SUCCESS);
    buffers_.emplace_back(b, m);
    return {b, p};
  }
  VkImage image(VkFormat format, std::uint32_t w, std::uint32_t h) {
    VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ci.imageType = VK_IMAGE_TYPE_2D;
    ci.format = format;
    ci.extent = {w, h, 1};
    ci.mipLevels = ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.tiling = VK_IMAGE_TILING_OPTIMAL;
    ci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
               VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    VkImage im = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateImage(device_, &ci, nullptr, &im), VK_SUCCESS);
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device_, im, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = memory_type(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkDeviceMemory m = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateMemory(device_, &ai, nullptr, &m), VK_SUCCESS);
    EXPECT_EQ(vkBindImageMemory(device_, im, m, 0), VK_SUCCESS);
    images_.emplace_back(im, m);
    return im;
  }
  VkCommandBuffer begin() {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ai.commandPool = pool_;
    ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ai.commandBufferCount = 1;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    EXPECT_EQ(vkAllocateCommandBuffers(device_, &ai, &cb), VK_SUCCESS);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    EXPECT_EQ(vkBeginCommandBuffer(cb, &bi), VK_SUCCESS);
    return cb;
  }
  void submit(VkCommandBuffer cb) {
    EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    EXPECT_EQ(vkQueueSubmit(queue_, 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
    EXPECT_EQ(vkQueueWaitIdle(queue_), VK_SUCCESS);
    vkFreeCommandBuffers(device_, pool_, 1, &cb);
  }
  void layout(VkCommandBuffer cb, VkImage im, VkImageLayout from, VkImageLayout to) {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    b.oldLayout = from;
    b.newLayout = to;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = im;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                         nullptr, 1, &b);
  }
  void copy(VkCommandBuffer cb, VkBuffer b, VkImage im, std::uint32_t w, std::uint32_t h, bool to_image) {
    VkBufferImageCopy r{};
    r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    r.imageExtent = {w, h, 1};
    if (to_image) vkCmdCopyBufferToImage(cb, b, im, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
    else vkCmdCopyImageToBuffer(cb, im, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, b, 1, &r);
  }

  vk::InstanceHandles handles_;
  test::ValidationWatch watch_;
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  std::uint32_t family_ = 0;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory_{};
  std::vector<std::pair<VkBuffer, VkDeviceMemory>> buffers_;
  std::vector<std::pair<VkImage, VkDeviceMemory>> images_;
};

using test::max_difference;

TEST_F(Engine, BlursTheEnginesBuffersInPlaceAndAtOffsets) {
  auto rng = test::rng_for_test();
  const Device fb = vulkan::adopt(physical_, device_, queue_, family_);
  const std::int64_t w = 45, h = 31;
  for (ElementType type : {ElementType::u8, ElementType::f16, ElementType::f32}) {
    // The image sits 12 bytes into the buffer, after a sentinel the blur must not touch.
    const std::size_t es = element_size(type), bytes = static_cast<std::size_t>(w * h * 4) * es;
    auto [buf, mapped] = buffer(12 + bytes + 16);
    auto* base = static_cast<std::byte*>(mapped);
    std::memset(base, 0x5a, 12 + bytes + 16);
    const View in_buffer = View::packed(base + 12, type, w, h, 1, 4);
    test::fill_random(in_buffer, rng);
    auto original = test::make_buffer(type, w, h, 1, 4), want = original;
    want.view.data = want.bytes.data();
    std::memcpy(original.bytes.data(), base + 12, bytes);
    BlurSpec spec = BlurSpec::isotropic_2d(3.0);
    spec.algorithm = Algorithm::fir;
    spec.with_border(Border::nearest);
    blur(original.view, want.view, spec, fb);  // the same blur through host memory
    const vulkan::BufferImage image{buf, 12, w, h, 1, 4, type};
    vulkan::blur(fb, image, image, spec);  // in place, on the engine's device
    EXPECT_EQ(std::memcmp(base + 12, want.bytes.data(), bytes), 0) << to_string(type);
    for (std::size_t i = 0; i < 12; ++i) ASSERT_EQ(base[i], std::byte{0x5a}) << "before the image";
    for (std::size_t i = 0; i < 16; ++i) ASSERT_EQ(base[12 + bytes + i], std::byte{0x5a}) << "after the image";
  }
}

// Float32 images apart, on the device's storage-buffer alignment (here in one buffer, 256 bytes
// between them, and sentinels around them), are read and written where they lie by every
// algorithm's passes (GpuIo::direct: no conversion passes), with the bits of the converted path;
// in place, or off the alignment, the plan converts.
TEST_F(Engine, FloatImagesApartAreReadAndWrittenWhereTheyLie) {
  auto rng = test::rng_for_test();
  const Device fb = vulkan::adopt(physical_, device_, queue_, family_);
  const std::int64_t w = 53, h = 37;
  const std::size_t bytes = static_cast<std::size_t>(w * h * 4) * sizeof(float), out_at = (256 + bytes + 255) / 256 * 256;
  for (const AlgorithmInfo& a : algorithms()) {
    if (!a.capabilities.vulkan || a.id == Algorithm::automatic || a.id == Algorithm::correlate) continue;
    SCOPED_TRACE(a.name);
    if (a.id == Algorithm::sliding_dct) {  // the fixture's device is made without shaderFloat64: refused, clearly
      std::vector<float> px(static_cast<std::size_t>(w * h * 4), 0.5f);
      const View v = View::packed(px.data(), ElementType::f32, w, h, 1, 4);
      BlurSpec spec = BlurSpec::isotropic_2d(4.0);
      spec.algorithm = a.id;
      try {
        blur(v, v, spec, fb);
        ADD_FAILURE() << "sliding-dct ran on a device without float64";
      } catch (const Unsupported& e) {
        EXPECT_NE(std::string(e.what()).find("float64"), std::string::npos) << e.what();
      }
      continue;
    }
    auto [buf, mapped] = buffer(out_at + bytes + 64);
    auto* base = static_cast<std::byte*>(mapped);
    std::memset(base, 0x5a, out_at + bytes + 64);
    test::fill_random(View::packed(base + 256, ElementType::f32, w, h, 1, 4), rng);
    auto original = test::make_buffer(ElementType::f32, w, h, 1, 4), want = original;
    want.view.data = want.bytes.data();
    std::memcpy(original.bytes.data(), base + 256, bytes);
    BlurSpec spec = BlurSpec::isotropic_2d(4.0);
    spec.algorithm = a.id;
    spec.tolerance = a.capabilities.exact ? 0.0 : 0.05;
    blur(original.view, want.view, spec, fb);  // through host memory: float work converted to and fro
    const vulkan::BufferImage in{buf, 256, w, h, 1, 4, ElementType::f32}, out{buf, out_at, w, h, 1, 4, ElementType::f32};
    EXPECT_EQ(vulkan::plan(fb, in, out, spec).schedule.gpu_io, GpuIo::direct);
    vulkan::blur(fb, in, out, spec);
    EXPECT_EQ(std::memcmp(base + out_at, want.bytes.data(), bytes), 0);
    EXPECT_EQ(std::memcmp(base + 256, original.bytes.data(), bytes), 0) << "the source was written";
    for (std::size_t i = 0; i < 256; ++i) ASSERT_EQ(base[i], std::byte{0x5a}) << "before the source";
    for (std::size_t i = 256 + bytes; i < out_at; ++i) ASSERT_EQ(base[i], std::byte{0x5a}) << "between the images";
    for (std::size_t i = out_at + bytes; i < out_at + bytes + 64; ++i) ASSERT_EQ(base[i], std::byte{0x5a}) << "after the output";
    EXPECT_EQ(vulkan::plan(fb, in, in, spec).schedule.gpu_io, GpuIo::converted) << "in place";
    const vulkan::BufferImage off{buf, 260, w, h, 1, 4, ElementType::f32};
    EXPECT_EQ(vulkan::plan(fb, off, out, spec).schedule.gpu_io, GpuIo::converted) << "off the alignment";
    EXPECT_NE(describe(vulkan::plan(fb, in, out, spec)).find("read and written directly"), std::string::npos);
  }
}

TEST_F(Engine, ImagesAtTheBuffersEndAreReadAndWrittenExactly) {
  // Images at unaligned offsets whose last byte is the buffer's last byte, sizes off a 32-bit word:
  // binding rounded words would pass the buffer's end (the validation layer reports it,
  // VUID-VkDescriptorBufferInfo-range-00342) and rewrite the bytes before the image.
  auto rng = test::rng_for_test();
  const Device fb = vulkan::adopt(physical_, device_, queue_, family_);
  struct Case {
    ElementType type;
    std::int64_t w, h;
    int channels;
    std::size_t offset;
  };
  // Buffers of 51, 94 and 18 bytes (not whole words), and a float image 4 bytes in.
  for (const Case& c : {Case{ElementType::u8, 5, 3, 3, 6}, Case{ElementType::u16, 5, 3, 3, 4}, Case{ElementType::f16, 7, 1, 1, 4},
                        Case{ElementType::f32, 6, 5, 1, 4}}) {
    const std::size_t bytes = static_cast<std::size_t>(c.w * c.h * c.channels) * element_size(c.type);
    auto [buf, mapped] = buffer(c.offset + bytes);  // the image ends where the buffer ends
    auto* base = static_cast<std::byte*>(mapped);
    std::memset(base, 0x5a, c.offset);
    const View in_buffer = View::packed(base + c.offset, c.type, c.w, c.h, 1, c.channels);
    test::fill_random(in_buffer, rng);
    auto original = test::make_buffer(c.type, c.w, c.h, 1, c.channels), want = original;
    want.view.data = want.bytes.data();
    std::memcpy(original.bytes.data(), base + c.offset, bytes);
    BlurSpec spec = BlurSpec::isotropic_2d(1.5);
    blur(original.view, want.view, spec, fb);
    const vulkan::BufferImage image{buf, c.offset, c.w, c.h, 1, c.channels, c.type};
    vulkan::blur(fb, image, image, spec);
    EXPECT_EQ(std::memcmp(base + c.offset, want.bytes.data(), bytes), 0) << to_string(c.type);
    for (std::size_t i = 0; i < c.offset; ++i) ASSERT_EQ(base[i], std::byte{0x5a}) << "before the image, " << to_string(c.type);
  }
}

TEST_F(Engine, BlursTheEnginesImagesSynchronouslyAndRecorded) {
  auto rng = test::rng_for_test();
  VkPhysicalDeviceFeatures features;
  vkGetPhysicalDeviceFeatures(physical_, &features);
  const Device fb = vulkan::adopt(physical_, device_, queue_, family_);
  const std::uint32_t w = 64, h = 40;
  // kawase samples bilinearly: a software device filters in float, GPUs weight texels with 8
  // sub-texel bits - up to 1/512 of the range per fetch, a few 1e-3 over the passes (the bound of
  // test::VulkanTest::texture_tolerance), added to each format's own rounding below.
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physical_, &props);
  const double subtexel = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 0.0 : 8e-3;
  struct Format { VkFormat format; ElementType type; int channels; double tolerance; };
  for (const Format f : {Format{VK_FORMAT_R8G8B8A8_UNORM, ElementType::u8, 4, 1.0},
                         Format{VK_FORMAT_R16G16B16A16_SFLOAT, ElementType::f16, 4, 2e-3},
                         Format{VK_FORMAT_R32G32B32A32_SFLOAT, ElementType::f32, 4, 1e-5},
                         Format{VK_FORMAT_R32_SFLOAT, ElementType::f32, 1, 1e-5}})
    for (bool recorded : {false, true}) {
      const std::size_t bytes = static_cast<std::size_t>(w * h * f.channels) * element_size(f.type);
      auto [staging, mapped] = buffer(bytes);
      const View host = View::packed(mapped, f.type, w, h, 1, f.channels);
      test::fill_random(host, rng);
      auto original = test::make_buffer(f.type, w, h, 1, f.channels);
      std::memcpy(original.bytes.data(), mapped, bytes);
      VkImage src = image(f.format, w, h), dst = image(f.format, w, h);
      // The engine uploads its image and leaves it ready for sampling.
      VkCommandBuffer cb = begin();
      layout(cb, src, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      copy(cb, staging, src, w, h, true);
      layout(cb, src, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
      layout(cb, dst, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
      submit(cb);
      BlurSpec spec = BlurSpec::isotropic_2d(2.5);
      spec.algorithm = Algorithm::kawase;  // bloom's blur
      const vulkan::ImageRef in{src, f.format, w, h, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, f.channels};
      const vulkan::ImageRef out{dst, f.format, w, h, VK_IMAGE_LAYOUT_GENERAL, f.channels};
      cb = begin();
      if (recorded) {
        vulkan::Recording r = vulkan::record(fb, cb, in, out, spec);
        layout(cb, dst, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        copy(cb, staging, dst, w, h, false);
        submit(cb);
      } else {
        submit(cb);
        vulkan::blur(fb, in, out, spec);
        cb = begin();
        layout(cb, dst, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
        copy(cb, staging, dst, w, h, false);
        submit(cb);
      }
      // Against the CPU on the values the GPU saw (normalised formats: 0..1).
      auto want = test::make_buffer(ElementType::f64, w, h, 1, f.channels);
      auto seen = test::make_buffer(ElementType::f64, w, h, 1, f.channels);
      const double scale = f.type == ElementType::u8 ? 1.0 / 255.0 : 1.0;
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x)
          for (int c = 0; c < f.channels; ++c) test::set(seen.view, x, y, 0, c, test::get(original.view, x, y, 0, c) * scale);
      blur(seen.view, want.view, spec);
      double worst = 0.0;
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x)
          for (int c = 0; c < f.channels; ++c)
            worst = std::max(worst, std::abs(test::get(host, x, y, 0, c) - test::get(want.view, x, y, 0, c) / scale));
      EXPECT_LE(worst, f.tolerance + subtexel * test::type_scale(f.type)) << "format " << f.format << (recorded ? " recorded" : " synchronous");
    }
}

TEST_F(Engine, ClearErrorsForWhatTheInteropCannotDo) {
  const Device fb = vulkan::adopt(physical_, device_, queue_, family_);
  VkImage a = image(VK_FORMAT_R8G8B8A8_UNORM, 8, 8), b = image(VK_FORMAT_R8G8B8A8_UNORM, 8, 8);
  const BlurSpec spec = BlurSpec::isotropic_2d(1.0);
  EXPECT_THROW(vulkan::blur(fb, vulkan::ImageRef{a, VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_LAYOUT_GENERAL, 4},
                            vulkan::ImageRef{b, VK_FORMAT_R8G8B8A8_SRGB, 8, 8, VK_IMAGE_LAYOUT_GENERAL, 4}, spec),
               Unsupported);  // sRGB cannot be a storage image
  EXPECT_THROW(vulkan::blur(fb, vulkan::ImageRef{a, VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_LAYOUT_UNDEFINED, 4},
                            vulkan::ImageRef{a, VK_FORMAT_R8G8B8A8_UNORM, 8, 8, VK_IMAGE_LAYOUT_GENERAL, 4}, spec),
               InvalidArgument);
  auto [buf, mapped] = buffer(256);
  (void)mapped;
  EXPECT_THROW(vulkan::blur(fb, vulkan::BufferImage{buf, 1, 4, 4, 1, 1, ElementType::f32},
                            vulkan::BufferImage{buf, 0, 4, 4, 1, 1, ElementType::f32}, spec),
               InvalidArgument);  // offset not a multiple of the element size
  EXPECT_THROW(vulkan::blur(Device::cpu(), vulkan::BufferImage{buf, 0, 4, 4, 1, 1, ElementType::f32},
                            vulkan::BufferImage{buf, 0, 4, 4, 1, 1, ElementType::f32}, spec),
               InvalidArgument);
  EXPECT_THROW(vulkan::adopt(physical_, device_, VK_NULL_HANDLE, family_), InvalidArgument);
  vulkan::BufferImage foreign{buf, 0, 4, 4, 1, 1, ElementType::f32};
  foreign.owner_family = 99;  // no such queue family: refused before anything is recorded
  EXPECT_THROW(vulkan::blur(fb, foreign, foreign, spec), InvalidArgument);
}

TEST_F(Engine, ResourcesOwnedByTheAdoptedFamilyNeedNoTransfer) {
  // owner_family naming the adopted queue's own family records no ownership transfer (lavapipe has
  // one queue family, so the cross-family path - acquire before, release after - is left to the
  // validation layer on a device with several); the blur is the same as without it.
  std::uint32_t families = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical_, &families, nullptr);
  std::printf("[ device   ] %u queue famil%s\n", families, families == 1 ? "y" : "ies");
  auto rng = test::rng_for_test();
  const Device fb = vulkan::adopt(physical_, device_, queue_, family_);
  auto [buf, mapped] = buffer(2 * 16 * 16 * 2 * 4);  // two 16x16 two-channel float images
  auto* base = static_cast<float*>(mapped);
  const View a = View::packed(base, ElementType::f32, 16, 16, 1, 2), b = View::packed(base + 16 * 16 * 2, ElementType::f32, 16, 16, 1, 2);
  test::fill_random(a, rng);
  std::memcpy(b.data, a.data, 16 * 16 * 2 * 4);
  const BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  vulkan::BufferImage plain{buf, 0, 16, 16, 1, 2, ElementType::f32};
  vulkan::BufferImage owned{buf, 16 * 16 * 2 * 4, 16, 16, 1, 2, ElementType::f32};
  owned.owner_family = family_;
  vulkan::blur(fb, plain, plain, spec);
  vulkan::blur(fb, owned, owned, spec);
  EXPECT_EQ(std::memcmp(a.data, b.data, 16 * 16 * 2 * 4), 0);
}

}  // namespace
}  // namespace fastblur
