#pragma once
// Whole-file reads and writes for tests and fuzz harnesses.
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace fastblur::test {

/// The whole file as bytes ("" if it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string bytes;  // a file that cannot be opened reads as empty
  // In blocks: a character at a time took 25 s for a 128 MB file under ASan.
  std::vector<char> block(std::size_t{1} << 16);
  while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0)
    bytes.append(block.data(), static_cast<std::size_t>(in.gcount()));
  return bytes;
}

/// Writes `bytes` as the whole file.
inline void spit(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out << bytes;
}

}  // namespace fastblur::test
