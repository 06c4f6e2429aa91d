// The CPU backend's executors, registered by algorithm id.
#include "cpu/execute.hpp"

#include <string>
#include <utility>

#include "core/populate.hpp"
#include "fastblur/error.hpp"

namespace fastblur::cpu {
namespace {

constexpr std::pair<Algorithm, Executor> kExecutors[] = {
#define FASTBLUR_ALGORITHM(id, cpu, vulkan) {Algorithm::id, cpu##_blur},
#include "fastblur/algorithm_list.def"
#undef FASTBLUR_ALGORITHM
};

}  // namespace

Executor executor(Algorithm algorithm) noexcept {
  for (const auto& [id, run] : kExecutors)
    if (id == algorithm) return run == none_blur ? nullptr : run;
  return nullptr;
}

void none_blur(const Plan& plan, const View&, const View&) {
  throw Unsupported("algorithm " + std::string(to_string(plan.algorithm)) + " is not available on the CPU");
}

void execute(const Plan& plan, const View& src, const View& dst) {
  // Nothing to blur: a converted copy (fir with no axis reads every element once, as every blur does).
  if (!(plan.spec.sigma[0] > kSigmaCutoff || plan.spec.sigma[1] > kSigmaCutoff || plan.spec.sigma[2] > kSigmaCutoff)) {
    fir_blur(plan, src, dst);
    return;
  }
  const Executor run = executor(plan.algorithm);
  if (!run) throw Unsupported("algorithm " + std::string(to_string(plan.algorithm)) + " is not available on the CPU");
  core::populate_for_write(dst, plan.schedule.threads);
  run(plan, src, dst);
}

}  // namespace fastblur::cpu
