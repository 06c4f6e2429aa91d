#version 450
// Missing data on the device, after the blur: channels `channel` to `channel + group - 1` of the
// output image are the blurred (value x weight) over the blurred weight of a work image of group + 1
// channels (missing_pack.comp's); where that weight is at most `floor` (no valid sample under the
// kernel: 4 float epsilons, the CPU's float32 rule) they are `empty` (NaN, or an integer output's
// value; 0 in an alpha blur, a transparent pixel) and, with `preserve_nan`, NaN where the source had
// NaN. An alpha blur's last colours also write the alpha channel `alpha_channel`: the blurred weight
// (alpha blurred plainly) x `alpha_scale`. The other channels of the output are left as they are.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer Work { float work[]; };
layout(std430, binding = 1) readonly buffer Source { float source[]; };
layout(std430, binding = 2) buffer Image { float image[]; };

layout(push_constant) uniform Params {
  uint pixels;
  uint channels;
  uint channel;
  uint group;
  uint preserve_nan;
  float floor_weight;
  float empty;
  int alpha_channel;  // -1: none
  float alpha_scale;
} p;

void main() {
  uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  if (i >= p.pixels) return;
  uint from = i * (p.group + 1u);
  float w = work[from + p.group];
  for (uint c = 0u; c < p.group; ++c) {
    uint at = i * p.channels + p.channel + c;
    float r = w > p.floor_weight ? work[from + c] / w : p.empty;
    if (p.preserve_nan != 0u && isnan(source[at])) r = uintBitsToFloat(0x7fc00000u);
    image[at] = r;
  }
  if (p.alpha_channel >= 0) image[i * p.channels + uint(p.alpha_channel)] = max(0.0, w) * p.alpha_scale;
}
