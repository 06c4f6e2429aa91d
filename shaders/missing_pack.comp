#version 450
// Missing data on the device (normalized convolution, fastblur/missing_data.hpp), before the blur:
// `group` channels of a packed float image of `channels` channels, from `channel` on, as a work
// image of group + 1 channels: each value x the weight, then the weight (group 1: the pairs of one
// channel; more where the channels share their weight - alpha, a mask of one channel - so they
// travel through one blur). The weight is the product of: the image's channel `weight_channel` x
// `weight_scale` where that is set (alpha; integers' alpha over their maximum), 0 where the value
// is NaN and NaN is omitted (group 1 only), and a mask's (flags: 0 where nonzero, missing; else
// certainty weights, one channel for every channel or one per channel). A weight of 0 packs zeros,
// whatever the values.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Image { float image[]; };
layout(std430, binding = 1) writeonly buffer Work { float work[]; };
layout(std430, binding = 2) readonly buffer Mask { float mask[]; };  // the image again where there is none

layout(push_constant) uniform Params {
  uint pixels;
  uint channels;
  uint channel;
  uint group;
  uint omit_nan;
  int weight_channel;  // -1: none
  float weight_scale;
  uint mask_kind;      // 0: no mask, 1: flags (nonzero = missing), 2: certainty weights
  uint mask_channels;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.pixels) return;
  uint at = i * p.channels + p.channel, to = i * (p.group + 1u);
  float w = 1.0;
  if (p.weight_channel >= 0) w = image[i * p.channels + uint(p.weight_channel)] * p.weight_scale;
  if (p.omit_nan != 0u && isnan(image[at])) w = 0.0;
  if (p.mask_kind != 0u) {
    float m = mask[i * p.mask_channels + (p.mask_channels == 1u ? 0u : p.channel)];
    w *= p.mask_kind == 1u ? (m != 0.0 ? 0.0 : 1.0) : m;
  }
  for (uint c = 0u; c < p.group; ++c) work[to + c] = w == 0.0 ? 0.0 : image[at + c] * w;
  work[to + p.group] = w;
}
