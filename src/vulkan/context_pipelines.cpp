// The pipeline cache: compute pipelines built once per context and kept in memory (by shader,
// specialization and bindings), and the driver's compiled pipelines persisted between processes in
// the user's cache directory. Split from context.cpp (issue 26).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "vulkan/compute_pipeline.hpp"
#include "vulkan/context.hpp"
#include "vulkan/vk_error.hpp"

namespace fastblur::vk {
namespace {

// Where compiled pipelines persist between processes: $XDG_CACHE_HOME/fastblur (or
// ~/.cache/fastblur), one file per device and driver build; empty where neither is set.
std::string cache_file(const VkPhysicalDeviceProperties& p) {
  std::string dir;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) dir = std::string(x) + "/fastblur";
  else if (const char* h = std::getenv("HOME"); h && *h) dir = std::string(h) + "/.cache/fastblur";
  else return {};
  char name[160];
  std::snprintf(name, sizeof name, "/pipelines-%04x-%04x-%08x-", p.vendorID, p.deviceID, p.driverVersion);
  std::string out = dir + name;
  for (std::uint8_t b : p.pipelineCacheUUID) {
    char hex[3];
    std::snprintf(hex, sizeof hex, "%02x", b);
    out += hex;
  }
  return out + ".bin";
}

}  // namespace

void Context::load_pipeline_cache() {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physical_, &props);
  cache_path_ = cache_file(props);
  std::vector<char> data;
  if (!cache_path_.empty()) {
    std::ifstream in(cache_path_, std::ios::binary);
    data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // The header (size, version, vendor, device, cache UUID) is checked here too: a stale or damaged
  // file is ignored rather than handed to a driver that might trust it.
  const std::size_t header = 16 + VK_UUID_SIZE;
  bool usable = data.size() >= header;
  if (usable) {
    std::uint32_t h[4];
    std::memcpy(h, data.data(), sizeof h);
    usable = h[0] >= header && h[1] == VK_PIPELINE_CACHE_HEADER_VERSION_ONE && h[2] == props.vendorID &&
             h[3] == props.deviceID && std::memcmp(data.data() + 16, props.pipelineCacheUUID, VK_UUID_SIZE) == 0;
  }
  VkPipelineCacheCreateInfo cci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  if (usable) {
    cci.initialDataSize = data.size();
    cci.pInitialData = data.data();
  }
  check(vkCreatePipelineCache(device_, &cci, nullptr, &cache_), "vkCreatePipelineCache");
}

void Context::save_pipeline_cache() noexcept {
  if (cache_path_.empty() || pipelines_created_.load() == 0) return;  // nothing new to keep
  std::size_t size = 0;
  if (vkGetPipelineCacheData(device_, cache_, &size, nullptr) != VK_SUCCESS || size == 0) return;
  std::vector<char> data(size);
  if (vkGetPipelineCacheData(device_, cache_, &size, data.data()) != VK_SUCCESS) return;
  std::error_code ec;
  const std::filesystem::path path(cache_path_);
  std::filesystem::create_directories(path.parent_path(), ec);
  // Written beside and renamed: another process reading it sees the old file or the new one.
  const std::filesystem::path temp = path.string() + ".tmp" + std::to_string(reinterpret_cast<std::uintptr_t>(this));
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(data.data(), static_cast<std::streamsize>(size));
    if (!out) {
      out.close();
      std::filesystem::remove(temp, ec);
      return;
    }
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) std::filesystem::remove(temp, ec);
}

const ComputePipeline& Context::pipeline(const std::string& name, const std::vector<std::uint32_t>& spirv,
                                         const std::vector<std::uint32_t>& spec,
                                         const std::vector<VkDescriptorType>& bindings, std::uint32_t push_bytes) {
  std::string key = name;
  for (std::uint32_t v : spec) key += ":" + std::to_string(v);
  key += "|";
  for (VkDescriptorType t : bindings) key += std::to_string(static_cast<int>(t)) + ",";
  std::lock_guard<std::mutex> lock(pipelines_mutex_);  // not the free lists': a compile stalls no other job
  if (pipeline_log_) pipeline_log_->push_back(name);
  auto it = pipelines_.find(key);
  if (it == pipelines_.end()) {
    it = pipelines_.emplace(key, std::make_unique<ComputePipeline>(device_, cache_, spirv, spec, bindings, push_bytes)).first;
    ++pipelines_created_;
  }
  return *it->second;
}

}  // namespace fastblur::vk
