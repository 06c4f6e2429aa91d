// The device-memory traffic of one blur on the Vulkan backend as the shaders are written: the
// bytes the benchmark divides by the copy bandwidth for each case's floor, and the passes those
// bytes are counted over. The benchmark's floor takes the dispatches from the recorded commands
// (vk::Job::recorded); gpu_model_test.cpp holds the model's passes to them, so a recorder that
// gains or loses a pass fails there until its bytes here are revisited.
#pragma once

#include <cstdint>
#include <optional>

#include "fastblur/fastblur.hpp"

namespace fastblur::bench {

/// Bytes read plus bytes written in device memory by one blur of a packed `channels`-channel image of
/// `type` and `extent` under `plan`, from data already on the device in its own type to the result
/// there (the conversions to and from float included, as vk::record_algorithm runs them). Empty for a
/// schedule not modelled (box's prefix sums, downsample).
std::optional<double> model_bytes(const Plan& plan, ElementType type, int channels, std::array<std::int64_t, 3> extent);

/// The dispatches the model counts bytes over for that blur (one image, one piece, one batch of
/// lines per axis); empty where model_bytes is.
std::optional<std::uint64_t> model_dispatches(const Plan& plan, ElementType type, int channels, std::array<std::int64_t, 3> extent);

}  // namespace fastblur::bench
