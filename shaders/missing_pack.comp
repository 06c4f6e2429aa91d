#version 450
// Missing data on the device (normalized convolution, fastblur/missing_data.hpp), before the blur:
// channel `channel` of a packed float image of `channels` channels as a 2-channel work image of
// (value x weight, weight). The weight is the product of: the image's channel `weight_channel` x
// `weight_scale` where that is set (alpha; integers' alpha over their maximum), 0 where the value
// is NaN and NaN is omitted, and a mask's (flags: 0 where nonzero, missing; else certainty weights,
// one channel for every channel or one per channel). A weight of 0 packs (0, 0), whatever the value.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Image { float image[]; };
layout(std430, binding = 1) writeonly buffer Pairs { vec2 pairs[]; };
layout(std430, binding = 2) readonly buffer Mask { float mask[]; };  // the image again where there is none

layout(push_constant) uniform Params {
  uint pixels;
  uint channels;
  uint channel;
  uint omit_nan;
  int weight_channel;  // -1: none
  float weight_scale;
  uint mask_kind;      // 0: no mask, 1: flags (nonzero = missing), 2: certainty weights
  uint mask_channels;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.pixels) return;
  float v = image[i * p.channels + p.channel];
  float w = 1.0;
  if (p.weight_channel >= 0) w = image[i * p.channels + uint(p.weight_channel)] * p.weight_scale;
  if (p.omit_nan != 0u && isnan(v)) w = 0.0;
  if (p.mask_kind != 0u) {
    float m = mask[i * p.mask_channels + (p.mask_channels == 1u ? 0u : p.channel)];
    w *= p.mask_kind == 1u ? (m != 0.0 ? 0.0 : 1.0) : m;
  }
  pairs[i] = w == 0.0 ? vec2(0.0) : vec2(v * w, w);
}
