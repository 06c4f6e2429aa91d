#pragma once
// What every harness shares: how a broken promise ends the run, and where its files go.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace fastblur::fuzz {

/// Ends the run with a crash the fuzzer records, naming the harness and the broken promise.
[[noreturn]] inline void fail(const char* harness, const char* what, const std::string& detail) {
  std::fprintf(stderr, "%s: %s %s\n", harness, what, detail.c_str());
  std::abort();
}

/// <tmpfs, else the temp directory>/fastblur-<name>-<pid>, created: the process's own files.
inline std::filesystem::path scratch_dir(const std::string& name) {
  namespace fs = std::filesystem;
  const fs::path base = fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
  const fs::path dir = base / ("fastblur-" + name + "-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

}  // namespace fastblur::fuzz
