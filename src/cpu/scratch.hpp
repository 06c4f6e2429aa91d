#pragma once
// Intermediate images and lane buffers are borrowed from a per-thread cache: allocating them afresh
// costs a page fault per 4 KiB (about 90 ms for a 1080p RGBA float image on a VM) plus a memset,
// more than the blur itself, and in a process whose allocator hands large blocks back to the system
// on free (Python's) every call pays it again. Buffers are uninitialised; each blur overwrites every
// element it reads back.
#include <cstddef>
#include <memory>
#include <new>
#include <string>

#include "core/size.hpp"
#include "fastblur/error.hpp"

namespace fastblur::cpu {

/// A buffer kept from one call to the next by whoever owns it (a thread_local): reserve() returns
/// at least `bytes` uninitialised bytes at a 64-byte boundary (whole cache lines: an unaligned
/// 64-byte vector spans two), growing it when needed - the old one freed first, so old and new
/// never coexist. Throws OutOfMemory naming `what` when the memory cannot be had.
class RetainedBuffer {
 public:
  std::byte* reserve(std::size_t bytes, const char* what);

 private:
  core::UniqueBytes data_;
  std::size_t size_ = 0;
};

/// Bytes above which a scratch buffer is allocated for its call only, so no thread keeps a huge one.
inline constexpr std::size_t kRetainLimit = std::size_t{1} << 30;

class ScratchImage {
 public:
  /// Borrows `bytes` bytes from this thread's slot `slot` (0 or 1), growing it if needed. Sizes
  /// above kRetainLimit are allocated for this call only. Throws OutOfMemory when the memory
  /// cannot be had, before anything is written.
  ScratchImage(std::size_t bytes, int slot);
  std::byte* data() const { return data_; }
  template <class T>
  T* as() const {
    return reinterpret_cast<T*>(data_);
  }

 private:
  RetainedBuffer owned_;  // only for sizes that are not retained
  std::byte* data_ = nullptr;
};

}  // namespace fastblur::cpu
