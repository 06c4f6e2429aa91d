// derivative_sum (fastblur/derivative_sum.hpp): SciPy's Laplace and gradient magnitude of Gaussian
// derivatives through the front door - each term planned as its own blur, the terms of a 2D image
// computed together from one ring of source rows where their plans allow it.
#include "fastblur/derivative_sum.hpp"

#include <omp.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/overlap.hpp"
#include "core/populate.hpp"
#include "core/size.hpp"
#include "cpu/execute.hpp"
#include "fastblur/error.hpp"
#include "front_door.hpp"
#include "plan/planner.hpp"

namespace fastblur {
namespace {

// One pass for all terms: each SciPy's order fused over one plane, y's kernel and border alike, and
// the destination's rows packed and apart from the source.
bool one_pass(const std::vector<Plan>& plans, const View& src, const View& dst) {
  if (plans.size() < 2 || dst.depth() != 1 || core::views_overlap(src, dst)) return false;
  if (dst.stride[0] != static_cast<std::ptrdiff_t>(dst.channels * element_size(dst.type))) return false;
  for (const Plan& p : plans) {
    if (p.schedule.driver != CpuDriver::scipy_order || !p.schedule.fused_axes) return false;
    if (p.axes[1].weights->size() != plans[0].axes[1].weights->size() || p.spec.border[1] != plans[0].spec.border[1])
      return false;
  }
  return true;
}

// Applies derivative_sum_step a row at a time (the rows packed; the view's rows may lie apart).
// `term` null: a single term (the total its own first and last).
void step_rows(DerivativeSum kind, const View& total, const View* term, bool first, bool last) {
  const std::size_t n = static_cast<std::size_t>(total.width() * total.channels);
  if (total.is_packed() && (!term || term->is_packed())) {
    derivative_sum_step(kind, total.type, total.data, term ? term->data : nullptr,
                        n * static_cast<std::size_t>(total.height() * total.depth()), first, last);
    return;
  }
  for (std::int64_t z = 0; z < total.depth(); ++z)
    for (std::int64_t y = 0; y < total.height(); ++y)
      derivative_sum_step(kind, total.type, total.pixel(0, y, z), term ? term->pixel(0, y, z) : nullptr, n, first, last,
                          1);
}

std::vector<Plan> plans_of(const View& src, const View& dst, std::span<const BlurSpec> terms) {
  std::vector<Plan> plans;
  for (const BlurSpec& t : terms)
    plans.push_back(planner::plan_for(t, planner::shape_of(src, dst.type, Backend::cpu), planner::Prediction::to_run));
  return plans;
}

}  // namespace

bool derivative_sum_in_one_pass(const View& src, const View& dst, std::span<const BlurSpec> terms) {
  front_door::check_views(src, dst);
  return one_pass(plans_of(src, dst, terms), src, dst);
}

void derivative_sum(const View& src, const View& dst, DerivativeSum kind, std::span<const BlurSpec> terms) {
  front_door::check_views(src, dst);
  if (dst.type != ElementType::f32 && dst.type != ElementType::f64)
    throw InvalidArgument("derivative_sum writes float32 or float64 (" + std::string(to_string(dst.type)) + " given)");
  if (terms.empty()) throw InvalidArgument("derivative_sum needs one term or more");
  if (dst.stride[0] != static_cast<std::ptrdiff_t>(dst.channels * element_size(dst.type)))
    throw InvalidArgument("derivative_sum: the destination's pixels must be packed along x");
  const std::vector<Plan> plans = plans_of(src, dst, terms);
  if (one_pass(plans, src, dst)) {
    std::vector<const Plan*> ps;
    for (const Plan& p : plans) ps.push_back(&p);
    front_door::record_run(plans[0]);
    core::populate_for_write(dst, plans[0].schedule.threads);
    const int threads = plans[0].schedule.threads > 0 ? plans[0].schedule.threads : omp_get_max_threads();
    cpu::scipy_order_rows_terms(ps, kind, src, dst, threads);
    return;
  }
  // A term at a time, as SciPy: the first into dst, each next one into a scratch image then folded.
  blur(src, dst, terms[0]);
  if (terms.size() == 1) {
    if (kind == DerivativeSum::gradient_magnitude) step_rows(kind, dst, nullptr, true, true);
    return;
  }
  const std::size_t bytes =
      static_cast<std::size_t>(dst.pixel_count()) * static_cast<std::size_t>(dst.channels) * element_size(dst.type);
  core::UniqueBytes scratch = core::allocate_bytes(bytes, "a derivative's image");
  const View term = View::packed(scratch.get(), dst.type, dst.width(), dst.height(), dst.depth(), dst.channels);
  for (std::size_t i = 1; i < terms.size(); ++i) {
    blur(src, term, terms[i]);
    step_rows(kind, dst, &term, i == 1, i + 1 == terms.size());
  }
}

}  // namespace fastblur
