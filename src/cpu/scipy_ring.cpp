#include "cpu/scipy_ring.hpp"

#include <algorithm>
#include <cmath>

#include "core/border.hpp"
#include "cpu/scipy_convert.hpp"
#include "kernel/sums_in_range.hpp"

namespace fastblur::cpu {

int scipy_symmetry(const std::vector<double>& w) {
  const std::size_t n = w.size(), c = n / 2;
  if (n % 2 == 0) return 0;
  bool sym = true, anti = true;
  for (std::size_t k = 1; k <= c; ++k) {
    sym = sym && std::fabs(w[c + k] - w[c - k]) <= 2.220446049250313e-16;
    anti = anti && std::fabs(w[c + k] + w[c - k]) <= 2.220446049250313e-16;
  }
  return sym ? 1 : anti ? -1 : 0;
}

ScipyAxis scipy_axis(const Plan& plan, int a, std::int64_t n) {
  const std::vector<double>& w = *plan.axes[static_cast<std::size_t>(a)].weights;
  ScipyAxis ax;
  ax.size1 = static_cast<int>(w.size() / 2);
  ax.size2 = static_cast<int>(w.size()) - ax.size1 - 1;
  ax.centre = w.data() + ax.size1;
  ax.symmetry = scipy_symmetry(w);
  ax.map = core::border_map(-ax.size1, n + ax.size1 + ax.size2, n, plan.spec.border[static_cast<std::size_t>(a)]);
  return ax;
}

bool rounds_once(const Plan& plan) { return plan.spec.rounding != Rounding::scipy; }

ElementType between_axes(const Plan& plan, ElementType destination) {
  return rounds_once(plan) ? ElementType::f64 : destination;
}

StoredAs scipy_stored_as(const Plan& plan, int a, ElementType read, ElementType destination) {
  if (destination == ElementType::f32) return StoredAs::float32;
  const std::vector<double>& w = *plan.axes[static_cast<std::size_t>(a)].weights;
  return kernel::sums_stay_in_range(w, read, destination, plan.spec.cval) ? StoredAs::truncated : StoredAs::as_summed;
}

void through_unless_stored(StoredAs stored, ElementType destination, double* values, std::size_t count) {
  if (stored == StoredAs::as_summed) through_type(destination, values, count);
}

Bands::Bands(std::int64_t n, int workers) {
  const int w = std::max(1, static_cast<int>(std::min<std::int64_t>(workers, std::max<std::int64_t>(n, 1))));
  start.resize(static_cast<std::size_t>(w) + 1);
  for (int b = 0; b <= w; ++b) start[static_cast<std::size_t>(b)] = n * b / w;
}

int Bands::of(std::int64_t line) const {
  return static_cast<int>(std::upper_bound(start.begin(), start.end(), line) - start.begin()) - 1;
}

Stash lines_read_after_written(const Bands& bands, const ScipyAxis& axis, std::int64_t n) {
  Stash s;
  s.slot.assign(static_cast<std::size_t>(n), -1);
  const int taps = axis.taps();
  for (int b = 0; b < bands.workers(); ++b) {
    const std::int64_t y0 = bands.start[static_cast<std::size_t>(b)], y1 = bands.start[static_cast<std::size_t>(b) + 1];
    for (std::int64_t e = y0; e < y1 + taps - 1; ++e) {
      const std::int64_t r = axis.map[static_cast<std::size_t>(e)];
      const std::int64_t read_at = std::max(y0, e - taps + 1);
      if (r >= 0 && (bands.of(r) != b || read_at > r) && s.slot[static_cast<std::size_t>(r)] < 0) {
        s.slot[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(s.lines.size());
        s.lines.push_back(r);
      }
    }
  }
  return s;
}

View plane_of(const View& v, std::int64_t z) {
  View p = v;
  p.data = v.pixel(0, 0, z);
  p.extent[2] = 1;
  return p;
}

bool rows_are_doubles(const View& v) {
  return v.type == ElementType::f64 && v.stride[0] == static_cast<std::ptrdiff_t>(v.channels * sizeof(double)) &&
         reinterpret_cast<std::uintptr_t>(v.data) % alignof(double) == 0 && v.stride[1] % alignof(double) == 0;
}

std::size_t ring_pitch(std::int64_t values, std::size_t element) {
  const std::size_t per_line = 64 / element;
  const std::size_t lines = (static_cast<std::size_t>(values) + per_line - 1) / per_line;
  return (lines | 1) * per_line;
}

bool planes_packed(const View& v) {
  const auto es = static_cast<std::ptrdiff_t>(element_size(v.type));
  return v.stride[0] == v.channels * es && v.stride[1] == v.width() * v.channels * es &&
         reinterpret_cast<std::uintptr_t>(v.data) % static_cast<std::uintptr_t>(es) == 0 && v.stride[2] % es == 0;
}

bool maps_to_samples(const ScipyAxis& axis) {
  return std::all_of(axis.map.begin(), axis.map.end(), [](std::int64_t m) { return m >= 0; });
}

void read_row(const View& v, std::int64_t y, double* to) {
  to_doubles_strided(v.type, v.pixel(0, y), v.stride[0], static_cast<std::size_t>(v.channels),
                     static_cast<std::size_t>(v.width()), to);
}

void write_row(const double* from, const View& v, std::int64_t y, bool round_once) {
  from_doubles_strided(v.type, from, static_cast<std::size_t>(v.channels), static_cast<std::size_t>(v.width()),
                       v.pixel(0, y), v.stride[0], round_once);
}

}  // namespace fastblur::cpu
