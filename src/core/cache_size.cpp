#include "core/cache_size.hpp"

#include <fstream>
#include <string>

namespace fastblur::core {
namespace {

constexpr std::uint64_t kDefaultBytes = std::uint64_t{32} << 20;

// A sysfs cache size: "32768K", "1024K", "8M" or a plain byte count; 0 where unreadable.
std::uint64_t read_size(const std::string& path) {
  std::ifstream in(path);
  std::uint64_t value = 0;
  char unit = 0;
  if (!(in >> value)) return 0;
  in >> unit;
  if (unit == 'K') return value << 10;
  if (unit == 'M') return value << 20;
  if (unit == 'G') return value << 30;
  return value;
}

std::uint64_t read_last_level() {
  const std::string base = "/sys/devices/system/cpu/cpu0/cache/index";
  int best_level = 0;
  std::uint64_t best = 0;
  for (int i = 0; i < 8; ++i) {
    std::ifstream type(base + std::to_string(i) + "/type"), level(base + std::to_string(i) + "/level");
    std::string t;
    int l = 0;
    if (!(type >> t) || !(level >> l) || t == "Instruction") continue;
    const std::uint64_t bytes = read_size(base + std::to_string(i) + "/size");
    if (bytes > 0 && l >= best_level) best_level = l, best = bytes;
  }
  return best > 0 ? best : kDefaultBytes;
}

}  // namespace

std::uint64_t last_level_cache_bytes() {
  static const std::uint64_t bytes = read_last_level();
  return bytes;
}

}  // namespace fastblur::core
