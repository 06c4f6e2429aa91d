#pragma once
// The planner's entry for every front door: a spec and the data's shape (with the device's traits)
// -> a resolved Plan, remembered per request. The spec's own fields (sigma, truncate, radius, order,
// cval, threads, tolerance) are checked here, the algorithm's parameters and limits by its descriptor:
// one message for each refusal, whichever front door the request came through.
#include "algorithms/descriptor.hpp"
#include "fastblur/plan.hpp"

namespace fastblur::planner {

/// Whether a named algorithm's plan predicts its error (make_plan), or only resolves what runs (a blur,
/// which has no use for the prediction: a planar algorithm's computes its 2D impulse response, 0.46 s
/// for mip-poisson at sigma 60 on one core, again for every new shape). Automatic plans always predict
/// their candidates' errors: that is how they choose.
enum class Prediction { full, to_run };

/// The plan of `spec` for `shape` (cached: the same request on the same shape plans once). Throws
/// InvalidArgument, Unsupported.
Plan plan_for(const BlurSpec& spec, const algo::Shape& shape, Prediction prediction = Prediction::full);

/// The plan of a stack of `specs.size()` 2D slices of `stack`'s shape (extent[2] == specs.size()),
/// slice k blurred with specs[k] (see SlicedPlan): each slice planned for its own shape, and, on a
/// Vulkan device, whether the stack runs as one. Throws InvalidArgument for a spec that blurs along
/// z or a count that is not the stack's depth, and what plan_for throws.
SlicedPlan plan_slices(const std::vector<BlurSpec>& specs, const algo::Shape& stack);

/// The shape of a view (its extents, channels and type) with the destination's type, for `backend`.
algo::Shape shape_of(const View& src, ElementType destination, Backend backend);
/// The same for a call from src into dst: in_place where dst is src (an overlap otherwise is copied first).
algo::Shape shape_of(const View& src, const View& dst, Backend backend);

/// Checks that a plan was made for views of this shape (extents and channels). Throws InvalidArgument.
void check_plan_fits(const Plan& plan, const View& src, const View& dst);

}  // namespace fastblur::planner
