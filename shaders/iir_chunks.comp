#version 450
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
// Along x (TILED) a chunk's samples of one line lie side by side and a line's length apart from the
// next line's: there a workgroup takes 64 / CHANNELS whole lines' chunk j, loaded into shared memory
// by all its threads together (consecutive threads on consecutive addresses), and its outputs go
// back the same way; along y and z the lanes of a warp are neighbours in memory already.
// A first-order recursion from a state s after m steps holds p^m s more than from zero, so phase 1
// is exact up to rounding. The line is read through the border mode over `pad` samples on each
// side as iir_line.comp reads it, and the steady states for the borders' constant continuation
// are iir_line.comp's VARIANT 2 starts.
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"
#include "line_layout.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int CHANNELS = 4;
layout(constant_id = 1) const int PHASE = 0;
layout(constant_id = 2) const int CHUNK = 32;
layout(constant_id = 3) const bool TILED = false;
const int GROUP_LINES = 64 / CHANNELS, GROUP_LANES = GROUP_LINES * CHANNELS;
// TILED: a line's chunk and the sample after it, padded to CHUNK + 1 slots so that the threads of a
// warp (lines a slot stride apart) fall in different banks.
shared float tile[TILED ? GROUP_LINES * (CHUNK + 1) * CHANNELS : 1];

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
    for (int j = 0; j < p.chunks; ++j) {
      int a = j * CHUNK, m = max(0, min(a + CHUNK, causal_end) - a);
      int at = (j * p.todo + tid) * 2;
      vec4 local = carry[at];
      carry[at].xy = u0.xy;  // entering states
      carry[at].zw = u1.xy;
      u0 = local.xy + cmul(cpow(p0, P0, m), u0);
      u1 = local.zw + cmul(cpow(p1, P1, m), u1);
    }
    vec2 v0 = cmul(p0, s0) * right, v1 = cmul(p1, s1) * right;
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
  bool constant = p.border == BORDER_CONSTANT;
  int j, lane_local, lid = int(gl_LocalInvocationID.x), group_first = 0;
  if (TILED) {
    int group = int(gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x);
    int groups = (p.todo + GROUP_LANES - 1) / GROUP_LANES;  // per chunk
    j = group / groups;
    group_first = (group % groups) * GROUP_LANES;  // the workgroup's first lane in the batch
    lane_local = group_first + lid;
    if (j >= p.chunks) return;  // whole workgroups only: uniform for the barriers below
  } else {
    if (tid >= p.todo * p.chunks) return;
    j = tid / p.todo;
    lane_local = tid % p.todo;
  }
  bool live = lane_local < p.todo && (!TILED || lid < GROUP_LANES);
  int lane = p.first_lane + lane_local;
  g_line = lane / CHANNELS;
  g_c = lane % CHANNELS;
  int a = j * CHUNK, b = min(a + CHUNK, len);
  int at = (j * p.todo + lane_local) * 2;
  // The chunk's inputs (kept for both directions) and, phase 2, its causal outputs.
  float xs[CHUNK];
  float zs[CHUNK];
  float after;  // the sample after the chunk: the next chunk's first, or past the padded line the border's constant
  int slot = (lid / CHANNELS) * (CHUNK + 1) * CHANNELS + lid % CHANNELS;  // TILED: the thread's sample 0
  if (TILED) {
    int first_line = (p.first_lane + group_first) / CHANNELS;
    for (int q = lid; q < GROUP_LINES * (CHUNK + 1) * CHANNELS; q += 64) {
      int l = q / ((CHUNK + 1) * CHANNELS), rest = q % ((CHUNK + 1) * CHANNELS), s = rest / CHANNELS, c = rest % CHANNELS;
      int i = a + s;
      if (group_first + l * CHANNELS + c >= p.todo || i > b) continue;
      int at_i = i < len ? i : len - 1;
      int k_i = border_index(at_i - p.pad, n, p.border);
      bool cval = k_i < 0 || (i == len && constant);
      tile[q] = cval ? p.cval : src[((first_line + l) * p.extent.x + k_i) * CHANNELS + c];
    }
    barrier();
    if (lid < GROUP_LANES) {  // (3 channels: the 64th thread has no lane of the tile)
      for (int s = 0; s < CHUNK; ++s) xs[s] = tile[slot + s * CHANNELS];
      after = tile[slot + (b - a) * CHANNELS];
    }
    barrier();  // the tile takes the outputs next
  } else {
    for (int s = 0; s < CHUNK; ++s)
      if (a + s < b) xs[s] = x_at(a + s);
    after = b < len ? x_at(b) : (constant ? p.cval : x_at(len - 1));
  }
  vec2 u0 = vec2(0.0), u1 = vec2(0.0), v0 = vec2(0.0), v1 = vec2(0.0);
  if (PHASE == 2 && live) {
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
      if (PHASE == 2 && i < causal_end) {
        float y = zs[s] + 2.0 * (v0.x + v1.x);
        if (TILED) {
          if (live) tile[slot + s * CHANNELS] = y;
        }
        else dst[offset_of(g_line, i - p.pad, p.axis, p.extent.xyz, CHANNELS) + g_c] = y;
      }
      xn = xs[s];
    }
  }
  if (PHASE == 0 && live) {
    carry[at] = vec4(u0, u1);
    carry[at + 1] = vec4(v0, v1);
  }
  if (TILED && PHASE == 2) {  // the outputs from the tile to dst, all threads together
    barrier();
    int first_line = (p.first_lane + group_first) / CHANNELS;
    for (int q = lid; q < GROUP_LINES * CHUNK * CHANNELS; q += 64) {
      int l = q / (CHUNK * CHANNELS), rest = q % (CHUNK * CHANNELS), s = rest / CHANNELS, c = rest % CHANNELS;
      int i = a + s;
      if (group_first + l * CHANNELS + c >= p.todo || i >= b || i < p.pad || i >= causal_end) continue;
      dst[((first_line + l) * p.extent.x + i - p.pad) * CHANNELS + c] = tile[(l * (CHUNK + 1) + s) * CHANNELS + c];
    }
  }
}
