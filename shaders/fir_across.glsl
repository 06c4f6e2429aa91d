// fir (and fir-incremental) along y or z of a packed float image: the axis whose samples lie a
// whole row (W C floats) or plane (H W C floats) apart. A thread computes OUT (4, or 8 in the
// register-blocked variant) consecutive outputs along the axis of one value position; neighbouring threads take neighbouring values of
// the same row or plane (x and channel fastest), so every load of a warp reads one contiguous
// stretch of memory. Its taps slide through registers, so a thread reads its 2R + 4 rows once for
// its OUT outputs; the rows its neighbours along the axis share come from the cache. fir_line.comp's
// workgroup-per-line tiles suit x, where a line is contiguous; along y they made each
// workgroup gather one column, a value per 32-byte sector. With SLICED (fir_across_slices.comp,
// along y of a stack of slices) each block of n * inner values is a slice with its own kernel:
// kernels[o] = its radius and the offset of its weights in the table.
#include "border.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const bool INCREMENTAL = false;

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(std430, binding = 2) readonly buffer Weights { float w[]; };
#ifdef SLICED
layout(std430, binding = 3) readonly buffer Kernels { ivec2 kernels[]; };  // per slice: radius, first weight
#endif

layout(push_constant) uniform Params {
  int inner;    // values between two samples of a line: W C (y) or H W C (z)
  int n;        // samples along the axis
  int outer;    // independent blocks of n * inner values: D (y) or 1 (z)
  int border;
  float cval;
  float g0, g1, g2;  // incremental: seed 000's initial quotients
  int radius;
} p;

#ifndef OUT
#define OUT 4  // outputs a thread: OUT consecutive samples along the axis (fir_across_o8.comp: 8)
#endif

bool g_inside;
int g_base;
float at(int i) {  // sample i of the thread's line
  if (g_inside) return src[g_base + i * p.inner];
  int j = border_index(i, p.n, p.border);
  return j < 0 ? p.cval : src[g_base + j * p.inner];
}

void main() {
  int m = int(gl_GlobalInvocationID.x);
  int blocks = (p.n + OUT - 1) / OUT;
  int row = int(gl_WorkGroupID.y + gl_WorkGroupID.z * 65535u);  // o * blocks + block, uniform in a workgroup
  if (m >= p.inner || row >= p.outer * blocks) return;
  int first = (row % blocks) * OUT, o = row / blocks;
  g_base = o * p.n * p.inner + m;
#ifdef SLICED
  int R = kernels[o].x, first_weight = kernels[o].y;
#else
  int R = p.radius, first_weight = 0;
#endif
  g_inside = first - R >= 0 && first + OUT - 1 + R < p.n;  // the same for the whole workgroup
  // As fir_line.comp: the taps k = 0..R for the OUT outputs together, each summing
  // w_k (x[i - k] + x[i + k]) in that order; the neighbours slide through registers.
  float left[OUT], right[OUT], sum[OUT];
  float g0 = p.g0, g1 = p.g1, g2 = p.g2, total = 0.0;
  float w0 = INCREMENTAL ? g0 : w[first_weight];
  for (int j = 0; j < OUT; ++j) {
    left[j] = right[j] = at(first + j);
    sum[j] = w0 * left[j];
  }
  if (INCREMENTAL) {
    total = g0;
    g0 *= g1;
    g1 *= g2;
  }
  for (int k = 1; k <= R; ++k) {
    for (int j = OUT - 1; j > 0; --j) left[j] = left[j - 1];
    left[0] = at(first - k);
    for (int j = 0; j < OUT - 1; ++j) right[j] = right[j + 1];
    right[OUT - 1] = at(first + OUT - 1 + k);
    float wk;
    if (INCREMENTAL) {
      wk = g0;
      total += 2.0 * g0;
      g0 *= g1;
      g1 *= g2;
    } else {
      wk = w[first_weight + k];
    }
    for (int j = 0; j < OUT; ++j) sum[j] += wk * (left[j] + right[j]);
  }
  for (int j = 0; j < OUT && first + j < p.n; ++j)
    dst[g_base + (first + j) * p.inner] = INCREMENTAL ? sum[j] / total : sum[j];
}
