// The registry: every algorithm declared once, its parameters checked by their declared ranges with
// one message, executors registered for what the capabilities promise, and the plan cache keyed on
// every parameter (generated from the registry).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "algorithms/descriptor.hpp"
#include "cpu/execute.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Registry, NamesAndParameterKeysAreUniqueAndEveryAlgorithmHasADescriptor) {
  std::set<std::string> names, keys;
  for (const AlgorithmInfo& a : algorithms()) {
    EXPECT_TRUE(names.insert(std::string(a.name)).second) << a.name;
    EXPECT_EQ(parse_algorithm(a.name), a.id);
    EXPECT_FALSE(a.summary.empty()) << a.name;
    EXPECT_FALSE(a.description.empty()) << a.name;
    if (a.id == Algorithm::automatic) continue;
    // Exactly one descriptor per algorithm (descriptor() would return the first of two), and the
    // public entry is that descriptor's own: its name and its parameters, in order.
    const auto& registry = algo::registry();
    EXPECT_EQ(std::count_if(registry.begin(), registry.end(), [&](const algo::Descriptor* d) { return d->id() == a.id; }), 1)
        << a.name;
    const algo::Descriptor& d = algo::descriptor(a.id);
    EXPECT_EQ(d.info().name, a.name);
    ASSERT_EQ(d.parameters().size(), a.parameters.size()) << a.name;
    for (std::size_t i = 0; i < a.parameters.size(); ++i) EXPECT_EQ(d.parameters()[i].info.key, a.parameters[i].key) << a.name;
    for (const ParameterInfo& p : a.parameters) {
      EXPECT_TRUE(keys.insert(std::string(p.key)).second) << p.key;
      EXPECT_FALSE(p.flag.empty()) << p.key;
      EXPECT_FALSE(p.doc.empty()) << p.key;
    }
  }
  EXPECT_EQ(all_parameters().size(), keys.size());
  EXPECT_EQ(algo::registry().size() + 1, algorithms().size());  // every descriptor listed, and auto
  EXPECT_EQ(algorithms().front().id, Algorithm::automatic);
}

TEST(Registry, TheCpuHasAnExecutorForExactlyWhatTheCapabilitiesPromise) {
  for (const AlgorithmInfo& a : algorithms()) {
    if (a.id == Algorithm::automatic) continue;
    EXPECT_EQ(cpu::executor(a.id) != nullptr, a.capabilities.cpu) << a.name;
    EXPECT_EQ(a.gpu_only, !a.capabilities.cpu) << a.name;
    EXPECT_EQ(a.planar, !a.capabilities.separable) << a.name;
  }
}

TEST(Registry, ParametersAreSetByKeyWithinTheirRanges) {
  for (const ParameterInfo& p : all_parameters()) {
    BlurSpec spec;
    ParameterValue value;
    switch (p.kind) {
      case ParameterInfo::Kind::integer: value = static_cast<std::int64_t>(p.max); break;
      case ParameterInfo::Kind::real: value = p.max; break;
      case ParameterInfo::Kind::flag: value = true; break;
      case ParameterInfo::Kind::choice: value = std::string(p.choices.back()); break;
      case ParameterInfo::Kind::real_list: value = std::vector<double>{p.min, p.max}; break;
    }
    set_parameter(spec, p.key, value);
    EXPECT_EQ(get_parameter(spec, p.key), value) << p.key;
    if (p.kind == ParameterInfo::Kind::integer || p.kind == ParameterInfo::Kind::real) {
      const std::string m = message_of([&] { set_parameter(spec, p.key, p.max * 2 + 1); });
      EXPECT_NE(m.find(std::string(p.key) + " is "), std::string::npos) << m;
      EXPECT_NE(m.find(p.range_text()), std::string::npos) << m;
      EXPECT_EQ(get_parameter(spec, p.key), value) << p.key << ": a refused value left the spec changed";
    }
  }
  BlurSpec spec;
  EXPECT_EQ(message_of([&] { set_parameter(spec, "box_passes", std::int64_t{7}); }),
            "box_passes is 7: expected 1 to 6, or 0 for 3");
  EXPECT_THROW(set_parameter(spec, "box_passes", 2.5), InvalidArgument);  // not whole
  EXPECT_THROW(set_parameter(spec, "mip_poisson_samples", std::int64_t{30}), InvalidArgument);  // not a multiple of 4
  EXPECT_THROW(set_parameter(spec, "downsample_factor", std::int64_t{3}), InvalidArgument);
  set_parameter(spec, "downsample_factor", std::int64_t{0});  // 0 chooses
  EXPECT_THROW(set_parameter(spec, "iir_variant", std::string("gauss")), InvalidArgument);
  EXPECT_NE(message_of([&] { set_parameter(spec, "no_such", true); }).find("expected one of box_passes"),
            std::string::npos);
  set_parameter_text(spec, "kawase_offsets", "0.5,1.5,2.5");
  EXPECT_EQ(test::list_parameter(spec, "kawase_offsets"), (std::vector<double>{0.5, 1.5, 2.5}));
  set_parameter_text(spec, "box_integer_widths", "true");
  EXPECT_TRUE(test::flag_parameter(spec, "box_integer_widths"));
  set_parameter_text(spec, "iir_variant", "young-van-vliet");
  EXPECT_EQ(test::choice_parameter(spec, "iir_variant"), "young-van-vliet");
  EXPECT_THROW(set_parameter_text(spec, "sliding_dct_order", "3x"), InvalidArgument);
}

TEST(Registry, EveryParameterIsPartOfThePlanCacheKey) {
  // Plans are cached per request: a request that differs in one parameter must get its own plan.
  std::vector<float> data(40 * 30);
  const View v = View::packed(data.data(), ElementType::f32, 40, 30);
  for (const AlgorithmInfo& a : algorithms())
    for (const ParameterInfo& p : a.parameters) {
      BlurSpec spec = BlurSpec::isotropic_2d(6.0);
      spec.algorithm = a.id;
      (void)make_plan(spec, v);  // remembered with the parameter's default
      ParameterValue other;
      switch (p.kind) {
        case ParameterInfo::Kind::integer: other = static_cast<std::int64_t>(p.min + 2 * p.multiple_of > p.max ? p.min : p.min + p.multiple_of); break;
        case ParameterInfo::Kind::real: other = 1.5; break;
        case ParameterInfo::Kind::flag: other = true; break;
        case ParameterInfo::Kind::choice: other = std::string(p.choices.back()); break;
        case ParameterInfo::Kind::real_list: other = std::vector<double>{1.5, 2.5}; break;
      }
      set_parameter(spec, p.key, other);
      if (!a.runs_on(Backend::cpu, 2)) continue;
      try {
        EXPECT_EQ(get_parameter(make_plan(spec, v).spec, p.key), other) << a.name << " " << p.key;
      } catch (const InvalidArgument&) {
        // a value this sigma cannot take (e.g. a dual-kawase chain of the wrong size): not cached either
      }
    }
}

TEST(Registry, OneMessagePerRefusalWhateverTheEntryPoint) {
  std::vector<float> px(64, 0.5f);
  const View v = View::packed(px.data(), ElementType::f32, 8, 8);
  BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  spec.algorithm = Algorithm::fir_linear;
  const std::string cpu = message_of([&] { blur(v, v, spec); });
  EXPECT_NE(cpu.find("runs on the Vulkan backend only"), std::string::npos) << cpu;
  EXPECT_EQ(message_of([&] { (void)make_plan(spec, v); }), cpu);  // the planner says the same
  spec.algorithm = Algorithm::iir;
  spec.sigma = {0.3, 0.3, 0.0};
  EXPECT_EQ(message_of([&] { blur(v, v, spec); }),
            "iir: sigma along x is 0.3: expected 0 or 0.5 to 1000 (fir takes any sigma)");
  spec.algorithm = Algorithm::box;
  spec.sigma = {2.0, 2.0, 0.0};
  spec.threads = -1;
  EXPECT_EQ(message_of([&] { blur(v, v, spec); }), "threads -1 must be an integer >= 0 (0 = every core)");
  spec.threads = 0;
  spec.order = {1, 0, 0};
  EXPECT_EQ(message_of([&] { blur(v, v, spec); }), "derivative orders need algorithm fir (or auto), not box");
}

// An option the algorithm does not take would be ignored: the core refuses it for every front end
// (a C++ caller's included), naming its owner; a spec moved to another algorithm keeps only that
// algorithm's options.
TEST(Registry, AnotherAlgorithmsOptionIsRefusedNotIgnored) {
  std::vector<float> px(64, 0.5f);
  const View v = View::packed(px.data(), ElementType::f32, 8, 8);
  BlurSpec spec = BlurSpec::isotropic_2d(2.0);
  spec.algorithm = Algorithm::box;
  set_parameter(spec, "box_passes", std::int64_t{4});
  EXPECT_NO_THROW((void)make_plan(spec, v));
  set_parameter(spec, "iir_variant", std::string("young-van-vliet"));
  EXPECT_EQ(message_of([&] { (void)make_plan(spec, v); }), "option 'iir_variant' is iir's, not box's");
  EXPECT_EQ(message_of([&] { blur(v, v, spec); }), "option 'iir_variant' is iir's, not box's");
  EXPECT_EQ(px, std::vector<float>(64, 0.5f));  // refused before any pixel
  spec.algorithm = Algorithm::automatic;
  EXPECT_EQ(message_of([&] { (void)make_plan(spec, v); }),
            "option 'box_passes' is box's: name the algorithm (auto chooses its candidates' parameters)");
  const BlurSpec iir = algo::with_algorithm(spec, Algorithm::iir);
  ASSERT_EQ(iir.options.size(), 1u);
  EXPECT_EQ(iir.options[0].first, "iir_variant");
  EXPECT_TRUE(algo::with_algorithm(spec, Algorithm::fir).options.empty());
  EXPECT_NO_THROW((void)make_plan(iir, v));
}

}  // namespace
}  // namespace fastblur
