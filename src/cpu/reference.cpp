// Double-precision references (see reference.hpp). Plain loops on purpose: they are the oracle.
#include "fastblur/reference.hpp"

#include <algorithm>
#include <vector>

#include "core/border.hpp"
#include "core/element.hpp"
#include "fastblur/error.hpp"
#include "fastblur/kernel.hpp"

namespace fastblur::reference {
namespace {

struct Image {
  std::int64_t W, H, D;
  int C;
  std::vector<double> v;
  double& at(std::int64_t x, std::int64_t y, std::int64_t z, int c) {
    return v[static_cast<std::size_t>(((z * H + y) * W + x) * C + c)];
  }
};

Image load(const View& src) {
  Image im{src.width(), src.height(), src.depth(), src.channels, {}};
  im.v.resize(static_cast<std::size_t>(im.W * im.H * im.D * im.C));
  const std::size_t es = element_size(src.type);
  for (std::int64_t z = 0; z < im.D; ++z)
    for (std::int64_t y = 0; y < im.H; ++y)
      for (std::int64_t x = 0; x < im.W; ++x)
        for (int c = 0; c < im.C; ++c)
          im.at(x, y, z, c) = core::load_element(src.type, src.pixel(x, y, z) + c * es);
  return im;
}

void store(Image& im, const View& dst) {
  const std::size_t es = element_size(dst.type);
  for (std::int64_t z = 0; z < im.D; ++z)
    for (std::int64_t y = 0; y < im.H; ++y)
      for (std::int64_t x = 0; x < im.W; ++x)
        for (int c = 0; c < im.C; ++c)
          core::store_element(dst.type, dst.pixel(x, y, z) + c * es, im.at(x, y, z, c));
}

void check(const View& src, const View& dst) {
  validate_source(src);
  validate_destination(dst);
  if (src.extent != dst.extent || src.channels != dst.channels)
    throw InvalidArgument("reference: source and destination differ in shape");
}

}  // namespace

void separable_blur(const View& src, const View& dst, const BlurSpec& spec) {
  check(src, dst);
  Image im = load(src);
  for (int a = 0; a < 3; ++a) {
    const int r = effective_radius(spec, a);
    if (r == 0) continue;
    const double sigma = spec.sigma[static_cast<std::size_t>(a)];
    const int order = spec.order[static_cast<std::size_t>(a)];
    // A derivative's kernel is convolved (scipy's rule); correlating with it reversed is the same.
    std::vector<double> w = order == 0 ? kernel::gaussian_weights(sigma, r)
                                       : kernel::gaussian_derivative_weights(sigma, order, r);
    std::reverse(w.begin(), w.end());
    const std::int64_t n = src.extent[static_cast<std::size_t>(a)];
    Image out = im;
    for (std::int64_t z = 0; z < (a == 2 ? 1 : im.D); ++z)
      for (std::int64_t y = 0; y < (a == 1 ? 1 : im.H); ++y)
        for (std::int64_t x = 0; x < (a == 0 ? 1 : im.W); ++x)
          for (int c = 0; c < im.C; ++c) {
            const auto ref = [&](std::int64_t i) -> double& {
              return a == 0 ? im.at(i, y, z, c) : a == 1 ? im.at(x, i, z, c) : im.at(x, y, i, c);
            };
            const auto res = [&](std::int64_t i) -> double& {
              return a == 0 ? out.at(i, y, z, c) : a == 1 ? out.at(x, i, z, c) : out.at(x, y, i, c);
            };
            for (std::int64_t i = 0; i < n; ++i) {
              double s = 0.0;
              for (int k = -r; k <= r; ++k) {
                const std::int64_t m = core::border_index(i + k, n, spec.border[static_cast<std::size_t>(a)]);
                s += w[static_cast<std::size_t>(k + r)] * (m < 0 ? spec.cval : ref(m));
              }
              res(i) = s;
            }
          }
    im = std::move(out);
  }
  store(im, dst);
}

void naive_blur(const View& src, const View& dst, const BlurSpec& spec) {
  check(src, dst);
  Image im = load(src);
  int r[3];
  std::vector<double> w[3];
  for (int a = 0; a < 3; ++a) {
    r[a] = effective_radius(spec, a);
    const double sigma = spec.sigma[static_cast<std::size_t>(a)];
    const int order = spec.order[static_cast<std::size_t>(a)];
    w[a] = !r[a] ? std::vector<double>{1.0}
           : order == 0 ? kernel::gaussian_weights(sigma, r[a])
                        : kernel::gaussian_derivative_weights(sigma, order, r[a]);
    std::reverse(w[a].begin(), w[a].end());  // convolution, as in separable_blur
  }
  Image out = im;
  for (std::int64_t z = 0; z < im.D; ++z)
    for (std::int64_t y = 0; y < im.H; ++y)
      for (std::int64_t x = 0; x < im.W; ++x)
        for (int c = 0; c < im.C; ++c) {
          double s = 0.0;
          for (int kz = -r[2]; kz <= r[2]; ++kz)
            for (int ky = -r[1]; ky <= r[1]; ++ky)
              for (int kx = -r[0]; kx <= r[0]; ++kx) {
                const double wk = w[0][static_cast<std::size_t>(kx + r[0])] * w[1][static_cast<std::size_t>(ky + r[1])] *
                                  w[2][static_cast<std::size_t>(kz + r[2])];
                const std::int64_t mx = core::border_index(x + kx, im.W, spec.border[0]);
                const std::int64_t my = core::border_index(y + ky, im.H, spec.border[1]);
                const std::int64_t mz = core::border_index(z + kz, im.D, spec.border[2]);
                s += wk * ((mx < 0 || my < 0 || mz < 0) ? spec.cval : im.at(mx, my, mz, c));
              }
          out.at(x, y, z, c) = s;
        }
  store(out, dst);
}

}  // namespace fastblur::reference
