#pragma once
// The compute shaders of shaders/*.comp, compiled to SPIR-V by glslc at build time and embedded.
// Shaders that write storage images come in one variant per image format: 1, 2 or 4 float
// channels (image_format.glsl).
#include <cstdint>
#include <vector>

namespace fastblur::vk::shaders {

const std::vector<std::uint32_t>& fir_line(int channels);  ///< one variant per channel count (1-4)
const std::vector<std::uint32_t>& fir_across();
const std::vector<std::uint32_t>& box_chunk();
const std::vector<std::uint32_t>& box_scan();
/// The recursions in double (needs the device's shaderFloat64) or float.
const std::vector<std::uint32_t>& iir_line(bool float64);
const std::vector<std::uint32_t>& downsample_line();
const std::vector<std::uint32_t>& convert();
/// `image_channels` is 1, 2 or 4.
const std::vector<std::uint32_t>& pad_image(int image_channels);
const std::vector<std::uint32_t>& dual_kawase(int image_channels);
const std::vector<std::uint32_t>& mip_poisson(int image_channels);
const std::vector<std::uint32_t>& fir_linear(int image_channels);
const std::vector<std::uint32_t>& kawase_pass(int image_channels);
const std::vector<std::uint32_t>& image_to_work();
/// `format` is one of "rgba8", "rgba16f", "rgba32f", "r32f"; empty words for any other.
const std::vector<std::uint32_t>& work_to_image(const char* format);

}  // namespace fastblur::vk::shaders
