#pragma once
// The compute shaders of shaders/*.comp, compiled to SPIR-V by glslc at build time and embedded,
// found by the build: a shader is compiled once under its own name, or once per variant that its
// `// variants:` line declares, as NAME_SUFFIX ("fir_line_c4", "iir_line_f64", "work_to_image_r32f").
#include <cstdint>
#include <string_view>
#include <vector>

namespace fastblur::vk::shaders {

/// The SPIR-V words of a compiled shader or variant; throws std::logic_error for a name the build
/// did not compile (a programming error).
const std::vector<std::uint32_t>& words(std::string_view name);

}  // namespace fastblur::vk::shaders
