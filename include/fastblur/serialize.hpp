#pragma once
/// @file
/// One serialiser of a plan and one of the registry (issue 26), as JSON text: the explorer sends
/// it, Python builds its dicts from it (json.loads), so no front end writes its own. `describe()`
/// (plan.hpp) is the human form of the same plan, for --explain. Numbers that are not finite are
/// written as null (JSON has no NaN).
#include <string>
#include <vector>

#include "fastblur/device.hpp"

#include "fastblur/algorithm.hpp"
#include "fastblur/plan.hpp"

namespace fastblur {

/// A plan as one JSON object:
///   "algorithm", "predicted_max_error" (null when not predicted), "predicted_cost", "reason",
///   "cost_profile", "considered" (one line per candidate), "description" (describe()'s text),
///   "extent" [x, y, z], "channels", "source", "destination" (element types), "rounding",
///   "parameters" {key: value} (the resolved parameters of the whole plan), "gpu_variant" (the
///   named GPU variant the schedule runs, "" for none), "options" {key: value} (the options the
///   plan runs with),
///   "axes": three objects, x, y, z, each with "active", "sigma", "border", "radius", "support",
///     "align", "achieved_sigma", "predicted_error", "weights" (the kernel the plan correlates
///     with: a list where it has at most 64 taps, else its length; null where it has none) and
///     "parameters" {key: value} (that axis's resolved parameters),
///   "schedule": schedule_json's object.
std::string plan_json(const Plan& plan);

/// A schedule (with the request's rounding) as one JSON object: "backend", "driver", "threads",
/// "intermediate" (int16 for the fixed-point driver), "rounding", "strip" [x, y, z],
/// "stream_destination", "fused_axes", "fused_z", "z_source_planes", "scipy_int_certified", "x_across_rows",
/// "pixels_image" (Schedule::pixels_image: its schedule's object, or null),
/// "tile" [x, y, z], "pieces", "gpu_passes" (per axis: {"shader", "tile", "block", "batch",
/// "pass_outputs", "real"}, Schedule::gpu), "gpu_interleave_scratch", "transfer_parts", "gpu_io",
/// "cuda_handoff".
std::string schedule_json(const Schedule& schedule, Rounding rounding);

/// What a blur ran (last_run()): schedule_json's keys with "algorithm", "source", "destination".
std::string run_json(const RunRecord& run);

/// Every algorithm of the registry, as a JSON array of objects: "name", "summary", "description",
/// "planar", "gpu_only", "exact", "cpu" and "vulkan" (whether that backend runs it on 2D images;
/// true for auto), "min_sigma", "max_sigma", "capabilities" {every field of Capabilities}, and
/// "parameters": objects with "key", "flag", "kind" (integer, real, flag, choice, real_list), "doc",
/// "default", "min", "max", "multiple_of", "zero_chooses", "choices", "range".
std::string algorithms_json();

/// The devices a blur can run on, as a JSON array: the CPU first ("name" "cpu", "type" "cpu",
/// "description" "CPU (N threads)"), then each of `vulkan` ("name" "vulkan:N", "device_name", "type",
/// "api_version", "memory_bytes", "max_shared_memory", "subgroup_size", "max_storage_buffer_range",
/// "description" "NAME (TYPE, Vulkan)"). devices_json() (device.hpp) lists the ones present.
std::string devices_json(const std::vector<DeviceInfo>& vulkan);

}  // namespace fastblur
