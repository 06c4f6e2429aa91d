#pragma once
// The explorer's computations, each the library's or the CLI's own: a blur of an image's preview
// with its timing, the exact blur beside it, the docs/DESIGN.md metrics, the difference image, the plan
// and its explanation; the full-resolution result for downloads; the plots and shader code.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "fastblur/device.hpp"
#include "serve_request.hpp"
#include "serve_store.hpp"

namespace fastblur::cli {

/// Thrown when a newer request of the same page made this one pointless.
struct Superseded {};

/// A preview's reply (the timings, metrics, plan and explanation; the server adds the pictures'
/// URLs) and its pictures, which the page fetches as PNGs when it shows them.
struct Preview {
  nlohmann::json reply;
  std::shared_ptr<const PreviewPictures> pictures;
};

/// Blurs the image's preview as asked and measures it. `superseded` is asked between the stages;
/// when it returns true the work stops by throwing Superseded.
Preview blur_preview(const BlurRequest& request, StoredImage& image, const Device& device,
                     const std::function<bool()>& superseded);

/// One of a preview's pictures ("result", "exact" or "diff") as PNG bytes.
std::string preview_picture_png(const PreviewPictures& pictures, const std::string& which, PrivateTempDir& temp);

/// The full-resolution result in the input's format (the scene: PNG), as the file's bytes.
std::string blur_for_download(const BlurRequest& request, const StoredImage& image, const Device& device,
                              PrivateTempDir& temp);

/// `analyze --plot`'s figures for the request's algorithm at its sigma (x): "impulse" (log scale),
/// "cross_section" (seed 002's 12x12 block) or "contours". SVG text.
std::string plot_svg(const BlurRequest& request, const std::string& kind);

/// The image as an 8-bit PNG (values clamped to [0, 1]), as a file's bytes.
std::string preview_png(const StoredImage& image, PrivateTempDir& temp);

}  // namespace fastblur::cli
