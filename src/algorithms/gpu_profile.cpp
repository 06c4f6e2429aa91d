// Measured GPU profiles: parsed from their JSON (nlohmann-json), looked up by device name, and the
// cost of a candidate read off the measured grid.
#include "algorithms/gpu_profile.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "fastblur/error.hpp"

namespace fastblur::algo {
namespace {

struct BundledProfile {
  const char* name;
  const char* json;
};
// data/gpu-profiles/*.json, as CMake compiled them in (generated/gpu_profiles.inc).
const BundledProfile kBundled[] = {
#include "gpu_profiles.inc"
    {nullptr, nullptr}};

double values(const std::array<std::int64_t, 3>& e, int channels) {
  return static_cast<double>(e[0]) * static_cast<double>(e[1]) * static_cast<double>(e[2]) * channels;
}

// Measured ms per value and unit of modelled cost.
double rate(const GpuProfileCase& c) { return c.ms / (values(c.extent, c.channels) * c.model_cost); }

}  // namespace

GpuProfile parse_gpu_profile(std::string_view text, std::string source) {
  GpuProfile p;
  p.source = std::move(source);
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    p.device = j.at("device").get<std::string>();
    p.driver = j.value("driver", "");
    p.commit = j.value("commit", "");
    p.date = j.value("date", "");
    std::vector<double> per_cost;
    for (const auto& c : j.at("cases")) {
      GpuProfileCase k;
      k.algorithm = parse_algorithm(c.at("algorithm").get<std::string>());
      k.variant = c.value("variant", "");
      k.type = parse_element_type(c.at("type").get<std::string>());
      k.channels = c.at("channels").get<int>();
      k.extent = c.at("extent").get<std::array<std::int64_t, 3>>();
      k.sigma = c.at("sigma").get<double>();
      k.ms = c.at("ms").get<double>();
      k.model_cost = c.at("model_cost").get<double>();
      if (k.channels < 1 || k.channels > 4 || k.extent[0] < 1 || k.extent[1] < 1 || k.extent[2] < 1 || !(k.sigma > 0) ||
          !(k.ms > 0) || !std::isfinite(k.ms) || !(k.model_cost > 0) || !std::isfinite(k.model_cost))
        throw InvalidArgument("a case out of range (channels 1-4, extents >= 1, sigma, ms and model_cost > 0)");
      per_cost.push_back(rate(k));
      p.cases.push_back(std::move(k));
    }
    if (per_cost.empty()) throw InvalidArgument("no cases");
    std::nth_element(per_cost.begin(), per_cost.begin() + static_cast<std::ptrdiff_t>(per_cost.size() / 2), per_cost.end());
    p.ms_per_cost_value = per_cost[per_cost.size() / 2];
  } catch (const nlohmann::json::exception& e) {
    throw InvalidArgument("GPU profile " + p.source + ": " + e.what());
  } catch (const Error& e) {
    throw InvalidArgument("GPU profile " + p.source + ": " + e.what());
  }
  return p;
}

std::optional<double> GpuProfile::correction(Algorithm algorithm, std::string_view variant, const Shape& shape,
                                       double sigma) const {
  if (!(sigma > 0) || !(ms_per_cost_value > 0)) return std::nullopt;
  const int dims = shape.dimensions();
  const ElementType type = shape.source;
  // The closest group (type, channels, size) among the cases of this algorithm, variant and dimensionality.
  const GpuProfileCase* nearest = nullptr;
  double best = 0;
  const double want = std::log(static_cast<double>(shape.elements()));
  for (const GpuProfileCase& c : cases) {
    if (c.algorithm != algorithm || c.variant != variant || (c.extent[2] > 1 ? 3 : 2) != dims) continue;
    const double score = (c.type == type ? 0 : 100) + (c.channels == shape.channels ? 0 : 10) +
                         std::abs(std::log(values(c.extent, c.channels)) - want);
    if (!nearest || score < best) nearest = &c, best = score;
  }
  if (!nearest) return std::nullopt;
  std::vector<std::pair<double, double>> by_sigma;  // log sigma, log rate
  for (const GpuProfileCase& c : cases)
    if (c.algorithm == algorithm && c.variant == variant && c.type == nearest->type && c.channels == nearest->channels &&
        c.extent == nearest->extent)
      by_sigma.emplace_back(std::log(c.sigma), std::log(rate(c)));
  std::sort(by_sigma.begin(), by_sigma.end());
  const double s = std::log(sigma);
  double log_rate = by_sigma.front().second;
  if (s >= by_sigma.back().first) {
    log_rate = by_sigma.back().second;
  } else {
    for (std::size_t i = 1; i < by_sigma.size(); ++i)
      if (s < by_sigma[i].first) {
        if (s > by_sigma[i - 1].first) {
          const double t = (s - by_sigma[i - 1].first) / (by_sigma[i].first - by_sigma[i - 1].first);
          log_rate = by_sigma[i - 1].second + t * (by_sigma[i].second - by_sigma[i - 1].second);
        }
        break;
      }
  }
  return std::exp(log_rate) / ms_per_cost_value;
}

std::vector<GpuProfile> bundled_gpu_profiles() {
  std::vector<GpuProfile> out;
  for (const BundledProfile* b = kBundled; b->name; ++b) out.push_back(parse_gpu_profile(b->json, std::string("bundled ") + b->name));
  return out;
}

std::shared_ptr<const GpuProfile> gpu_profile_for(const std::string& device_name) {
  // Parsed once per process and device name (bundled profiles are data of the build).
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const GpuProfile>> found;
  const char* path = std::getenv("FASTBLUR_GPU_PROFILE");
  const std::string key = (path ? std::string(path) : std::string()) + "\n" + device_name;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = found.find(key); it != found.end()) return it->second;
  std::shared_ptr<const GpuProfile> profile;
  if (path && *path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    try {
      if (!in) throw InvalidArgument("GPU profile " + std::string(path) + ": cannot be read");
      auto p = std::make_shared<GpuProfile>(parse_gpu_profile(text.str(), path));
      if (p->device == device_name) profile = std::move(p);
      else
        std::fprintf(stderr, "fastblur: warning: FASTBLUR_GPU_PROFILE is the profile of '%s', not of '%s'; costs from the model\n",
                     p->device.c_str(), device_name.c_str());
    } catch (const Error& e) {
      std::fprintf(stderr, "fastblur: warning: %s; costs from the model\n", e.what());
    }
  } else {
    for (GpuProfile& p : bundled_gpu_profiles())  // tests/algorithms/gpu_profile_test.cpp keeps them well formed
      if (p.device == device_name) {
        profile = std::make_shared<GpuProfile>(std::move(p));
        break;
      }
  }
  found[key] = profile;
  return profile;
}

}  // namespace fastblur::algo
