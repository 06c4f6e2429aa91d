#pragma once
// The image-format stack - OpenImageIO and the ~250 shared libraries it pulls in, 150 ms of dynamic
// loading - lives in a module, libfastblur_image.so, opened on the first image file. `fastblur
// --version`, .npy blurs and the library never load it. This is the table the module hands the
// loader (image_file.cpp); both sides are built together, so the version only guards against a
// stale module found on the search path.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>

#include "io/image_file.hpp"

namespace fastblur::io {

inline constexpr int kImageCodecsVersion = 2;

/// Writers write to `temp` (the loader's AtomicFile, which renames it over the target once complete,
/// and removes it on failure or a signal) and name `target` in their messages. A row writer's
/// commit() closes the file.
struct ImageCodecs {
  int version = kImageCodecsVersion;
  void (*write_image)(const std::filesystem::path& temp, const std::filesystem::path& target, const Image& image,
                      std::optional<ElementType> file_type, const WriteOptions& options);
  bool (*is_writable_image_path)(const std::filesystem::path& path);
  std::unique_ptr<ImageRowReader> (*open_rows)(const std::filesystem::path& path);
  std::unique_ptr<ImageRowWriter> (*create_rows)(const std::filesystem::path& temp, const std::filesystem::path& target,
                                                 const ImageHeader& header, std::optional<ElementType> file_type,
                                                 const WriteOptions& options);
};

}  // namespace fastblur::io

/// The module's one exported symbol.
extern "C" const fastblur::io::ImageCodecs* fastblur_image_codecs();
