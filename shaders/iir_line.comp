#version 450
// variants: f32= f64=-DIIR_DOUBLE
// Recursive Gaussians along one axis (cpu/iir.cpp, kernel_iir.hpp), one thread per line and
// channel (a lane, numbered line C + c): neighbouring threads read neighbouring values wherever the
// channels, or along y and z the lines, lie side by side in memory, and an RGBA image has four
// times the threads that one per line gave it. The recursions run in double where the device has float64 (IIR_DOUBLE): their
// poles crowd at 1 as sigma grows, and float32 direct forms lose the signal (Deriche diverges near
// sigma 300); the float variant serves devices without float64, up to the sigma gpu_iir.cpp allows.
// The line is read through the border mode over `pad` samples on each side (0 for
// nearest and constant, whose constant continuation starts the recursions exactly).
// Every pass walks its lines in blocks of BLOCK samples: a block's inputs (and, going backward,
// its causal values from scratch) are fetched into shared memory before the recursion runs over
// it, all of them issued together, so a thread waits on device memory once a block instead of
// once a sample (a recursion's steps depend on each other, and a GPU has few lanes to switch to).
// Along x (TILED) a line's samples lie side by side, so a thread per lane reading its own line
// would make every load of a warp touch another line: there a workgroup takes GROUP_LINES whole
// lines (all their channels) and loads each block by all its threads together (consecutive
// threads on consecutive addresses), transposed so that each thread reads its lane from there;
// outputs go back the same way. Along y and z each thread fetches its own lane's block (the
// lanes of a warp are neighbours in memory, so those loads are coalesced already).
//  - VARIANT 1, Young-van Vliet 3rd order: causal pass into the line's scratch (the padded line
//    from its first output on), Triggs-Sdika's start for the backward pass, backward pass into dst.
//  - VARIANT 2, Deriche in its parallel form (kernel_iir.hpp's DericheParallelForm): two complex
//    first-order recursions per direction, each starting from its steady state for the border's
//    constant continuation. A first-order recursion's rounding stays within eps / (1 - |p|), so
//    this runs in float32 at any sigma: float64 is never needed for Deriche (its direct form, which
//    needed it, is the CPU's only).
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"
#include "line_layout.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int CHANNELS = 4;
layout(constant_id = 1) const int VARIANT = 2;
layout(constant_id = 2) const bool TILED = false;
layout(constant_id = 3) const int GROUP_LINES = 16;  // TILED: lines per workgroup (GROUP_LINES CHANNELS <= 64)
layout(constant_id = 4) const int BLOCK = 1;         // samples per block
layout(constant_id = 5) const int OUT_SLOTS = 1;     // TILED: BLOCK * 64 (the transposed outputs)

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) buffer Dst { float dst[]; };
#ifdef IIR_DOUBLE
#define real double
#else
#define real float
#endif
layout(std430, binding = 2) buffer Scratch { real scratch[]; };
// Deriche: b+0..3, b-1..4, a1..4, causal gain, anticausal gain. Young-van Vliet: B, a1..3, M (9).
// Deriche's parallel form: p0, p1, r0, r1 as (re, im) pairs.
layout(std430, binding = 3) readonly buffer Coefficients { real k[]; };

layout(push_constant) uniform Params {
  ivec4 extent;  // W, H, D, and the batch's end: lanes (lines times channels) below it, from first_lane
  int axis, border;
  float cval;
  int pad;
  int first_lane;  // TILED: a multiple of GROUP_LINES CHANNELS
  int sample_stride, line_stride;  // scratch sample j of a lane at j * sample_stride + lane * line_stride
} p;

// Sample s of the block of thread t at s * 64 + t: its inputs, its causal values (scratch) and,
// TILED, its outputs on their way to dst.
shared float xs[BLOCK * 64];
shared real zs[BLOCK * 64];
shared float ys[OUT_SLOTS];

int g_line, g_n, g_c, g_lid, g_lo, g_first_line, g_base;
bool g_live;
real x_at(int i) {  // padded index i, i.e. sample i - pad, read from the source
  int j = border_index(i - p.pad, g_n, p.border);
  return real(j < 0 ? p.cval : src[offset_of(g_line, j, p.axis, p.extent.xyz, CHANNELS) + g_c]);
}
// The inputs of padded indices lo .. lo + count - 1 into xs. Every thread of the workgroup calls
// it (TILED: uniform control flow for the barriers).
void load_block(int lo, int count) {
  g_lo = lo;
  if (!TILED) {
    if (g_live)
      for (int s = 0; s < count; ++s) xs[s * 64 + g_lid] = float(x_at(lo + s));
    return;
  }
  barrier();  // the previous block's readers of xs and flushers of ys are done
  int lines = p.extent.w / CHANNELS;
  for (int q = g_lid; q < GROUP_LINES * count * CHANNELS; q += 64) {
    int l = q / (count * CHANNELS), rest = q % (count * CHANNELS), s = rest / CHANNELS, c = rest % CHANNELS;
    int line = g_first_line + l;
    if (line >= lines) continue;
    int j = border_index(lo + s - p.pad, g_n, p.border);
    xs[s * 64 + l * CHANNELS + c] = j < 0 ? p.cval : src[(line * p.extent.x + j) * CHANNELS + c];
  }
  barrier();
}
// The causal values of padded indices lo .. hi (those below `limit` + pad, the scratch's length)
// into zs: the thread's own slots, so no barrier.
void load_scratch(int lo, int hi, int limit) {
  g_lo = lo;
  if (g_live)
    for (int i = lo; i <= hi && i - p.pad < limit; ++i) zs[(i - lo) * 64 + g_lid] = scratch[g_base + (i - p.pad) * p.sample_stride];
}
real x_block(int i) { return real(xs[(i - g_lo) * 64 + g_lid]); }
real z_block(int i) { return zs[(i - g_lo) * 64 + g_lid]; }
// Output of padded index i (i - pad in the line).
void put(int i, float v) {
  if (TILED) ys[(i - g_lo) * 64 + g_lid] = v;
  else dst[offset_of(g_line, i - p.pad, p.axis, p.extent.xyz, CHANNELS) + g_c] = v;
}
// The outputs of padded indices lo .. hi that lie in the line, from ys to dst (all threads together).
void flush_block(int lo, int hi) {
  if (!TILED) return;
  barrier();
  int lines = p.extent.w / CHANNELS, count = hi - lo + 1;
  for (int q = g_lid; q < GROUP_LINES * count * CHANNELS; q += 64) {
    int l = q / (count * CHANNELS), rest = q % (count * CHANNELS), s = rest / CHANNELS, c = rest % CHANNELS;
    int line = g_first_line + l, i = lo + s;
    if (line >= lines || i < p.pad || i >= g_n + p.pad) continue;
    dst[(line * p.extent.x + i - p.pad) * CHANNELS + c] = ys[s * 64 + l * CHANNELS + c];
  }
}

void main() {
  int lid = int(gl_LocalInvocationID.x);
  int group = int(gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x);
  int local_lane = TILED ? group * GROUP_LINES * CHANNELS + lid : group * 64 + lid;  // in the batch
  int lane = p.first_lane + local_lane;
  // Threads past the lanes (or past GROUP_LINES lines) still take part in the blocks' barriers.
  // A batch's scratch holds its own lanes alone: a thread past its end would write into its
  // neighbours' samples (interleaved) or past the buffer, and race the next batch for its lanes.
  bool live = lane < p.extent.w && (!TILED || lid < GROUP_LINES * CHANNELS);
  if (!TILED && !live) return;
  int line = lane / CHANNELS, c = lane % CHANNELS;
  int n = p.extent[p.axis];
  int len = n + 2 * p.pad;
  bool constant = p.border == BORDER_CONSTANT;
  g_line = line;
  g_n = n;
  g_c = c;
  g_lid = lid;
  g_first_line = (p.first_lane + group * GROUP_LINES * CHANNELS) / CHANNELS;
  g_live = live;
  int block = BLOCK;
  real left = 0.0, right = 0.0;
  if (live) {
    left = constant ? real(p.cval) : x_at(0);
    right = constant ? real(p.cval) : x_at(len - 1);
  }
  int base = local_lane * p.line_stride;  // the lane's scratch (interleaved on GPUs: gpu_iir.cpp)
  g_base = base;
  if (VARIANT == 2) {
    // u_k[n] = r_k x[n] + p_k u_k[n-1]; y+ = 2 Re(u_0 + u_1). Steady state for x = c: r c / (1 - p).
    real p0r = k[0], p0i = k[1], p1r = k[2], p1i = k[3], r0r = k[4], r0i = k[5], r1r = k[6], r1i = k[7];
    real d0 = (1.0 - p0r) * (1.0 - p0r) + p0i * p0i, d1 = (1.0 - p1r) * (1.0 - p1r) + p1i * p1i;
    // s_k = r_k / (1 - p_k)
    real s0r = (r0r * (1.0 - p0r) - r0i * p0i) / d0, s0i = (r0i * (1.0 - p0r) + r0r * p0i) / d0;
    real s1r = (r1r * (1.0 - p1r) - r1i * p1i) / d1, s1i = (r1i * (1.0 - p1r) + r1r * p1i) / d1;
    real u0r = s0r * left, u0i = s0i * left, u1r = s1r * left, u1i = s1i * left;
    for (int lo = 0; lo < len - p.pad; lo += block) {
      int hi = min(lo + block, len - p.pad) - 1;
      load_block(lo, hi - lo + 1);
      if (live)
        for (int i = lo; i <= hi; ++i) {
          real x0 = x_block(i);
          real t0r = r0r * x0 + p0r * u0r - p0i * u0i, t0i = r0i * x0 + p0r * u0i + p0i * u0r;
          real t1r = r1r * x0 + p1r * u1r - p1i * u1i, t1i = r1i * x0 + p1r * u1i + p1i * u1r;
          u0r = t0r; u0i = t0i; u1r = t1r; u1i = t1i;
          if (i >= p.pad) scratch[base + (i - p.pad) * p.sample_stride] = 2.0 * (u0r + u1r);
        }
    }
    // v_k[n] = p_k (r_k x[n+1] + v_k[n+1]); steady state p_k r_k c / (1 - p_k) = p_k s_k c.
    real v0r = (p0r * s0r - p0i * s0i) * right, v0i = (p0r * s0i + p0i * s0r) * right;
    real v1r = (p1r * s1r - p1i * s1i) * right, v1i = (p1r * s1i + p1i * s1r) * right;
    real xn = right;
    for (int hi = len - 1; hi >= p.pad; hi -= block) {
      int lo = max(hi - block + 1, p.pad);
      load_block(lo, hi - lo + 1);
      load_scratch(lo, hi, n);
      if (live)
        for (int i = hi; i >= lo; --i) {
          real a0r = r0r * xn + v0r, a0i = r0i * xn + v0i, a1r = r1r * xn + v1r, a1i = r1i * xn + v1i;
          v0r = p0r * a0r - p0i * a0i; v0i = p0r * a0i + p0i * a0r;
          v1r = p1r * a1r - p1i * a1i; v1i = p1r * a1i + p1i * a1r;
          if (i < len - p.pad) put(i, float(z_block(i) + 2.0 * (v0r + v1r)));
          xn = x_block(i);
        }
      flush_block(lo, hi);
    }
  } else {
    real B = k[0], a1 = k[1], a2 = k[2], a3 = k[3];
    // scratch holds w[pad .. len - 1]
    real w1 = left, w2 = left, w3 = left;
    for (int lo = 0; lo < len; lo += block) {
      int hi = min(lo + block, len) - 1;
      load_block(lo, hi - lo + 1);
      if (live)
        for (int i = lo; i <= hi; ++i) {
          real w0 = B * x_block(i) + a1 * w1 + a2 * w2 + a3 * w3;
          if (i >= p.pad) scratch[base + (i - p.pad) * p.sample_stride] = w0;
          w3 = w2; w2 = w1; w1 = w0;
        }
    }
    // Triggs-Sdika: the backward pass's values at len-1, len, len+1 from w[len-1], w[len-2], w[len-3].
    real u = right;
    real d0 = w1 - u, d1 = w2 - u, d2 = w3 - u;
    real v1 = u + B * (k[4] * d0 + k[5] * d1 + k[6] * d2);
    real v2 = u + B * (k[7] * d0 + k[8] * d1 + k[9] * d2);
    real v3 = u + B * (k[10] * d0 + k[11] * d1 + k[12] * d2);
    // The backward pass reads only scratch; blocks serve the transposed writes.
    for (int hi = len - 1; hi >= p.pad; hi -= block) {
      int lo = max(hi - block + 1, p.pad);
      load_scratch(lo, hi, n + p.pad);
      if (live)
        for (int i = hi; i >= lo; --i) {
          if (i == len - 1) {  // v1 itself, an output where nothing is padded
            if (i < len - p.pad) put(i, float(v1));
            continue;
          }
          real v0 = B * z_block(i) + a1 * v1 + a2 * v2 + a3 * v3;
          if (i < len - p.pad) put(i, float(v0));
          v3 = v2; v2 = v1; v1 = v0;
        }
      flush_block(lo, hi);
      if (TILED) barrier();  // ys is written again by the next block
    }
  }
}
