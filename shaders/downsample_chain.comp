#version 450
// downsample (seed 002) as the CPU chain does it (cpu/downsample_chain.cpp), in up to five
// dispatches over 2D images and volumes, every one with neighbouring threads on neighbouring x
// (coalesced on every axis, unlike a thread per sample along a y or z line):
//  MODE 0: low[b] = the separable tent onto block b's centre on every axis at once, the source read
//          once (each sample by the 2f x 2f (x 2f) blocks around it, from the cache);
//  MODE 1: the low-resolution Gaussian (weights w[w_first .. w_first + 2r]) along `axis` of the
//          blocks, for r <= b < blocks - r (0 elsewhere: no output reads those blocks);
//  MODE 2: out[i] = linear interpolation of the blurred blocks around i on every axis.
// Per axis as downsample_line.comp: pad = f (r + 3), blocks anchored at the padded line's first
// sample, block b's centre at padded position b f + (f - 1)/2. An axis the plan leaves alone has
// f = 1, pad = 0 (its blocks are its samples, read as they are). The per-axis operators act on
// different axes and a border's extension commutes with the other axes', so this is the same
// function as the per-axis passes (the float operations in another order).
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"

layout(local_size_x = 256) in;
layout(constant_id = 0) const int CHANNELS = 4;
layout(constant_id = 1) const int MODE = 0;

layout(std430, binding = 0) readonly buffer Src { float src[]; };    // MODE 0: image; 1, 2: blocks
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };   // MODE 0, 1: blocks; 2: image
layout(std430, binding = 2) readonly buffer Weights { float w[]; };  // every blurred axis's, one after another

layout(push_constant) uniform Params {
  ivec4 extent;   // W, H, D
  ivec4 factor;   // per axis (1: left alone)
  ivec4 pad;      // per axis
  ivec4 blocks;   // per axis: (n + 2 pad) / f
  ivec4 border;   // per axis
  float cval;
  int axis, radius, w_first;  // MODE 1
} p;

uint thread_index() { return gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u; }

// The tent's weight at offset k (-f/2 <= k < 3f/2) from a block's first sample.
float tent(int k, int f) { return (1.0 - abs(float(k) - 0.5 * float(f - 1)) / float(f)) / float(f); }

void reduce(ivec3 b) {
  float acc[CHANNELS];
  for (int c = 0; c < CHANNELS; ++c) acc[c] = 0.0;
  ivec3 len = p.extent.xyz + 2 * p.pad.xyz;
  for (int kz = -p.factor.z / 2; kz < 3 * p.factor.z / 2; ++kz) {
    int pz = b.z * p.factor.z + kz;
    if (pz < 0 || pz >= len.z) continue;
    int z = border_index(pz - p.pad.z, p.extent.z, p.border.z);
    float wz = tent(kz, p.factor.z);
    for (int ky = -p.factor.y / 2; ky < 3 * p.factor.y / 2; ++ky) {
      int py = b.y * p.factor.y + ky;
      if (py < 0 || py >= len.y) continue;
      int y = border_index(py - p.pad.y, p.extent.y, p.border.y);
      float wzy = wz * tent(ky, p.factor.y);
      float row[CHANNELS];
      for (int c = 0; c < CHANNELS; ++c) row[c] = 0.0;
      for (int kx = -p.factor.x / 2; kx < 3 * p.factor.x / 2; ++kx) {
        int px = b.x * p.factor.x + kx;
        if (px < 0 || px >= len.x) continue;
        int x = border_index(px - p.pad.x, p.extent.x, p.border.x);
        float wx = tent(kx, p.factor.x);
        bool outside = x < 0 || y < 0 || z < 0;
        int at = ((z * p.extent.y + y) * p.extent.x + x) * CHANNELS;
        for (int c = 0; c < CHANNELS; ++c) row[c] += wx * (outside ? p.cval : src[at + c]);
      }
      for (int c = 0; c < CHANNELS; ++c) acc[c] += wzy * row[c];
    }
  }
  int at = ((b.z * p.blocks.y + b.y) * p.blocks.x + b.x) * CHANNELS;
  for (int c = 0; c < CHANNELS; ++c) dst[at + c] = acc[c];
}

void blur_blocks(ivec3 b) {
  int at = ((b.z * p.blocks.y + b.y) * p.blocks.x + b.x) * CHANNELS;
  int i = b[p.axis], r = p.radius;
  if (i < r || i >= p.blocks[p.axis] - r) {
    for (int c = 0; c < CHANNELS; ++c) dst[at + c] = 0.0;
    return;
  }
  int step = (p.axis == 0 ? 1 : p.axis == 1 ? p.blocks.x : p.blocks.x * p.blocks.y) * CHANNELS;
  float acc[CHANNELS];
  for (int c = 0; c < CHANNELS; ++c) acc[c] = 0.0;
  for (int k = -r; k <= r; ++k) {
    float wk = w[p.w_first + k + r];
    for (int c = 0; c < CHANNELS; ++c) acc[c] += wk * src[at + k * step + c];
  }
  for (int c = 0; c < CHANNELS; ++c) dst[at + c] = acc[c];
}

// The two blocks around sample i of an axis and the second's weight (an axis left alone: its own
// sample, weight 0 for the second, which is then not read).
void blocks_around(int i, int f, int pad, out int b, out float t) {
  if (f == 1) { b = i; t = 0.0; return; }
  float u = (float(i + pad) - 0.5 * float(f - 1)) / float(f);
  float fb = floor(u);
  b = int(fb);
  t = u - fb;
}

void interpolate(ivec3 i) {
  ivec3 b;
  vec3 t;
  blocks_around(i.x, p.factor.x, p.pad.x, b.x, t.x);
  blocks_around(i.y, p.factor.y, p.pad.y, b.y, t.y);
  blocks_around(i.z, p.factor.z, p.pad.z, b.z, t.z);
  ivec3 second = ivec3(p.factor.x > 1 ? 1 : 0, p.factor.y > 1 ? 1 : 0, p.factor.z > 1 ? 1 : 0);
  float acc[CHANNELS];
  for (int c = 0; c < CHANNELS; ++c) acc[c] = 0.0;
  for (int dz = 0; dz <= second.z; ++dz)
    for (int dy = 0; dy <= second.y; ++dy) {
      float wzy = (dz == 0 ? 1.0 - t.z : t.z) * (dy == 0 ? 1.0 - t.y : t.y);
      int row = ((b.z + dz) * p.blocks.y + b.y + dy) * p.blocks.x;
      for (int dx = 0; dx <= second.x; ++dx) {
        float wk = wzy * (dx == 0 ? 1.0 - t.x : t.x);
        int at = (row + b.x + dx) * CHANNELS;
        for (int c = 0; c < CHANNELS; ++c) acc[c] += wk * src[at + c];
      }
    }
  int at = ((i.z * p.extent.y + i.y) * p.extent.x + i.x) * CHANNELS;
  for (int c = 0; c < CHANNELS; ++c) dst[at + c] = acc[c];
}

void main() {
  uint g = thread_index();
  ivec3 grid = MODE == 2 ? p.extent.xyz : p.blocks.xyz;
  if (g >= uint(grid.x) * uint(grid.y) * uint(grid.z)) return;
  ivec3 at = ivec3(int(g % uint(grid.x)), int((g / uint(grid.x)) % uint(grid.y)), int(g / (uint(grid.x) * uint(grid.y))));
  if (MODE == 0) reduce(at);
  else if (MODE == 1) blur_blocks(at);
  else interpolate(at);
}
