// The common options' rules, once for every front end (include/fastblur/validate.hpp).
#include "fastblur/validate.hpp"

#include <cmath>
#include <cstdio>

#include "fastblur/error.hpp"

namespace fastblur {
namespace {

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

void check_finite_nonnegative(double value, const std::string& option, const OptionNames& names) {
  if (!std::isfinite(value) || value < 0.0)
    throw InvalidArgument(names.with(option, value) + " must be a finite value >= 0");
}

OptionNames OptionNames::command_line() {
  OptionNames n;
  n.sigma = "--sigma", n.radius = "--radius", n.cval = "--cval", n.tolerance = "--tolerance", n.threads = "--threads";
  n.truncate = "--truncate", n.rounding = "--rounding", n.device = "--device";
  return n;
}

OptionNames OptionNames::python() {
  OptionNames n;
  n.separator = "=";
  n.quote = "'";
  return n;
}

OptionNames OptionNames::json() {
  OptionNames n;
  n.sigma = "'sigma'", n.cval = "'cval'", n.tolerance = "'tolerance'", n.device = "'device'";
  n.radius = n.threads = n.truncate = n.rounding = "";
  return n;
}

std::string OptionNames::with(const std::string& option, double value) const {
  return option + separator + number_text(value);
}

std::string OptionNames::with(const std::string& option, std::string_view text) const {
  return option + separator + quote + std::string(text) + quote;
}

void check_sigma(double sigma, const OptionNames& names) { check_finite_nonnegative(sigma, names.sigma, names); }

void check_radius(double radius, const OptionNames& names) {
  // Whole numbers in full (a radius of 2^40 reads as 1099511627776, not 1.09951e+12).
  char given[48];
  std::snprintf(given, sizeof given, std::isfinite(radius) && radius == std::floor(radius) && std::fabs(radius) < 1e15 ? "%.0f" : "%g",
                radius);
  const std::string option = names.radius + names.separator + given;
  if (!std::isfinite(radius) || radius < 0.0 || radius != std::floor(radius))
    throw InvalidArgument(option + " must be a whole number from 0 to " + std::to_string(kMaxRadius));
  if (radius > kMaxRadius) throw InvalidArgument(option + " is beyond the maximum " + std::to_string(kMaxRadius));
}

void check_cval(double cval, Rounding rounding, const OptionNames& names) {
  if (std::isfinite(cval) || rounding == Rounding::scipy) return;
  throw InvalidArgument(names.with(names.cval, cval) + " must be finite" +
                        (names.rounding.empty() ? std::string()
                                                : " (or " + names.with(names.rounding, std::string_view("scipy")) +
                                                      ", as SciPy takes any)"));
}

void check_tolerance(double tolerance, const OptionNames& names) {
  check_finite_nonnegative(tolerance, names.tolerance, names);
}

void check_threads(std::int64_t threads, const OptionNames& names) {
  if (threads < 0)
    throw InvalidArgument(names.threads + names.separator + std::to_string(threads) +
                          " must be an integer >= 0 (0 = every core)");
}

void check_truncate(double truncate, const OptionNames& names) { check_finite_nonnegative(truncate, names.truncate, names); }

void check_common(const BlurSpec& spec, const OptionNames& names) {
  for (double s : spec.sigma) check_sigma(s, names);
  check_truncate(spec.truncate, names);
  check_cval(spec.cval, spec.rounding, names);
  check_tolerance(spec.tolerance, names);
  check_threads(spec.threads, names);
}

DeviceName parse_device_name(std::string_view text, const OptionNames& names) {
  DeviceName d;
  if (text == "cpu") return d;
  if (text == "vulkan") {
    d.kind = DeviceName::Kind::vulkan;
    return d;
  }
  if (text.rfind("vulkan:", 0) == 0 && text.size() > 7) {
    const std::string rest(text.substr(7));
    if (rest.find_first_not_of("0123456789") == std::string::npos) {
      if (rest.size() > 6) throw InvalidArgument(names.with(names.device, text) + ": the index is too large");
      d.kind = DeviceName::Kind::vulkan_index;
      d.index = std::stoi(rest);
      return d;
    }
    d.kind = DeviceName::Kind::vulkan_name;
    d.name = rest;
    return d;
  }
  throw InvalidArgument(names.with(names.device, text.substr(0, 200)) +
                        ": expected cpu, vulkan, vulkan:N (an index) or vulkan:NAME (part of a device's name)");
}

}  // namespace fastblur
