#version 450
// fir (and fir-incremental) along y or z of a packed float image: the axis whose samples lie a
// whole row (W C floats) or plane (H W C floats) apart. One thread per output value; neighbouring
// threads take neighbouring values of the same row or plane (x and channel fastest), so every
// load of a warp reads one contiguous stretch of memory, and the 2R + 1 rows a thread reads are
// the ones its neighbours along the axis read too, served from the cache. fir_line.comp's
// workgroup-per-line tiles suit x, where a line is contiguous; along y they made each
// workgroup gather one column, a value per 32-byte sector.
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const bool INCREMENTAL = false;

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(std430, binding = 2) readonly buffer Weights { float w[]; };

layout(push_constant) uniform Params {
  int inner;    // values between two samples of a line: W C (y) or H W C (z)
  int n;        // samples along the axis
  int outer;    // independent blocks of n * inner values: D (y) or 1 (z)
  int border;
  float cval;
  float g0, g1, g2;  // incremental: seed 000's initial quotients
  int radius;
} p;

float at(int base, int i) {
  int j = border_index(i, p.n, p.border);
  return j < 0 ? p.cval : src[base + j * p.inner];
}

void main() {
  int m = int(gl_GlobalInvocationID.x);
  int row = int(gl_WorkGroupID.y + gl_WorkGroupID.z * 65535u);  // o * n + i, uniform in a workgroup
  if (m >= p.inner || row >= p.outer * p.n) return;
  int i = row % p.n, o = row / p.n;
  int base = o * p.n * p.inner + m;
  int R = p.radius;
  bool inside = i - R >= 0 && i + R < p.n;  // the same for the whole workgroup
  float sum;
  if (INCREMENTAL) {
    float g0 = p.g0, g1 = p.g1, g2 = p.g2;
    sum = g0 * src[base + i * p.inner];
    float total = g0;
    g0 *= g1;
    g1 *= g2;
    for (int k = 1; k <= R; ++k) {
      float pair = inside ? src[base + (i - k) * p.inner] + src[base + (i + k) * p.inner] : at(base, i - k) + at(base, i + k);
      sum += g0 * pair;
      total += 2.0 * g0;
      g0 *= g1;
      g1 *= g2;
    }
    sum /= total;
  } else {
    sum = w[0] * src[base + i * p.inner];
    if (inside)
      for (int k = 1; k <= R; ++k) sum += w[k] * (src[base + (i - k) * p.inner] + src[base + (i + k) * p.inner]);
    else
      for (int k = 1; k <= R; ++k) sum += w[k] * (at(base, i - k) + at(base, i + k));
  }
  dst[base + i * p.inner] = sum;
}
