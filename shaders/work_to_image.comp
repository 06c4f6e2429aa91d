#version 450
// variants: rgba8=-DWRITE_FORMAT=rgba8 rgba16f=-DWRITE_FORMAT=rgba16f rgba32f=-DWRITE_FORMAT=rgba32f r32f=-DWRITE_FORMAT=r32f
// The packed float work buffer into a caller's 2D storage image. Compiled once per format the
// interop accepts (-DWRITE_FORMAT=rgba8, rgba16f, rgba32f or r32f): a storage image's format must
// be known when compiling. Normalised formats are rounded to nearest by the store.
#ifndef WRITE_FORMAT
#define WRITE_FORMAT rgba32f
#endif
layout(local_size_x = 16, local_size_y = 16) in;
layout(constant_id = 0) const int CHANNELS = 4;

layout(std430, binding = 0) readonly buffer Src { float src[]; };
layout(binding = 1, WRITE_FORMAT) uniform writeonly image2D dst;

layout(push_constant) uniform Params { ivec2 size; } p;

void main() {
  ivec2 t = ivec2(gl_GlobalInvocationID.xy);
  if (t.x >= p.size.x || t.y >= p.size.y) return;
  int o = (t.y * p.size.x + t.x) * CHANNELS;
  vec4 v = vec4(0.0, 0.0, 0.0, 1.0);
  for (int c = 0; c < CHANNELS; ++c) v[c] = src[o + c];
  imageStore(dst, t, v);
}
