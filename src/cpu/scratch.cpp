#include "cpu/scratch.hpp"

namespace fastblur::cpu {
namespace {

struct Slot {
  core::UniqueBytes data;
  std::size_t size = 0;
};
thread_local Slot t_slots[2];

core::UniqueBytes allocate(std::size_t bytes) {
  return core::allocate_bytes(bytes, "intermediate image");  // uninitialised: no memset
}

}  // namespace

ScratchImage::ScratchImage(std::size_t bytes, int slot) {
  if (bytes > kRetainLimit) {
    owned_ = allocate(bytes);
    data_ = owned_.get();
    return;
  }
  Slot& s = t_slots[slot];
  if (s.size < bytes) {
    s.data.reset();  // free first, so the old and new buffers never coexist
    s.size = 0;
    s.data = allocate(bytes);
    s.size = bytes;
  }
  data_ = s.data.get();
}

}  // namespace fastblur::cpu
