#include "io/write_options.hpp"

#include "fastblur/error.hpp"

namespace fastblur::io {

int lossy_quality(const WriteOptions& o, const std::string& format) {
  if (o.quality && (*o.quality < 1 || *o.quality > 100))
    throw InvalidArgument("--quality must be 1 to 100; got " + std::to_string(*o.quality));
  if (!o.compression.empty())
    throw InvalidArgument("--compression is for PNG, TIFF and OpenEXR; " + format + " takes --quality");
  return o.quality.value_or(95);
}

std::optional<int> png_compression_level(const WriteOptions& o, const std::filesystem::path& path) {
  if (o.quality) throw InvalidArgument("--quality is for JPEG, WebP and HEIF; '" + path.string() + "' is png");
  if (o.compression.empty()) return std::nullopt;
  const std::string& c = o.compression;
  if (c.size() != 1 || c[0] < '0' || c[0] > '9')
    throw InvalidArgument("--compression for PNG is a zlib level 0 to 9; got '" + c + "'");
  return c[0] - '0';
}

}  // namespace fastblur::io
