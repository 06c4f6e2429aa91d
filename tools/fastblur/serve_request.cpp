#include "serve_request.hpp"

#include <cmath>
#include <cstdio>

#include "algorithm_options.hpp"
#include "fastblur/error.hpp"
#include "fastblur/validate.hpp"
#include "parse.hpp"

namespace fastblur::cli {
namespace {

using nlohmann::json;

double number(const json& v, const std::string& key) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const std::vector<double> list = parse_number_list(v.get<std::string>(), key);  // checked after
    if (list.size() == 1) return list[0];
  }
  throw InvalidArgument("'" + key + "' must be a number");
}

std::string text(const json& v, const std::string& key, std::size_t max_length = 64) {
  if (!v.is_string()) throw InvalidArgument("'" + key + "' must be a string");
  std::string s = v.get<std::string>();
  if (s.size() > max_length) throw InvalidArgument("'" + key + "' is longer than " + std::to_string(max_length));
  return s;
}

// A parameter's text as the command line would give it: numbers, lists ("1.5,2.5"), true/false, names.
std::string option_text(const json& v, const std::string& flag) {
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  if (v.is_number()) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", v.get<double>());
    return buffer;
  }
  return text(v, "options." + flag, 256);
}

}  // namespace

BlurRequest parse_blur_request(const json& body, const ServeLimits& limits) {
  if (!body.is_object()) throw InvalidArgument("the request must be a JSON object");
  BlurRequest r;
  for (const auto& [key, v] : body.items()) {
    if (key == "image") {
      r.image = text(v, key);
    } else if (key == "sigma") {
      if (v.is_array()) {
        if (v.size() != 2) throw InvalidArgument("'sigma' must be one number or [x, y]");
        r.sigma = {number(v[0], "sigma[0]"), number(v[1], "sigma[1]")};
      } else {
        r.sigma[0] = r.sigma[1] = number(v, key);
      }
    } else if (key == "border") {
      r.border = text(v, key);
    } else if (key == "cval") {
      r.cval = v.is_number() ? v.get<double>() : number(v, key);
    } else if (key == "algorithm") {
      r.algorithm = text(v, key);
    } else if (key == "tolerance") {
      r.tolerance = number(v, key);
    } else if (key == "options") {
      if (!v.is_object()) throw InvalidArgument("'options' must be an object of option: value");
      for (const auto& [flag, value] : v.items())
        if (!value.is_null() && !(value.is_string() && value.get<std::string>().empty()))
          r.options[flag] = option_text(value, flag);
    } else if (key == "device") {
      r.device = text(v, key);
    } else if (key == "client") {
      r.client = text(v, key);
    } else {
      throw InvalidArgument("unknown key '" + key.substr(0, 40) + "'");
    }
  }
  const OptionNames names = OptionNames::json();
  for (double s : r.sigma) {
    check_sigma(s, names);
    if (s > limits.max_sigma)
      throw InvalidArgument(names.with(names.sigma, s) + " must be at most " +
                            std::to_string(static_cast<int>(limits.max_sigma)) + " in the explorer");
  }
  check_cval(r.cval, Rounding::nearest, names);
  (void)parse_device_name(r.device, names);
  return r;
}

BlurSpec request_spec(const BlurRequest& r, double scale) {
  BlurSpec spec;
  spec.sigma = {r.sigma[0] / scale, r.sigma[1] / scale, 0.0};
  const Border border = parse_border(r.border);
  spec.border = {border, border, border};
  spec.cval = r.cval;
  apply_algorithm_choice(spec, r.algorithm, r.tolerance, r.options, OptionNames::json());
  return spec;
}

BlurSpec exact_spec(const BlurSpec& spec) {
  BlurSpec fir;
  fir.sigma = spec.sigma;
  fir.border = spec.border;
  fir.cval = spec.cval;
  fir.truncate = spec.truncate;
  fir.radius = spec.radius;
  fir.algorithm = Algorithm::fir;
  return fir;
}

}  // namespace fastblur::cli
