// scipy.ndimage's border modes (fastblur::Border order): the sample read at position i of a line
// of n samples, or -1 for `constant` outside the line. Mirrors src/core/border.hpp.
const int BORDER_REFLECT = 0, BORDER_MIRROR = 1, BORDER_NEAREST = 2, BORDER_WRAP = 3, BORDER_CONSTANT = 4;

int border_index(int i, int n, int mode) {
  if (i >= 0 && i < n) return i;
  if (mode == BORDER_CONSTANT) return -1;
  if (mode == BORDER_NEAREST) return i < 0 ? 0 : n - 1;
  // GLSL leaves % undefined for a negative operand (NVIDIA's compiler returned wrong indices for
  // every sample left of a line): each mode folds i to i >= 0 by its own symmetry first.
  if (mode == BORDER_WRAP) return i < 0 ? n - 1 - (-1 - i) % n : i % n;
  if (mode == BORDER_REFLECT) {  // period 2n, symmetric about -1/2
    int p = 2 * n;
    int m = (i < 0 ? -1 - i : i) % p;
    return m < n ? m : p - 1 - m;
  }
  if (n == 1) return 0;  // mirror: period 2n - 2, symmetric about 0
  int p = 2 * n - 2;
  int m = (i < 0 ? -i : i) % p;
  return m < n ? m : p - m;
}
