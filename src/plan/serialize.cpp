// The one serialiser of plans and of the registry (include/fastblur/serialize.hpp): a small JSON
// writer, so the core links no JSON library.
#include "fastblur/serialize.hpp"

#include <cmath>
#include <cstdio>
#include <string_view>
#include <thread>
#include <type_traits>

#include "algorithms/gpu_variants.hpp"

namespace fastblur {
namespace {

// Appends JSON values to a string; the caller writes the punctuation between them with key()/next().
class Json {
 public:
  std::string out;

  void text(std::string_view s) {
    out += '"';
    for (const char c : s) {
      const auto u = static_cast<unsigned char>(c);
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (u < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", u);
            out += buf;
          } else {
            out += c;  // UTF-8 passes through as it is
          }
      }
    }
    out += '"';
  }
  void number(double v) {
    if (!std::isfinite(v)) {
      out += "null";
      return;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    out += buf;
    if (std::string_view(buf).find_first_of(".en") == std::string_view::npos) out += ".0";  // stays a real
  }
  void integer(std::int64_t v) { out += std::to_string(v); }
  void boolean(bool v) { out += v ? "true" : "false"; }
  void null() { out += "null"; }
  void value(const ParameterValue& v) {
    if (const auto* i = std::get_if<std::int64_t>(&v)) return integer(*i);
    if (const auto* d = std::get_if<double>(&v)) return number(*d);
    if (const auto* b = std::get_if<bool>(&v)) return boolean(*b);
    if (const auto* s = std::get_if<std::string>(&v)) return text(*s);
    numbers(std::get<std::vector<double>>(v));
  }
  template <class T>
  void numbers(const T& list) {
    out += '[';
    bool first = true;
    for (const auto v : list) {
      if (!first) out += ',';
      first = false;
      if constexpr (std::is_integral_v<std::decay_t<decltype(v)>>)
        integer(static_cast<std::int64_t>(v));
      else
        number(static_cast<double>(v));
    }
    out += ']';
  }
  template <class List, class F>
  void array(const List& list, F&& each) {
    out += '[';
    bool first = true;
    for (const auto& item : list) {
      if (!first) out += ',';
      first = false;
      each(item);
    }
    out += ']';
  }

  // Objects: open(), then key("k") before each value, then close().
  void open() {
    out += '{';
    fresh_ = true;
  }
  void key(std::string_view k) {
    if (!fresh_) out += ',';
    fresh_ = false;
    text(k);
    out += ':';
  }
  void close() {
    out += '}';
    fresh_ = false;
  }

 private:
  bool fresh_ = false;
};

constexpr std::size_t kWeightsInFull = 64;

// The schedule's keys, inside an object the caller opened.
void schedule_keys(Json& j, const Schedule& s, Rounding rounding) {
  j.key("backend"), j.text(s.backend == Backend::cpu ? "cpu" : "vulkan");
  j.key("driver"), j.text(to_string(s.driver));
  j.key("threads"), j.integer(s.threads);
  // The fixed-point driver's working type is int16 whatever the float intermediate says.
  j.key("intermediate"), j.text(s.driver == CpuDriver::fixed_point ? std::string_view("int16") : to_string(s.intermediate));
  j.key("rounding"), j.text(to_string(rounding));
  j.key("strip"), j.numbers(s.strip);
  j.key("stream_destination"), j.boolean(s.stream_destination);
  j.key("fused_axes"), j.boolean(s.fused_axes);
  j.key("fused_z"), j.boolean(s.fused_z);
  j.key("z_source_planes"), j.boolean(s.z_source_planes);
  j.key("scipy_int_certified"), j.boolean(s.scipy_int_certified);
  j.key("x_across_rows"), j.boolean(s.x_across_rows);
  // Schedule::pixels_image: the image's own schedule, or null.
  j.key("pixels_image");
  if (s.pixels_image) {
    j.open();
    schedule_keys(j, s.pixels_image->schedule, s.pixels_image->spec.rounding);
    j.close();
  } else {
    j.null();
  }
  j.key("tile"), j.numbers(s.tile);
  j.key("pieces"), j.integer(s.pieces);
  // Vulkan: each axis's pass as the plan chose it (Schedule::gpu), the scratch layout, transfer parts.
  j.key("gpu_passes"), j.array(s.gpu, [&](const GpuPass& g) {
    j.open();
    j.key("shader"), j.text(g.shader);
    j.key("tile"), j.integer(g.tile);
    j.key("block"), j.integer(g.block);
    j.key("batch"), j.integer(g.batch);
    j.key("pass_outputs"), j.numbers(g.pass_outputs);
    j.key("real"), j.text(to_string(g.real));
    j.close();
  });
  j.key("gpu_interleave_scratch"), j.boolean(s.gpu_interleave_scratch);
  j.key("transfer_parts"), j.integer(s.transfer_parts);
  j.key("gpu_io"), j.text(std::string(to_string(s.gpu_io)));
  j.key("cuda_handoff"), j.text(std::string(to_string(s.cuda_handoff)));
}

void write_parameters(Json& j, const Plan& p, int axis) {
  j.open();
  for (const PlanParameter& q : p.parameters)
    if (q.axis == axis) j.key(q.key), j.value(q.value);
  j.close();
}

}  // namespace

std::string schedule_json(const Schedule& schedule, Rounding rounding) {
  Json j;
  j.open();
  schedule_keys(j, schedule, rounding);
  j.close();
  return j.out;
}

std::string run_json(const RunRecord& run) {
  Json j;
  j.open();
  schedule_keys(j, run.schedule, run.rounding);
  j.key("algorithm"), j.text(to_string(run.algorithm));
  j.key("source"), j.text(to_string(run.source));
  j.key("destination"), j.text(to_string(run.destination));
  j.close();
  return j.out;
}

std::string plan_json(const Plan& p) {
  Json j;
  j.open();
  j.key("algorithm"), j.text(to_string(p.algorithm));
  j.key("predicted_max_error"), j.number(p.predicted_max_error);
  j.key("predicted_cost"), j.number(p.predicted_cost);
  j.key("cost_profile"), j.text(p.cost_profile);
  j.key("reason"), j.text(p.reason);
  j.key("considered"), j.array(p.considered, [&](const std::string& c) { j.text(c); });
  j.key("description"), j.text(describe(p));
  j.key("extent"), j.numbers(p.extent);
  j.key("channels"), j.integer(p.channels);
  j.key("source"), j.text(to_string(p.source));
  j.key("destination"), j.text(to_string(p.destination));
  j.key("rounding"), j.text(to_string(p.spec.rounding));
  j.key("parameters"), write_parameters(j, p, -1);
  // The named GPU variant its schedule runs (algorithms/gpu_variants.cpp; "" for none).
  j.key("gpu_variant"), j.text(algo::gpu_variant_of(p));
  // The options the plan runs with: the caller's and those its candidate chose (a tolerance's
  // downsample factor and truncation, say), so that a front end running pieces of the same blur
  // (fastblur.dask's chunks) asks for the same plan.
  j.key("options");
  j.open();
  for (const auto& [key, value] : p.spec.options) j.key(key), j.value(value);
  j.close();
  j.key("axes");
  j.out += '[';
  for (int a = 0; a < 3; ++a) {
    const AxisPlan& ax = p.axes[static_cast<std::size_t>(a)];
    if (a > 0) j.out += ',';
    j.open();
    j.key("active"), j.boolean(ax.active);
    j.key("sigma"), j.number(ax.sigma);
    j.key("border"), j.text(to_string(ax.border));
    j.key("radius"), j.integer(ax.radius);
    j.key("support"), j.integer(ax.support);
    j.key("align"), j.integer(ax.align);
    j.key("achieved_sigma"), j.number(ax.achieved_sigma);
    j.key("predicted_error"), j.number(ax.predicted_error);
    j.key("weights");
    if (!ax.weights) j.null();
    else if (ax.weights->size() <= kWeightsInFull) j.numbers(*ax.weights);
    else j.integer(static_cast<std::int64_t>(ax.weights->size()));
    j.key("parameters"), write_parameters(j, p, a);
    j.close();
  }
  j.out += ']';
  j.key("schedule");
  j.open();
  schedule_keys(j, p.schedule, p.spec.rounding);
  j.close();
  j.close();
  return j.out;
}

std::string devices_json(const std::vector<DeviceInfo>& vulkan) {
  Json j;
  j.out += '[';
  j.open();
  j.key("name"), j.text("cpu");
  j.key("type"), j.text("cpu");
  j.key("description"), j.text("CPU (" + std::to_string(std::thread::hardware_concurrency()) + " threads)");
  j.close();
  for (const DeviceInfo& d : vulkan) {
    j.out += ',';
    j.open();
    j.key("name"), j.text("vulkan:" + std::to_string(d.index));
    j.key("device_name"), j.text(d.name);
    j.key("type"), j.text(d.type);
    j.key("api_version"), j.text(d.api_version);
    j.key("memory_bytes"), j.integer(static_cast<std::int64_t>(d.memory_bytes));
    j.key("max_shared_memory"), j.integer(d.max_shared_memory);
    j.key("subgroup_size"), j.integer(d.subgroup_size);
    j.key("max_storage_buffer_range"), j.integer(static_cast<std::int64_t>(d.max_storage_buffer_range));
    j.key("uuid"), j.text(d.uuid);
    j.key("description"), j.text(d.name + " (" + d.type + ", Vulkan)");
    j.close();
  }
  j.out += ']';
  return j.out;
}

std::string algorithms_json() {
  static const char* kinds[] = {"integer", "real", "flag", "choice", "real_list"};
  Json j;
  j.array(algorithms(), [&](const AlgorithmInfo& a) {
    const Capabilities& c = a.capabilities;
    const bool automatic = a.id == Algorithm::automatic;
    j.open();
    j.key("name"), j.text(a.name);
    j.key("summary"), j.text(a.summary);
    j.key("description"), j.text(a.description);
    j.key("planar"), j.boolean(a.planar);
    j.key("gpu_only"), j.boolean(a.gpu_only);
    j.key("exact"), j.boolean(c.exact);
    j.key("cpu"), j.boolean(automatic || a.runs_on(Backend::cpu, 2));
    j.key("vulkan"), j.boolean(automatic || a.runs_on(Backend::vulkan, 2));
    j.key("min_sigma"), j.number(c.min_sigma);
    j.key("max_sigma"), j.number(c.max_sigma);
    j.key("capabilities");
    j.open();
    j.key("separable"), j.boolean(c.separable);
    j.key("max_dimensions"), j.integer(c.max_dimensions);
    j.key("derivatives"), j.boolean(c.derivatives);
    j.key("exact"), j.boolean(c.exact);
    j.key("cpu"), j.boolean(c.cpu);
    j.key("vulkan"), j.boolean(c.vulkan);
    j.key("vulkan_volumes"), j.boolean(c.vulkan_volumes);
    j.key("texture_filtering"), j.boolean(c.texture_filtering);
    j.key("scipy_rounding"), j.boolean(c.scipy_rounding);
    j.key("min_sigma"), j.number(c.min_sigma);
    j.key("max_sigma"), j.number(c.max_sigma);
    j.close();
    j.key("parameters");
    j.array(a.parameters, [&](const ParameterInfo& q) {
      j.open();
      j.key("key"), j.text(q.key);
      j.key("flag"), j.text(q.flag);
      j.key("kind"), j.text(kinds[static_cast<int>(q.kind)]);
      j.key("doc"), j.text(q.doc);
      j.key("default"), j.text(q.default_text);
      j.key("min"), j.number(q.min);
      j.key("max"), j.number(q.max);
      j.key("multiple_of"), j.integer(q.multiple_of);
      j.key("zero_chooses"), j.boolean(q.zero_chooses);
      j.key("choices"), j.array(q.choices, [&](std::string_view s) { j.text(s); });
      j.key("range"), j.text(q.range_text());
      j.close();
    });
    j.close();
  });
  return j.out;
}

}  // namespace fastblur
