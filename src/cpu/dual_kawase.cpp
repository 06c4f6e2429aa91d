// The `dual-kawase` algorithm: Bjorge's dual filtering on the CPU. Each pass's 2D taps are sums of
// separable products of 1D bilinear fetches, so a target row is computed by combining a few source
// rows (the y fetches) and then a few texels of each combination (the x fetches):
//   down: 1/2 C(x) C(y) + 1/8 S(x) S(y),                         C = fetch(0), S = fetch(+h) + fetch(-h)
//   up:   1/12 (A(x) C(y) + C(x) A(y)) + 1/6 S(x) S(y),          A = fetch(+2h) + fetch(-2h)
// which is exactly the sum of the GPU's 2D bilinear fetches, clamping included.
#include "algorithms/dual_kawase.hpp"
#include "core/threads.hpp"
#include "cpu/execute.hpp"
#include "cpu/level_chain.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <new>
#include <string>
#include <vector>

#include "cpu/border_extend.hpp"
#include "cpu/line_io.hpp"
#include "cpu/scratch.hpp"
#include "fastblur/error.hpp"

namespace fastblur::cpu {
namespace {

using Range = algo::TexelRange;

// A 1D operator: for each target t of a range, `taps` (source index, weight) pairs.
template <class T>
struct Op {
  Range targets;
  int taps = 0;
  std::vector<std::int64_t> index;
  std::vector<T> weight;
};

// Fetches at centre(t) + each of `offsets` (weight 1 each) for t in `targets`, on a line of n
// texels; the centre of target t is 2t + 1 source texels for a down pass, (t + 1/2)/2 for an up pass.
template <class T>
Op<T> make_op(Range targets, std::int64_t n, bool down, const std::vector<double>& offsets) {
  Op<T> op;
  op.targets = targets;
  op.taps = 2 * static_cast<int>(offsets.size());
  op.index.resize(static_cast<std::size_t>(targets.size() * op.taps));
  op.weight.resize(op.index.size());
  std::size_t k = 0;
  for (std::int64_t t = targets.lo; t <= targets.hi; ++t) {
    const double centre = down ? 2.0 * static_cast<double>(t) + 1.0 : (static_cast<double>(t) + 0.5) / 2.0;
    for (double o : offsets) {
      // A GPU's linear fetch at p: texels floor(p - 1/2) and the next, clamped to the line.
      const double u = centre + o - 0.5, f = std::floor(u), frac = u - f;
      const std::int64_t i0 = static_cast<std::int64_t>(f);
      op.index[k] = std::clamp<std::int64_t>(i0, 0, n - 1), op.weight[k++] = static_cast<T>(1.0 - frac);
      op.index[k] = std::clamp<std::int64_t>(i0 + 1, 0, n - 1), op.weight[k++] = static_cast<T>(frac);
    }
  }
  return op;
}

// One level's image: width x height pixels of `channels` interleaved values.
template <class T>
struct Level {
  T* data = nullptr;
  std::int64_t width = 0, height = 0;
  int channels = 0;
  T* row(std::int64_t y) const { return data + static_cast<std::size_t>(y * width * channels); }
};

template <class T>
struct PassScratch {
  std::array<std::vector<T>, 3> combo;  // the y-combinations of source rows, one per term
  std::vector<T> out;
  std::vector<std::byte> bytes;
};

// out[t] += c * sum of the taps of target t of `op` over `combo` (whose first pixel is source
// texel src_lo), for every target of op, with C channels and TAPS taps (compile-time, so the
// channels of a pixel are one short vector).
template <class T, int C, int TAPS>
void x_fetches(const Op<T>& op, T c, const T* combo, std::int64_t src_lo, T* out) {
  const std::int64_t* idx = op.index.data();
  const T* w = op.weight.data();
  for (std::int64_t t = 0; t < op.targets.size(); ++t, idx += TAPS, w += TAPS, out += C) {
    T acc[C] = {};
    for (int k = 0; k < TAPS; ++k) {
      const T* in = combo + (idx[k] - src_lo) * C;
      for (int ch = 0; ch < C; ++ch) acc[ch] += w[k] * in[ch];
    }
    for (int ch = 0; ch < C; ++ch) out[ch] += c * acc[ch];
  }
}

template <class T, int C>
void x_fetches(const Op<T>& op, T c, const T* combo, std::int64_t src_lo, T* out) {
  if (op.taps == 2) x_fetches<T, C, 2>(op, c, combo, src_lo, out);
  else x_fetches<T, C, 4>(op, c, combo, src_lo, out);
}

// One pass: the target rows and columns of the terms' operators (the same for every term). A
// target row is the sum over terms of coef * X_term(Y_term(source rows)), the y fetches combining
// the columns `src_cols` of source rows. The final pass writes its rows to `dst` (target row
// dst_row0 is the image's first; its columns are the image's), the others to `to`.
template <class T>
void run_pass(const Level<T>& from, const Level<T>* to, const View* dst, std::int64_t dst_row0,
              const std::vector<std::array<const Op<T>*, 2>>& terms, const std::vector<T>& coef,
              Range src_cols, int threads) {
  const int C = from.channels;
  const Range out_rows = terms[0][1]->targets, out_cols = terms[0][0]->targets;
  const std::size_t src_len = static_cast<std::size_t>(src_cols.size() * C);
  const std::size_t out_len = static_cast<std::size_t>(out_cols.size() * C);
  // The coarse levels' passes are small: waking threads would cost more than the work.
  threads = core::threads_for(static_cast<double>(out_rows.size()) * static_cast<double>(src_len + out_len) * 4.0, threads);
  std::vector<PassScratch<T>> scratch(static_cast<std::size_t>(threads));
  for (auto& s : scratch) {
    for (std::size_t t = 0; t < terms.size(); ++t) s.combo[t].resize(src_len);
    s.out.resize(out_len);
    if (dst) s.bytes.resize(out_len * 8);
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t y = out_rows.lo; y <= out_rows.hi; ++y) {
    PassScratch<T>& s = scratch[static_cast<std::size_t>(omp_get_thread_num())];
    T* out = dst ? s.out.data() : to->row(y) + out_cols.lo * C;
    std::fill(out, out + out_len, T(0));
    for (std::size_t term = 0; term < terms.size(); ++term) {
      const Op<T>& ox = *terms[term][0];
      const Op<T>& oy = *terms[term][1];
      // The y fetches: a weighted sum of source rows over the columns the x fetches read.
      T* combo = s.combo[term].data();
      const std::size_t yat = static_cast<std::size_t>((y - oy.targets.lo) * oy.taps);
      std::fill(combo, combo + src_len, T(0));
      for (int k = 0; k < oy.taps; ++k) {
        const T w = oy.weight[yat + static_cast<std::size_t>(k)];
        if (w == T(0)) continue;
        const T* in = from.row(oy.index[yat + static_cast<std::size_t>(k)]) + src_cols.lo * C;
        for (std::size_t i = 0; i < src_len; ++i) combo[i] += w * in[i];
      }
      // The x fetches of the combination.
      switch (C) {
        case 1: x_fetches<T, 1>(ox, coef[term], combo, src_cols.lo, out); break;
        case 2: x_fetches<T, 2>(ox, coef[term], combo, src_cols.lo, out); break;
        case 3: x_fetches<T, 3>(ox, coef[term], combo, src_cols.lo, out); break;
        default: x_fetches<T, 4>(ox, coef[term], combo, src_cols.lo, out); break;
      }
    }
    if (dst) write_row(out, *dst, 0, y - dst_row0, 0, out_cols.size(), s.bytes.data());
  }
}

template <class T>
void dual_kawase_typed(const Plan& plan, const View& src, const View& dst, const kernel::DualKawaseSchedule& s) {
  const int L = s.levels, C = src.channels;
  const std::int64_t W = src.width(), H = src.height();
  const algo::DualKawaseAxis ax = algo::dual_kawase_axis(W, L, s.offset[0]);
  const algo::DualKawaseAxis ay = algo::dual_kawase_axis(H, L, s.offset[1]);
  const std::int64_t NX = ax.pad.size, NY = ay.pad.size;
  // Every level's storage, level 0 (the padded image) first.
  const std::vector<std::size_t> start = level_starts(NX, NY, L, C, sizeof(T), "dual-kawase");
  ScratchImage first(start[1] * sizeof(T), 0);
  ScratchImage rest((start.back() - start[1]) * sizeof(T), 1);
  std::vector<Level<T>> level(static_cast<std::size_t>(L) + 1);
  for (int l = 0; l <= L; ++l) {
    Level<T>& v = level[static_cast<std::size_t>(l)];
    v.data = l == 0 ? first.as<T>() : rest.as<T>() + (start[static_cast<std::size_t>(l)] - start[1]);
    v.width = NX >> l, v.height = NY >> l, v.channels = C;
  }
  const int threads = plan.schedule.threads;

  // Level 0: the image extended by the border modes over what the chain reads.
  extend_borders_2d<T>(src, plan, level[0].data, NX, ax.pad.before, ay.pad.before,
                       {ax.down[0].lo, ax.down[0].hi, ay.down[0].lo, ay.down[0].hi}, threads);
  // The tap offsets of each 1D fetch group, per axis.
  const auto offsets = [](double d, char which) -> std::vector<double> {
    const double h = 0.5 * d;
    if (which == 'C') return {0.0};
    if (which == 'S') return {h, -h};
    return {2.0 * h, -2.0 * h};  // 'A'
  };
  // Down passes.
  for (int l = 0; l < L; ++l) {
    const Level<T>& from = level[static_cast<std::size_t>(l)];
    const Range tx = ax.down[static_cast<std::size_t>(l) + 1], ty = ay.down[static_cast<std::size_t>(l) + 1];
    const Op<T> cx = make_op<T>(tx, from.width, true, offsets(s.offset[0], 'C'));
    const Op<T> sx = make_op<T>(tx, from.width, true, offsets(s.offset[0], 'S'));
    const Op<T> cy = make_op<T>(ty, from.height, true, offsets(s.offset[1], 'C'));
    const Op<T> sy = make_op<T>(ty, from.height, true, offsets(s.offset[1], 'S'));
    run_pass<T>(from, &level[static_cast<std::size_t>(l) + 1], nullptr, 0, {{&cx, &cy}, {&sx, &sy}},
                {T(0.5), T(0.125)}, ax.down[static_cast<std::size_t>(l)], threads);
  }
  // Up passes; level l's storage takes the up pass's result once its down result has been used.
  for (int l = L - 1; l >= 0; --l) {
    const Level<T>& from = level[static_cast<std::size_t>(l) + 1];
    const Range tx = ax.up[static_cast<std::size_t>(l)], ty = ay.up[static_cast<std::size_t>(l)];
    const Op<T> cx = make_op<T>(tx, from.width, false, offsets(s.offset[0], 'C'));
    const Op<T> sx = make_op<T>(tx, from.width, false, offsets(s.offset[0], 'S'));
    const Op<T> axo = make_op<T>(tx, from.width, false, offsets(s.offset[0], 'A'));
    const Op<T> cy = make_op<T>(ty, from.height, false, offsets(s.offset[1], 'C'));
    const Op<T> sy = make_op<T>(ty, from.height, false, offsets(s.offset[1], 'S'));
    const Op<T> ayo = make_op<T>(ty, from.height, false, offsets(s.offset[1], 'A'));
    // A(x) C(y) + C(x) A(y) share no factor; three terms.
    run_pass<T>(from, l == 0 ? nullptr : &level[static_cast<std::size_t>(l)], l == 0 ? &dst : nullptr,
                ay.pad.before, {{&axo, &cy}, {&cx, &ayo}, {&sx, &sy}},
                {T(1.0 / 12.0), T(1.0 / 12.0), T(1.0 / 6.0)}, ax.up[static_cast<std::size_t>(l) + 1], threads);
  }
}

}  // namespace

void dual_kawase_blur(const Plan& plan, const View& src, const View& dst) {
  const kernel::DualKawaseSchedule& s = algo::resolved_as<algo::DualKawaseResolved>(plan).schedule;
  if (plan.schedule.intermediate == ElementType::f64) dual_kawase_typed<double>(plan, src, dst, s);
  else dual_kawase_typed<float>(plan, src, dst, s);
}

}  // namespace fastblur::cpu
