#pragma once
// Missing data on the device (normalized convolution, fastblur/missing_data.hpp): a group of channels
// of a packed float image (one, or several sharing their weight) into a work image of each value x
// weight and the weight - the weight from NaN, a mask or the alpha channel - and, once blurred, back
// as value over weight (missing_pack.comp, missing_divide.comp).
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

/// `work` (group + 1 channels: the group's weighted values, then the weight) from channels `channel`
/// to `channel + group - 1` of `image` (same extents), weighted by `weights`; group = work.channels - 1
/// (more than one only where the weight is shared: no NaN omitted, a mask of one channel).
void record_missing_pack(Job& job, const Work& image, const Work& work, int channel, const PackWeights& weights);

/// How the blurred pairs are divided back.
struct DivideRule {
  bool preserve_nan = false;  ///< NaN where `source` (the unblurred image) is NaN
  float floor_weight = 0.0f;  ///< at most this weight: no valid sample under the kernel
  float empty = 0.0f;         ///< the output there (NaN for float data; 0 in an alpha blur)
  int alpha_channel = -1;     ///< also write the blurred weight x alpha_scale into this channel; -1: none
  float alpha_scale = 1.0f;
};

/// Channels `channel` on of `out` (work.channels - 1 of them) from the blurred `work` as `rule` says.
void record_missing_divide(Job& job, const Work& work, const Work& source, const Work& out, int channel,
                           const DivideRule& rule);

}  // namespace fastblur::vk
