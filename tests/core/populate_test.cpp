// core::populate_for_write: values already written are kept, fresh pages come back present (every page
// of the view, whatever its start and the threads' parts), and small, strided or reversed views are
// accepted (it only saves time).
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
  core::populate_for_write(v, 1);
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
  core::populate_for_write(reversed, 2);
  std::vector<float> small(16, 2.0f);
  core::populate_for_write(View::packed(small.data(), ElementType::f32, 4, 4), 2);
  EXPECT_EQ(small[15], 2.0f);
  EXPECT_EQ(f[0], 1.5f);
  munmap(p, bytes);
}

// Parts a thread each: a view starting off any 2 MiB boundary, on 2, 3 and 5 threads, is backed from
// its first page to its last and no value changes.
TEST(Populate, PartsOnSeveralThreadsCoverTheWholeView) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t bytes = 12u << 20;
  for (const int threads : {2, 3, 5}) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
#if defined(MADV_POPULATE_WRITE)
    const bool supported = madvise(p, page, MADV_POPULATE_WRITE) == 0;
#else
    const bool supported = false;
#endif
    auto* bytes_at = static_cast<unsigned char*>(p);
    const std::size_t offset = (3u << 19) + 3 * page + 64;  // 1.5 MiB and three pages and a bit in
    const int width = 1000, height = 2000;                   // 8 MB of float32: ends mid-page
    auto* f = reinterpret_cast<float*>(bytes_at + offset);
    f[0] = 3.0f;
    f[width * height - 1] = 4.0f;
    core::populate_for_write(View::packed(f, ElementType::f32, width, height), threads);
    const std::size_t first_page = offset / page;
    const std::size_t last_page = (offset + static_cast<std::size_t>(width) * height * sizeof(float) - 1) / page;
    std::vector<unsigned char> present(bytes / page);
    ASSERT_EQ(mincore(p, bytes, present.data()), 0);
    if (supported)
      for (std::size_t i = first_page; i <= last_page; ++i) ASSERT_TRUE(present[i] & 1) << "page " << i << " of a view on " << threads << " threads";
    EXPECT_EQ(f[0], 3.0f);
    EXPECT_EQ(f[width * height - 1], 4.0f);
    EXPECT_EQ(f[width * height / 2], 0.0f);
    munmap(p, bytes);
  }
}

}  // namespace
}  // namespace fastblur
