#version 450
// A caller's 2D image (any sampled float or normalised format) into the packed float work buffer:
// texel (x, y) -> work pixel (x, y), its first CHANNELS components. Normalised formats read as
// 0..1; the blur is linear, so their scale does not matter.
layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const int CHANNELS = 4;

layout(binding = 0) uniform sampler2D src;
layout(std430, binding = 1) writeonly buffer Dst { float dst[]; };

layout(push_constant) uniform Params { ivec2 size; } p;

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (t.x >= p.size.x || t.y >= p.size.y) return;
  vec4 v = texelFetch(src, t, 0);
  int o = (t.y * p.size.x + t.x) * CHANNELS;
  for (int c = 0; c < CHANNELS; ++c) dst[o + c] = v[c];
}
