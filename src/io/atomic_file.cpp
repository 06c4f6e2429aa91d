#include "io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include "fastblur/error.hpp"

namespace fastblur::io {
namespace {

// The temporary files a signal handler must remove. A handler may only use async-signal-safe
// calls (unlink, sigaction, raise) and lock-free atomics, so the paths live in fixed slots.
constexpr int kSlots = 32;
constexpr std::size_t kPathBytes = 4096;
struct Slot {
  std::atomic<int> state{0};  // 0 free, 1 being filled, 2 holds a path
  char path[kPathBytes];
};
Slot g_slots[kSlots];
static_assert(std::atomic<int>::is_always_lock_free);

int register_temporary(const std::string& path) {
  if (path.size() >= kPathBytes) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (g_slots[i].state.compare_exchange_strong(expected, 1, std::memory_order_acquire)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].state.store(2, std::memory_order_release);
      return i;
    }
  }
  return -1;  // more than kSlots outputs at once: this one is not cleaned up on a signal
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_slots[slot].state.store(0, std::memory_order_release);
}

extern "C" void remove_temporaries_and_die(int sig) {
  for (Slot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == 2) ::unlink(s.path);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);  // delivered when the handler returns: the process dies of `sig`
}

// Best effort: makes the data (or a directory entry) durable before it is relied on.
void sync_path(const std::filesystem::path& p, int flags) {
  const int fd = ::open(p.c_str(), flags | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void remove_temporaries_on_signals() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_temporaries_and_die;
    sigfillset(&sa.sa_mask);  // no second signal interrupts the cleanup
    ::sigaction(sig, &sa, nullptr);
  }
}

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
  // Registered before the file exists, so there is no moment when it exists unregistered.
  signal_slot_ = register_temporary(temp_.string());
}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    std::error_code ec;
    std::filesystem::remove(temp_, ec);
  }
  unregister_temporary(signal_slot_);
}

void AtomicFile::commit() {
  std::error_code ec;
  if (!std::filesystem::exists(temp_, ec))
    throw IoError("cannot write '" + target_.string() + "': the temporary file was not created");
  // On disk before the name points at it: a crash right after the rename must not leave an empty
  // file where the old output was.
  sync_path(temp_, O_RDONLY);
  // The new output keeps the permissions of the file it replaces.
  const auto old = std::filesystem::status(target_, ec);
  if (!ec && std::filesystem::is_regular_file(old))
    std::filesystem::permissions(temp_, old.permissions(), std::filesystem::perm_options::replace, ec);
  std::filesystem::rename(temp_, target_, ec);
  if (ec) throw IoError("cannot write '" + target_.string() + "': " + ec.message());
  committed_ = true;
  unregister_temporary(signal_slot_);
  signal_slot_ = -1;
  const std::filesystem::path dir = target_.parent_path();
  sync_path(dir.empty() ? std::filesystem::path(".") : dir, O_RDONLY | O_DIRECTORY);
}

void write_file_atomically(const std::filesystem::path& target, std::span<const std::byte> bytes) {
  AtomicFile file(target);
  {
    std::ofstream out(file.temporary_path(), std::ios::binary | std::ios::trunc);
    if (!out) throw IoError("cannot write '" + target.string() + "': " + std::strerror(errno));
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) throw IoError("cannot write '" + target.string() + "': " + std::strerror(errno));
    out.close();
    if (!out) throw IoError("cannot write '" + target.string() + "': " + std::strerror(errno));
  }
  file.commit();
}

}  // namespace fastblur::io
