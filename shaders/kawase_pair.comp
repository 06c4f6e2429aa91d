#version 450
// variants: c1=-DIMAGE_CHANNELS=1 c2=-DIMAGE_CHANNELS=2 c4=-DIMAGE_CHANNELS=4
// Two Kawase passes in one dispatch (issue 47's "fewer, wider passes"; kawase's paired-passes
// variant): a workgroup computes the first pass (kawase_pass.comp's four bilinear fetches) over its
// 16x16 tile and the halo the second pass reads - floor(d) + 1 texels a side, at most
// kKawasePairHalo - into shared memory, then the second pass from there, its bilinear taps by hand.
// The image between the two passes is neither written nor read. Where the first pass's results
// would lie outside the image, its edge texel's stand in (the sampler's clamp to edge, as the
// second pass of kawase_pass.comp reads them).
#extension GL_GOOGLE_include_directive : require
#include "image_format.glsl"

layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const int CHANNELS = 4;
layout(constant_id = 1) const bool TO_BUFFER = false;
const int HALO = 8;  // algo::kKawasePairHalo
const int SIDE = 16 + 2 * HALO;

layout(binding = 0) uniform sampler2D src;
layout(binding = 1, IMAGE_FORMAT) uniform writeonly image2D dst_image;
layout(std430, binding = 2) writeonly buffer Dst { float dst[]; };

layout(push_constant) uniform Params {
  ivec2 size;    // what is written: the image's size, or the work buffer's width and height
  ivec2 origin;  // TO_BUFFER: where the buffer's pixel (0, 0) lies in the image
  ivec2 image;   // the image read (and the size of the first pass's results)
  vec2 first;    // the first pass's dx, dy in texels
  vec2 second;   // the second pass's
} p;

shared vec4 firsts[SIDE * SIDE];

// The first pass at texel t of the image, as kawase_pass.comp computes it.
vec4 first_pass(ivec2 t) {
  vec2 c = vec2(t) + 0.5, inv = 1.0 / vec2(p.image), d = p.first;
  return 0.25 * (textureLod(src, (c + vec2(-d.x, -d.y)) * inv, 0.0) + textureLod(src, (c + vec2(d.x, -d.y)) * inv, 0.0) +
                 textureLod(src, (c + vec2(-d.x, d.y)) * inv, 0.0) + textureLod(src, (c + vec2(d.x, d.y)) * inv, 0.0));
}

// A bilinear fetch of the first pass's results at image position u (texel centres at integers + 0.5
// shifted to integers: u = position - 0.5), from shared memory whose entry (0, 0) is texel `corner`.
vec4 bilinear(vec2 u, ivec2 corner) {
  vec2 i0 = floor(u), f = u - i0;
  ivec2 q = ivec2(i0) - corner;
  vec4 t00 = firsts[q.y * SIDE + q.x], t10 = firsts[q.y * SIDE + q.x + 1];
  vec4 t01 = firsts[(q.y + 1) * SIDE + q.x], t11 = firsts[(q.y + 1) * SIDE + q.x + 1];
  return mix(mix(t00, t10, f.x), mix(t01, t11, f.x), f.y);
}

void main() {
  ivec2 lid = ivec2(gl_LocalInvocationID.xy);
  ivec2 origin = TO_BUFFER ? p.origin : ivec2(0);
  ivec2 tile = ivec2(gl_WorkGroupID.xy) * 16 + origin;  // the tile's first output, in image texels
  ivec2 halo = min(ivec2(floor(p.second)) + 1, ivec2(HALO));
  ivec2 corner = tile - halo, span = ivec2(16) + 2 * halo;
  for (int i = lid.y * 16 + lid.x; i < span.x * span.y; i += 256) {
    ivec2 q = ivec2(i % span.x, i / span.x);
    firsts[q.y * SIDE + q.x] = first_pass(clamp(corner + q, ivec2(0), p.image - 1));
  }
  barrier();
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (t.x >= p.size.x || t.y >= p.size.y) return;
  vec2 u = vec2(t + origin), d = p.second;
  vec4 sum = 0.25 * (bilinear(u + vec2(-d.x, -d.y), corner) + bilinear(u + vec2(d.x, -d.y), corner) +
                     bilinear(u + vec2(-d.x, d.y), corner) + bilinear(u + vec2(d.x, d.y), corner));
  if (TO_BUFFER) {
    int o = (t.y * p.size.x + t.x) * CHANNELS;
    for (int c2 = 0; c2 < CHANNELS; ++c2) dst[o + c2] = sum[c2] * IMAGE_SCALE;
  } else {
    imageStore(dst_image, t, sum);
  }
}
