#include "vulkan/shaders.hpp"

#include <map>
#include <stdexcept>
#include <string>

namespace fastblur::vk::shaders {
namespace {

// generated/shaders/table.inc: {"NAME", {words}}, for each compiled shader and variant; each .spv.inc
// is glslc's -mfmt=num output, the SPIR-V words as comma-separated numbers.
const std::map<std::string, std::vector<std::uint32_t>, std::less<>>& table() {
  static const std::map<std::string, std::vector<std::uint32_t>, std::less<>> t{
#include "shaders/table.inc"
  };
  return t;
}

}  // namespace

const std::vector<std::uint32_t>& words(std::string_view name) {
  const auto it = table().find(name);
  if (it == table().end()) throw std::logic_error("internal: no compiled shader named " + std::string(name));
  return it->second;
}


}  // namespace fastblur::vk::shaders
