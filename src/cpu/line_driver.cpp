#include "cpu/line_driver.hpp"

#include <omp.h>

#include <algorithm>
#include <string>

#include "core/border.hpp"
#include "core/element.hpp"
#include "cpu/line_io.hpp"
#include "cpu/scratch.hpp"
#include "fastblur/error.hpp"

namespace fastblur::cpu {
namespace {

template <class T>
void run_typed(const Plan& plan, const View& src, const View& dst,
               const std::array<std::optional<LineFilter>, 3>& filters) {
  const std::int64_t W = src.width(), H = src.height(), D = src.depth();
  const int C = src.channels;
  const std::size_t total = static_cast<std::size_t>(W * H * D * C);
  const int threads = plan.schedule.threads;
  // The whole image as packed T: read once, filtered in place axis by axis, written once.
  ScratchImage image_buf(total * sizeof(T), 0);
  T* img = image_buf.as<T>();
  std::vector<std::vector<std::byte>> row_bytes(static_cast<std::size_t>(threads),
                                                std::vector<std::byte>(static_cast<std::size_t>(W * C) * 8));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t row = 0; row < H * D; ++row)
    read_row(src, 0, row % H, row / H, W, img + static_cast<std::size_t>(row * W * C),
             row_bytes[static_cast<std::size_t>(omp_get_thread_num())].data());

  for (int a = 0; a < 3; ++a) {
    if (!filters[a]) continue;
    const std::int64_t n = src.extent[a];
    const LineFilter& f = *filters[a];
    const Border border = plan.spec.border[a];
    if (n == 1 && border != Border::constant && f.unit_gain) continue;
    const std::int64_t pad = f.pad;
    // Element strides of the packed image along this axis, and the line starts.
    const std::int64_t step = a == 0 ? C : a == 1 ? W * C : W * H * C;
    const std::int64_t lines = W * H * D * C / n;
    std::vector<LineScratch> scratch(static_cast<std::size_t>(threads));
    std::vector<std::vector<double>> ins(static_cast<std::size_t>(threads)), outs(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t) {
      ins[t].resize(static_cast<std::size_t>(n + 2 * pad));
      outs[t].resize(static_cast<std::size_t>(n));
    }
    const double cval = plan.spec.cval;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t l = 0; l < lines; ++l) {
      const int t = omp_get_thread_num();
      // Line l: the index of its first element in the packed image.
      std::int64_t base;
      if (a == 0) base = l / C * W * C + l % C;
      else if (a == 1) base = (l / (W * C)) * H * W * C + l % (W * C);
      else base = l;
      double* in = ins[t].data();
      double* out = outs[t].data();
      for (std::int64_t i = 0; i < n; ++i) in[pad + i] = static_cast<double>(img[base + i * step]);
      core::extend_line(in, n, pad, pad, 1, border, cval);
      f.apply(in, out, n, scratch[t]);
      for (std::int64_t i = 0; i < n; ++i) img[base + i * step] = static_cast<T>(out[i]);
    }
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t row = 0; row < H * D; ++row)
    write_row(img + static_cast<std::size_t>(row * W * C), dst, 0, row % H, row / H, W,
              row_bytes[static_cast<std::size_t>(omp_get_thread_num())].data());
}

}  // namespace

void run_line_filters(const Plan& plan, const View& src, const View& dst,
                      const std::array<std::optional<LineFilter>, 3>& filters) {
  if (plan.schedule.intermediate == ElementType::f64) run_typed<double>(plan, src, dst, filters);
  else run_typed<float>(plan, src, dst, filters);
}

}  // namespace fastblur::cpu
