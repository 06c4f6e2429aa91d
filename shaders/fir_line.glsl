// The exact Gaussian (fir) along x of a packed float image (index ((z * H + y) * W + x) * CH + c).
// A workgroup of 64 threads convolves a tile of 64 OUT consecutive pixels of one row: it copies the
// tile and 2 R more pixels into workgroup-shared memory, so each is fetched from device memory
// once per workgroup (seed 003), then each thread computes OUT (4, or 8 in the register-blocked
// variant) neighbouring outputs.
//  - Vector tiles: a pixel is one value of its channels' vector type (float, vec2, vec3, vec4; CH
//    is compiled in, one variant per channel count), loaded from device memory in one access
//    where the type allows and read from shared memory in one.
//  - Several outputs per thread: the taps k = 0..R run in order for all OUT outputs together, each
//    output summing w_k (x[c - k] + x[c + k]) as one output per thread did; the left and right
//    neighbours of the OUT outputs slide by one pixel per tap in registers, so a tap costs two
//    shared-memory reads for OUT outputs instead of two per output.
//  - Shared slots are padded by one after every PAD_EVERY pixels, so the threads of a warp, which
//    read pixels OUT apart, hit different banks.
// Weights come from a table (w[0..R]) or, with INCREMENTAL, are generated on the fly by seed 000's
// forward quotients (g0 *= g1, g1 *= g2) and normalised by their running sum. The radius is a push
// constant (a new sigma needs no new pipeline); the shared tile's size is a specialisation constant
// fixed for a bucket of radii (gpu_fir.cpp). With SLICED (fir_line_slices.comp) the image is a stack
// of slices, each with its own kernel: slice s's radius and the offset of its weights in the table
// are kernels[s] (a workgroup's row lies in one slice), the tile sized for the widest.
#include "border.glsl"

#ifndef CH
#define CH 4
#endif
#if CH == 1
#define T float
#define PAD_EVERY 32
#elif CH == 2
#define T vec2
#define PAD_EVERY 16
#elif CH == 3
#define T vec3
#define PAD_EVERY 8
#else
#define T vec4
#define PAD_EVERY 8
#endif
#ifndef OUT
#define OUT 4  // outputs a thread (fir_line_o8.comp: 8, the register-blocked variant for large radii)
#endif
#define TILE (64 * OUT)

layout(local_size_x = 64) in;
layout(constant_id = 0) const bool INCREMENTAL = false;
// Where TILE + 2 R pixels do not fit in shared memory (a large radius on a small device), each
// tap reads device memory instead (SHARED false).
layout(constant_id = 1) const bool SHARED = true;
layout(constant_id = 2) const int SHARED_PIXELS = 1;  // slot(TILE + 2 radius) when SHARED

#if CH == 3
layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };
T load_pixel(int i) { return vec3(src[3 * i], src[3 * i + 1], src[3 * i + 2]); }
void store_pixel(int i, T v) { dst[3 * i] = v.x; dst[3 * i + 1] = v.y; dst[3 * i + 2] = v.z; }
#else
layout(std430, binding = 0) readonly buffer Src { T src[]; };
layout(std430, binding = 1) writeonly buffer Dst { T dst[]; };
T load_pixel(int i) { return src[i]; }
void store_pixel(int i, T v) { dst[i] = v; }
#endif
layout(std430, binding = 2) readonly buffer Weights { float w[]; };
#ifdef SLICED
layout(std430, binding = 3) readonly buffer Kernels { ivec2 kernels[]; };  // per slice: radius, first weight
#endif

layout(push_constant) uniform Params {
  ivec4 extent;   // W, H, D, rows (D H)
  int axis;       // 0
  int border;
  float cval;
  float g0, g1, g2;  // incremental: the seed's initial quotients
  int radius;
#ifdef SLICED
  int rows_per_slice;  // H: rows of one slice
#endif
} p;

shared T tile[SHARED_PIXELS];

int slot(int k) { return k + k / PAD_EVERY; }

int g_row, g_start, g_n, g_radius;

// Pixel k of the workgroup's window (k = 0 is start - radius).
T fetch(int k) {
  if (SHARED) return tile[slot(k)];
  int j = border_index(g_start - g_radius + k, g_n, p.border);
  return j < 0 ? T(p.cval) : load_pixel(g_row * g_n + j);
}

void main() {
  int n = p.extent.x;
  int row = int(gl_WorkGroupID.y + gl_WorkGroupID.z * 65535u);
  if (row >= p.extent.w) return;  // uniform across the workgroup
  int start = int(gl_WorkGroupID.x) * TILE;
  g_row = row;
  g_start = start;
  g_n = n;
#ifdef SLICED
  ivec2 kernel = kernels[row / p.rows_per_slice];
  int radius = kernel.x, first_weight = kernel.y;
#else
  int radius = p.radius, first_weight = 0;
#endif
  g_radius = radius;
  int lid = int(gl_LocalInvocationID.x);
  if (SHARED) {
    for (int k = lid; k < TILE + 2 * radius; k += 64) {
      int j = border_index(start - radius + k, n, p.border);
      tile[slot(k)] = j < 0 ? T(p.cval) : load_pixel(row * n + j);
    }
    barrier();
  }
  int first = lid * OUT;  // the thread's first output in the tile
  if (start + first >= n) return;
  int centre = first + radius;  // its window index
  T left[OUT], right[OUT], sum[OUT];
  float g0 = p.g0, g1 = p.g1, g2 = p.g2, total = 0.0;
  float w0 = INCREMENTAL ? g0 : w[first_weight];
  for (int j = 0; j < OUT; ++j) {
    left[j] = right[j] = fetch(centre + j);
    sum[j] = w0 * left[j];
  }
  if (INCREMENTAL) {
    total = g0;
    g0 *= g1;
    g1 *= g2;
  }
  for (int k = 1; k <= radius; ++k) {
    // left[j] = x[centre + j - k], right[j] = x[centre + j + k]
    for (int j = OUT - 1; j > 0; --j) left[j] = left[j - 1];
    left[0] = fetch(centre - k);
    for (int j = 0; j < OUT - 1; ++j) right[j] = right[j + 1];
    right[OUT - 1] = fetch(centre + OUT - 1 + k);
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
  for (int j = 0; j < OUT && start + first + j < n; ++j)
    store_pixel(row * n + start + first + j, INCREMENTAL ? sum[j] / total : sum[j]);
}
