#pragma once
// The one front door: what every entry point (blur on the CPU, on a Vulkan device, device images,
// Vulkan interop) does before a plan runs - the views checked with one message each, and views that
// overlap without being the same read from a copy of the source.
#include <functional>

#include "fastblur/plan.hpp"
#include "fastblur/view.hpp"

namespace fastblur::front_door {

/// Checks a blur's source and destination: valid views (validate_source, validate_destination) of the
/// same extents and channels. Throws InvalidArgument.
void check_views(const View& src, const View& dst);

/// Calls run(source, dst) with a source that is dst itself (in place) or apart from it: views that
/// overlap in any other way are read from a packed copy of the source, so the result is as if out of
/// place. Throws OutOfMemory when the copy cannot be had.
void with_separate_source(const View& src, const View& dst, const std::function<void(const View& source)>& run);

/// Notes that `plan` is about to run on the calling thread (fastblur::last_run()).
void record_run(const Plan& plan) noexcept;

}  // namespace fastblur::front_door
