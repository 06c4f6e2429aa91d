// Atomic outputs: the target changes only by one rename of a complete file, keeps its permissions,
// and a process killed by SIGINT, SIGTERM or SIGHUP while writing (remove_temporaries_on_signals)
// leaves the old target as it was and no temporary file.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "fastblur/error.hpp"
#include "io/atomic_file.hpp"
#include "support/temp_dir.hpp"

namespace fastblur {
namespace {
namespace fs = std::filesystem;

using test::slurp;

class AtomicFileTest : public test::TempDirTest {
 protected:
  int files_in_dir() const {
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir_)) n += e.is_regular_file();
    return n;
  }
};

TEST_F(AtomicFileTest, TheTargetChangesOnlyAtCommitAndKeepsItsPermissions) {
  const fs::path target = dir_ / "out.bin";
  std::ofstream(target) << "old";
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  {
    io::AtomicFile file(target);
    EXPECT_EQ(file.temporary_path().parent_path(), dir_);
    EXPECT_EQ(file.temporary_path().extension(), ".bin");
    std::ofstream(file.temporary_path()) << "new contents";
    EXPECT_EQ(slurp(target), "old");  // complete, but not yet committed
    file.commit();
  }
  EXPECT_EQ(slurp(target), "new contents");
  EXPECT_EQ(fs::status(target).permissions(), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  EXPECT_EQ(files_in_dir(), 1);
  {
    io::AtomicFile abandoned(target);  // an error before commit: the destructor cleans up
    std::ofstream(abandoned.temporary_path()) << "partial";
  }
  EXPECT_EQ(slurp(target), "new contents");
  EXPECT_EQ(files_in_dir(), 1);
  EXPECT_THROW(io::AtomicFile(dir_ / "no" / "such" / "dir.bin"), IoError);
  EXPECT_THROW(io::AtomicFile{dir_}, IoError);
}

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FASTBLUR_UNDER_TSAN 1
#endif
#endif

TEST_F(AtomicFileTest, ASignalWhileWritingLeavesTheOldTargetAndNoTemporaryFile) {
#ifdef FASTBLUR_UNDER_TSAN
  // ThreadSanitizer defers signals to its interception points and, in a child forked from this
  // threaded test process, never delivers one that the child raises at itself. The same promise
  // is tested end to end, under TSan too, by CliSafety.Interrupted* (signals sent to the CLI).
  GTEST_SKIP() << "signals raised in a forked child are not delivered under ThreadSanitizer";
#endif
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    const fs::path target = dir_ / "out.npy";
    std::ofstream(target) << "previous output";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {  // the writer: half a file in its temporary, then the signal
      io::remove_temporaries_on_signals();
      io::AtomicFile file(target);
      std::ofstream out(file.temporary_path(), std::ios::binary);
      out << std::string(1 << 20, 'x');
      out.flush();
      ::raise(sig);
      ::_exit(99);  // not reached: the signal kills the process
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << sig << ": exit status " << status;
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_EQ(slurp(target), "previous output") << "signal " << sig;
    EXPECT_EQ(files_in_dir(), 1) << "signal " << sig << " left a temporary file";
  }
}

TEST_F(AtomicFileTest, AnIgnoredSignalStaysIgnored) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // as under nohup: SIGHUP ignored before the handlers are installed
    ::signal(SIGHUP, SIG_IGN);
    io::remove_temporaries_on_signals();
    io::AtomicFile file(dir_ / "out.bin");
    std::ofstream(file.temporary_path()) << "data";
    ::raise(SIGHUP);
    file.commit();
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(slurp(dir_ / "out.bin"), "data");
}

}  // namespace
}  // namespace fastblur
