#version 450
// variants: c1=-DIMAGE_CHANNELS=1 c2=-DIMAGE_CHANNELS=2 c4=-DIMAGE_CHANNELS=4 c4_half=-DIMAGE_CHANNELS=4,-DIMAGE_HALF c4_unorm8=-DIMAGE_CHANNELS=4,-DIMAGE_UNORM8
// A 2D plane of a packed float work buffer into a storage image, extended by the border modes
// (scipy's rules, border.glsl): image texel (i, j) is the buffer's pixel (i - origin.x, j - origin.y)
// mapped by the border of each axis, or cval. The sampled-image algorithms read the result
// through a linear sampler with clamp-to-edge addressing, which no border mode then reaches.
#extension GL_GOOGLE_include_directive : require
#include "border.glsl"
#include "image_format.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const int CHANNELS = 4;  // of the buffer; the image holds IMAGE_CHANNELS

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(binding = 1, IMAGE_FORMAT) uniform writeonly image2D dst;

layout(push_constant) uniform Params {
  ivec2 size;     // the buffer's width and height
  ivec2 origin;   // where the buffer's pixel (0, 0) lies in the image
  ivec2 image;    // the image's width and height
  int border_x, border_y;
  float cval;
} p;

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (t.x >= p.image.x || t.y >= p.image.y) return;
  int x = border_index(t.x - p.origin.x, p.size.x, p.border_x);
  int y = border_index(t.y - p.origin.y, p.size.y, p.border_y);
  vec4 v = vec4(0.0);
  for (int c = 0; c < CHANNELS && c < 4; ++c) v[c] = (x < 0 || y < 0) ? p.cval : src[(y * p.size.x + x) * CHANNELS + c];
  imageStore(dst, t, v / IMAGE_SCALE);
}
