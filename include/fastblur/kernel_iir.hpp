#pragma once
/// @file
/// Coefficients of the recursive (IIR) Gaussians: pure functions of sigma, shared by every backend
/// and by the tests. Both filters take 0.5 <= sigma <= 1000: below, Young-van Vliet's q is
/// undefined; above, double precision no longer holds Deriche's 4th-order denominator (whose
/// poles crowd at 1): its L1 error is 7e-4 at sigma 2000 and 1e-2 at 5000. fir takes any sigma.
#include <array>
#include <complex>
#include <cstdint>
#include <vector>

namespace fastblur::kernel {

/// The range of sigma the recursive Gaussians accept.
inline constexpr double kIirMinSigma = 0.5;
inline constexpr double kIirMaxSigma = 1000.0;

/// Deriche's 4th-order recursive Gaussian (Deriche 1993) in Getreuer's form (IPOL 2013): the sum
/// of a causal and an anticausal recursion sharing one denominator,
///   y+[n] = b+_0 x[n] + ... + b+_3 x[n-3] - a_1 y+[n-1] - ... - a_4 y+[n-4]
///   y-[n] = b-_1 x[n+1] + ... + b-_4 x[n+4] - a_1 y-[n+1] - ... - a_4 y-[n+4]
///   y = y+ + y-,
/// the anticausal part being the mirror of the causal one without its sample at 0. The numerators
/// are scaled so that the DC gain (causal_gain + anticausal_gain) is exactly 1.
struct DericheCoefficients {
  double sigma = 0.0;
  std::array<double, 4> causal{};      ///< b+_0..b+_3, the weights of x[n], x[n-1], x[n-2], x[n-3]
  std::array<double, 4> anticausal{};  ///< b-_1..b-_4, the weights of x[n+1], ..., x[n+4]
  std::array<double, 4> feedback{};    ///< a_1..a_4 (subtracted), the same in both directions
  double causal_gain = 0.0;            ///< steady state of y+ for a constant input of 1
  double anticausal_gain = 0.0;        ///< steady state of y- for a constant input of 1
  double pole_radius = 0.0;            ///< largest |pole|: the response decays like pole_radius^|n|
};
/// Throws InvalidArgument unless kIirMinSigma <= sigma <= kIirMaxSigma.
DericheCoefficients deriche_coefficients(double sigma);

/// Deriche's filter (the same one, DC gain 1) in its partial fractions: two complex first-order
/// recursions per direction, one for each conjugate pair of poles,
///   u_k[n] = r_k x[n] + p_k u_k[n-1],              y+[n] = 2 Re(u_0[n] + u_1[n]),
///   v_k[n] = p_k r_k x[n+1] + p_k v_k[n+1],        y-[n] = 2 Re(v_0[n] + v_1[n]).
/// Each first-order recursion keeps its rounding error within about eps / (1 - |p|), so it runs in
/// float at any sigma, where the direct form's 4th-order denominator needs double (its poles crowd
/// at 1 and float loses the signal beyond sigma ~ 10).
struct DericheParallelForm {
  std::array<std::complex<double>, 2> pole{};     ///< p_0, p_1
  std::array<std::complex<double>, 2> residue{};  ///< r_0, r_1
};
/// Throws InvalidArgument unless kIirMinSigma <= sigma <= kIirMaxSigma.
DericheParallelForm deriche_parallel_form(double sigma);

/// Young & van Vliet's 3rd-order recursive Gaussian (Signal Processing 44, 1995): a causal pass
///   w[n] = B x[n] + a_1 w[n-1] + a_2 w[n-2] + a_3 w[n-3]
/// followed by the same recursion run backwards over w. Each pass has DC gain exactly 1.
struct YoungVanVlietCoefficients {
  double sigma = 0.0;
  double q = 0.0;                   ///< the paper's scale parameter (young_van_vliet_q)
  double b0 = 0.0, b1 = 0.0, b2 = 0.0, b3 = 0.0;  ///< the published cubics in q (from their exact factors)
  double B = 0.0;                   ///< input weight 1 - (b1 + b2 + b3) / b0
  std::array<double, 3> feedback{};  ///< a_1..a_3 = b1/b0, b2/b0, b3/b0 (added)
  double pole_radius = 0.0;         ///< largest |pole| of one pass
};
/// The paper's q: 0.98711 sigma - 0.96330 for sigma >= 2.5, else 3.97156 - 4.14554 sqrt(1 - 0.26891 sigma).
/// Throws InvalidArgument unless kIirMinSigma <= sigma <= kIirMaxSigma.
double young_van_vliet_q(double sigma);
/// Throws InvalidArgument unless kIirMinSigma <= sigma <= kIirMaxSigma.
YoungVanVlietCoefficients young_van_vliet_coefficients(double sigma);

/// Triggs & Sdika (IEEE TSP 54(5), 2006): for the recursion w[n] = x[n] + a_1 w[n-1] + a_2 w[n-2]
/// + a_3 w[n-3] run forwards over a line of N samples continued by a constant u, then backwards
/// (v[n] = w[n] + a_1 v[n+1] + ...), the backward pass's first three values follow from the
/// forward pass's last three without running over the infinite continuation:
///   (v[N-1], v[N], v[N+1]) - v+ = M (w[N-1], w[N-2], w[N-3]) - u+,
/// u+ and v+ being the steady states of the two passes. Rows of M are the outputs, columns the inputs.
using Matrix3 = std::array<std::array<double, 3>, 3>;
Matrix3 triggs_sdika_matrix(const std::array<double, 3>& feedback);

/// The response of Deriche's filter (causal plus anticausal recursion) to a unit impulse on an
/// infinite line, at offsets -half..half: its exact equivalent kernel.
std::vector<double> deriche_impulse_response(double sigma, int half);
/// The same for Young-van Vliet's causal then anticausal passes.
std::vector<double> young_van_vliet_impulse_response(double sigma, int half);

/// The number of samples after which a recursive filter whose largest pole has modulus
/// `pole_radius` (< 1) has decayed by `tolerance`: the smallest k with pole_radius^k <= tolerance.
std::int64_t recursive_decay_length(double pole_radius, double tolerance);

}  // namespace fastblur::kernel
