#version 450
// Missing data on the device, after the blur: channel `channel` of the output image is the blurred
// (value x weight) over the blurred weight, NaN where that weight is at most `floor` (no valid sample
// under the kernel: 4 float epsilons, the CPU's float32 rule) and, with `preserve_nan`, where the
// source had NaN. The other channels of the output are left as they are.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Pairs { vec2 pairs[]; };
layout(std430, binding = 1) readonly buffer Source { float source[]; };
layout(std430, binding = 2) buffer Image { float image[]; };

layout(push_constant) uniform Params {
  uint pixels;
  uint channels;
  uint channel;
  uint preserve_nan;
  float floor_weight;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.pixels) return;
  uint at = i * p.channels + p.channel;
  vec2 s = pairs[i];
  float nan = uintBitsToFloat(0x7fc00000u);
  bool empty = !(s.y > p.floor_weight) || (p.preserve_nan != 0u && isnan(source[at]));
  image[at] = empty ? nan : s.x / s.y;
}
