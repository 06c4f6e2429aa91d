#pragma once
// Missing data on the device (normalized convolution, fastblur/missing_data.hpp): one channel of a
// packed float image into a 2-channel work image of (value x weight, weight) - the weight from NaN,
// a mask or the alpha channel - and, once blurred, back as value over weight (missing_pack.comp,
// missing_divide.comp).
#include "vulkan/work.hpp"

namespace fastblur::vk {

/// Where a pack's weights come from (their product).
struct PackWeights {
  bool omit_nan = false;       ///< NaN values weigh 0
  int weight_channel = -1;     ///< the image's channel whose value x weight_scale is the weight (alpha); -1: none
  float weight_scale = 1.0f;
  const Work* mask = nullptr;  ///< float work image of the source's extents, 1 channel or the image's; null: none
  bool mask_flags = false;     ///< the mask's values are flags (nonzero = missing), else certainty weights
};

/// `pairs` (2 channels) from channel `channel` of `image` (same extents), weighted by `weights`.
void record_missing_pack(Job& job, const Work& image, const Work& pairs, int channel, const PackWeights& weights);

/// How the blurred pairs are divided back.
struct DivideRule {
  bool preserve_nan = false;  ///< NaN where `source` (the unblurred image) is NaN
  float floor_weight = 0.0f;  ///< at most this weight: no valid sample under the kernel
  float empty = 0.0f;         ///< the output there (NaN for float data; 0 in an alpha blur)
  int alpha_channel = -1;     ///< also write the blurred weight x alpha_scale into this channel; -1: none
  float alpha_scale = 1.0f;
};

/// Channel `channel` of `out` from the blurred `pairs` as `rule` says.
void record_missing_divide(Job& job, const Work& pairs, const Work& source, const Work& out, int channel,
                           const DivideRule& rule);

}  // namespace fastblur::vk
