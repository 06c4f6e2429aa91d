#include "cpu/scratch.hpp"

#include <algorithm>
#include <cstdlib>

namespace fastblur::cpu {
namespace {

thread_local RetainedBuffer t_slots[2];

}  // namespace

std::byte* RetainedBuffer::reserve(std::size_t bytes, const char* what) {
  if (size_ >= bytes && data_) return data_.get();
  data_.reset();  // free first, so the old and new buffers never coexist
  size_ = 0;
  // aligned_alloc wants a multiple of the alignment; like malloc it returns null on failure (also
  // under AddressSanitizer with allocator_may_return_null=1), and free releases it.
  const std::size_t rounded = bytes <= core::kMaxAllocationBytes ? (std::max<std::size_t>(bytes, 1) + 63) / 64 * 64 : 0;
  void* p = rounded ? std::aligned_alloc(64, rounded) : nullptr;
  if (!p) throw OutOfMemory("cannot allocate " + std::to_string(bytes) + " bytes for the " + what);
  data_.reset(static_cast<std::byte*>(p));
  size_ = rounded;
  return data_.get();
}

ScratchImage::ScratchImage(std::size_t bytes, int slot)
    : data_((bytes > kRetainLimit ? owned_ : t_slots[slot]).reserve(bytes, "intermediate image")) {}

}  // namespace fastblur::cpu
