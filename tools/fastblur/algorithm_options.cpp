#include "algorithm_options.hpp"

#include <cmath>

#include "fastblur/error.hpp"
#include "parse.hpp"

namespace fastblur::cli {

void AlgorithmOptions::add_to(CLI::App& sub) {
  std::string list;
  for (const auto& a : fastblur::algorithms()) list += "\n  " + std::string(a.name) + ": " + std::string(a.summary);
  sub.add_option("-a,--algorithm", algorithm, "Algorithm:" + list)->capture_default_str();
  sub.add_option("-e,--tolerance", tolerance,
                 "With --algorithm auto: the largest max error of the impulse response (relative to the Gaussian's "
                 "peak) to trade for speed; 0 = exact")
      ->capture_default_str();
  sub.add_option("--passes", passes, "box: passes 1-6 (default 3); kawase: number of passes (default: chosen)");
  sub.add_flag("--integer-widths", integer_widths,
               "box: integer box widths only (seed 002's moving average); the achieved sigma then differs from --sigma");
  sub.add_option("--offsets", offsets,
                 "kawase: explicit pass offsets in pixels, e.g. 0.5,1.5,2.5,2.5,3.5 (seed 002's {0,1,2,2,3})");
  sub.add_option("--iir-variant", iir_variant, "iir: deriche (4th order, L1 error about 5e-4) or young-van-vliet "
                                               "(3rd order, cheaper, about 2e-2)")
      ->capture_default_str();
  sub.add_option("--factor", factor, "downsample: 2 or 4 (default: 4 from sigma 12, else 2)");
  sub.add_option("--sdct-order", order, "sliding-dct: cosine terms 2-8 (default 5; max error 2.3e-3 at 3, 5e-4 at 4, "
                                   "7e-5 at 5, 2e-5 at 6)");
  sub.add_option("--levels", levels, "dual-kawase: levels (halvings) of the chain, 1-16 (default: chosen for sigma)");
  sub.add_option("--offset", offset,
                 "dual-kawase: tap offset in half texels (Bjorge's is 1); the achieved sigma is then the chain's "
                 "(default: solved so the variance is sigma^2)");
  sub.add_option("--samples", samples, "mip-poisson: samples per pixel, a multiple of 4 from 8 to 256 (default 32)");
  sub.add_option("--frame", frame, "mip-poisson: frame index that moves the rotation noise (for temporal accumulation)");
}

void AlgorithmOptions::apply(BlurSpec& spec) const {
  spec.algorithm = parse_algorithm(algorithm);
  if (!std::isfinite(tolerance) || tolerance < 0) throw InvalidArgument("--tolerance must be a finite value >= 0");
  spec.tolerance = tolerance;
  if (passes < 0 || passes > 4096) throw InvalidArgument("--passes must be in 0..4096");
  if (spec.algorithm == Algorithm::box && passes > 6) throw InvalidArgument("--passes for box must be 1 to 6");
  spec.box_passes = passes;
  spec.kawase_passes = passes;
  spec.box_integer_widths = integer_widths;
  if (!offsets.empty()) spec.kawase_offsets = parse_nonnegative_list(offsets, "--offsets");
  if (iir_variant == "deriche") spec.iir_variant = IirVariant::deriche;
  else if (iir_variant == "young-van-vliet") spec.iir_variant = IirVariant::young_van_vliet;
  else throw InvalidArgument("unknown --iir-variant '" + iir_variant + "': expected deriche or young-van-vliet");
  if (factor != 0 && factor != 2 && factor != 4) throw InvalidArgument("--factor must be 2 or 4");
  spec.downsample_factor = factor;
  if (order != 0 && (order < 2 || order > 8)) throw InvalidArgument("--sdct-order must be 2 to 8");
  spec.sliding_dct_order = order;
  if (levels < 0 || levels > 16) throw InvalidArgument("--levels must be 1 to 16 (0 = chosen)");
  if (!std::isfinite(offset) || offset < 0) throw InvalidArgument("--offset must be a finite value >= 0 (0 = solved)");
  spec.dual_kawase_levels = levels;
  spec.dual_kawase_offset = offset;
  if (samples != 0 && (samples < 8 || samples > 256 || samples % 4 != 0))
    throw InvalidArgument("--samples must be a multiple of 4 from 8 to 256");
  spec.mip_poisson_samples = samples;
  spec.mip_poisson_frame = frame;
}

}  // namespace fastblur::cli
