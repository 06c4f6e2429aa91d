#pragma once
// A compute pipeline over bindings 0..N-1 of the given descriptor types (storage buffers, sampled
// images, storage images) and a push-constant block, from SPIR-V with specialization constants
// 0..K-1 (32-bit each). Owns its shader module, layouts and pipeline; descriptor sets come from a
// Job's pools.
#include "vulkan/loader.hpp"

#include <cstdint>
#include <vector>

namespace fastblur::vk {

class ComputePipeline {
 public:
  ComputePipeline(VkDevice device, VkPipelineCache cache, const std::vector<std::uint32_t>& spirv,
                  const std::vector<std::uint32_t>& specialization, const std::vector<VkDescriptorType>& bindings,
                  std::uint32_t push_bytes);
  ~ComputePipeline();
  ComputePipeline(const ComputePipeline&) = delete;
  ComputePipeline& operator=(const ComputePipeline&) = delete;

  VkPipeline pipeline() const noexcept { return pipeline_; }
  VkPipelineLayout layout() const noexcept { return layout_; }
  VkDescriptorSetLayout set_layout() const noexcept { return set_layout_; }
  const std::vector<VkDescriptorType>& bindings() const noexcept { return bindings_; }

 private:
  void destroy() noexcept;
  VkDevice device_;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  std::vector<VkDescriptorType> bindings_;
};

}  // namespace fastblur::vk
