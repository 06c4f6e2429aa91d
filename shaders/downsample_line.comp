#version 450
// downsample (seed 002; cpu/downsample.cpp) along one axis, as three parallel passes over a
// line's padded samples (pad = f (r + 3), blocks anchored at the padded line's first sample):
//  MODE 0: low[b] = the tent onto block b's centre b f + (f-1)/2: the 2f padded samples within f of
//          it, each by (1 - |x - centre| / f) / f (read through the border mode; those past the
//          padded line's ends left out, as no output reads their blocks);
//  MODE 1: blurred[b] = the low-resolution Gaussian (weights w[0..2r]) of low, for r <= b < blocks - r;
//  MODE 2: out[i] = linear interpolation of blurred between the blocks around position i.
// Low-resolution buffers hold `blocks` samples of every channel per line.
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"
#include "line_layout.glsl"

layout(local_size_x = 256) in;
layout(constant_id = 0) const int CHANNELS = 4;
layout(constant_id = 1) const int MODE = 0;

layout(std430, binding = 0) readonly buffer Src { float src[]; };    // MODE 0: image; 1: low; 2: blurred
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };   // MODE 0: low; 1: blurred; 2: image
layout(std430, binding = 2) readonly buffer Weights { float w[]; };

layout(push_constant) uniform Params {
  ivec4 extent;  // W, H, D, lines along this axis
  int axis, border;
  float cval;
  int factor, pad, radius, blocks;
} p;

void main() {
  uint g = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;
  int n = p.extent[p.axis];
  int per_line = MODE == 2 ? n : p.blocks;
  if (g >= uint(p.extent.w) * uint(per_line)) return;
  int line = int(g / uint(per_line)), i = int(g % uint(per_line));
  int low = line * p.blocks * CHANNELS;
  for (int c = 0; c < CHANNELS; ++c) {
    if (MODE == 0) {
      float sum = 0.0;
      int len = n + 2 * p.pad;
      for (int k = -p.factor / 2; k < 3 * p.factor / 2; ++k) {
        int x = i * p.factor + k;
        if (x < 0 || x >= len) continue;
        int j = border_index(x - p.pad, n, p.border);
        float weight = (1.0 - abs(float(k) - 0.5 * float(p.factor - 1)) / float(p.factor)) / float(p.factor);
        sum += weight * (j < 0 ? p.cval : src[offset_of(line, j, p.axis, p.extent.xyz, CHANNELS) + c]);
      }
      dst[low + i * CHANNELS + c] = sum;
    } else if (MODE == 1) {
      if (i < p.radius || i >= p.blocks - p.radius) { dst[low + i * CHANNELS + c] = 0.0; continue; }
      float sum = 0.0;
      for (int k = -p.radius; k <= p.radius; ++k) sum += w[k + p.radius] * src[low + (i + k) * CHANNELS + c];
      dst[low + i * CHANNELS + c] = sum;
    } else {
      float u = (float(i + p.pad) - 0.5 * float(p.factor - 1)) / float(p.factor);
      float fb = floor(u), t = u - fb;
      int b = int(fb);
      float v = (1.0 - t) * src[low + b * CHANNELS + c] + t * src[low + (b + 1) * CHANNELS + c];
      dst[offset_of(line, i, p.axis, p.extent.xyz, CHANNELS) + c] = v;
    }
  }
}
