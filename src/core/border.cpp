#include "core/border.hpp"

#include <string>

#include "fastblur/error.hpp"

namespace fastblur {

std::string_view to_string(Border border) noexcept {
  switch (border) {
    case Border::reflect: return "reflect";
    case Border::mirror: return "mirror";
    case Border::nearest: return "nearest";
    case Border::wrap: return "wrap";
    case Border::constant: return "constant";
  }
  return "?";
}

Border parse_border(std::string_view name) {
  for (Border b : {Border::reflect, Border::mirror, Border::nearest, Border::wrap, Border::constant})
    if (name == to_string(b)) return b;
  // scipy's aliases for the same extensions.
  if (name == "grid-mirror") return Border::reflect;
  if (name == "grid-constant") return Border::constant;
  if (name == "grid-wrap") return Border::wrap;
  throw InvalidArgument("unknown border mode '" + std::string(name) +
                        "': expected reflect, mirror, nearest, wrap or constant");
}

namespace core {

std::vector<std::int64_t> border_map(std::int64_t first, std::int64_t count, std::int64_t n, Border border) {
  std::vector<std::int64_t> map(static_cast<std::size_t>(std::max<std::int64_t>(0, count)));
  for (std::int64_t i = 0; i < count; ++i) map[static_cast<std::size_t>(i)] = border_index(first + i, n, border);
  return map;
}

}  // namespace core
}  // namespace fastblur
