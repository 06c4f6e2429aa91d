#include "itk_peer.hpp"

#include <itkImage.h>
#include <itkImportImageFilter.h>
#include <itkMultiThreaderBase.h>
#include <itkSmoothingRecursiveGaussianImageFilter.h>

#include <algorithm>

namespace fastblur_bench {

void itk_recursive_gaussian(const float* in, float* out, std::int64_t w, std::int64_t h, std::int64_t d,
                            double sigma, int threads) {
  using Image = itk::Image<float, 3>;
  itk::MultiThreaderBase::SetGlobalDefaultNumberOfThreads(threads);
  itk::MultiThreaderBase::SetGlobalMaximumNumberOfThreads(threads);

  // Wraps the caller's buffer without copying it (ITK does not own or free it).
  auto import = itk::ImportImageFilter<float, 3>::New();
  Image::SizeType size;
  size[0] = static_cast<Image::SizeValueType>(w);
  size[1] = static_cast<Image::SizeValueType>(h);
  size[2] = static_cast<Image::SizeValueType>(d);
  Image::IndexType start;
  start.Fill(0);
  import->SetRegion(Image::RegionType(start, size));
  const auto count = static_cast<itk::SizeValueType>(w * h * d);
  import->SetImportPointer(const_cast<float*>(in), count, false);

  auto smooth = itk::SmoothingRecursiveGaussianImageFilter<Image, Image>::New();
  smooth->SetInput(import->GetOutput());
  smooth->SetSigma(sigma);  // physical units; the imported spacing is 1 voxel
  smooth->SetNormalizeAcrossScale(false);
  smooth->SetNumberOfWorkUnits(static_cast<itk::ThreadIdType>(threads));
  smooth->Update();
  // ITK writes into its own image; one copy out (a few ms against the filter's hundreds).
  const float* result = smooth->GetOutput()->GetBufferPointer();
  std::copy(result, result + count, out);
}

}  // namespace fastblur_bench
