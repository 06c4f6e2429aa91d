#pragma once
// The one threading rule: how many threads a piece of work gets.
namespace fastblur::core {

/// Work below this many units (one unit: about a fir tap pair on one value, 0.03-0.07 ns per core) runs
/// on the calling thread: waking OpenMP's threads costs more than such work.
inline constexpr double kSmallWork = 2e5;

/// Threads for `work_units` of work when the caller asked for `requested` (0: as many as OpenMP
/// offers): 1 for small work, else `requested` capped at the processors (omp_get_num_procs).
int threads_for(double work_units, int requested);

}  // namespace fastblur::core
