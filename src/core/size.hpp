#pragma once
// Sizes from numbers nobody checked (file headers, view extents, requests): byte counts, strides and
// offsets are 64-bit everywhere, and a product that does not fit is an error, never a wrapped size.
// Allocations of such sizes report failure as OutOfMemory, never as a crash.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>

#include "fastblur/error.hpp"
#include "fastblur/view.hpp"

namespace fastblur::core {

/// The largest single allocation fastblur asks for: 2^48 bytes, the whole user address space of
/// x86-64 and AArch64 (with 4-level page tables). Larger requests are refused as OutOfMemory without
/// asking the allocator.
inline constexpr std::uint64_t kMaxAllocationBytes = std::uint64_t{1} << 48;

/// The product of `factors`, or nullopt when it does not fit in 64 bits.
inline std::optional<std::uint64_t> checked_product(std::initializer_list<std::uint64_t> factors) noexcept {
  std::uint64_t p = 1;
  for (std::uint64_t f : factors)
    if (__builtin_mul_overflow(p, f, &p)) return std::nullopt;
  return p;
}

/// Bytes of a packed image of the view's extents and channels in element type `type`. Throws
/// OutOfMemory naming `what` when that is more than kMaxAllocationBytes (or than 64 bits hold).
inline std::size_t packed_bytes(const View& v, ElementType type, const char* what) {
  const auto n = checked_product({static_cast<std::uint64_t>(v.extent[0]), static_cast<std::uint64_t>(v.extent[1]),
                                  static_cast<std::uint64_t>(v.extent[2]), static_cast<std::uint64_t>(v.channels),
                                  element_size(type)});
  if (!n || *n > kMaxAllocationBytes)
    throw OutOfMemory(std::string("the ") + what + " would need " + (n ? std::to_string(*n) : "more than 2^64") +
                      " bytes, more than can be addressed");
  return static_cast<std::size_t>(*n);
}

struct FreeDeleter {
  void operator()(void* p) const noexcept { std::free(p); }
};
using UniqueBytes = std::unique_ptr<std::byte[], FreeDeleter>;

/// Allocates `bytes` uninitialised bytes, or throws OutOfMemory naming `what`. Uses malloc, which
/// returns null on failure everywhere (also under AddressSanitizer with allocator_may_return_null=1,
/// whose operator new aborts instead of throwing std::bad_alloc).
inline UniqueBytes allocate_bytes(std::size_t bytes, const char* what) {
  void* p = bytes <= kMaxAllocationBytes ? std::malloc(bytes == 0 ? 1 : bytes) : nullptr;
  if (!p) throw OutOfMemory("cannot allocate " + std::to_string(bytes) + " bytes for the " + what);
  return UniqueBytes(static_cast<std::byte*>(p));
}

}  // namespace fastblur::core
