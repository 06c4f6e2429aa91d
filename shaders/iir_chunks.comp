#version 450
// variants: padded= starts=-DCOMPUTED_STARTS
// Deriche's recursive Gaussian in its parallel form (kernel_iir.hpp's DericheParallelForm: two
// complex first-order recursions per direction) along one axis, with every line cut into chunks of
// CHUNK samples that run in parallel (Nehab et al. 2011's block scheme, simple for first-order
// recursions): a thread per chunk and lane (one channel of a line), so a 4K RGBA image has about
// a hundred times the threads of a thread per lane (iir_line.comp), whose one sequential walk per
// line left a GPU's cores waiting on memory. Three dispatches (PHASE):
//  0. each chunk's recursions from a zero state: the causal state at its end and the anticausal
//     state at its start, into `carry`;
//  1. a thread per lane walks its chunks' states, causal forward from the border's steady state and
//     anticausal backward: the true state entering each chunk is its predecessor's local state plus
//     the pole to the power of the chunk's length times the state entering the predecessor
//     (carry[] is overwritten with the entering states);
//  2. each chunk's recursions again from its true entering states, the outputs written.
// A first-order recursion from a state s after m steps holds p^m s more than from zero, so phase 1
// is exact up to rounding. The line is read through the border mode over `pad` samples on each
// side as iir_line.comp reads it, and the steady states for the borders' constant continuation
// are iir_line.comp's VARIANT 2 starts. COMPUTED_STARTS (iir_chunks_starts) with `pad` 0 (lines of
// at least the decay length, gpu_iir_chunks.cpp): reflect's, mirror's and wrap's lines are not padded;
// phase 1 derives their starts from the line's own zero-start walks (bench/RESULTS.md, issue 47,
// "iir's boundary starts computed"): with U0 the causal state at the line's end and A the
// anticausal state before its first sample, both from zero and from the line's samples alone,
//   wrap:    u[-1] = U0 / (1 - p^n),             v[n-1] = A / (1 - p^n)
//   reflect: u[-1] = A / p,                       v[n-1] = p u[n-1]
//   mirror:  u[-1] = (A / p - r x[0]) / p,        v[n-1] = u[n-1] - r x[n-1]
// with u[n-1] = U0 + p^n u[-1] (reflect's and mirror's left starts leave out p^n v[n-1]: below 1e-8 of
// it on such lines).
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"
#include "line_layout.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int CHANNELS = 4;
layout(constant_id = 1) const int PHASE = 0;
layout(constant_id = 2) const int CHUNK = 32;

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
// Per chunk and lane, at (chunk * todo + lane) * 2: the causal (u0, u1) and anticausal (v0, v1)
// states, each complex value as (re, im).
layout(std430, binding = 2) buffer Carry { vec4 carry[]; };
// p0, p1, r0, r1, p0^CHUNK, p1^CHUNK as (re, im) pairs.
layout(std430, binding = 3) readonly buffer Coefficients { float k[]; };

layout(push_constant) uniform Params {
  ivec4 extent;  // W, H, D, lanes along this axis (lines times channels)
  int axis, border;
  float cval;
  int pad;
  int first_lane;  // the batch's first lane
  int todo;        // lanes in this batch
  int chunks;      // chunks per line: ceil((n + 2 pad) / CHUNK)
} p;

int g_line, g_n, g_c;
float x_at(int i) {  // padded index i, i.e. sample i - pad, read from the source
  int j = border_index(i - p.pad, g_n, p.border);
  return j < 0 ? p.cval : src[offset_of(g_line, j, p.axis, p.extent.xyz, CHANNELS) + g_c];
}

vec2 cmul(vec2 a, vec2 b) { return vec2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
vec2 cdiv(vec2 a, vec2 b) { return cmul(a, vec2(b.x, -b.y)) / dot(b, b); }
// z^m (m <= CHUNK): the whole chunk's power from the table, else by multiplication.
vec2 cpow(vec2 z, vec2 z_chunk, int m) {
  if (m == CHUNK) return z_chunk;
  vec2 r = vec2(1.0, 0.0);
  for (int i = 0; i < m; ++i) r = cmul(r, z);
  return r;
}

void main() {
  int tid = int(gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x);
  vec2 p0 = vec2(k[0], k[1]), p1 = vec2(k[2], k[3]), r0 = vec2(k[4], k[5]), r1 = vec2(k[6], k[7]);
  int n = p.extent[p.axis];
  int len = n + 2 * p.pad;
  int causal_end = len - p.pad;  // the causal recursion runs over 0 .. causal_end - 1
  g_n = n;
  if (PHASE == 1) {
    if (tid >= p.todo) return;
    int lane = p.first_lane + tid;
    g_line = lane / CHANNELS;
    g_c = lane % CHANNELS;
    bool constant = p.border == BORDER_CONSTANT;
    float left = constant ? p.cval : x_at(0), right = constant ? p.cval : x_at(len - 1);
    vec2 P0 = vec2(k[8], k[9]), P1 = vec2(k[10], k[11]);
    // Steady states for a constant c: u = r c / (1 - p) = s c before the line, v = p s c after it.
    vec2 s0 = cmul(r0, vec2(1.0 - p0.x, p0.y)) / dot(vec2(1.0 - p0.x, -p0.y), vec2(1.0 - p0.x, -p0.y));
    vec2 s1 = cmul(r1, vec2(1.0 - p1.x, p1.y)) / dot(vec2(1.0 - p1.x, -p1.y), vec2(1.0 - p1.x, -p1.y));
    vec2 u0 = s0 * left, u1 = s1 * left;
    vec2 v0 = cmul(p0, s0) * right, v1 = cmul(p1, s1) * right;
#ifdef COMPUTED_STARTS
    if (p.pad == 0 && (p.border == BORDER_REFLECT || p.border == BORDER_MIRROR || p.border == BORDER_WRAP)) {
      // The zero-start walks: U0 (causal, at the line's end), A (anticausal) and p^n.
      vec2 U0 = vec2(0.0), U1 = vec2(0.0), A0 = vec2(0.0), A1 = vec2(0.0), n0 = vec2(1.0, 0.0), n1 = vec2(1.0, 0.0);
      for (int j = 0; j < p.chunks; ++j) {
        int a = j * CHUNK, m = max(0, min(a + CHUNK, causal_end) - a);
        vec4 local = carry[(j * p.todo + tid) * 2];
        vec2 q0 = cpow(p0, P0, m), q1 = cpow(p1, P1, m);
        U0 = local.xy + cmul(q0, U0);
        U1 = local.zw + cmul(q1, U1);
        n0 = cmul(n0, q0);
        n1 = cmul(n1, q1);
      }
      for (int j = p.chunks - 1; j >= 0; --j) {
        int a = j * CHUNK, m = max(0, min(a + CHUNK, len) - a);
        vec4 local = carry[(j * p.todo + tid) * 2 + 1];
        A0 = local.xy + cmul(cpow(p0, P0, m), A0);
        A1 = local.zw + cmul(cpow(p1, P1, m), A1);
      }
      // The walk ends at v[0] (a chunk's state is at its first sample), and its last chunk added
      // p^n r x[n] with x[n] taken as x[n-1] ("after"): A = v[-1] = p (r x[0] + v[0]) of the line's
      // samples alone once that is taken back out.
      float last = x_at(len - 1), first = x_at(0);
      A0 = cmul(p0, r0 * first + A0 - cmul(n0, r0 * last));
      A1 = cmul(p1, r1 * first + A1 - cmul(n1, r1 * last));
      vec2 w0, w1;  // v[n-1]
      if (p.border == BORDER_WRAP) {
        u0 = cdiv(U0, vec2(1.0, 0.0) - n0);
        u1 = cdiv(U1, vec2(1.0, 0.0) - n1);
        w0 = cdiv(A0, vec2(1.0, 0.0) - n0);
        w1 = cdiv(A1, vec2(1.0, 0.0) - n1);
      } else if (p.border == BORDER_REFLECT) {
        u0 = cdiv(A0, p0);
        u1 = cdiv(A1, p1);
        w0 = cmul(p0, U0 + cmul(n0, u0));
        w1 = cmul(p1, U1 + cmul(n1, u1));
      } else {  // mirror
        u0 = cdiv(cdiv(A0, p0) - r0 * first, p0);
        u1 = cdiv(cdiv(A1, p1) - r1 * first, p1);
        w0 = U0 + cmul(n0, u0) - r0 * last;
        w1 = U1 + cmul(n1, u1) - r1 * last;
      }
      // The state entering the last chunk, whose first step adds r x[n] (x[n-1]): v[n-1] / p - r x[n-1].
      v0 = cdiv(w0, p0) - r0 * last;
      v1 = cdiv(w1, p1) - r1 * last;
    }
#endif
    for (int j = 0; j < p.chunks; ++j) {
      int a = j * CHUNK, m = max(0, min(a + CHUNK, causal_end) - a);
      int at = (j * p.todo + tid) * 2;
      vec4 local = carry[at];
      carry[at].xy = u0.xy;  // entering states
      carry[at].zw = u1.xy;
      u0 = local.xy + cmul(cpow(p0, P0, m), u0);
      u1 = local.zw + cmul(cpow(p1, P1, m), u1);
    }
    for (int j = p.chunks - 1; j >= 0; --j) {
      int a = j * CHUNK, b = min(a + CHUNK, len), m = max(0, b - max(a, p.pad));
      int at = (j * p.todo + tid) * 2 + 1;
      vec4 local = carry[at];
      carry[at] = vec4(v0, v1);
      v0 = local.xy + cmul(cpow(p0, P0, m), v0);
      v1 = local.zw + cmul(cpow(p1, P1, m), v1);
    }
    return;
  }
  if (tid >= p.todo * p.chunks) return;
  int j = tid / p.todo, lane_local = tid % p.todo;
  int lane = p.first_lane + lane_local;
  g_line = lane / CHANNELS;
  g_c = lane % CHANNELS;
  int a = j * CHUNK, b = min(a + CHUNK, len);
  int at = (j * p.todo + lane_local) * 2;
  // The chunk's inputs (kept for both directions) and, phase 2, its causal outputs.
  float xs[CHUNK];
  float zs[CHUNK];
  for (int s = 0; s < CHUNK; ++s)
    if (a + s < b) xs[s] = x_at(a + s);
  bool constant = p.border == BORDER_CONSTANT;
  // The sample after the chunk: the next chunk's first, or past the padded line the border's constant.
  float after = b < len ? x_at(b) : (constant ? p.cval : x_at(len - 1));
  vec2 u0 = vec2(0.0), u1 = vec2(0.0), v0 = vec2(0.0), v1 = vec2(0.0);
  if (PHASE == 2) {
    vec4 u = carry[at], v = carry[at + 1];
    u0 = u.xy; u1 = u.zw; v0 = v.xy; v1 = v.zw;
  }
  // Causal: u_k[i] = r_k x[i] + p_k u_k[i-1]; output 2 Re(u_0 + u_1).
  int causal_stop = min(b, causal_end);
  for (int s = 0; s < CHUNK; ++s) {
    if (a + s < causal_stop) {
      float x = xs[s];
      u0 = r0 * x + cmul(p0, u0);
      u1 = r1 * x + cmul(p1, u1);
      zs[s] = 2.0 * (u0.x + u1.x);
    }
  }
  // Anticausal: v_k[i] = p_k (r_k x[i+1] + v_k[i+1]); output adds 2 Re(v_0 + v_1).
  float xn = after;
  for (int s = CHUNK - 1; s >= 0; --s) {
    int i = a + s;
    if (i < b && i >= p.pad) {
      v0 = cmul(p0, r0 * xn + v0);
      v1 = cmul(p1, r1 * xn + v1);
      if (PHASE == 2 && i < causal_end) dst[offset_of(g_line, i - p.pad, p.axis, p.extent.xyz, CHANNELS) + g_c] = zs[s] + 2.0 * (v0.x + v1.x);
      xn = xs[s];
    }
  }
  if (PHASE == 0) {
    carry[at] = vec4(u0, u1);
    carry[at + 1] = vec4(v0, v1);
  }
}
