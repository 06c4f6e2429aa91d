// Sample i of line `line` along `axis` of a packed image (index ((z H + y) W + x) C + c), channel 0.
// Lines along x are numbered z H + y, along y z W + x, along z y W + x.
int offset_of(int line, int i, int axis, ivec3 size, int channels) {
  int W = size.x, H = size.y;
  if (axis == 0) return (line * W + i) * channels;
  if (axis == 1) {
    int x = line % W, z = line / W;
    return ((z * H + i) * W + x) * channels;
  }
  return ((i * H) * W + line) * channels;
}
