#pragma once
// Turning command-line text into numbers and per-axis settings, with one-line errors.
#include <string>
#include <vector>

#include "fastblur/blur.hpp"

namespace fastblur::cli {

/// "2" or "2,2,0" -> {2} or {2,2,0}: numbers, any value (`what` names the option in errors). Throws
/// InvalidArgument.
std::vector<double> parse_number_list(const std::string& text, const std::string& what);
/// "reflect" or "reflect,wrap" -> borders. Throws InvalidArgument.
std::vector<Border> parse_border_list(const std::string& text);

/// Spreads per-axis values given in array order (numpy: the first value is the slowest axis) over
/// fastblur's x, y, z. One value applies to every one of `ndim` axes; otherwise there must be
/// exactly `ndim` values. Throws InvalidArgument naming `what`.
template <class T>
std::array<T, 3> to_xyz(const std::vector<T>& values, int ndim, const std::string& what, T fill) {
  if (values.size() != 1 && values.size() != static_cast<std::size_t>(ndim))
    throw InvalidArgument(what + " has " + std::to_string(values.size()) + " values but the data has " +
                          std::to_string(ndim) + " axes: give one value or one per axis");
  std::array<T, 3> out{fill, fill, fill};
  for (int i = 0; i < ndim; ++i) out[static_cast<std::size_t>(ndim - 1 - i)] = values.size() == 1 ? values[0] : values[static_cast<std::size_t>(i)];
  return out;
}

}  // namespace fastblur::cli
