#version 450
// The extended boxes of one axis (seeds 001, 002) fused into one dispatch: every pass's running sum
// in one thread as a cascade, each pass fed the previous pass's output as it is made, so no pass
// writes its line out and no dispatch waits for another (BoxSchedule::fused, instead of a dispatch
// per box). A thread makes a chunk of `chunk` outputs of one lane (one channel of one line), lanes
// fastest (coalesced). Pass q (radius r, h = r + 1, end weight alpha), given its inputs x in order,
// makes from input p on the output centred at p - h:
//   out = (x[p-2h+1] + ... + x[p-1] + alpha (x[p-2h] + x[p])) / (2 r + 1 + 2 alpha),
// keeping T = x[p-2h+1] + ... + x[p] (Kahan compensated; a chunk starts afresh, so no sum runs
// long) and its last 2h + 1 inputs in a ring. The rings live in `rings`, slot-major across the
// dispatch's threads (neighbouring threads, neighbouring words). The chunk's line is read from
// `pad` (the passes' total reach) before its first output to as far after its last, through the
// border mode, four samples at a time (loads in flight together).
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"
#include "line_layout.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int CHANNELS = 4;
const int MAX_PASSES = 6;  // box_passes' maximum

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(std430, binding = 2) buffer Rings { float rings[]; };
layout(std430, binding = 3) readonly buffer Passes { vec2 passes[]; };  // (radius, alpha)

layout(push_constant) uniform Params {
  ivec4 extent;  // W, H, D, lanes in this batch
  int axis, border;
  float cval;
  int npasses, pad, first_lane;
  int chunk, chunks;  // outputs per thread, threads per lane
  int threads;        // lanes x chunks: the ring's stride
} p;

void main() {
  int gid = int(gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u);
  if (gid >= p.threads) return;
  int lanes = p.extent.w;
  int lane = gid % lanes, piece = gid / lanes;
  int n = p.extent[p.axis];
  int line = (p.first_lane + lane) / CHANNELS, c = (p.first_lane + lane) % CHANNELS;
  int a = piece * p.chunk, b = min(a + p.chunk, n);
  if (a >= b) return;

  int h[MAX_PASSES], ring_at[MAX_PASSES], count[MAX_PASSES];
  float alpha[MAX_PASSES], inv[MAX_PASSES], total[MAX_PASSES], comp[MAX_PASSES];
  int slots = 0;
  for (int q = 0; q < MAX_PASSES; ++q) {
    if (q >= p.npasses) break;
    int r = int(passes[q].x);
    h[q] = r + 1;
    alpha[q] = passes[q].y;
    inv[q] = 1.0 / (2.0 * float(r) + 1.0 + 2.0 * alpha[q]);
    ring_at[q] = slots;
    slots += 2 * h[q] + 1;
    count[q] = 0;
    total[q] = 0.0;
    comp[q] = 0.0;
  }

  // Padded position j (image sample j - pad) of the extended line, for j in [a, b + 2 pad).
  int end = b + 2 * p.pad;
  for (int j0 = a; j0 < end; j0 += 4) {
    float ahead[4];
    for (int u = 0; u < 4; ++u) {
      int k = border_index(min(j0 + u, end - 1) - p.pad, n, p.border);
      ahead[u] = k < 0 ? p.cval : src[offset_of(line, k, p.axis, p.extent.xyz, CHANNELS) + c];
    }
    for (int u = 0; u < 4; ++u) {
      int j = j0 + u;
      if (j >= end) break;
      float v = ahead[u];
      bool made = true;
      for (int q = 0; q < MAX_PASSES; ++q) {
        if (q >= p.npasses) break;
        int w = 2 * h[q] + 1, i = count[q];
        count[q] = i + 1;
        float oldest = i >= 2 * h[q] ? rings[(ring_at[q] + (i - 2 * h[q]) % w) * p.threads + gid] : 0.0;
        rings[(ring_at[q] + i % w) * p.threads + gid] = v;
        precise float y = (v - oldest) - comp[q];
        precise float t = total[q] + y;
        comp[q] = (t - total[q]) - y;
        total[q] = t;
        if (i < 2 * h[q]) { made = false; break; }
        v = (t - v + alpha[q] * (oldest + v)) * inv[q];
      }
      // The last pass's output is centred pad before j: image sample j - 2 pad, in [a, b).
      if (made) dst[offset_of(line, j - 2 * p.pad, p.axis, p.extent.xyz, CHANNELS) + c] = v;
    }
  }
}
