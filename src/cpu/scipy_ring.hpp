#pragma once
// What SciPy's fused drivers share (scipy_order_rows.cpp: a 2D image's rows; scipy_order_planes.cpp:
// a volume's planes): an axis's correlation as SciPy runs it, the bands of lines the workers make,
// the lines a band reads after they are written in place, and rows of views as doubles.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu/ordered_correlate.hpp"
#include "fastblur/plan.hpp"
#include "fastblur/view.hpp"

namespace fastblur::cpu {

/// SciPy's correlation along one axis: the weights, their split around the centre and symmetry,
/// and where each extended position of the axis comes from (core::border_map: -1 for cval).
struct ScipyAxis {
  const double* centre = nullptr;  // the centre weight
  int size1 = 0, size2 = 0, symmetry = 0;
  std::vector<std::int64_t> map;
  int taps() const { return size1 + size2 + 1; }
};

/// 1: symmetric, -1: antisymmetric, 0: neither - SciPy's test of correlation weights (to DBL_EPSILON),
/// which picks its pair-symmetric form.
int scipy_symmetry(const std::vector<double>& w);

/// Plan axis `a` (of `n` samples) as SciPy correlates along it.
ScipyAxis scipy_axis(const Plan& plan, int a, std::int64_t n);

/// Whether a scipy-order plan makes the exact result rounded once (Rounding::nearest: a float64 or an
/// integer output) instead of SciPy's bits: its axes pass doubles to each other, and its output is
/// rounded to nearest as it is written (from_doubles_rounded).
bool rounds_once(const Plan& plan);

/// The type axis results go through for the next axis to read: the output's (SciPy stores them
/// there), or float64 (nothing) where the plan rounds once.
ElementType between_axes(const Plan& plan, ElementType destination);

/// How axis `a`'s sums are stored for the next axis to read (ordered_correlate_row_window): through
/// float32 into a float32 output; truncated into an integer one where its sums over values of `read`
/// (the type the axis reads) stay within its range (kernel::sums_stay_in_range); else as summed, and
/// the caller passes them through the type (through_type).
StoredAs scipy_stored_as(const Plan& plan, int a, ElementType read, ElementType destination);

/// What scipy_stored_as leaves to the caller: sums the window stored as summed, through `destination`
/// and back (through_type; float64's unchanged); the others as they are.
void through_unless_stored(StoredAs stored, ElementType destination, double* values, std::size_t count);

/// A line of W pixels of C values, its values at line + x.size1 C, extended in place by x's border
/// (x.size1 pixels before, x.size2 after: copies of the pixels x.map names, or `cval`), as SciPy's
/// line buffer is before its correlation.
template <typename T>
void extend_line(T* line, const ScipyAxis& x, std::int64_t W, std::int64_t C, T cval) {
  const T* centre = line + x.size1 * C;
  const auto extend = [&](std::int64_t j) {
    const std::int64_t m = x.map[static_cast<std::size_t>(j)];
    T* to = line + j * C;
    if (m < 0) std::fill(to, to + C, cval);
    else std::copy(centre + m * C, centre + (m + 1) * C, to);
  };
  for (std::int64_t j = 0; j < x.size1; ++j) extend(j);
  for (std::int64_t j = x.size1 + W; j < x.size1 + W + x.size2; ++j) extend(j);
}

/// Consecutive bands of `n` lines, one per worker: band b is [start[b], start[b + 1]).
struct Bands {
  std::vector<std::int64_t> start;
  Bands(std::int64_t n, int workers);
  int workers() const { return static_cast<int>(start.size()) - 1; }
  int of(std::int64_t line) const;
};

/// In place, the lines some band reads after they are written - a neighbour's within the kernel's
/// reach, or its own that the border folds back onto after their turn - given that band b reads
/// extended line e (0 <= e < its end + taps - 1) when it makes output line max(b's start, e - taps + 1).
/// They are read into a stash before any worker writes: slot[line] is a line's place there (-1:
/// none), `lines` the stash's lines in order.
struct Stash {
  std::vector<std::int64_t> slot, lines;
};
Stash lines_read_after_written(const Bands& bands, const ScipyAxis& axis, std::int64_t n);

/// Plane z of a view, as a 2D image.
View plane_of(const View& v, std::int64_t z);

/// Whether a view's rows are doubles already, as SciPy's line buffer holds them (float64, pixels packed
/// along x, aligned): the fused rows then write their x pass's results there, without a copy (a
/// source's rows still go through the ring, whose pitch spreads them over the cache's sets).
bool rows_are_doubles(const View& v);

/// The values from one ring row (or plane) to the next for rows of `values` values of `element`
/// bytes (a divisor of 64): whole cache lines, an odd number of them, so that a window of rows starts
/// in as many cache sets as it has rows (a row plus one line was a power of two again for 2040-wide rows).
std::size_t ring_pitch(std::int64_t values, std::size_t element = sizeof(double));

/// Whether a view's planes are packed (pixels along x, rows along y) and aligned for its type: a
/// volume's fused planes then sum them where they lie, widened as they are loaded
/// (ordered_correlate_row_window over rows of the view's type).
bool planes_packed(const View& v);

/// Whether every extended position of an axis is a sample (no cval row, which SciPy holds as a double
/// a float32 row cannot carry).
bool maps_to_samples(const ScipyAxis& axis);

/// Row y of a view as doubles, or doubles into row y (packed rows in one run, others a pixel at a time;
/// converted as SciPy stores them, or rounded once: from_doubles_rounded).
void read_row(const View& v, std::int64_t y, double* to);
void write_row(const double* from, const View& v, std::int64_t y, bool round_once);

}  // namespace fastblur::cpu
