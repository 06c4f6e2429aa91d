#version 450
// The extended box (seeds 001, 002) along one axis with running sums (seed 002's moving average),
// in three kinds of dispatch over lanes (one channel of one line each, numbered line C + c):
//  - MODE_GATHER: the lanes' lines extended by the border mode by the passes' total reach `pad`
//    into scratch a (len = n + 2 pad samples a lane);
//  - MODE_PASS: one box, a -> b, over the range [lo, hi) of the lane that it leaves valid; each
//    thread slides a window over `chunk` consecutive outputs, starting its sum afresh (Kahan
//    compensated) at the chunk's first output, so a line of n samples keeps n / chunk threads
//    busy instead of one and no sum runs long enough to drift;
//  - MODE_SCATTER: the centre n samples of a into dst.
// Scratch sample j of lane l sits at j * sample_stride + l * line_stride: interleaved on GPUs
// (neighbouring threads, neighbouring lanes, neighbouring words), line by line on CPU devices.
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"
#include "line_layout.glsl"

layout(local_size_x = 64) in;
layout(constant_id = 0) const int CHANNELS = 4;
const int MODE_GATHER = 0, MODE_PASS = 1, MODE_SCATTER = 2;

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
layout(std430, binding = 2) readonly buffer A { float a[]; };
layout(std430, binding = 3) writeonly buffer B { float b[]; };

layout(push_constant) uniform Params {
  ivec4 extent;      // W, H, D, lanes in this batch
  int axis, border;
  float cval;
  int mode;
  int pad, first_lane;
  int sample_stride, line_stride;
  int radius;        // MODE_PASS: the box's radius r (width 2 r + 1 plus two ends of weight alpha)
  float alpha;
  int lo, hi;        // MODE_PASS: outputs lo + r + 1 .. hi - r - 2 are written
  int chunk;         // MODE_PASS: outputs per thread
} p;

int at(int j, int lane) { return j * p.sample_stride + lane * p.line_stride; }

void main() {
  uint gid = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u;
  int lanes = p.extent.w;
  int lane = int(gid % uint(lanes)), step = int(gid / uint(lanes));  // lanes fastest: coalesced
  int n = p.extent[p.axis];
  int line = (p.first_lane + lane) / CHANNELS, c = (p.first_lane + lane) % CHANNELS;
  if (p.mode == MODE_GATHER) {
    int j = step;  // padded index
    if (j >= n + 2 * p.pad) return;
    int k = border_index(j - p.pad, n, p.border);
    b[at(j, lane)] = k < 0 ? p.cval : src[offset_of(line, k, p.axis, p.extent.xyz, CHANNELS) + c];
  } else if (p.mode == MODE_SCATTER) {
    int i = step;
    if (i >= n) return;
    dst[offset_of(line, i, p.axis, p.extent.xyz, CHANNELS) + c] = a[at(p.pad + i, lane)];
  } else {
    int r = p.radius, h = r + 1;
    int first = p.lo + h + step * p.chunk, last = min(first + p.chunk, p.hi - h);
    if (first >= last) return;
    float inv = 1.0 / (2.0 * float(r) + 1.0 + 2.0 * p.alpha);
    precise float sum = 0.0, comp = 0.0;  // Kahan; `precise`: no reassociation
    for (int j = first - r; j <= first + r; ++j) {
      precise float y = a[at(j, lane)] - comp;
      precise float t = sum + y;
      comp = (t - sum) - y;
      sum = t;
    }
    for (int i = first; i < last; ++i) {
      b[at(i, lane)] = (sum + p.alpha * (a[at(i - h, lane)] + a[at(i + h, lane)])) * inv;
      if (i + 1 < last) {
        precise float y = (a[at(i + r + 1, lane)] - a[at(i - r, lane)]) - comp;
        precise float t = sum + y;
        comp = (t - sum) - y;
        sum = t;
      }
    }
  }
}
