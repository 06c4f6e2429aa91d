// The CLI loses no data: it never writes to its input (unless --in-place), replaces an output only
// with a complete file (temporary + rename), and when interrupted (SIGINT, SIGTERM) while blurring
// or while writing, it dies of the signal leaving the old output as it was and no partial or
// temporary file.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "io/npy.hpp"
#include "support/temp_dir.hpp"
#include "support/test_support.hpp"

extern char** environ;

namespace fastblur {
namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;

using test::slurp;

class CliSafety : public test::TempDirTest {
 protected:

  // Starts the CLI with its output streams on /dev/null; returns its pid.
  pid_t start(const std::vector<std::string>& args) const {
    std::vector<std::string> argv{FASTBLUR_CLI_PATH};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> cargv;
    for (auto& a : argv) cargv.push_back(a.data());
    cargv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, cargv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -1;
  }
  static int wait_for(pid_t pid) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return status;
  }
  int run(const std::vector<std::string>& args) const {
    const int status = wait_for(start(args));
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  bool has_temporary() const {
    for (const auto& e : fs::directory_iterator(dir_))
      if (e.path().filename().string().find("fastblur-tmp") != std::string::npos) return true;
    return false;
  }
  // A float64 array of h x w random values.
  void write_array(const std::string& name, std::int64_t h, std::int64_t w) const {
    io::NpyArray a;
    a.type = ElementType::f64;
    a.shape = {h, w};
    a.data.resize(static_cast<std::size_t>(h * w) * 8);
    auto rng = test::rng_for_test();
    test::fill_random(a.view(), rng);
    const auto bytes = io::encode_npy(a);
    std::ofstream(path(name), std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                      static_cast<std::streamsize>(bytes.size()));
  }

};

TEST_F(CliSafety, InterruptedWhileBlurringLeavesTheOldOutputAndNoFile) {
  // About a second of exact blur at a huge radius: the signal comes while it computes.
  write_array("in.npy", 1200, 1200);
  for (int sig : {SIGINT, SIGTERM}) {
    std::ofstream(path("out.npy")) << "previous output";
    const pid_t pid = start({"blur", path("in.npy").string(), path("out.npy").string(), "-s", "400", "-a", "fir"});
    ASSERT_GT(pid, 0);
    std::this_thread::sleep_for(150ms);
    ASSERT_EQ(::kill(pid, sig), 0);
    const int status = wait_for(pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the blur finished before the signal: make it longer (status " << status << ")";
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_EQ(slurp(path("out.npy")), "previous output");
    EXPECT_FALSE(has_temporary());
  }
}

TEST_F(CliSafety, InterruptedWhileWritingLeavesTheOldOutputAndNoTemporaryFile) {
  // A quick blur and a large output (48 MB): the signal comes while the temporary file is being
  // written. The window is found by watching for the temporary file; at that moment the old
  // output must still be whole.
  write_array("in.npy", 2500, 2400);
  // The complete new output, for a signal that lands after the rename (the process then dies of
  // it with its work done; ThreadSanitizer, which delivers signals late, makes that common).
  ASSERT_EQ(wait_for(start({"blur", path("in.npy").string(), path("whole.npy").string(), "-s", "0.3"})), 0);
  const std::string whole = slurp(path("whole.npy"));
  fs::remove(path("whole.npy"));
  int caught = 0;
  for (int attempt = 0; attempt < 6 && caught < 2; ++attempt) {
    const int sig = attempt % 2 ? SIGTERM : SIGINT;
    std::ofstream(path("out.npy")) << "previous output";
    const pid_t pid = start({"blur", path("in.npy").string(), path("out.npy").string(), "-s", "0.3"});
    ASSERT_GT(pid, 0);
    bool seen = false;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (!seen && std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) break;  // finished before we saw it
      seen = has_temporary();
      if (!seen) std::this_thread::sleep_for(100us);
    }
    if (!seen) {
      EXPECT_NE(slurp(path("out.npy")), "previous output");  // it completed: the new output
      continue;
    }
    ::kill(pid, SIGSTOP);  // freeze it mid-write to look at the old output
    EXPECT_EQ(slurp(path("out.npy")), "previous output") << "the output changed before the new one was complete";
    ::kill(pid, sig);
    ::kill(pid, SIGCONT);
    const int status = wait_for(pid);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) continue;  // the rename had happened already
    ASSERT_TRUE(WIFSIGNALED(status)) << status;
    EXPECT_EQ(WTERMSIG(status), sig);
    EXPECT_FALSE(has_temporary());
    const std::string now = slurp(path("out.npy"));
    if (now == whole) continue;  // the signal came after the rename: the new output, complete
    EXPECT_TRUE(now == "previous output") << "the output is neither the old one nor the complete new one ("
                                          << now.size() << " bytes)";
    ++caught;
  }
  EXPECT_GE(caught, 1) << "never caught the CLI while it was writing";
}

TEST_F(CliSafety, InterruptedInPlaceRunLeavesTheInputWhole) {
  // Big enough to be still running after 150 ms (start-up takes a few ms since the image libraries
  // load on demand): a 4000x4000 float64 array at sigma 400 takes about 0.6 s.
  write_array("in.npy", 4000, 4000);
  const std::string before = slurp(path("in.npy"));
  const pid_t pid = start({"blur", path("in.npy").string(), path("in.npy").string(), "-s", "400", "--in-place"});
  ASSERT_GT(pid, 0);
  std::this_thread::sleep_for(150ms);
  ::kill(pid, SIGINT);
  const int status = wait_for(pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(slurp(path("in.npy")), before);
  EXPECT_FALSE(has_temporary());
}

TEST_F(CliSafety, TheInputIsNeverTheOutputUnderAnotherName) {
  write_array("in.npy", 20, 30);
  const std::string before = slurp(path("in.npy"));
  fs::create_hard_link(path("in.npy"), path("hard.npy"));
  fs::create_symlink(path("in.npy"), path("soft.npy"));
  fs::create_directories(path("sub"));
  const std::string in = path("in.npy").string();
  for (const std::string out : {path("hard.npy").string(), path("soft.npy").string(),
                                (dir_ / "sub" / ".." / "in.npy").string(), (dir_ / "." / "in.npy").string()}) {
    EXPECT_EQ(run({"blur", in, out, "-s", "2"}), 2) << out;
    EXPECT_EQ(slurp(path("in.npy")), before) << out;
  }
  // Reading through a symlink is fine, and so is a separate output.
  EXPECT_EQ(run({"blur", path("soft.npy").string(), path("out.npy").string(), "-s", "2"}), 0);
  EXPECT_EQ(slurp(path("in.npy")), before);
  EXPECT_FALSE(has_temporary());
}

TEST_F(CliSafety, AFailedRunLeavesTheOldOutputAsItWas) {
  write_array("in.npy", 20, 30);
  std::ofstream(path("out.npy")) << "previous output";
  // Failures at every stage: arguments, reading, planning, writing.
  EXPECT_NE(run({"blur", path("in.npy").string(), path("out.npy").string(), "-s", "-1"}), 0);
  EXPECT_NE(run({"blur", path("in.npy").string(), path("out.npy").string(), "-s", "2", "-a", "fir-incremental"}),
            0);  // a GPU technique: refused by the CPU backend after reading
  std::ofstream(path("bad.npy")) << "\x93NUMPY\x01\x00garbage";
  EXPECT_NE(run({"blur", path("bad.npy").string(), path("out.npy").string(), "-s", "2"}), 0);
  EXPECT_EQ(slurp(path("out.npy")), "previous output");
  EXPECT_FALSE(has_temporary());
}

}  // namespace
}  // namespace fastblur
