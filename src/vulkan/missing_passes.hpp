#pragma once
// Missing data on the device (normalized convolution, fastblur/missing_data.hpp): one channel of a
// packed float image into a 2-channel work image of (value x weight, weight) - NaN omitted - and,
// once blurred, back as value over weight (missing_pack.comp, missing_divide.comp).
#include "vulkan/work.hpp"

namespace fastblur::vk {

/// `pairs` (2 channels) from channel `channel` of `image` (same extents).
void record_missing_pack(Job& job, const Work& image, const Work& pairs, int channel);

/// Channel `channel` of `out` from the blurred `pairs`: NaN where their weight is at most
/// `floor_weight` or, with `preserve_nan`, where `source` (the unblurred image) is NaN.
void record_missing_divide(Job& job, const Work& pairs, const Work& source, const Work& out, int channel,
                           bool preserve_nan, float floor_weight);

}  // namespace fastblur::vk
