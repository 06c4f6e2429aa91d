#pragma once
// A progress bar on stderr when it is a terminal, one line per step otherwise (or nothing, quiet).
#include <unistd.h>

#include <cstdio>
#include <string>

namespace fastblur::cli {

class Progress {
 public:
  explicit Progress(int total, bool lines_off_terminal = true)
      : total_(total), tty_(isatty(STDERR_FILENO) != 0), lines_(lines_off_terminal) {}
  void step(const std::string& what) {
    ++done_;
    const int width = 30, filled = total_ > 0 ? width * done_ / total_ : width;
    if (tty_) {
      std::fprintf(stderr, "\r[%s%s] %2d/%d %-40.40s", std::string(static_cast<std::size_t>(filled), '#').c_str(),
                   std::string(static_cast<std::size_t>(width - filled), '-').c_str(), done_, total_, what.c_str());
      if (done_ == total_) std::fprintf(stderr, "\n");
    } else if (lines_) {
      std::fprintf(stderr, "[%d/%d] %s\n", done_, total_, what.c_str());
    }
    std::fflush(stderr);
  }
  bool on_terminal() const { return tty_; }

 private:
  int total_, done_ = 0;
  bool tty_, lines_;
};

}  // namespace fastblur::cli
