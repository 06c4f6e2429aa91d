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
  /// Flushes the temporary file to disk, gives it the permissions of the file it replaces (if
  /// any), and renames it over the target. Throws IoError.
  void commit();

 private:
  std::filesystem::path target_, temp_;
  int signal_slot_ = -1;  // where remove_temporaries_on_signals finds temp_
  bool committed_ = false;
};

/// Writes bytes to `target` atomically. Throws IoError.
void write_file_atomically(const std::filesystem::path& target, std::span<const std::byte> bytes);

/// For programs (the CLI; the library installs no handlers): on SIGINT, SIGTERM or SIGHUP, remove
/// the temporary file of every AtomicFile not yet committed, then die of the signal as if it had
/// not been caught (so the exit status still says which signal). Targets are never touched, so an
/// interrupted run leaves the old output as it was and no partial file. A signal the process
/// ignores (nohup's SIGHUP) stays ignored. SIGKILL cannot be caught: it can leave a temporary file
/// (named .NAME.fastblur-tmp-PID-N.EXT beside the target), never a partial target.
void remove_temporaries_on_signals();

}  // namespace fastblur::io
