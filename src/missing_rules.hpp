#pragma once
// The rules of a request for data with holes (fastblur/missing_data.hpp) that hold wherever it runs
// - host views and CUDA arrays - stated once (missing_data.cpp).
#include "fastblur/missing_data.hpp"

namespace fastblur::missing {

/// Throws InvalidArgument, one line: omit_nan on integer data without a mask, alpha on one
/// channel, alpha with NaN omission or a mask, an alpha blur's constant border with a cval other
/// than 0. (The mask's own shape and type are the caller's to check: host and device take different types.)
void check_weights(ElementType data_type, int channels, bool has_mask, const BlurSpec& spec, const MissingData& m);

}  // namespace fastblur::missing
