// The named variants, one line each (the planner's default first for each algorithm).
#include "algorithms/gpu_variants.hpp"

#include "algorithms/gpu_passes.hpp"
#include "algorithms/iir.hpp"
#include "algorithms/kawase.hpp"

namespace fastblur::algo {
namespace {

// box's schedule is its passes' shader (box_chunk, box_scan, box_fused).
template <BoxSchedule S>
void box_as(Plan& p, const Shape& shape) {
  for (GpuPass& g : p.schedule.gpu)
    if (!g.shader.empty()) g = GpuPass{box_shader(S)};
  schedule_gpu_batches(p, shape);  // the passes' outputs and batches follow the shader
}
template <BoxSchedule S>
bool box_is(const Plan& p) {
  for (const GpuPass& g : p.schedule.gpu)
    if (!g.shader.empty()) return g.shader == box_shader(S);
  return S == BoxSchedule::running_sums;
}
// An image algorithm's images (fir-linear's padded image and x pass's, kawase's passes', dual-kawase's
// levels) in float32, or float16 where they hold four channels of an 8-bit or float16 source: half
// the bytes, and the texture unit filters 64-bit texels at full rate where it filters 128-bit ones
// at a quarter on NVIDIA GPUs; within each algorithm's catalogued bound (the source exact, each
// pass's results rounded to 2^-11 of their size). fir-linear's, kawase's and dual-kawase's also 8-bit normalized
// for an 8-bit source (a quarter of float32's bytes; each stored pass's results rounded to 1/255 of
// the range, which the plan's prediction adds: Descriptor::image_roundings).
constexpr char kFirLinear[] = "fir_linear", kKawasePass[] = "kawase_pass", kDualKawase[] = "dual_kawase";
template <const char* Base, ElementType R>
void images_as(Plan& p, const Shape& shape) { schedule_image_gpu(p, shape, Base, R); }
template <ElementType R>
bool images_are(const Plan& p) { return p.schedule.gpu[0].real == R && p.schedule.gpu[0].block == 0; }
// kawase's passes two a dispatch (float32 images): the first pass's results over the tile and its
// halo in shared memory, the second pass from there (no image between them written or read).
void kawase_paired_as(Plan& p, const Shape& shape) {
  schedule_image_gpu(p, shape, kKawasePass, ElementType::f32);
  if (!p.schedule.gpu[0].shader.empty()) p.schedule.gpu[0].block = kKawasePassesPaired;
}
bool kawase_paired_is(const Plan& p) { return kawase_pairs_passes(p); }
// downsample's design is its pass's shader (downsample_chain, downsample_line).
template <GpuDownsample D>
void downsample_as(Plan& p, const Shape&) { p.schedule.gpu[0].shader = downsample_shader(D); }
template <GpuDownsample D>
bool downsample_is(const Plan& p) { return downsample_design_of(p.schedule.gpu[0].shader) == D; }
// fir's passes with `N` outputs a thread (8: register-blocked, fir_line_o8 / fir_across_o8).
template <int N>
void fir_outputs_as(Plan& p, const Shape& shape) { schedule_fir_gpu(p, shape, N); }
template <int N>
bool fir_outputs_is(const Plan& p) {
  for (const GpuPass& g : p.schedule.gpu)
    if (!g.shader.empty()) return fir_outputs(g) == N;
  return N == 4;
}

// iir's chunks with their reflect / mirror / wrap starts computed or the lines padded (the shader
// names which, algorithms/iir.hpp); passes that are not chunks (short lines) keep theirs.
template <const char* Shader>
void iir_starts_as(Plan& p, const Shape&) {
  for (GpuPass& g : p.schedule.gpu)
    if (iir_chunks_pass(g)) g.shader = Shader;
}
template <const char* Shader>
bool iir_starts_are(const Plan& p) {
  for (const GpuPass& g : p.schedule.gpu)
    if (iir_chunks_pass(g)) return g.shader == Shader;
  return Shader == kIirChunksStarts;  // no chunks: the plan's own
}

}  // namespace

const std::vector<GpuVariant>& gpu_variants() {
  static const std::vector<GpuVariant> all = {
      {Algorithm::fir, "out4", fir_outputs_as<4>, fir_outputs_is<4>},
      {Algorithm::fir, "out8", fir_outputs_as<8>, fir_outputs_is<8>},
      {Algorithm::box, "running-sums", box_as<BoxSchedule::running_sums>, box_is<BoxSchedule::running_sums>},
      {Algorithm::box, "prefix-sums", box_as<BoxSchedule::prefix_sums>, box_is<BoxSchedule::prefix_sums>},
      {Algorithm::box, "fused", box_as<BoxSchedule::fused>, box_is<BoxSchedule::fused>},
      {Algorithm::fir_linear, "float32-images", images_as<kFirLinear, ElementType::f32>, images_are<ElementType::f32>},
      {Algorithm::fir_linear, "float16-images", images_as<kFirLinear, ElementType::f16>, images_are<ElementType::f16>},
      {Algorithm::fir_linear, "unorm8-images", images_as<kFirLinear, ElementType::u8>, images_are<ElementType::u8>},
      {Algorithm::kawase, "float32-images", images_as<kKawasePass, ElementType::f32>, images_are<ElementType::f32>},
      {Algorithm::kawase, "float16-images", images_as<kKawasePass, ElementType::f16>, images_are<ElementType::f16>},
      {Algorithm::kawase, "unorm8-images", images_as<kKawasePass, ElementType::u8>, images_are<ElementType::u8>},
      {Algorithm::kawase, "paired-passes", kawase_paired_as, kawase_paired_is},
      {Algorithm::dual_kawase, "float32-images", images_as<kDualKawase, ElementType::f32>, images_are<ElementType::f32>},
      {Algorithm::dual_kawase, "float16-images", images_as<kDualKawase, ElementType::f16>, images_are<ElementType::f16>},
      {Algorithm::dual_kawase, "unorm8-images", images_as<kDualKawase, ElementType::u8>, images_are<ElementType::u8>},
      {Algorithm::downsample, "chain", downsample_as<GpuDownsample::chain>, downsample_is<GpuDownsample::chain>},
      {Algorithm::downsample, "per-axis", downsample_as<GpuDownsample::per_axis>, downsample_is<GpuDownsample::per_axis>},
      {Algorithm::iir, "computed-starts", iir_starts_as<kIirChunksStarts>, iir_starts_are<kIirChunksStarts>},
      {Algorithm::iir, "padded-starts", iir_starts_as<kIirChunksPadded>, iir_starts_are<kIirChunksPadded>},
  };
  return all;
}

std::vector<GpuVariant> gpu_variants(Algorithm algorithm) {
  std::vector<GpuVariant> out;
  for (const GpuVariant& v : gpu_variants())
    if (v.algorithm == algorithm) out.push_back(v);
  return out;
}

std::string_view gpu_variant_of(const Plan& plan) {
  for (const GpuVariant& v : gpu_variants())
    if (v.algorithm == plan.algorithm && v.runs(plan)) return v.name;
  return {};
}

}  // namespace fastblur::algo
