#version 450
// The extended box by prefix sums (seed 001's schedule), one workgroup per line. Per pass: the
// line's inclusive prefix sums are scanned LOCAL samples at a time in workgroup-shared memory
// (Hillis-Steele), each chunk adding the sum carried from the chunks before, so a line of any
// length is handled (seed 001 stopped where a row no longer fit in shared memory); then every
// output is a difference of two prefix sums plus the fractional ends:
//   out[i] = (P[i + r] - P[i - r - 1] + alpha (in[i - r - 1] + in[i + r + 1])) / (2 r + 1 + 2 alpha).
// Prefix sums are double-float pairs (hi + lo, by TwoSum), so differences of large sums keep the
// precision of float on rows of any length. The line is extended once by the border mode by the
// passes' total reach; each pass shrinks the valid range by its radius + 1 (as cpu/box.cpp).
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"
#include "line_layout.glsl"

layout(local_size_x = 256) in;
layout(constant_id = 0) const int CHANNELS = 4;
const int LOCAL = 256;

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
// Per line of the batch: two value arrays and the prefix sums' hi and lo, len * CHANNELS each.
layout(std430, binding = 2) coherent buffer Scratch { float scratch[]; };
layout(std430, binding = 3) readonly buffer Passes { vec2 passes[]; };  // (radius, alpha)

layout(push_constant) uniform Params {
  ivec4 extent;  // W, H, D, lines along this axis
  int axis, border;
  float cval;
  int npasses;
  int pad;
  int first_line;
} p;

shared vec2 part[LOCAL * CHANNELS];  // the chunk's prefix pairs
shared vec2 carry[CHANNELS];

vec2 two_sum(float a, float b) {
  precise float s = a + b;
  precise float bb = s - a;
  precise float err = (a - (s - bb)) + (b - bb);
  return vec2(s, err);
}
// (a.x + a.y) + (b.x + b.y) as a renormalised pair.
vec2 add(vec2 a, vec2 b) {
  vec2 s = two_sum(a.x, b.x);
  precise float lo = s.y + a.y + b.y;
  precise float hi = s.x + lo;
  precise float rest = lo - (hi - s.x);
  return vec2(hi, rest);
}

void main() {
  int local_line = int(gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x);
  int line = p.first_line + local_line;
  if (line >= p.extent.w) return;  // uniform: the whole workgroup has one line
  int t = int(gl_LocalInvocationID.x);
  int n = p.extent[p.axis];
  int len = n + 2 * p.pad;
  int stride = len * CHANNELS;
  int base = local_line * 4 * stride;
  int cur = base, nxt = base + stride, phi = base + 2 * stride, plo = base + 3 * stride;
  for (int j = t; j < len; j += LOCAL) {
    int k = border_index(j - p.pad, n, p.border);
    for (int c = 0; c < CHANNELS; ++c)
      scratch[cur + j * CHANNELS + c] = k < 0 ? p.cval : src[offset_of(line, k, p.axis, p.extent.xyz, CHANNELS) + c];
  }
  memoryBarrier();
  barrier();
  int lo = 0, hi = len;
  for (int q = 0; q < p.npasses; ++q) {
    int r = int(passes[q].x);
    float alpha = passes[q].y;
    int h = r + 1;
    // Inclusive prefix sums of cur over [lo, hi).
    if (t < CHANNELS) carry[t] = vec2(0.0);
    barrier();
    for (int start = lo; start < hi; start += LOCAL) {
      int j = start + t;
      for (int c = 0; c < CHANNELS; ++c) part[t * CHANNELS + c] = vec2(j < hi ? scratch[cur + j * CHANNELS + c] : 0.0, 0.0);
      barrier();
      for (int offset = 1; offset < LOCAL; offset *= 2) {
        vec2 before[CHANNELS];
        for (int c = 0; c < CHANNELS; ++c) before[c] = t >= offset ? part[(t - offset) * CHANNELS + c] : vec2(0.0);
        barrier();
        for (int c = 0; c < CHANNELS; ++c) part[t * CHANNELS + c] = add(part[t * CHANNELS + c], before[c]);
        barrier();
      }
      for (int c = 0; c < CHANNELS; ++c) {
        vec2 total = add(part[t * CHANNELS + c], carry[c]);
        if (j < hi) {
          scratch[phi + j * CHANNELS + c] = total.x;
          scratch[plo + j * CHANNELS + c] = total.y;
        }
        part[t * CHANNELS + c] = total;
      }
      barrier();
      if (t < CHANNELS) carry[t] = part[(LOCAL - 1) * CHANNELS + t];
      barrier();
    }
    memoryBarrier();
    barrier();
    float inv = 1.0 / (2.0 * float(r) + 1.0 + 2.0 * alpha);
    for (int i = lo + h + t; i < hi - h; i += LOCAL)
      for (int c = 0; c < CHANNELS; ++c) {
        int a = (i + r) * CHANNELS + c, b = (i - h) * CHANNELS + c;
        precise float window = (scratch[phi + a] - scratch[phi + b]) + (scratch[plo + a] - scratch[plo + b]);
        float ends = scratch[cur + (i - h) * CHANNELS + c] + scratch[cur + (i + h) * CHANNELS + c];
        scratch[nxt + i * CHANNELS + c] = (window + alpha * ends) * inv;
      }
    memoryBarrier();
    barrier();
    lo += h;
    hi -= h;
    int tmp = cur; cur = nxt; nxt = tmp;
  }
  for (int i = t; i < n; i += LOCAL)
    for (int c = 0; c < CHANNELS; ++c) dst[offset_of(line, i, p.axis, p.extent.xyz, CHANNELS) + c] = scratch[cur + (p.pad + i) * CHANNELS + c];
}
