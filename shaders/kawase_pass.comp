#version 450
// variants: c1=-DIMAGE_CHANNELS=1 c2=-DIMAGE_CHANNELS=2 c4=-DIMAGE_CHANNELS=4 c4_half=-DIMAGE_CHANNELS=4,-DIMAGE_HALF c4_unorm8=-DIMAGE_CHANNELS=4,-DIMAGE_UNORM8
// One Kawase pass (seed 002): the mean of four bilinear fetches at the diagonal offsets (+-dx, +-dy)
// from each texel's centre. The image was padded once by the border modes (pad_image.comp) by the
// whole schedule's reach, as the CPU extends it once; passes go image to image, the last writes the
// image's pixels into the work buffer. Offsets may differ per axis (anisotropic sigma); 0 leaves an
// axis alone (both fetches then land on the texel's centre).
#extension GL_GOOGLE_include_directive : require
#include "image_format.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const int CHANNELS = 4;
layout(constant_id = 1) const bool TO_BUFFER = false;

layout(binding = 0) uniform sampler2D src;
layout(binding = 1, IMAGE_FORMAT) uniform writeonly image2D dst_image;
layout(std430, binding = 2) writeonly buffer Dst { float dst[]; };

layout(push_constant) uniform Params {
  ivec2 size;    // what is written: the image's size, or the work buffer's width and height
  ivec2 origin;  // TO_BUFFER: where the buffer's pixel (0, 0) lies in the image
  ivec2 image;   // the image read
  vec2 offset;   // dx, dy in texels
} p;

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (t.x >= p.size.x || t.y >= p.size.y) return;
  vec2 c = vec2(t + (TO_BUFFER ? p.origin : ivec2(0))) + 0.5, inv = 1.0 / vec2(p.image), d = p.offset;
  vec4 sum = 0.25 * (textureLod(src, (c + vec2(-d.x, -d.y)) * inv, 0.0) + textureLod(src, (c + vec2(d.x, -d.y)) * inv, 0.0) +
                     textureLod(src, (c + vec2(-d.x, d.y)) * inv, 0.0) + textureLod(src, (c + vec2(d.x, d.y)) * inv, 0.0));
  if (TO_BUFFER) {
    int o = (t.y * p.size.x + t.x) * CHANNELS;
    for (int c2 = 0; c2 < CHANNELS; ++c2) dst[o + c2] = sum[c2] * IMAGE_SCALE;  // normalized images: back to values
  } else {
    imageStore(dst_image, t, sum);
  }
}
