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

}  // namespace fastblur
