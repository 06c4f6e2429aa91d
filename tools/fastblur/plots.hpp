#pragma once
// The plots of an algorithm at a sigma, as SVG documents: written by `fastblur analyze --plot` and shown by
// `fastblur serve`, so both draw exactly the same figures.
#include <string>

#include "fastblur/blur.hpp"

namespace fastblur::cli {

/// Seed 002's figure: a row through a 12x12 white block on black after `planned`'s blur, against the
/// Gaussian of `sigma`.
std::string cross_section_svg(const BlurSpec& planned, double sigma);
/// The 1D impulse response (for planar algorithms the marginal) against the Gaussian, log scale.
std::string impulse_log_svg(const BlurSpec& planned, double sigma);
/// Seed 001, figure 3: log-spaced contours of the 2D impulse response, the Gaussian's dashed.
std::string contours_svg(const BlurSpec& planned, double sigma);

}  // namespace fastblur::cli
