#pragma once
// A small valid ICC v2 RGB display profile for metadata round trips: header (D50) and one 'cprt'
// text tag. Not header-only: libpng refuses profiles that compress to under 14 bytes.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace fastblur::test {

inline std::vector<std::uint8_t> small_icc_profile() {
  const std::string copyright = "Copyright (c) fastblur tests: a small but honest ICC v2 display profile.";
  const std::size_t tag_size = 8 + copyright.size() + 1, size = (144 + tag_size + 3) / 4 * 4;
  std::vector<std::uint8_t> icc(size, 0);
  const auto be32 = [&](std::size_t at, std::uint32_t v) {
    for (int b = 0; b < 4; ++b) icc[at + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(v >> (24 - 8 * b));
  };
  be32(0, static_cast<std::uint32_t>(size)), be32(8, 0x02100000);
  std::memcpy(&icc[12], "mntrRGB XYZ ", 12);
  std::memcpy(&icc[36], "acsp", 4);
  be32(68, 0x0000F6D6), be32(72, 0x00010000), be32(76, 0x0000D32D);  // D50
  be32(128, 1);  // one tag: 'cprt', a 'text' at 144
  std::memcpy(&icc[132], "cprt", 4);
  be32(136, 144), be32(140, static_cast<std::uint32_t>(tag_size));
  std::memcpy(&icc[144], "text", 4);
  std::memcpy(&icc[152], copyright.c_str(), copyright.size());
  return icc;
}

}  // namespace fastblur::test
