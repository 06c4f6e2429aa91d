#version 450
// variants: c1=-DIMAGE_CHANNELS=1 c2=-DIMAGE_CHANNELS=2 c4=-DIMAGE_CHANNELS=4 c4_half=-DIMAGE_CHANNELS=4,-DIMAGE_HALF c4_unorm8=-DIMAGE_CHANNELS=4,-DIMAGE_UNORM8
// dual-kawase (Bjorge, SIGGRAPH 2015), the taps of kernel_dual_kawase.hpp: a down pass writes a
// level of half the size, an up pass one of twice the size; the last up pass writes the image's
// pixels (cropped out of the padded level 0) into the packed work buffer. Fetches are bilinear with
// clamp-to-edge, exactly what the CPU implementation sums.
#extension GL_GOOGLE_include_directive : require
#include "image_format.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const int CHANNELS = 4;
layout(constant_id = 1) const int MODE = 0;  // 0: down, 1: up into an image, 2: up into the buffer

layout(binding = 0) uniform sampler2D src;
layout(binding = 1, IMAGE_FORMAT) uniform writeonly image2D dst_image;
layout(std430, binding = 2) writeonly buffer Dst { float dst[]; };

layout(push_constant) uniform Params {
  ivec2 target;  // the level written (its size), or for MODE 2 the work buffer's width and height
  ivec2 source;  // the level read
  ivec2 origin;  // MODE 2: where the buffer's pixel (0, 0) lies in the level written
  vec2 offset;   // d along x and y, in half texels of the level read
} p;

vec4 fetch(vec2 texel_position) { return textureLod(src, texel_position / vec2(p.source), 0.0); }

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (t.x >= p.target.x || t.y >= p.target.y) return;
  vec2 h = 0.5 * p.offset;
  vec4 v;
  if (MODE == 0) {
    vec2 c = 2.0 * vec2(t) + 1.0;  // the target texel's centre in source texels
    v = 0.5 * fetch(c) + 0.125 * (fetch(c + vec2(-h.x, -h.y)) + fetch(c + vec2(h.x, -h.y)) +
                                  fetch(c + vec2(-h.x, h.y)) + fetch(c + vec2(h.x, h.y)));
  } else {
    vec2 c = (vec2(t + (MODE == 2 ? p.origin : ivec2(0))) + 0.5) / 2.0;
    v = (fetch(c + vec2(-2.0 * h.x, 0.0)) + fetch(c + vec2(2.0 * h.x, 0.0)) + fetch(c + vec2(0.0, -2.0 * h.y)) +
         fetch(c + vec2(0.0, 2.0 * h.y))) / 12.0 +
        (fetch(c + vec2(-h.x, -h.y)) + fetch(c + vec2(h.x, -h.y)) + fetch(c + vec2(-h.x, h.y)) +
         fetch(c + vec2(h.x, h.y))) / 6.0;
  }
  if (MODE == 2) {
    int o = (t.y * p.target.x + t.x) * CHANNELS;
    for (int c2 = 0; c2 < CHANNELS; ++c2) dst[o + c2] = v[c2] * IMAGE_SCALE;  // normalized images: back to values
  } else {
    imageStore(dst_image, t, v);
  }
}
