// The image of a view's short x rows (pixels_view.hpp).
#include "cpu/pixels_view.hpp"

namespace fastblur::cpu {

bool pixels_packed(const View& v) {
  return v.stride[0] == static_cast<std::ptrdiff_t>(element_size(v.type)) * v.channels;
}

View pixels_of(const View& v) {
  View image = v;
  image.channels = static_cast<int>(v.extent[0]) * v.channels;
  image.extent = {v.extent[1], v.extent[2], 1};
  image.stride = {v.stride[1], v.stride[2], v.stride[2] * v.extent[2]};
  return image;
}

}  // namespace fastblur::cpu
