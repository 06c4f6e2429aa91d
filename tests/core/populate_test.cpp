// core::populate_for_write: values already written are kept, fresh pages come back present, and small,
// strided or reversed views are accepted (it only saves time).
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "core/populate.hpp"

namespace fastblur {
namespace {

TEST(Populate, KeepsValuesAndBacksFreshPages) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t bytes = 4u << 20;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  auto* f = static_cast<float*>(p);
  f[0] = 1.5f;  // one page written before
  const View v = View::packed(p, ElementType::f32, 1024, 1024);
  core::populate_for_write(v);
  std::vector<unsigned char> present(bytes / page);
  ASSERT_EQ(mincore(p, bytes, present.data()), 0);
  std::size_t backed = 0;
  for (unsigned char b : present) backed += b & 1;
#if defined(MADV_POPULATE_WRITE)
  // Kernels before 5.14 refuse the advice; then nothing changes but time.
  if (madvise(p, page, MADV_POPULATE_WRITE) == 0) EXPECT_EQ(backed, present.size());
#endif
  EXPECT_EQ(f[0], 1.5f);
  EXPECT_EQ(f[bytes / sizeof(float) - 1], 0.0f);
  View reversed = v;  // a negative stride: the same bytes from the other end
  reversed.data = f + 1023 * 1024;
  reversed.stride[1] = -reversed.stride[1];
  core::populate_for_write(reversed);
  std::vector<float> small(16, 2.0f);
  core::populate_for_write(View::packed(small.data(), ElementType::f32, 4, 4));
  EXPECT_EQ(small[15], 2.0f);
  EXPECT_EQ(f[0], 1.5f);
  munmap(p, bytes);
}

}  // namespace
}  // namespace fastblur
