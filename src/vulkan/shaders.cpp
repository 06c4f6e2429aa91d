#include "vulkan/shaders.hpp"

#include <string>

// Each .spv.inc is glslc's -mfmt=num output: the SPIR-V words as comma-separated numbers.
namespace fastblur::vk::shaders {

const std::vector<std::uint32_t>& fir_line(int channels) {
  static const std::vector<std::uint32_t> c1{
#include "shaders/fir_line_c1.spv.inc"
  };
  static const std::vector<std::uint32_t> c2{
#include "shaders/fir_line_c2.spv.inc"
  };
  static const std::vector<std::uint32_t> c3{
#include "shaders/fir_line_c3.spv.inc"
  };
  static const std::vector<std::uint32_t> c4{
#include "shaders/fir_line_c4.spv.inc"
  };
  return channels == 1 ? c1 : channels == 2 ? c2 : channels == 3 ? c3 : c4;
}

const std::vector<std::uint32_t>& fir_across() {
  static const std::vector<std::uint32_t> words{
#include "shaders/fir_across.spv.inc"
  };
  return words;
}

const std::vector<std::uint32_t>& box_chunk() {
  static const std::vector<std::uint32_t> words{
#include "shaders/box_chunk.spv.inc"
  };
  return words;
}

const std::vector<std::uint32_t>& box_scan() {
  static const std::vector<std::uint32_t> words{
#include "shaders/box_scan.spv.inc"
  };
  return words;
}

const std::vector<std::uint32_t>& iir_line(bool float64) {
  static const std::vector<std::uint32_t> f32{
#include "shaders/iir_line_f32.spv.inc"
  };
  static const std::vector<std::uint32_t> f64{
#include "shaders/iir_line_f64.spv.inc"
  };
  return float64 ? f64 : f32;
}

const std::vector<std::uint32_t>& downsample_line() {
  static const std::vector<std::uint32_t> words{
#include "shaders/downsample_line.spv.inc"
  };
  return words;
}

const std::vector<std::uint32_t>& convert() {
  static const std::vector<std::uint32_t> words{
#include "shaders/convert.spv.inc"
  };
  return words;
}

const std::vector<std::uint32_t>& pad_image(int image_channels) {
  static const std::vector<std::uint32_t> c1{
#include "shaders/pad_image_c1.spv.inc"
  };
  static const std::vector<std::uint32_t> c2{
#include "shaders/pad_image_c2.spv.inc"
  };
  static const std::vector<std::uint32_t> c4{
#include "shaders/pad_image_c4.spv.inc"
  };
  return image_channels == 1 ? c1 : image_channels == 2 ? c2 : c4;
}

const std::vector<std::uint32_t>& dual_kawase(int image_channels) {
  static const std::vector<std::uint32_t> c1{
#include "shaders/dual_kawase_c1.spv.inc"
  };
  static const std::vector<std::uint32_t> c2{
#include "shaders/dual_kawase_c2.spv.inc"
  };
  static const std::vector<std::uint32_t> c4{
#include "shaders/dual_kawase_c4.spv.inc"
  };
  return image_channels == 1 ? c1 : image_channels == 2 ? c2 : c4;
}

const std::vector<std::uint32_t>& mip_poisson(int image_channels) {
  static const std::vector<std::uint32_t> c1{
#include "shaders/mip_poisson_c1.spv.inc"
  };
  static const std::vector<std::uint32_t> c2{
#include "shaders/mip_poisson_c2.spv.inc"
  };
  static const std::vector<std::uint32_t> c4{
#include "shaders/mip_poisson_c4.spv.inc"
  };
  return image_channels == 1 ? c1 : image_channels == 2 ? c2 : c4;
}

const std::vector<std::uint32_t>& fir_linear(int image_channels) {
  static const std::vector<std::uint32_t> c1{
#include "shaders/fir_linear_c1.spv.inc"
  };
  static const std::vector<std::uint32_t> c2{
#include "shaders/fir_linear_c2.spv.inc"
  };
  static const std::vector<std::uint32_t> c4{
#include "shaders/fir_linear_c4.spv.inc"
  };
  return image_channels == 1 ? c1 : image_channels == 2 ? c2 : c4;
}

const std::vector<std::uint32_t>& kawase_pass(int image_channels) {
  static const std::vector<std::uint32_t> c1{
#include "shaders/kawase_pass_c1.spv.inc"
  };
  static const std::vector<std::uint32_t> c2{
#include "shaders/kawase_pass_c2.spv.inc"
  };
  static const std::vector<std::uint32_t> c4{
#include "shaders/kawase_pass_c4.spv.inc"
  };
  return image_channels == 1 ? c1 : image_channels == 2 ? c2 : c4;
}

const std::vector<std::uint32_t>& image_to_work() {
  static const std::vector<std::uint32_t> words{
#include "shaders/image_to_work.spv.inc"
  };
  return words;
}

const std::vector<std::uint32_t>& work_to_image(const char* format) {
  static const std::vector<std::uint32_t> rgba8{
#include "shaders/work_to_image_rgba8.spv.inc"
  };
  static const std::vector<std::uint32_t> rgba16f{
#include "shaders/work_to_image_rgba16f.spv.inc"
  };
  static const std::vector<std::uint32_t> rgba32f{
#include "shaders/work_to_image_rgba32f.spv.inc"
  };
  static const std::vector<std::uint32_t> r32f{
#include "shaders/work_to_image_r32f.spv.inc"
  };
  static const std::vector<std::uint32_t> none;
  const std::string f = format;
  return f == "rgba8" ? rgba8 : f == "rgba16f" ? rgba16f : f == "rgba32f" ? rgba32f : f == "r32f" ? r32f : none;
}

}  // namespace fastblur::vk::shaders
