#version 450
// The extended box (seeds 001, 002) along one axis: one thread per line walks it with running
// sums (seed 002's moving average), pass after pass, exactly as the CPU does: the line is
// extended once by the border mode by the passes' total reach, each pass shrinks the valid
// range by its radius + 1, and the centre is written back. Sums are compensated (Kahan), so
// float does not drift along long lines.
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int CHANNELS = 4;

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(std430, binding = 2) buffer Scratch { float scratch[]; };  // 2 lines per thread, padded
layout(std430, binding = 3) readonly buffer Passes { vec2 passes[]; };  // (radius, alpha)

layout(push_constant) uniform Params {
  ivec4 extent;  // W, H, D, lines along this axis
  int axis;
  int border;
  float cval;
  int npasses;
  int pad;       // sum of (radius + 1)
  int first_line;  // lines handled by this dispatch: first_line + global id
  int sample_stride, line_stride;  // the scratch's layout (gpu_box.cpp)
} p;

// Sample j of a thread's scratch arrays sits at j * sample_stride + line * line_stride. GPUs
// interleave the lines (sample_stride = the batch, line_stride = 1): neighbouring threads touch
// neighbouring words, coalesced; CPU devices keep each line together (line_stride = its length),
// which their caches prefer.
int g_local;
int at(int base, int j) { return (base + j) * p.sample_stride + g_local * p.line_stride; }

int offset_of(int line, int i) {
  int W = p.extent.x, H = p.extent.y;
  if (p.axis == 0) return (line * W + i) * CHANNELS;
  if (p.axis == 1) {
    int x = line % W, z = line / W;
    return ((z * H + i) * W + x) * CHANNELS;
  }
  return ((i * H) * W + line) * CHANNELS;
}

void main() {
  int local_line = int(gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u);
  int line = p.first_line + local_line;
  if (line >= p.extent.w) return;
  g_local = local_line;
  int n = p.extent[p.axis];
  int len = n + 2 * p.pad;
  for (int c = 0; c < CHANNELS; ++c) {
    // Two padded copies of this line in the scratch buffer: a (input of a pass) and b (output).
    int a = c * 2 * len, b = a + len;
    for (int j = 0; j < len; ++j) {
      int k = border_index(j - p.pad, n, p.border);
      scratch[at(a, j)] = k < 0 ? p.cval : src[offset_of(line, k) + c];
    }
    int lo = 0, hi = len;
    for (int q = 0; q < p.npasses; ++q) {
      int r = int(passes[q].x);
      float alpha = passes[q].y;
      int h = r + 1;
      float inv = 1.0 / (2.0 * float(r) + 1.0 + 2.0 * alpha);
      precise float sum = 0.0, comp = 0.0;  // Kahan; `precise`: no reassociation
      for (int j = lo + h - r; j <= lo + h + r; ++j) {
        precise float y = scratch[at(a, j)] - comp;
        precise float t = sum + y;
        comp = (t - sum) - y;
        sum = t;
      }
      for (int i = lo + h; i < hi - h; ++i) {
        scratch[at(b, i)] = (sum + alpha * (scratch[at(a, i - h)] + scratch[at(a, i + h)])) * inv;
        if (i + 1 < hi - h) {
          precise float y = (scratch[at(a, i + r + 1)] - scratch[at(a, i - r)]) - comp;
          precise float t = sum + y;
          comp = (t - sum) - y;
          sum = t;
        }
      }
      lo += h;
      hi -= h;
      int tmp = a; a = b; b = tmp;
    }
    for (int i = 0; i < n; ++i) dst[offset_of(line, i) + c] = scratch[at(a, p.pad + i)];
  }
}
