// Blurs a unit impulse with an installed fastblur and checks that the result is the Gaussian.
#include <fastblur/fastblur.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  const int w = 33, h = 21;
  std::vector<float> image(w * h, 0.0f);
  image[10 * w + 16] = 1.0f;
  const fastblur::View view = fastblur::View::packed(image.data(), fastblur::ElementType::f32, w, h);
  fastblur::blur(view, view, fastblur::BlurSpec::isotropic_2d(1.5));  // in place

  const std::vector<double> g = fastblur::kernel::gaussian_weights(1.5, 6);
  double worst = 0.0;
  for (int y = -6; y <= 6; ++y)
    for (int x = -6; x <= 6; ++x)
      worst = std::max(worst, std::abs(image[(10 + y) * w + 16 + x] - g[y + 6] * g[x + 6]));
  std::printf("fastblur %s via find_package: impulse response max error %.3g\n", FASTBLUR_VERSION_STRING, worst);
  return worst < 1e-6 ? 0 : 1;
}
