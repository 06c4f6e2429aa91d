#version 450
// variants: c1=-DIMAGE_CHANNELS=1 c2=-DIMAGE_CHANNELS=2 c4=-DIMAGE_CHANNELS=4 c4_half=-DIMAGE_CHANNELS=4,-DIMAGE_HALF c4_unorm8=-DIMAGE_CHANNELS=4,-DIMAGE_UNORM8
// fir-linear (seeds 002, 003): the Gaussian along one axis with pairs of adjacent taps merged into
// one bilinear fetch (w = w1 + w2 at o = (o1 w1 + o2 w2) / w), so the texture unit does half the
// work. The image was padded once by the border modes (pad_image.comp) far enough for both passes;
// the x pass writes every texel of another padded image, the y pass the image's pixels into the
// work buffer. As on the CPU, the border extends the image once: that is what fir does.
#extension GL_GOOGLE_include_directive : require
#include "image_format.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const int CHANNELS = 4;
layout(constant_id = 1) const int AXIS = 0;        // 0: x, 1: y
layout(constant_id = 2) const bool TO_BUFFER = false;

layout(binding = 0) uniform sampler2D src;
layout(binding = 1, IMAGE_FORMAT) uniform writeonly image2D dst_image;
layout(std430, binding = 2) writeonly buffer Dst { float dst[]; };
layout(std430, binding = 3) readonly buffer Taps { vec2 taps[]; };  // (offset in texels, weight)

layout(push_constant) uniform Params {
  ivec2 size;    // what is written: the image's size, or the work buffer's width and height
  ivec2 origin;  // TO_BUFFER: where the buffer's pixel (0, 0) lies in the image
  ivec2 image;   // the image read
  int ntaps;
} p;

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (t.x >= p.size.x || t.y >= p.size.y) return;
  vec2 centre = vec2(t + (TO_BUFFER ? p.origin : ivec2(0))) + 0.5;
  vec2 step = AXIS == 0 ? vec2(1.0, 0.0) : vec2(0.0, 1.0);
  vec2 inv = 1.0 / vec2(p.image);
  vec4 sum = vec4(0.0);
  for (int i = 0; i < p.ntaps; ++i) sum += taps[i].y * textureLod(src, (centre + step * taps[i].x) * inv, 0.0);
  if (TO_BUFFER) {
    int o = (t.y * p.size.x + t.x) * CHANNELS;
    for (int c = 0; c < CHANNELS; ++c) dst[o + c] = sum[c] * IMAGE_SCALE;
  } else {
    imageStore(dst_image, t, sum);
  }
}
