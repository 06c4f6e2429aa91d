#include "kept_outputs.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <list>
#include <mutex>
#include <new>

namespace py = pybind11;

namespace fastblur::python {

namespace {

constexpr std::size_t kSmallest = std::size_t{1} << 20;  // below: NumPy's allocator reuses memory well
constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kMostBlocks = 8;

struct Block {
  void* data;
  std::size_t bytes;  // a multiple of 2 MiB: sizes that differ by less share blocks
};

// The blocks freed and kept, newest first. Never destroyed: an array freed at interpreter exit
// may return its block after static destructors ran.
struct Kept {
  std::mutex lock;
  std::list<Block> blocks;
  std::size_t bytes = 0;
  std::size_t limit = std::size_t{512} << 20;

  Kept() {
    // 512 MiB, or a 16th of the machine's memory where that is less (a dask worker's unmanaged memory).
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) limit = std::min(limit, static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) / 16);
    if (const char* mib = std::getenv("FASTBLUR_KEPT_OUTPUT_MIB")) limit = std::strtoull(mib, nullptr, 10) << 20;
  }

  // Drops the oldest blocks until at most `limit` bytes and kMostBlocks are kept. Holds `lock`.
  void trim() {
    while (!blocks.empty() && (bytes > limit || blocks.size() > kMostBlocks)) {
      munmap(blocks.back().data, blocks.back().bytes);
      bytes -= blocks.back().bytes;
      blocks.pop_back();
    }
  }
};

Kept& kept() {
  static Kept* k = new Kept;
  return *k;
}

Block take(std::size_t bytes) {
  {
    Kept& k = kept();
    std::lock_guard<std::mutex> guard(k.lock);
    for (auto it = k.blocks.begin(); it != k.blocks.end(); ++it)
      if (it->bytes == bytes) {
        const Block b = *it;
        k.bytes -= b.bytes;
        k.blocks.erase(it);
        return b;
      }
  }
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  (void)madvise(p, bytes, MADV_HUGEPAGE);  // as NumPy does for large arrays: fewer faults, faster zeroing
  return {p, bytes};
}

void give_back(const Block& b) {
  Kept& k = kept();
  std::lock_guard<std::mutex> guard(k.lock);
  k.blocks.push_front(b);
  k.bytes += b.bytes;
  k.trim();
}

}  // namespace

py::array new_output(const py::dtype& dtype, const std::vector<py::ssize_t>& shape) {
  std::size_t bytes = static_cast<std::size_t>(dtype.itemsize());
  for (const py::ssize_t n : shape) bytes *= static_cast<std::size_t>(n);
  if (bytes < kSmallest) return py::array(dtype, shape);
  const Block b = take((bytes + kHugePage - 1) / kHugePage * kHugePage);
  py::capsule owner(new Block(b), [](void* p) {
    const auto* block = static_cast<const Block*>(p);
    give_back(*block);
    delete block;
  });
  return py::array(dtype, shape, static_cast<void*>(b.data), owner);
}

std::size_t set_kept_output_limit(std::size_t limit) {
  Kept& k = kept();
  std::lock_guard<std::mutex> guard(k.lock);
  const std::size_t old = k.limit;
  k.limit = limit;
  k.trim();
  return old;
}

std::size_t kept_output_bytes() {
  Kept& k = kept();
  std::lock_guard<std::mutex> guard(k.lock);
  return k.bytes;
}

std::size_t kept_output_blocks() {
  Kept& k = kept();
  std::lock_guard<std::mutex> guard(k.lock);
  return k.blocks.size();
}

}  // namespace fastblur::python
