// The dual Kawase chain's 2D response to an impulse, in double: the CPU executor's passes
// (src/cpu/dual_kawase.cpp: the same fetches, weights and summation order) on planes that hold only
// the texels the impulse reaches, in the padded image's coordinates. What the planner predicts a
// dual-kawase blur's 2D error from, below it (no blur, no plan).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "fastblur/error.hpp"
#include "fastblur/kernel_dual_kawase.hpp"

namespace fastblur::kernel {
namespace {

// An inclusive range of texels (empty when hi < lo).
struct Range {
  std::int64_t lo = 0, hi = -1;
  std::int64_t size() const { return hi - lo + 1; }
  bool empty() const { return hi < lo; }
  bool contains(std::int64_t i) const { return i >= lo && i <= hi; }
};

Range intersect(Range a, Range b) { return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)}; }

std::int64_t floor_int(double v) { return static_cast<std::int64_t>(std::floor(v)); }
std::int64_t ceil_int(double v) { return static_cast<std::int64_t>(std::ceil(v)); }

// The texels of one level that may be non-zero: a box of x and y texels, zero outside.
struct Plane {
  Range x, y;
  std::vector<double> v;
  Plane(Range rx, Range ry) : x(rx), y(ry) {
    if (!rx.empty() && !ry.empty()) v.assign(static_cast<std::size_t>(rx.size() * ry.size()), 0.0);
  }
  bool empty() const { return v.empty(); }
  double* row(std::int64_t iy) { return v.data() + static_cast<std::size_t>((iy - y.lo) * x.size()); }
  const double* row(std::int64_t iy) const { return v.data() + static_cast<std::size_t>((iy - y.lo) * x.size()); }
};

// A 1D operator, as the executor's: for each target t, for each offset o, a GPU's linear fetch at
// centre(t) + o (texels floor(u) and floor(u) + 1, u = centre + o - 1/2, weighted 1 - frac and
// frac); the centre of target t is 2t + 1 source texels for a down pass, (t + 1/2)/2 for an up pass.
struct Op {
  Range targets;
  int taps = 0;
  std::vector<std::int64_t> index;
  std::vector<double> weight;
};

Op make_op(Range targets, bool down, const std::vector<double>& offsets) {
  Op op;
  op.targets = targets;
  op.taps = 2 * static_cast<int>(offsets.size());
  if (targets.empty()) return op;
  op.index.resize(static_cast<std::size_t>(targets.size() * op.taps));
  op.weight.resize(op.index.size());
  std::size_t k = 0;
  for (std::int64_t t = targets.lo; t <= targets.hi; ++t) {
    const double centre = down ? 2.0 * static_cast<double>(t) + 1.0 : (static_cast<double>(t) + 0.5) / 2.0;
    for (double o : offsets) {
      const double u = centre + o - 0.5, f = std::floor(u), frac = u - f;
      const std::int64_t i0 = static_cast<std::int64_t>(f);
      op.index[k] = i0, op.weight[k++] = 1.0 - frac;
      op.index[k] = i0 + 1, op.weight[k++] = frac;
    }
  }
  return op;
}

// The tap offsets of each 1D fetch group: C the centre, S +-h, A +-2h (h = d/2).
std::vector<double> offsets(double d, char which) {
  const double h = 0.5 * d;
  if (which == 'C') return {0.0};
  if (which == 'S') return {h, -h};
  return {2.0 * h, -2.0 * h};
}

struct Term {
  const Op* x;
  const Op* y;
  double coef;
};

// One pass onto the targets (the terms' ranges): each target row is the sum over terms of
// coef * X(Y(source rows)), the y fetches combining whole source rows, then the x fetches of the
// combination - the executor's run_pass; texels outside `from` are zero.
Plane run_pass(const Plane& from, const std::vector<Term>& terms) {
  Plane to(terms[0].x->targets, terms[0].y->targets);
  if (to.empty() || from.empty()) return to;
  const std::int64_t cols = from.x.size();
  std::vector<double> combo(static_cast<std::size_t>(cols));
  for (std::int64_t y = to.y.lo; y <= to.y.hi; ++y) {
    double* out = to.row(y);
    for (const Term& term : terms) {
      const Op& ox = *term.x;
      const Op& oy = *term.y;
      std::fill(combo.begin(), combo.end(), 0.0);
      const std::size_t yat = static_cast<std::size_t>((y - oy.targets.lo) * oy.taps);
      for (int k = 0; k < oy.taps; ++k) {
        const double w = oy.weight[yat + static_cast<std::size_t>(k)];
        const std::int64_t iy = oy.index[yat + static_cast<std::size_t>(k)];
        if (w == 0.0 || !from.y.contains(iy)) continue;  // a row of zeros adds nothing
        const double* in = from.row(iy);
        for (std::int64_t i = 0; i < cols; ++i) combo[static_cast<std::size_t>(i)] += w * in[i];
      }
      const std::int64_t* idx = ox.index.data();
      const double* wx = ox.weight.data();
      for (std::int64_t t = 0; t < to.x.size(); ++t, idx += ox.taps, wx += ox.taps) {
        double acc = 0.0;
        for (int k = 0; k < ox.taps; ++k) {
          const double in = from.x.contains(idx[k]) ? combo[static_cast<std::size_t>(idx[k] - from.x.lo)] : 0.0;
          acc += wx[k] * in;
        }
        out[t] += term.coef * acc;
      }
    }
  }
  return to;
}

// The targets of a down pass that may read a texel of `s` (target t reads texels
// floor(2t + 1/2 - h) .. floor(2t + 1/2 + h) + 1), with a texel to spare on each side.
Range down_targets(Range s, double d) {
  const double h = 0.5 * d;
  return {floor_int((static_cast<double>(s.lo) - 1.5 - h) / 2.0) - 1, ceil_int((static_cast<double>(s.hi) + 0.5 + h) / 2.0) + 1};
}

// The targets of an up pass that may read a texel of `s` (target j reads texels
// floor((j + 1/2)/2 - d - 1/2) .. floor((j + 1/2)/2 + d - 1/2) + 1), with a texel to spare.
Range up_targets(Range s, double d) {
  return {floor_int(2.0 * (static_cast<double>(s.lo) - d) - 1.5) - 1, ceil_int(2.0 * (static_cast<double>(s.hi) + d) + 2.5) + 1};
}

// The source texels the up-pass targets `t` read, with a texel to spare.
Range up_reads(Range t, double d) {
  return {floor_int((static_cast<double>(t.lo) + 0.5) / 2.0 - d - 0.5) - 1,
          floor_int((static_cast<double>(t.hi) + 0.5) / 2.0 + d - 0.5) + 2};
}

}  // namespace

std::vector<double> dual_kawase_impulse_response(const DualKawaseSchedule& s, std::int64_t width, std::int64_t height,
                                                 std::int64_t x, std::int64_t y, std::array<std::int64_t, 2> origin) {
  const int L = s.levels;
  for (double d : s.offset) (void)dual_kawase_variance(L, d);  // validates the levels and offsets
  if (width < 1 || height < 1 || width > (std::int64_t{1} << 20) || height > (std::int64_t{1} << 20))
    throw InvalidArgument("dual_kawase_impulse_response: width and height must be 1 to 2^20");
  if (x < 0 || x >= width || y < 0 || y >= height)
    throw InvalidArgument("dual_kawase_impulse_response: the impulse must lie inside the image");
  const std::int64_t block = std::int64_t{1} << L;
  for (std::int64_t o : origin)
    if (o < 0 || o % block != 0 || o > (std::int64_t{1} << 40))
      throw InvalidArgument("dual_kawase_impulse_response: the origin must be a multiple of 2^levels (" +
                            std::to_string(block) + ") from 0 to 2^40");
  const double dx = s.offset[0], dy = s.offset[1];
  // Level 0: the impulse, in padded coordinates.
  Plane level(Range{origin[0] + x, origin[0] + x}, Range{origin[1] + y, origin[1] + y});
  level.v[0] = 1.0;
  // Down passes: 1/2 C(x) C(y) + 1/8 S(x) S(y), onto every texel the impulse reaches.
  for (int l = 0; l < L; ++l) {
    const Range tx = down_targets(level.x, dx), ty = down_targets(level.y, dy);
    const Op cx = make_op(tx, true, offsets(dx, 'C')), sx = make_op(tx, true, offsets(dx, 'S'));
    const Op cy = make_op(ty, true, offsets(dy, 'C')), sy = make_op(ty, true, offsets(dy, 'S'));
    level = run_pass(level, {{&cx, &cy, 0.5}, {&sx, &sy, 0.125}});
  }
  // What each level's up pass must hold for the output: level 0 the image, each coarser level what
  // the finer one's targets read.
  std::vector<Range> need_x(static_cast<std::size_t>(L) + 1), need_y(static_cast<std::size_t>(L) + 1);
  need_x[0] = {origin[0], origin[0] + width - 1};
  need_y[0] = {origin[1], origin[1] + height - 1};
  for (int l = 0; l < L; ++l) {
    need_x[static_cast<std::size_t>(l) + 1] = up_reads(need_x[static_cast<std::size_t>(l)], dx);
    need_y[static_cast<std::size_t>(l) + 1] = up_reads(need_y[static_cast<std::size_t>(l)], dy);
  }
  // Up passes: 1/12 (A(x) C(y) + C(x) A(y)) + 1/6 S(x) S(y), onto the texels both reached and needed.
  for (int l = L - 1; l >= 0 && !level.empty(); --l) {
    const Range tx = intersect(up_targets(level.x, dx), need_x[static_cast<std::size_t>(l)]);
    const Range ty = intersect(up_targets(level.y, dy), need_y[static_cast<std::size_t>(l)]);
    const Op cx = make_op(tx, false, offsets(dx, 'C')), sx = make_op(tx, false, offsets(dx, 'S'));
    const Op ax = make_op(tx, false, offsets(dx, 'A'));
    const Op cy = make_op(ty, false, offsets(dy, 'C')), sy = make_op(ty, false, offsets(dy, 'S'));
    const Op ay = make_op(ty, false, offsets(dy, 'A'));
    level = run_pass(level, {{&ax, &cy, 1.0 / 12.0}, {&cx, &ay, 1.0 / 12.0}, {&sx, &sy, 1.0 / 6.0}});
  }
  std::vector<double> out(static_cast<std::size_t>(width * height), 0.0);
  if (level.empty()) return out;
  for (std::int64_t j = 0; j < height; ++j) {
    if (!level.y.contains(origin[1] + j)) continue;
    const double* r = level.row(origin[1] + j);
    for (std::int64_t i = 0; i < width; ++i)
      if (level.x.contains(origin[0] + i)) out[static_cast<std::size_t>(j * width + i)] = r[origin[0] + i - level.x.lo];
  }
  return out;
}

}  // namespace fastblur::kernel
