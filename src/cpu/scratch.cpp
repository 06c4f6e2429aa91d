#include "cpu/scratch.hpp"

namespace fastblur::cpu {
namespace {

struct Slot {
  std::unique_ptr<std::byte[]> data;
  std::size_t size = 0;
};
thread_local Slot t_slots[2];

std::unique_ptr<std::byte[]> allocate(std::size_t bytes) {
  try {
    return std::unique_ptr<std::byte[]>(new std::byte[bytes]);  // default-initialised: no memset
  } catch (const std::bad_alloc&) {
    throw OutOfMemory("cannot allocate " + std::to_string(bytes) + " bytes for an intermediate image");
  }
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
