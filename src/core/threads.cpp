#include "core/threads.hpp"

#include <omp.h>

#include <algorithm>

namespace fastblur::core {

int threads_for(double work_units, int requested) {
  if (work_units < kSmallWork) return 1;
  // More threads than processors cannot speed up a blur, and OpenMP dies trying to start 100000.
  const int wanted = requested > 0 ? std::min(requested, omp_get_num_procs()) : omp_get_max_threads();
  return std::max(1, wanted);
}

}  // namespace fastblur::core
