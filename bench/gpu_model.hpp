// The device-memory traffic of one blur on the Vulkan backend as the shaders are written: the
// bytes the benchmark divides by the copy bandwidth for each case's floor. The dispatches and
// barriers of the floor are not modelled here: they are counted from the recorded commands
// (vk::Job::recorded).
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

}  // namespace fastblur::bench
