#include "vulkan/compute_pipeline.hpp"

#include "vulkan/vk_error.hpp"

namespace fastblur::vk {

ComputePipeline::ComputePipeline(VkDevice device, VkPipelineCache cache, const std::vector<std::uint32_t>& spirv,
                                 const std::vector<std::uint32_t>& spec, const std::vector<VkDescriptorType>& types,
                                 std::uint32_t push_bytes)
    : device_(device), bindings_(types) {
  try {
    VkShaderModuleCreateInfo mci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    mci.codeSize = spirv.size() * sizeof(std::uint32_t);
    mci.pCode = spirv.data();
    check(vkCreateShaderModule(device_, &mci, nullptr, &module_), "vkCreateShaderModule");

    std::vector<VkDescriptorSetLayoutBinding> bindings(types.size());
    for (std::size_t i = 0; i < types.size(); ++i) {
      bindings[i].binding = static_cast<std::uint32_t>(i);
      bindings[i].descriptorType = types[i];
      bindings[i].descriptorCount = 1;
      bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo dci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dci.bindingCount = static_cast<std::uint32_t>(bindings.size());
    dci.pBindings = bindings.data();
    check(vkCreateDescriptorSetLayout(device_, &dci, nullptr, &set_layout_), "vkCreateDescriptorSetLayout");

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
    VkPipelineLayoutCreateInfo lci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    lci.setLayoutCount = 1;
    lci.pSetLayouts = &set_layout_;
    lci.pushConstantRangeCount = push_bytes ? 1 : 0;
    lci.pPushConstantRanges = &range;
    check(vkCreatePipelineLayout(device_, &lci, nullptr, &layout_), "vkCreatePipelineLayout");

    std::vector<VkSpecializationMapEntry> entries(spec.size());
    for (std::size_t i = 0; i < spec.size(); ++i)
      entries[i] = {static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i * 4), 4};
    VkSpecializationInfo si{static_cast<std::uint32_t>(entries.size()), entries.data(), spec.size() * 4, spec.data()};
    VkComputePipelineCreateInfo pci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    pci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pci.stage.module = module_;
    pci.stage.pName = "main";
    pci.stage.pSpecializationInfo = spec.empty() ? nullptr : &si;
    pci.layout = layout_;
    check(vkCreateComputePipelines(device_, cache, 1, &pci, nullptr, &pipeline_), "vkCreateComputePipelines");
  } catch (...) {
    destroy();
    throw;
  }
}

ComputePipeline::~ComputePipeline() { destroy(); }

void ComputePipeline::destroy() noexcept {
  if (pipeline_) vkDestroyPipeline(device_, pipeline_, nullptr);
  if (layout_) vkDestroyPipelineLayout(device_, layout_, nullptr);
  if (set_layout_) vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
  if (module_) vkDestroyShaderModule(device_, module_, nullptr);
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
  module_ = VK_NULL_HANDLE;
}

}  // namespace fastblur::vk
