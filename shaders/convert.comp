#version 450
// Between an image in its own element type, packed into 32-bit words (u8: 4 per word, u16 and f16:
// 2, f32: 1), and the packed float32 work buffer every pass reads and writes. One thread per
// word, so no two threads write the same word. Unpacking widens exactly; packing rounds integers
// to nearest with ties to even and saturates (NaN -> 0), as the CPU does (core/element.hpp).
// Element i of the image is element `first + i` of the word array; the words before and after the
// image (a caller's buffer may hold other data there) are written back unchanged.
layout(local_size_x = 256) in;
layout(constant_id = 0) const int TYPE = 0;       // 0 f32, 1 f16, 2 u8, 3 u16
layout(constant_id = 1) const bool PACK = false;  // false: words -> floats; true: floats -> words

layout(std430, binding = 0) buffer Words { uint words[]; };
layout(std430, binding = 1) buffer Floats { float floats[]; };

layout(push_constant) uniform Params {
  uint count;  // elements
  uint first;  // element offset of the image in `words`
  uint word_base;  // the first word this dispatch handles (dispatches of at most 2^22 groups)
} p;

const int PER_WORD = TYPE == 0 ? 1 : TYPE == 2 ? 4 : 2;

uint to_u(float v, float top) {
  if (isnan(v)) return 0u;
  return uint(roundEven(clamp(v, 0.0, top)));
}

void main() {
  uint w = p.word_base + gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x;
  uint e_begin = w * uint(PER_WORD);
  uint last = p.first + p.count;  // one past the image's last element
  if (e_begin + uint(PER_WORD) <= p.first || e_begin >= last) return;
  if (!PACK) {
    uint word = words[w];
    for (int k = 0; k < PER_WORD; ++k) {
      uint e = e_begin + uint(k);
      if (e < p.first || e >= last) continue;
      float v;
      if (TYPE == 0) v = uintBitsToFloat(word);
      else if (TYPE == 1) v = unpackHalf2x16(word)[k];
      else if (TYPE == 2) v = float((word >> (8 * k)) & 0xffu);
      else v = float((word >> (16 * k)) & 0xffffu);
      floats[e - p.first] = v;
    }
    return;
  }
  uint word = words[w];  // kept where the image does not cover it
  if (TYPE == 0) {
    word = floatBitsToUint(floats[e_begin - p.first]);
  } else if (TYPE == 1) {
    vec2 h = unpackHalf2x16(word);
    for (int k = 0; k < 2; ++k) {
      uint e = e_begin + uint(k);
      if (e >= p.first && e < last) h[k] = floats[e - p.first];
    }
    word = packHalf2x16(h);
  } else {
    int bits = TYPE == 2 ? 8 : 16;
    uint mask = TYPE == 2 ? 0xffu : 0xffffu;
    float top = TYPE == 2 ? 255.0 : 65535.0;
    for (int k = 0; k < PER_WORD; ++k) {
      uint e = e_begin + uint(k);
      if (e < p.first || e >= last) continue;
      word = (word & ~(mask << (bits * k))) | (to_u(floats[e - p.first], top) << (bits * k));
    }
  }
  words[w] = word;
}
