#pragma once
/// @file
/// The planner: BlurSpec + the data's shape -> Plan, a resolved value that says everything that will
/// run: the algorithm, its parameters per axis, how far each output reaches (the halo of tiles,
/// bands and chunks) and its kernel where it has one, the schedule (CPU driver, threads, intermediate
/// type, strips; on Vulkan each pass's shader variant, shared-memory tile, block, batch, precision and
/// recursion (GpuPass), the scratch layout, the pieces and transfer parts, chosen from the device's
/// traits), the predicted error and cost, and the candidates weighed. Backends execute plans; they
/// choose nothing.
/// Algorithm::automatic with a tolerance picks the cheapest algorithm whose predicted error is
/// within it.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fastblur/blur.hpp"

namespace fastblur {

/// The algorithm's resolved parameters in its own form, for the backends (defined by its
/// descriptor in src/algorithms/; opaque here). Immutable, shared by copies of a plan.
struct ResolvedParameters;

/// How the CPU runs a plan.
enum class CpuDriver {
  fused_rows,   ///< fir on 2D images with small radii: both passes through a ring of rows, no intermediate
                ///< image (in place, the call runs axis_passes instead)
  axis_passes,  ///< fir: a pass per axis through packed intermediate images, SIMD across channels and columns
  lanes,        ///< line filters in SIMD across lane_width() lines at a time, in float (O(1) filters)
  lines,        ///< line filters one line at a time in double (float64 data; the filters without lanes)
  planar,       ///< 2D algorithms: the image extended by its borders, then whole neighbourhoods per pixel
  chain,        ///< downsample on 2D images in float: both axes reduced at once, blurred at low resolution,
                ///< interpolated back (one read and one write at full resolution)
  fixed_point,  ///< fir on 8-bit 2D images: both passes fused, 16-bit fixed point (each output within 1 of
                ///< the correctly rounded result)
  scipy_order,  ///< fir with Rounding::scipy: scipy.ndimage's arithmetic (its weights and summation order in
                ///< double, the output type after each axis, axes in the spec's axis_order): SciPy's bits
};
std::string_view to_string(CpuDriver driver) noexcept;

/// Vulkan: how one axis's pass runs, chosen when the plan is made from the device's traits (the
/// descriptor's schedule); the recorders run it as given. (How many lines a dispatch batch covers is
/// arithmetic of the piece's size and the device's scratch budget, done where the piece is known.)
struct GpuPass {
  std::string shader;               ///< the compiled variant that runs ("fir_line_c4", "fir_across", "iir_chunks",
                                    ///< "iir_line_f32", "box_chunk", "box_scan"); empty for algorithms of their own
                                    ///< image passes
  /// fir along x: the halo its shared-memory tile of 256 outputs holds (the radius's power-of-two bucket,
  /// at least 8, so that a few pipelines serve every sigma; or the radius where the bucket does not fit),
  /// 0 = taps read from device memory; iir along x: lanes (lines x channels) a workgroup keeps in shared
  /// memory, 0 = a lane per thread.
  std::int64_t tile = 0;
  std::int64_t block = 0;           ///< iir_line: samples per thread a shared-memory block holds (1 to 32);
                                    ///< iir_chunks: samples of a line per chunk (a thread's); box_fused:
                                    ///< outputs a thread makes; fir: outputs a thread (0: 4); kawase_pass:
                                    ///< passes a dispatch (0: one; 2: pairs through shared memory)
  /// Passes with per-line scratch (iir, box): how many lanes (one channel of one line; box_scan:
  /// whole lines) one dispatch covers, its scratch within the device's budget for the plan's largest
  /// piece; 0 = the pass keeps no scratch of its own.
  std::int64_t batch = 0;
  std::vector<std::int64_t> pass_outputs;  ///< box_chunk: outputs a thread makes in each box pass
  /// The type the pass's sums and recursions run in: f32, or f64 where iir's plan asks for it (its
  /// shader's variant, iir_line_f64; the device must have float64).
  ElementType real = ElementType::f32;
  /// iir_line: the recursion its shader runs (iir_line.comp's VARIANT): Young-van Vliet's, or
  /// Deriche's parallel form (the GPU's only form of Deriche: stable in float32 at any sigma).
  enum class Recursion { none, young_van_vliet, deriche_parallel } recursion = Recursion::none;
};

/// Vulkan, on the caller's buffers (fastblur::vulkan::blur of BufferImages, CUDA arrays): where the
/// first pass reads and the last pass writes.
enum class GpuIo {
  converted,  ///< through float32 work buffers of the job: convert.comp widens the caller's image
              ///< before the first pass and narrows the result after the last (two more passes)
  direct,     ///< the caller's float32 buffers are the first pass's input and the last pass's output
              ///< (float32 on both sides, offsets on the device's storage-buffer alignment, apart)
};
std::string_view to_string(GpuIo io) noexcept;

/// CUDA arrays (fastblur/cuda.hpp): how the Vulkan work is ordered with the caller's CUDA stream.
enum class CudaHandoff {
  none,        ///< not a CUDA array's plan
  host_waits,  ///< the host waits for the copy in (a CUDA event) and for the blur (a fence), then queues
               ///< the copy out: where the driver exports no timeline semaphore
  semaphores,  ///< a timeline semaphore shared by both APIs: the stream signals it after the copy in, the
               ///< Vulkan submission waits on it and signals the next value, the stream waits for that
               ///< before the copy out; the call returns without waiting for either
  // Two halves of each, variants measured against it (FASTBLUR_CUDA_HANDOFF picks one; bench/RESULTS.md):
  host_then_semaphore,  ///< the host waits for the copy in, submits; the stream waits on the semaphore
  semaphore_then_host,  ///< the stream signals, the submission waits on it; the host waits, then queues the copy out
};
std::string_view to_string(CudaHandoff handoff) noexcept;

/// One axis of a plan (x, y, z = 0, 1, 2).
struct AxisPlan {
  bool active = false;       ///< filtered: sigma > 0, and more than one sample unless the border is constant
  double sigma = 0.0;        ///< as requested
  Border border = Border::reflect;
  int radius = 0;            ///< the kernel's radius for the algorithms that have one (fir, fft; downsample's
                             ///< low-resolution kernel), else 0
  std::int64_t support = 0;  ///< how far an output reaches into the input on each side: the halo with which a
                             ///< piece (GPU tile, CLI band, dask chunk) gives the same result as the whole
  std::int64_t align = 1;    ///< pieces start on multiples of this (the block grid of algorithms that are not
                             ///< shift-invariant)
  /// The kernel as data, for the algorithms that correlate with one (fir and its GPU variants, fft,
  /// correlate): n = 2 radius + 1 weights (or 2 radius, the last tap dropped, for an even kernel),
  /// output i = sum over k of weights[k] in[i - radius + k]; the sampled Gaussian, its derivative or
  /// the caller's. Resolved once by the algorithm's descriptor; the backends read it, never compute
  /// it. Null for the other algorithms and inactive axes. Shared by copies of the plan.
  std::shared_ptr<const std::vector<double>> weights;
  double achieved_sigma = 0.0;    ///< sqrt of the algorithm's variance along this axis
  double predicted_error = 0.0;   ///< 1D max error of the equivalent kernel (docs/DESIGN.md, quality metrics)
  /// The radius asked for where it reached beyond the axis and the Gaussian was folded onto what the
  /// border reads (radius is then the folded one: the same result, algorithms/folded_kernel.hpp); else 0.
  std::int64_t folded_from = 0;
};

struct Plan;

/// The schedule: how the plan's backend runs it. make_plan fills it in; a caller (or a test) may change
/// it before executing the plan, and every schedule gives the same result up to rounding.
struct Schedule {
  Backend backend = Backend::cpu;
  /// CPU threads (0 in a plan means: as many as OpenMP offers when it runs). make_plan applies one rule:
  /// work below about 2e5 tap pairs runs on the calling thread (waking threads costs more), else the
  /// spec's threads (0: every core), capped at the processors.
  int threads = 1;
  CpuDriver driver = CpuDriver::lines;
  /// The working type of intermediates: f64 where the source or destination is f64, else f32.
  ElementType intermediate = ElementType::f32;
  /// fir's axis passes: columns (values) per strip of the y and z passes, sized for L2 (index 1, 2).
  std::array<std::int64_t, 3> strip{0, 0, 0};
  /// CPU: the destination's rows are written with streaming (non-temporal) stores, past the caches.
  /// downsample's chain sets it where the destination is at least half the last-level cache: a
  /// cached store first reads each line from memory (a third more traffic than the read of the
  /// source and the write of the destination), and the caches could not keep such an output anyway.
  /// Below that the output stays in the cache for whoever reads it next (bench/RESULTS.md,
  /// 2026-11-27: the crossover measured at 16 MiB of a 32 MiB cache). Applies where the driver
  /// writes float32 rows of packed pixels itself (the chain; SciPy's order fused, whose float32 rows
  /// are converted from double as they are streamed).
  bool stream_destination = false;
  /// CpuDriver::scipy_order: a 2D image's y and x passes in one pass through a ring of rows - the
  /// image read once and written once, SciPy's arithmetic unchanged - where the axes run y then x and
  /// the ring fits the budget (fir's schedule); else a pass per axis.
  bool fused_axes = false;
  /// CpuDriver::scipy_order fused on a volume filtered z, y, x whose ring of z's planes fits half the
  /// last-level cache over the threads (fir's schedule): z's pass through that ring, each output
  /// plane filtered in y and x while in cache - the volume read once and written once, not z's result
  /// written and read back (cpu/scipy_order_planes.cpp). SciPy's arithmetic unchanged.
  bool fused_z = false;
  /// fused_z on a float32, 8- or 16-bit source apart from its output, with a z kernel of up to 24 taps and no cval
  /// plane: z sums the source's planes where they lie, widened as they are loaded, instead of
  /// copying them into its ring of doubles - so the plan fuses z wherever the group's planes fit the
  /// cache. Longer kernels read too many planes at once (230x200x180 sigma 8: 90 ms fused so against
  /// 56 ms a pass per axis). SciPy's arithmetic unchanged.
  bool z_source_planes = false;
  /// fused_axes on an 8- or 16-bit integer 2D image (int8, uint8, uint16; not int16) into its type apart
  /// from it, with SciPy's symmetric positive kernels (a Gaussian's) on both axes and a cval of the
  /// type: its rows stay integer-valued floats, and each output is
  /// SciPy's truncated double sum computed as float32 sums with an error bound - a table where every
  /// tap pair sums to twice the centre, x0 + the pairs' excess truncated toward zero where the bound
  /// decides it, SciPy's double sum for the rest (cpu/scipy_int_certified.hpp). SciPy's bits unchanged. A bool
  /// image into bool likewise (SciPy's npy_bool is an unsigned char: uint8's truncation).
  bool scipy_int_certified = false;
  /// CPU fir (axis passes and scipy-order): x rows shorter than a vector (an RGB array's channel axis
  /// given one sigma, SciPy's rule) are filtered across rows - a block of rows transposed so that each
  /// x position is a row of lanes - instead of one short row at a time, which is all tail and
  /// overhead (float32 1080x1920x3 sigma 5: the x pass alone 420-530 ms a row at a time). Every
  /// output keeps its operations, so its bits.
  bool x_across_rows = false;
  /// scipy-order with x rows of 2-4 values filtered last (an RGB or RGBA array's channel axis under
  /// SciPy's one sigma on every axis): z and y run as the y and x of a 2D image of x's pixels, by
  /// this plan of that image (its fused rows, its certified 8-bit sums; none streamed past the
  /// caches), then x across the pixels - of each output row while in cache where the image's rows
  /// are fused - the same operations in the same order, so the same bits. Null otherwise.
  std::shared_ptr<const Plan> pixels_image;
  /// Vulkan: each axis's pass (shader variant, tile, block or outputs a thread).
  std::array<GpuPass, 3> gpu{};
  /// Vulkan: per-line scratch (box's running sums, iir) interleaved across lines (a GPU's coalesced
  /// loads) or line by line (a CPU device such as lavapipe). The same arithmetic, the same bits.
  bool gpu_interleave_scratch = true;
  /// Vulkan, on the caller's buffers: read and written directly, or converted through work buffers.
  GpuIo gpu_io = GpuIo::converted;
  /// CUDA arrays: how the work is ordered with the caller's stream (none for other plans).
  CudaHandoff cuda_handoff = CudaHandoff::none;
  /// Vulkan, one piece: parts of rows the image travels in, so that packing overlaps the copies (1: whole).
  std::int64_t transfer_parts = 1;
  /// Vulkan: the interior of each piece the image is blurred in (the whole image: one piece).
  std::array<std::int64_t, 3> tile{1, 1, 1};
  std::int64_t pieces = 1;
};

/// A resolved parameter, for display (describe, `--explain`, Python's plan dicts).
struct PlanParameter {
  std::string key;       ///< "box_passes", "box_radius", "kawase_offsets", "iir_variant", ...
  ParameterValue value;  ///< its value (per axis: a list per axis, `axis` saying which)
  int axis = -1;         ///< -1: the whole plan; 0..2: that axis
};

struct Plan {
  /// The algorithm that runs (never automatic).
  Algorithm algorithm = Algorithm::fir;
  /// The request, with the algorithm named and the algorithm's parameters filled in.
  BlurSpec spec;
  /// What the plan was made for.
  std::array<std::int64_t, 3> extent{1, 1, 1};
  int channels = 1;
  ElementType source = ElementType::f32, destination = ElementType::f32;
  std::array<AxisPlan, 3> axes{};
  std::vector<PlanParameter> parameters;
  Schedule schedule;
  /// The max error (docs/DESIGN.md, quality metrics) of the impulse response of the whole (2D/3D) blur, predicted from the
  /// exact 1D kernels: exact for two axes, else prod(1 + e_axis) - 1. (make_plan predicts it; a blur of
  /// a named algorithm plans only what runs and leaves it NaN.)
  double predicted_max_error = 0.0;
  /// Estimated work per pixel and channel (relative units, comparable between algorithms of one backend).
  double predicted_cost = 0.0;
  /// Every candidate weighed, one line each, and why the chosen one won (for --explain).
  std::vector<std::string> considered;
  std::string reason;
  /// Vulkan: the measured profile the costs were read from ("NVIDIA H200, bundled h200.json, commit
  /// ..."); empty where they are the model's.
  std::string cost_profile;
  /// The algorithm's parameters in its own form (see ResolvedParameters).
  std::shared_ptr<const ResolvedParameters> resolved;
};

/// A stack of 2D slices (slice k at z = k), each blurred with its own spec: a batch with a sigma per
/// sample (blur_slices, cuda::blur_slices). Slice k runs `slices[k]`, so its result is that of
/// blurring it alone. On a Vulkan device the whole stack is one submission; where every slice's plan
/// is fir with the same active axes, borders and cval (`stacked`), each axis is one pass over the
/// whole stack, every slice with its own kernel (`stacked_passes`: fir_line_slices / fir_across_slices,
/// the tile of the widest kernel), else each slice's passes run in turn.
struct SlicedPlan {
  std::vector<Plan> slices;
  bool stacked = false;
  std::array<GpuPass, 3> stacked_passes{};
  /// Vulkan, the caller's buffers: the stack read and written where it lies, or converted.
  GpuIo gpu_io = GpuIo::converted;
  /// CUDA arrays: how the stack's work is ordered with the caller's stream.
  CudaHandoff cuda_handoff = CudaHandoff::none;
};
/// describe() of a sliced plan: the stack's schedule, then each distinct slice plan once with the
/// slices that run it.
std::string describe(const SlicedPlan& plan);

/// How a plan's data may be cut into pieces (GPU tiles, CLI bands, dask chunks) that, blurred alone,
/// give the whole call's result in their interiors: each piece carries `halo` samples per axis (the
/// plan's support rounded up to `align`) and starts on a multiple of `align` (the block grid of the
/// algorithms that are not shift-invariant).
struct PieceGrid {
  std::array<std::int64_t, 3> halo{};
  std::int64_t align = 1;
};
PieceGrid piece_grid(const Plan& plan);

/// Plans `spec` for an image of `src`'s shape and type (the destination taken to have the same type).
/// With Algorithm::automatic and tolerance 0 the plan is exact (fir, or where cheaper what equals it
/// within 1e-5 of the impulse response's peak: fft, sliding-dct fitted to fir's kernel); with a
/// tolerance > 0, the cheapest candidate within it. A named algorithm is planned as asked (its
/// parameters filled in, its error predicted). Throws InvalidArgument, Unsupported.
Plan make_plan(const BlurSpec& spec, const View& src);
/// The same for a backend (its candidates are the algorithms it runs, weighed by its cost model) and
/// a destination type. Plans for Backend::vulkan made here assume a hardware GPU with float64 and the
/// whole image in one piece; make_plan(spec, src, device) (device.hpp) plans for the device itself.
Plan make_plan(const BlurSpec& spec, const View& src, Backend backend);
Plan make_plan(const BlurSpec& spec, const View& src, ElementType destination, Backend backend);

/// The rounding a request runs with on `backend`: Rounding::scipy only where it gives SciPy's bits (a
/// CPU request for the exact result: tolerance 0 with the algorithm automatic, or a named algorithm
/// that has SciPy's rounding), else Rounding::nearest. A front end that sends SciPy's weights for
/// SciPy's bits sends them only then: elsewhere the core's kernel may fold where it reaches beyond
/// its axis.
Rounding resolved_rounding(const BlurSpec& spec, Backend backend);

/// Runs a CPU plan (made for views of this shape) with its schedule as it stands. Throws
/// InvalidArgument when the views do not have the plan's shape, Unsupported for a Vulkan plan.
void blur(const View& src, const View& dst, const Plan& plan);

/// The 1D max error (relative to the Gaussian's peak) of `spec`'s algorithm along one axis, from
/// its exact equivalent kernel. Large sigmas are evaluated at sigma 64, where the shape error of
/// the O(1) algorithms has reached its asymptote.
double predicted_axis_error(const BlurSpec& spec, int axis);

/// Human-readable plan: algorithm, parameters per axis, schedule, predicted error and cost, candidates.
std::string describe(const Plan& plan);
/// The schedule alone, as describe's "schedule:" line shows it (backend, driver, threads, ...).
std::string describe_schedule(const Plan& plan);

/// What a blur executed, as its plan said: recorded by the front door for every blur that runs, so
/// that a test can compare what a front end prints (--explain, fastblur.plan()) with what ran.
struct RunRecord {
  Algorithm algorithm = Algorithm::fir;
  Schedule schedule;
  Rounding rounding = Rounding::nearest;
  ElementType source = ElementType::f32, destination = ElementType::f32;
};
/// The last blur that ran on the calling thread (nullopt before the first).
std::optional<RunRecord> last_run() noexcept;

}  // namespace fastblur
