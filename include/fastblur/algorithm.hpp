#pragma once
/// @file
/// The algorithm registry: every algorithm of this build with its parameters (name, doc, range,
/// default) and its capabilities, each declared once by its descriptor (src/algorithms/NAME.cpp).
/// The command line's options and help, the Python keywords and docstring tables, plan dicts,
/// benchmark sweeps and test loops are all generated from this list, so they cannot drift apart.
/// The accuracy of each algorithm as a Gaussian is the generated table in bench/RESULTS.md
/// ("Accuracy", `bench/accuracy_table.sh`); `fastblur analyze` measures it for any sigma.
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fastblur {

/// Which algorithm computes the blur: one value per line of algorithm_list.def (algorithms()
/// describes each; the design notes' catalogue cites their sources).
enum class Algorithm {
  automatic,  ///< the planner's choice: exact (fir, or fft or sliding-dct fitted to fir's kernel) at tolerance 0
#define FASTBLUR_ALGORITHM(id, cpu, vulkan) id,
#include "fastblur/algorithm_list.def"
#undef FASTBLUR_ALGORITHM
};
std::string_view to_string(Algorithm algorithm) noexcept;
/// Parses an algorithm name ("auto", "fir", "box", "dual-kawase", ...); throws InvalidArgument naming
/// the known ones.
Algorithm parse_algorithm(std::string_view name);

/// Where a blur runs.
enum class Backend { cpu, vulkan };

/// A parameter's value: integers, reals, flags, names (choices) and lists of reals.
using ParameterValue = std::variant<std::int64_t, double, bool, std::string, std::vector<double>>;

/// One tunable parameter of an algorithm, as its descriptor declares it.
struct ParameterInfo {
  enum class Kind { integer, real, flag, choice, real_list };
  std::string_view key;   ///< BlurSpec's field, the Python option and the plan dict's key ("box_passes")
  std::string_view flag;  ///< the command line's option without "--" ("passes"); several algorithms may share one
  Kind kind = Kind::integer;
  std::string_view doc;           ///< what it does, one line
  std::string_view default_text;  ///< what 0 (or no value) means: "3", "chosen for sigma", ...
  double min = 0.0, max = 0.0;    ///< the valid range (integers, reals, each list item); 0 is also valid where
                                  ///< zero_chooses
  std::int64_t multiple_of = 1;   ///< integers: the value must be a multiple of this
  bool zero_chooses = false;      ///< 0 asks the algorithm to choose (default_text says what)
  std::vector<std::string_view> choices;  ///< Kind::choice: the accepted names, the first the default
  /// "1 to 6 (0 = 3)", "deriche or young-van-vliet", ...: the range as error messages and help state it.
  std::string range_text() const;
};

/// What an algorithm can do.
struct Capabilities {
  bool separable = true;     ///< filters each axis on its own (false: planar, x and y together)
  int max_dimensions = 3;    ///< 2: 2D images only
  bool derivatives = false;  ///< computes Gaussian derivatives (BlurSpec::order)
  bool exact = false;        ///< computes the sampled Gaussian's convolution itself (tolerance 0 may pick it)
  bool cpu = true;           ///< the CPU backend runs it
  bool vulkan = true;        ///< the Vulkan backend runs it
  bool vulkan_volumes = true;  ///< ... on 3D volumes too (false: 2D images only there)
  /// The Vulkan backend fetches through the sampler's bilinear filter, which GPUs compute with 8
  /// sub-texel bits: the planner adds that error to its prediction on a GPU (not on lavapipe,
  /// which filters in float).
  bool texture_filtering = false;
  /// With Rounding::scipy on the CPU it runs scipy.ndimage's arithmetic (CpuDriver::scipy_order):
  /// fir (gaussian_filter) and correlate (correlate1d); the planner rounds any other to nearest.
  bool scipy_rounding = false;
  double min_sigma = 0.0;    ///< sigmas below this (and above 0) are refused
  double max_sigma = 0.0;    ///< sigmas above this are refused (0: no limit)
};

/// One entry of the registry.
struct AlgorithmInfo {
  Algorithm id = Algorithm::automatic;
  std::string_view name;         ///< "box"
  std::string_view summary;      ///< one line
  std::string_view description;  ///< a paragraph: where it comes from, what it costs, how it fails
  Capabilities capabilities;
  std::vector<ParameterInfo> parameters;
  bool planar = false;    ///< !capabilities.separable
  bool gpu_only = false;  ///< !capabilities.cpu
  /// Whether `backend` runs it on data of `dimensions` (1 to 3) spatial axes.
  bool runs_on(Backend backend, int dimensions) const noexcept;
};

/// Every algorithm this build knows, in a stable order; "auto" (the planner) first.
const std::vector<AlgorithmInfo>& algorithms();
/// The registry entry of one algorithm.
const AlgorithmInfo& algorithm_info(Algorithm algorithm);
/// Every parameter of every algorithm, each once (keys are unique across algorithms).
std::vector<ParameterInfo> all_parameters();

}  // namespace fastblur
