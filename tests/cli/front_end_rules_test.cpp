// The rules every front end shares, written once in the core (issue 26): the common options'
// checks and the device grammar (validate.hpp) name the option each front end's way and say the
// same words after it; the plan and the registry have one serialiser (serialize.hpp), whose JSON
// the explorer sends and Python loads.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <functional>
#include <string>

#include "fastblur/fastblur.hpp"

namespace fastblur {
namespace {

using nlohmann::json;

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InvalidArgument";
  return "";
}

TEST(FrontEndRules, EachFrontEndNamesTheOptionItsWayAndTheWordsAreTheSame) {
  const OptionNames cli = OptionNames::command_line(), py = OptionNames::python(), web = OptionNames::json();
  EXPECT_EQ(message_of([&] { check_tolerance(-1, cli); }), "--tolerance -1 must be a finite value >= 0");
  EXPECT_EQ(message_of([&] { check_tolerance(-1, py); }), "tolerance=-1 must be a finite value >= 0");
  EXPECT_EQ(message_of([&] { check_tolerance(NAN, web); }), "'tolerance' nan must be a finite value >= 0");
  EXPECT_EQ(message_of([&] { check_threads(-2, cli); }), "--threads -2 must be an integer >= 0 (0 = every core)");
  EXPECT_EQ(message_of([&] { check_threads(-2, py); }), "threads=-2 must be an integer >= 0 (0 = every core)");
  EXPECT_EQ(message_of([&] { check_truncate(INFINITY, cli); }), "--truncate inf must be a finite value >= 0");
  EXPECT_EQ(message_of([&] { check_sigma(-3, web); }), "'sigma' -3 must be a finite value >= 0");
  EXPECT_EQ(message_of([&] { check_cval(NAN, Rounding::nearest, cli); }),
            "--cval nan must be finite (or --rounding scipy, as SciPy takes any)");
  EXPECT_EQ(message_of([&] { check_cval(NAN, Rounding::nearest, py); }),
            "cval=nan must be finite (or rounding='scipy', as SciPy takes any)");
  EXPECT_EQ(message_of([&] { check_cval(NAN, Rounding::nearest, web); }), "'cval' nan must be finite");  // no rounding there
  EXPECT_EQ(message_of([&] { check_radius(16777217, cli); }), "--radius 16777217 is beyond the maximum 16777216");
  EXPECT_EQ(message_of([&] { check_radius(1099511627776.0, py); }), "radius=1099511627776 is beyond the maximum 16777216");
  EXPECT_EQ(message_of([&] { check_radius(1.5, cli); }), "--radius 1.5 must be a whole number from 0 to 16777216");
  EXPECT_NO_THROW(check_radius(0, cli));
  EXPECT_NO_THROW(check_radius(kMaxRadius, cli));
  EXPECT_NO_THROW(check_cval(NAN, Rounding::scipy, py));
  EXPECT_NO_THROW(check_cval(INFINITY, Rounding::scipy, cli));
  // check_common: every common option of a spec.
  BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  EXPECT_NO_THROW(check_common(spec, cli));
  spec.threads = -1;
  EXPECT_NE(message_of([&] { check_common(spec, cli); }).find("--threads -1"), std::string::npos);
  spec = BlurSpec::isotropic_2d(2.0);
  spec.tolerance = -0.5;
  EXPECT_NE(message_of([&] { check_common(spec, cli); }).find("--tolerance -0.5"), std::string::npos);
}

TEST(FrontEndRules, TheDeviceGrammarIsParsedOnce) {
  EXPECT_EQ(parse_device_name("cpu").kind, DeviceName::Kind::cpu);
  EXPECT_EQ(parse_device_name("vulkan").kind, DeviceName::Kind::vulkan);
  const DeviceName index = parse_device_name("vulkan:3");
  EXPECT_EQ(index.kind, DeviceName::Kind::vulkan_index);
  EXPECT_EQ(index.index, 3);
  const DeviceName name = parse_device_name("vulkan:H100");
  EXPECT_EQ(name.kind, DeviceName::Kind::vulkan_name);
  EXPECT_EQ(name.name, "H100");
  const std::string tail = ": expected cpu, vulkan, vulkan:N (an index) or vulkan:NAME (part of a device's name)";
  EXPECT_EQ(message_of([] { parse_device_name("gpu", OptionNames::command_line()); }), "--device gpu" + tail);
  EXPECT_EQ(message_of([] { parse_device_name("gpu", OptionNames::python()); }), "device='gpu'" + tail);
  EXPECT_EQ(message_of([] { parse_device_name("vulkan:", OptionNames::json()); }), "'device' vulkan:" + tail);
  EXPECT_NE(message_of([] { parse_device_name("vulkan:12345678"); }).find("too large"), std::string::npos);
  // Device::parse uses the same grammar (and opens the device it names).
  EXPECT_EQ(message_of([] { (void)Device::parse("CPU", OptionNames::python()); }), "device='CPU'" + tail);
  EXPECT_TRUE(Device::parse("cpu").is_cpu());
}

TEST(FrontEndRules, ThePlanSerialisesEveryFieldAFrontEndShows) {
  const View shape = View::packed(nullptr, ElementType::f32, 200, 100, 1, 3);
  const Plan fir = make_plan(BlurSpec::isotropic_2d(2.0), shape);
  const json j = json::parse(plan_json(fir));
  EXPECT_EQ(j["algorithm"], "fir");
  EXPECT_EQ(j["description"], describe(fir));
  EXPECT_EQ(j["reason"], fir.reason);
  EXPECT_EQ(j["considered"].size(), fir.considered.size());
  EXPECT_EQ(j["extent"], json({200, 100, 1}));
  EXPECT_EQ(j["channels"], 3);
  EXPECT_DOUBLE_EQ(j["predicted_cost"].get<double>(), fir.predicted_cost);
  ASSERT_EQ(j["axes"].size(), 3u);
  for (int a = 0; a < 3; ++a) {
    const AxisPlan& ax = fir.axes[static_cast<std::size_t>(a)];
    const json& ja = j["axes"][static_cast<std::size_t>(a)];
    EXPECT_EQ(ja["active"], ax.active);
    EXPECT_EQ(ja["radius"], ax.radius);
    EXPECT_EQ(ja["support"], ax.support);
    EXPECT_DOUBLE_EQ(ja["achieved_sigma"].get<double>(), ax.achieved_sigma);
    if (ax.weights) {
      ASSERT_TRUE(ja["weights"].is_array());
      ASSERT_EQ(ja["weights"].size(), ax.weights->size());
      for (std::size_t k = 0; k < ax.weights->size(); ++k) EXPECT_EQ(ja["weights"][k].get<double>(), (*ax.weights)[k]);  // exact: %.17g
    } else {
      EXPECT_TRUE(ja["weights"].is_null());
    }
  }
  const json& s = j["schedule"];
  EXPECT_EQ(s["backend"], "cpu");
  EXPECT_EQ(s["driver"], std::string(to_string(fir.schedule.driver)));
  EXPECT_EQ(s["threads"], fir.schedule.threads);
  EXPECT_EQ(s["stream_destination"], fir.schedule.stream_destination);
  for (const char* key : {"intermediate", "rounding", "strip", "stream_destination", "tile", "pieces", "gpu_passes"})
    EXPECT_TRUE(s.contains(key)) << key;

  // A long kernel is written as its length; a box plan's resolved parameters, whole and per axis.
  const Plan wide = make_plan(BlurSpec::isotropic_2d(20.0), shape);
  const json jw = json::parse(plan_json(wide));
  if (wide.axes[0].weights && wide.axes[0].weights->size() > 64)
    EXPECT_EQ(jw["axes"][0]["weights"], wide.axes[0].weights->size());
  BlurSpec box = BlurSpec::isotropic_2d(5.0);
  box.algorithm = Algorithm::box;
  const Plan bp = make_plan(box, shape);
  const json jb = json::parse(plan_json(bp));
  for (const PlanParameter& q : bp.parameters) {
    const json& where = q.axis < 0 ? jb["parameters"] : jb["axes"][static_cast<std::size_t>(q.axis)]["parameters"];
    EXPECT_TRUE(where.contains(q.key)) << q.key;
  }
  // A plan a blur made without predicting: JSON has no NaN, so null.
  Plan unpredicted = bp;
  unpredicted.predicted_max_error = NAN;
  EXPECT_TRUE(json::parse(plan_json(unpredicted))["predicted_max_error"].is_null());
}

TEST(FrontEndRules, TheRegistrySerialisesEveryAlgorithmAndParameter) {
  const json j = json::parse(algorithms_json());
  ASSERT_EQ(j.size(), algorithms().size());
  for (std::size_t i = 0; i < j.size(); ++i) {
    const AlgorithmInfo& a = algorithms()[i];
    EXPECT_EQ(j[i]["name"], std::string(a.name));
    EXPECT_EQ(j[i]["summary"], std::string(a.summary));
    EXPECT_EQ(j[i]["capabilities"]["exact"], a.capabilities.exact);
    ASSERT_EQ(j[i]["parameters"].size(), a.parameters.size());
    for (std::size_t k = 0; k < a.parameters.size(); ++k) {
      EXPECT_EQ(j[i]["parameters"][k]["key"], std::string(a.parameters[k].key));
      EXPECT_EQ(j[i]["parameters"][k]["flag"], std::string(a.parameters[k].flag));
      EXPECT_EQ(j[i]["parameters"][k]["range"], a.parameters[k].range_text());
    }
  }
}

}  // namespace
}  // namespace fastblur
