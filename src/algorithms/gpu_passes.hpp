#pragma once
// The Vulkan passes' variants, chosen at plan time from the device's traits (Shape): the shared
// memory a fir tile needs, how many lines a scratch batch holds, how many parts of rows an image
// travels in. The descriptors put the choices in the plan's schedule; the recorders run them.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "algorithms/descriptor.hpp"

namespace fastblur {

// Two algorithms' GPU designs. A plan records them as its passes' shaders (box_shader,
// downsample_shader below); the named variants (gpu_variants.cpp) choose them.

/// How the Vulkan backend runs `box` along an axis (the variants of its plan, named by the pass's
/// shader: GpuPass::shader box_chunk, box_scan or box_fused). All compute the same extended boxes;
/// the planner's is running sums (the faster on an H100 and on lavapipe, bench/RESULTS.md).
enum class BoxSchedule {
  prefix_sums,  ///< seed 001: a workgroup per line scans prefix sums in shared memory, in chunks with
                ///< carried sums (no limit on the line's length)
  running_sums, ///< seed 002: moving sums, each thread sliding over a chunk of one channel of a line
  fused,        ///< every box of the axis in one dispatch: each thread runs the boxes' moving sums as a
                ///< cascade over a chunk of one channel of a line (no pass written out between boxes)
};

/// How the Vulkan backend runs `downsample` (the variants of its plan, named by its pass's shader:
/// GpuPass::shader downsample_chain or downsample_line). Both compute the same chain (tent onto
/// block centres, low-resolution Gaussian, linear interpolation back), in a different order of float
/// operations; the planner's is the chain.
enum class GpuDownsample {
  per_axis,  ///< three passes per axis through a full-resolution image between axes, a thread per
             ///< sample along the axis (the first GPU design; measured 10x+ its floor on an H200)
  chain,     ///< the CPU chain's design: every axis reduced at once from the source read once, the
             ///< small image blurred axis by axis, interpolated back in one pass (one read and one
             ///< write at full resolution, threads along x on every pass: coalesced)
};

}  // namespace fastblur

namespace fastblur::algo {

/// A workgroup's shared memory where the device is not known: what GPUs offer (48 KiB).
inline constexpr std::uint64_t kDefaultSharedMemory = 48u << 10;

/// A workgroup's shared memory on the shape's device (kDefaultSharedMemory where none is known).
inline std::uint64_t shared_memory(const Shape& shape) noexcept {
  return shape.shared_memory_bytes > 0 ? shape.shared_memory_bytes : kDefaultSharedMemory;
}

/// The scratch a dispatch batch may hold: 64 MiB, within the device's piece limit (0: none known).
std::uint64_t scratch_budget(std::uint64_t piece_bytes) noexcept;
inline std::uint64_t scratch_budget(const Shape& shape) noexcept { return scratch_budget(shape.piece_bytes); }
/// Lines of `bytes_per_line` of scratch one batch holds (1 to `lines`); throws Unsupported where
/// one line alone passes the budget.
std::int64_t lines_per_batch(std::uint64_t budget, std::uint64_t bytes_per_line, std::int64_t lines);

/// fir_line.comp's shared tile: slots for 64 `outputs` (outputs a thread) and a halo of `reach`
/// each side, one slot of padding every PAD_EVERY, for `channels` (a pixel a slot; 3 channels padded
/// to 4).
std::uint64_t fir_tile_slots(std::int64_t reach, int channels, int outputs = 4) noexcept;
std::uint64_t fir_pixel_bytes(int channels) noexcept;
/// Outputs a thread of a fir pass (GpuPass::block; 0 means the shaders' default, 4).
inline int fir_outputs(const GpuPass& g) noexcept { return g.block > 0 ? static_cast<int>(g.block) : 4; }
/// Each active axis's fir pass on the device (fir, fir-incremental, correlate): fir_line along x with
/// its tile, fir_across along y and z; `outputs` a thread: 4, or 8 (the register-blocked variants
/// fir_line_o8 and fir_across_o8, GpuPass::block 8).
void schedule_fir_gpu(Plan& plan, const Shape& shape, int outputs = 4);

/// The GPU passes' batches (Descriptor::schedule_gpu_batches) for the plan's largest piece (its
/// tile and halos, within the image): the planner calls it once the pieces and the variant are chosen,
/// and again whoever changes the plan's variant afterwards (gpu_variants.cpp, tests forcing one).
void schedule_gpu_batches(Plan& plan, const Shape& shape);

/// The channels an image pass's images hold for an image of `channels` (1, 2 or 4: three travel as
/// four, the formats a sampler filters).
inline int image_channels(int channels) noexcept { return channels <= 2 ? channels : 4; }
/// The pass of an algorithm that runs on images (kawase, fir-linear, dual-kawase, mip-poisson): its
/// shader's variant for the image's channels, `base` + "_c1", "_c2" or "_c4", named in the plan
/// (GpuPass::shader of axis x), which the recorder runs. `images` f16 (fir-linear's variant): 4-channel
/// images of an 8-bit or float16 source in float16, "_c4_half" and GpuPass::real f16 (others stay
/// float32: 1 and 2 channels, and sources whose values float16 could not hold); u8 (fir-linear's):
/// 4-channel images of an 8-bit source 8-bit normalized, "_c4_unorm8" and GpuPass::real u8 (where a
/// constant border's cval is an integer 0 .. 255).
void schedule_image_gpu(Plan& plan, const Shape& shape, const char* base, ElementType images = ElementType::f32);

/// The shader of a box pass as the plan's BoxSchedule names it (running sums: box_chunk, prefix
/// sums: box_scan, fused: box_fused), and of downsample's design (chain: downsample_chain, per axis:
/// downsample_line): the recorders run these, the plan holds the choice.
const char* box_shader(BoxSchedule schedule) noexcept;
/// The box schedule a pass's shader runs (running sums for any other name, such as none yet).
BoxSchedule box_schedule_of(std::string_view shader) noexcept;
const char* downsample_shader(GpuDownsample design) noexcept;
/// The design a downsample plan's pass runs (its shader; the chain for any other name).
GpuDownsample downsample_design_of(std::string_view shader) noexcept;
/// Every shader a plan's algorithm passes run on the device, as the plan names them (GpuPass::shader
/// of its axes, downsample's design); the recorders create no other (but for the
/// conversions and padding around every algorithm: convert, pad_image, image_to_work, work_to_image).
std::vector<std::string> planned_shaders(const Plan& plan);

/// The type a host view travels as: u8, u16, f16 and f32 as they are, every other type as f32.
ElementType wire_type(ElementType type) noexcept;
std::uint64_t wire_bytes(std::uint64_t elements, ElementType type) noexcept;
/// How many parts of rows an image of `bytes` (its larger wire size) and `rows` rows travels in: one
/// per 4 MiB, 1 to 8, at most one per row.
std::int64_t transfer_parts(std::uint64_t bytes, std::int64_t rows) noexcept;

}  // namespace fastblur::algo
