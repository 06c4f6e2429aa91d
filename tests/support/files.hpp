#pragma once
// Whole-file reads and writes for tests and fuzz harnesses.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fastblur::test {

/// The whole file as bytes ("" if it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Writes `bytes` as the whole file.
inline void spit(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

}  // namespace fastblur::test
