#version 450
// variants: c1=-DIMAGE_CHANNELS=1 c2=-DIMAGE_CHANNELS=2 c4=-DIMAGE_CHANNELS=4
// mip-poisson (seed 003; kernel_mip_poisson.hpp). MODE 0 builds mip level l+1 from level l with
// [1 3 3 1]/8 along x and y (texels 2k-1 .. 2k+2, clamped at the level's edges). MODE 1 blurs: per
// pixel, the mean of trilinear fetches (textureLod: two levels, each bilinear, blended by the lod's
// fraction) of the sample set, scaled per axis and rotated by interleaved gradient noise of the
// pixel's coordinates; the image's pixels are cropped out of the padded level 0 into the buffer.
#extension GL_GOOGLE_include_directive : require
#include "image_format.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const int CHANNELS = 4;
layout(constant_id = 1) const int MODE = 0;

layout(binding = 0) uniform sampler2D src;  // every level
layout(binding = 1, IMAGE_FORMAT) uniform writeonly image2D next_level;
layout(std430, binding = 2) writeonly buffer Dst { float dst[]; };
layout(std430, binding = 3) readonly buffer Samples { vec4 samples[]; };  // (x, y, lod, 0) in sigma units

layout(push_constant) uniform Params {
  ivec2 size;    // MODE 0: the level written; MODE 1: the work buffer's width and height
  ivec2 origin;  // MODE 1: where the buffer's pixel (0, 0) lies in level 0
  ivec2 image;   // level 0's size
  vec2 scale;    // MODE 1: pixels per sigma unit along x and y
  ivec2 noise_origin;  // MODE 1: the buffer's pixel (0, 0) in the whole image (a tile's offset)
  int level;     // MODE 0: the level read
  int count;     // MODE 1: samples
  int frame;     // MODE 1: moves the noise
} p;

const float W[4] = float[4](0.125, 0.375, 0.375, 0.125);

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (t.x >= p.size.x || t.y >= p.size.y) return;
  if (MODE == 0) {
    ivec2 lim = textureSize(src, p.level) - 1;
    vec4 v = vec4(0.0);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 4; ++i)
        v += W[j] * W[i] * texelFetch(src, clamp(2 * t - 1 + ivec2(i, j), ivec2(0), lim), p.level);
    imageStore(next_level, t, v);
    return;
  }
  // Jimenez's interleaved gradient noise, moved 5.588238 pixels per frame.
  vec2 q = vec2(t + p.noise_origin) + 5.588238 * float(p.frame);
  float angle = 6.283185307179586 * fract(52.9829189 * fract(0.06711056 * q.x + 0.00583715 * q.y));
  float cs = cos(angle), sn = sin(angle);
  vec2 centre = vec2(t + p.origin) + 0.5, inv = 1.0 / vec2(p.image);
  vec4 sum = vec4(0.0);
  for (int i = 0; i < p.count; ++i) {
    vec4 s = samples[i];
    vec2 offset = p.scale * vec2(cs * s.x - sn * s.y, sn * s.x + cs * s.y);
    sum += textureLod(src, (centre + offset) * inv, s.z);
  }
  sum /= float(p.count);
  int o = (t.y * p.size.x + t.x) * CHANNELS;
  for (int c = 0; c < CHANNELS; ++c) dst[o + c] = sum[c];
}
