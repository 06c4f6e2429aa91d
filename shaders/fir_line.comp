#version 450
// One separable pass of the exact Gaussian (fir) along one axis of a packed float image
// (index ((z * H + y) * W + x) * C + c). A workgroup convolves TILE consecutive samples of one
// line: it first copies the TILE + 2 R samples it needs into workgroup-shared memory, so each
// sample is fetched from device memory once per workgroup (seed 003), then every thread sums its
// outputs' taps from there. Weights come from a table (w[0..R]) or, with INCREMENTAL, are
// generated on the fly by seed 000's forward quotients (g0 *= g1, g1 *= g2) and normalised by
// their running sum. The radius is a push constant, so a new sigma needs no new pipeline; the shared
// tile's size is a specialisation constant fixed for a bucket of radii (gpu_fir.cpp).
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int CHANNELS = 4;
layout(constant_id = 3) const int TILE = 256;
layout(constant_id = 4) const bool INCREMENTAL = false;
// Where TILE + 2 R samples do not fit in shared memory (a large radius on a small device), each
// tap reads device memory instead (SHARED false).
layout(constant_id = 5) const bool SHARED = true;

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(std430, binding = 2) readonly buffer Weights { float w[]; };

layout(push_constant) uniform Params {
  ivec4 extent;   // W, H, D, lines along this axis
  int axis;       // 0, 1, 2
  int border;
  float cval;
  float g0, g1, g2;  // incremental: the seed's initial quotients
  int radius;
} p;

layout(constant_id = 6) const int SHARED_FLOATS = 1;  // at least (TILE + 2 radius) CHANNELS when SHARED
shared float tile[SHARED_FLOATS];

// Element offset of sample i of line `line` along p.axis, channel 0.
int offset_of(int line, int i) {
  int W = p.extent.x, H = p.extent.y;
  if (p.axis == 0) return (line * W + i) * CHANNELS;           // line = z * H + y
  if (p.axis == 1) {                                           // line = z * W + x
    int x = line % W, z = line / W;
    return ((z * H + i) * W + x) * CHANNELS;
  }
  return ((i * H) * W + line) * CHANNELS;                      // line = y * W + x
}

int g_line, g_start, g_n;

// Sample k of the workgroup's window (k = 0 is start - radius), channel c.
float fetch(int k, int c) {
  if (SHARED) return tile[k * CHANNELS + c];
  int j = border_index(g_start - p.radius + k, g_n, p.border);
  return j < 0 ? p.cval : src[offset_of(g_line, j) + c];
}

void main() {
  int n = p.extent[p.axis];
  int line = int(gl_WorkGroupID.y + gl_WorkGroupID.z * 65535u);
  if (line >= p.extent.w) return;  // uniform across the workgroup
  int start = int(gl_WorkGroupID.x) * TILE;
  g_line = line;
  g_start = start;
  g_n = n;
  int lid = int(gl_LocalInvocationID.x), lsize = int(gl_WorkGroupSize.x);
  if (SHARED) {
    for (int k = lid; k < TILE + 2 * p.radius; k += lsize) {
      int j = border_index(start - p.radius + k, n, p.border);
      for (int c = 0; c < CHANNELS; ++c)
        tile[k * CHANNELS + c] = j < 0 ? p.cval : src[offset_of(line, j) + c];
    }
    barrier();
  }
  for (int t = lid; t < TILE && start + t < n; t += lsize) {
    int centre = t + p.radius;
    for (int c = 0; c < CHANNELS; ++c) {
      float sum;
      if (INCREMENTAL) {
        float g0 = p.g0, g1 = p.g1, g2 = p.g2;
        sum = g0 * fetch(centre, c);
        float total = g0;
        g0 *= g1;
        g1 *= g2;
        for (int k = 1; k <= p.radius; ++k) {
          sum += g0 * (fetch(centre - k, c) + fetch(centre + k, c));
          total += 2.0 * g0;
          g0 *= g1;
          g1 *= g2;
        }
        sum /= total;
      } else {
        sum = w[0] * fetch(centre, c);
        for (int k = 1; k <= p.radius; ++k)
          sum += w[k] * (fetch(centre - k, c) + fetch(centre + k, c));
      }
      dst[offset_of(line, start + t) + c] = sum;
    }
  }
}
