#pragma once
// Intermediate images are borrowed from a per-thread cache: allocating them afresh costs a page
// fault per 4 KiB (about 90 ms for a 1080p RGBA float image on a VM) plus a memset, more than the
// blur itself. Buffers are uninitialised; each blur overwrites every element it reads back.
#include <cstddef>
#include <memory>
#include <new>
#include <string>

#include "core/size.hpp"
#include "fastblur/error.hpp"

namespace fastblur::cpu {

class ScratchImage {
 public:
  /// Borrows `bytes` bytes from this thread's slot `slot` (0 or 1), growing it if needed. Sizes
  /// above kRetainLimit are allocated for this call only, so no thread keeps a huge buffer. Throws
  /// OutOfMemory when the memory cannot be had (core::allocate_bytes), before anything is written.
  ScratchImage(std::size_t bytes, int slot);
  std::byte* data() const { return data_; }
  template <class T>
  T* as() const {
    return reinterpret_cast<T*>(data_);
  }

  static constexpr std::size_t kRetainLimit = std::size_t{1} << 30;

 private:
  core::UniqueBytes owned_;  // only for sizes that are not retained
  std::byte* data_ = nullptr;
};

}  // namespace fastblur::cpu
