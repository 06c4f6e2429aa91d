#pragma once
// What the explorer page asks for, from its JSON, checked by the CLI's own rules (sigma, border,
// algorithm_options.hpp's algorithm choice, Device::parse), so a request means what the same
// options of `fastblur blur` mean.
#include <array>
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "fastblur/blur.hpp"

namespace fastblur::cli {

/// The limits of one explorer server, shown by /api/info.
struct ServeLimits {
  std::uint64_t max_upload_bytes = 64ull << 20;  ///< bytes of one uploaded file
  std::int64_t max_pixels = 24'000'000;          ///< width x height of one image
  std::int64_t preview_size = 1280;              ///< previews are at most this wide and high
  double max_sigma = 100.0;                      ///< of the image; the plots' limit too
  int images_per_session = 4;                    ///< older uploads are forgotten
  int sessions = 64;                             ///< the least recently used is forgotten
  std::uint64_t memory_bytes = 4ull << 30;       ///< all sessions' images; the least recently used go first
};

struct BlurRequest {
  std::string image = "scene";         ///< "scene" or an upload's id
  std::array<double, 2> sigma{4, 4};   ///< x, y in the image's pixels
  std::string border = "reflect";
  double cval = 0.0;
  std::string algorithm = "auto";
  double tolerance = 0.0;
  std::map<std::string, std::string> options;  ///< by command-line flag ("passes": "3")
  std::string device = "cpu";
  std::string client;                  ///< the page instance; a newer request of it supersedes older ones
};

/// Reads a request from JSON: {"image", "sigma": S or [SX, SY], "border", "cval", "algorithm",
/// "tolerance", "options": {flag: value}, "device", "client"}; every key optional. Numbers may be
/// given as numbers or numeric strings. Throws InvalidArgument with one line naming the key.
BlurRequest parse_blur_request(const nlohmann::json& body, const ServeLimits& limits);

/// The spec of a request for an image scaled by 1/`scale` (previews): sigma divided by it. The
/// algorithm and its options through apply_algorithm_choice. Throws InvalidArgument.
BlurSpec request_spec(const BlurRequest& request, double scale = 1.0);

/// The exact blur of the same request: fir at the same sigma, border and truncation.
BlurSpec exact_spec(const BlurSpec& spec);

}  // namespace fastblur::cli
