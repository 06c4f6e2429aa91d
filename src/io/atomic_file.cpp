#include "io/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "fastblur/error.hpp"

namespace fastblur::io {

AtomicFile::AtomicFile(std::filesystem::path target) : target_(std::move(target)) {
  std::filesystem::path dir = target_.parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec))
    throw IoError("cannot write '" + target_.string() + "': the directory '" + dir.string() + "' does not exist");
  if (std::filesystem::is_directory(target_, ec))
    throw IoError("cannot write '" + target_.string() + "': it is a directory");
  static std::atomic<unsigned> counter{0};
  temp_ = dir / ("." + target_.stem().string() + ".fastblur-tmp-" + std::to_string(::getpid()) + "-" +
                 std::to_string(counter++) + target_.extension().string());
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    std::error_code ec;
    std::filesystem::remove(temp_, ec);
  }
}

void AtomicFile::commit() {
  std::error_code ec;
  if (!std::filesystem::exists(temp_, ec))
    throw IoError("cannot write '" + target_.string() + "': the temporary file was not created");
  std::filesystem::rename(temp_, target_, ec);
  if (ec) throw IoError("cannot write '" + target_.string() + "': " + ec.message());
  committed_ = true;
}

void write_file_atomically(const std::filesystem::path& target, std::span<const std::byte> bytes) {
  AtomicFile file(target);
  {
    std::ofstream out(file.temporary_path(), std::ios::binary | std::ios::trunc);
    if (!out) throw IoError("cannot write '" + target.string() + "': " + std::strerror(errno));
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) throw IoError("cannot write '" + target.string() + "': " + std::strerror(errno));
  }
  file.commit();
}

}  // namespace fastblur::io
