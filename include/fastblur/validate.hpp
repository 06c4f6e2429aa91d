#pragma once
/// @file
/// The checks of a request's common options, written once for every front end (issue 26): the
/// command line, the explorer and Python call these instead of stating the rules again. Each check
/// throws InvalidArgument with one line that names the option the way the caller's front end
/// spells it (`--cval nan`, `cval=nan`, `'cval' nan`), followed by the same words everywhere.
/// The device-name grammar ('cpu', 'vulkan', 'vulkan:N', 'vulkan:NAME') is here too: parsed
/// without opening a device (Device::parse, device.hpp, opens the device it names).
#include <cstdint>
#include <string>
#include <string_view>

#include "fastblur/blur.hpp"

namespace fastblur {

/// How a front end spells its options in a message. An empty name: the front end has no such
/// option (a message then leaves out what would mention it).
struct OptionNames {
  std::string sigma = "sigma", radius = "radius", cval = "cval", tolerance = "tolerance", threads = "threads", truncate = "truncate",
              rounding = "rounding", device = "device";
  std::string separator = " ";  ///< between an option and its value: " " (--cval nan) or "=" (cval=nan)
  std::string quote;            ///< around a text value: "" (--device gpu) or "'" (device='gpu')

  static OptionNames command_line();  ///< --sigma, --radius, --cval, --tolerance, --threads, --truncate, --rounding, --device
  static OptionNames python();        ///< keyword arguments: sigma=, cval=, ... with quoted texts
  static OptionNames json();          ///< the explorer's request keys: 'sigma', 'cval', ... (no radius, threads, truncate, rounding)

  /// An option with a number: "--cval nan", "cval=nan".
  std::string with(const std::string& option, double value) const;
  /// An option with a text: "--device gpu", "device='gpu'".
  std::string with(const std::string& option, std::string_view text) const;
};

/// The rule of every non-negative real option (sigma, tolerance, truncate, a radius): finite and
/// >= 0; `option` is the option as the front end spells it ("--radius").
void check_finite_nonnegative(double value, const std::string& option, const OptionNames& names = {});
/// A sigma: finite and >= 0.
void check_sigma(double sigma, const OptionNames& names = {});
/// An explicit kernel radius: a whole number from 0 to kMaxRadius.
void check_radius(double radius, const OptionNames& names = {});
/// cval: finite, unless the rounding is SciPy's (SciPy takes any cval).
void check_cval(double cval, Rounding rounding, const OptionNames& names = {});
/// tolerance: finite and >= 0.
void check_tolerance(double tolerance, const OptionNames& names = {});
/// threads: >= 0 (0 = every core).
void check_threads(std::int64_t threads, const OptionNames& names = {});
/// truncate: finite and >= 0.
void check_truncate(double truncate, const OptionNames& names = {});
/// The spec's common options: cval (with its rounding), tolerance, threads, truncate, each sigma.
void check_common(const BlurSpec& spec, const OptionNames& names = {});

/// A device name, parsed.
struct DeviceName {
  enum class Kind { cpu, vulkan, vulkan_index, vulkan_name };
  Kind kind = Kind::cpu;
  int index = -1;    ///< vulkan_index: the index into vulkan_devices()
  std::string name;  ///< vulkan_name: part of a device's name
};
/// 'cpu', 'vulkan' (the choice of Device::vulkan()), 'vulkan:N' (an index) or 'vulkan:NAME' (part of a
/// device's name). Throws InvalidArgument for any other text, naming the option as `names` spell it.
DeviceName parse_device_name(std::string_view text, const OptionNames& names = {});

}  // namespace fastblur
