#pragma once
// The .npy prefix (magic, version, header length) and header for a given dict text, padded as
// NumPy pads it - so tests and seed corpora can write well-formed and malformed headers alike.
#include <cstddef>
#include <string>

namespace fastblur::test {

inline std::string npy_header(int major, const std::string& dict) {
  std::string h = dict;
  const std::size_t prefix = major == 1 ? 10 : 12;  // version 1: 2-byte length; 2 and 3: 4-byte
  h.append((64 - (prefix + h.size() + 1) % 64) % 64, ' ');
  h += '\n';
  std::string f = "\x93NUMPY";
  f += static_cast<char>(major);
  f += '\0';
  for (std::size_t i = 0; i < prefix - 8; ++i) f += static_cast<char>((h.size() >> (8 * i)) & 0xFF);
  return f + h;
}

}  // namespace fastblur::test
