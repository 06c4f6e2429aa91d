#pragma once
// Outputs are written to a temporary file beside the target and renamed over it only when
// complete, so a failure never leaves a partial file or touches what was there before.
#include <filesystem>
#include <span>

namespace fastblur::io {

class AtomicFile {
 public:
  /// Checks that the target's directory exists and picks a temporary name in it that keeps the
  /// target's extension (OpenImageIO chooses the format by extension). Throws IoError.
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile();  ///< removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::filesystem::path& temporary_path() const { return temp_; }
  const std::filesystem::path& target_path() const { return target_; }
  /// Renames the temporary file over the target. Throws IoError.
  void commit();

 private:
  std::filesystem::path target_, temp_;
  bool committed_ = false;
};

/// Writes bytes to `target` atomically. Throws IoError.
void write_file_atomically(const std::filesystem::path& target, std::span<const std::byte> bytes);

}  // namespace fastblur::io
