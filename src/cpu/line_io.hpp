#pragma once
// Moving rows of pixels between views (any element type, any strides) and packed working arrays:
// core's element conversion (core/element_convert.hpp), named here for the CPU backend's callers.
#include "core/element_convert.hpp"
#include "cpu/fir_simd.hpp"

namespace fastblur::cpu {

using core::read_row;
using core::write_row;

}  // namespace fastblur::cpu
