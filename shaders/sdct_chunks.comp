#version 450
// sliding-dct (kernel_sliding_dct.hpp, cpu/sliding_dct.cpp) along one axis: each cosine term of the
// series slid along the line by its second-order recurrence, in double (the recurrences are
// marginally stable: float32's rounding would grow along the chunk). Every line is cut into chunks of
// `chunk` outputs that run in parallel, a thread per chunk and lane (one channel of a line; threads
// of a workgroup take neighbouring lanes of one chunk): each thread sums its terms directly at the
// chunk's first output and the one before it (2R + 1 taps each), then runs the recurrences over the
// chunk - the CPU's restart (every 4096 samples there) at every chunk. The line is read through the
// border mode as the CPU's line driver extends it; the outputs are float.
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"
#include "line_layout.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int CHANNELS = 4;
layout(constant_id = 1) const int TERMS = 6;  // the series' K + 1 terms

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
// Term t's beta, 2 cos(w), cos(w R), cos(w (R + 1)) at 4 t .. 4 t + 3; then its window's cosines
// cos(w m), m = -R .. R, at 4 TERMS + t (2 R + 1) + m + R.
layout(std430, binding = 2) readonly buffer Coefficients { double k[]; };

layout(push_constant) uniform Params {
  ivec4 extent;  // W, H, D, lanes along this axis (lines times channels)
  int axis, border;
  float cval;
  int radius;      // R
  int first_lane;  // the batch's first lane
  int todo;        // lanes in this batch
  int chunk;       // outputs a thread makes
  int chunks;      // chunks per line: ceil(n / chunk)
} p;

int g_line, g_n, g_c;
double x_at(int i) {  // sample i of the line, through the border mode
  int j = border_index(i, g_n, p.border);
  return double(j < 0 ? p.cval : src[offset_of(g_line, j, p.axis, p.extent.xyz, CHANNELS) + g_c]);
}

void main() {
  int tid = int(gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x);
  if (tid >= p.todo * p.chunks) return;
  int j = tid / p.todo, lane = p.first_lane + tid % p.todo;
  g_line = lane / CHANNELS;
  g_c = lane % CHANNELS;
  g_n = p.extent[p.axis];
  int R = p.radius, width = 2 * R + 1;
  int a = j * p.chunk, b = min(a + p.chunk, g_n);
  // Z_t at the chunk's first output (z) and the one before it (prev), summed directly.
  double z[TERMS], prev[TERMS];
  for (int t = 0; t < TERMS; ++t) {
    z[t] = 0.0;
    prev[t] = 0.0;
  }
  for (int m = -R; m <= R; ++m) {
    double here = x_at(a + m), before = x_at(a - 1 + m);
    for (int t = 0; t < TERMS; ++t) {
      double c = k[4 * TERMS + t * width + m + R];
      z[t] += c * here;
      prev[t] += c * before;
    }
  }
  for (int i = a; i < b; ++i) {
    if (i > a) {
      // Z(i) from Z(i - 1), Z(i - 2) and the samples at the window's two ends.
      double outer = x_at(i + R) + x_at(i - R - 2), inner = x_at(i + R - 1) + x_at(i - R - 1);
      for (int t = 0; t < TERMS; ++t) {
        double next = k[4 * t + 1] * z[t] - prev[t] + (k[4 * t + 2] * outer - k[4 * t + 3] * inner);
        prev[t] = z[t];
        z[t] = next;
      }
    }
    double y = 0.0;
    for (int t = 0; t < TERMS; ++t) y += k[4 * t] * z[t];
    dst[offset_of(g_line, i, p.axis, p.extent.xyz, CHANNELS) + g_c] = float(y);
  }
}
