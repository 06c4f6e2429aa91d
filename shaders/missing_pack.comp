#version 450
// Missing data on the device (normalized convolution, fastblur/missing_data.hpp), before the blur:
// channel `channel` of a packed float image of `channels` channels as a 2-channel work image of
// (value x weight, weight), the weight 0 where the value is NaN (omitted), else 1.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Image { float image[]; };
layout(std430, binding = 1) writeonly buffer Pairs { vec2 pairs[]; };

layout(push_constant) uniform Params {
  uint pixels;
  uint channels;
  uint channel;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.pixels) return;
  float v = image[i * p.channels + p.channel];
  pairs[i] = isnan(v) ? vec2(0.0) : vec2(v, 1.0);
}
