#include "help_format.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>

namespace fastblur::cli {
namespace {

// `text` wrapped to `width` columns; each of its own lines keeps its leading spaces as the indent
// of its continuation lines too.
std::string wrap(const std::string& text, std::size_t width) {
  std::string out;
  std::istringstream lines(text);
  std::string line;
  bool first_line = true;
  while (std::getline(lines, line)) {
    if (!first_line) out += '\n';
    first_line = false;
    const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
    const std::string lead(indent, ' '), hanging = indent > 0 ? lead + "  " : lead;
    std::istringstream words(line.substr(indent));
    std::string word, current = lead;
    bool empty = true;
    while (words >> word) {
      if (!empty && current.size() + 1 + word.size() > width) {
        out += current + '\n';
        current = hanging;
        empty = true;
      }
      current += (empty ? "" : " ") + word;
      empty = false;
    }
    out += current;
  }
  return out;
}

class WrappingFormatter : public CLI::Formatter {
 public:
  explicit WrappingFormatter(int width) : width_(static_cast<std::size_t>(width)) { column_width(26); }

  std::string make_option(const CLI::Option* opt, bool is_positional) const override {
    return entry("  " + make_option_name(opt, is_positional) + make_option_opts(opt), make_option_desc(opt));
  }

  std::string make_subcommand(const CLI::App* sub) const override {
    return entry("  " + sub->get_display_name(true), sub->get_description());
  }

  std::string make_description(const CLI::App* app) const override {
    return wrap(CLI::Formatter::make_description(app), width_) + "\n";
  }

 private:
  // A name, and its description wrapped in the column after it.
  std::string entry(const std::string& name, const std::string& description) const {
    const std::size_t column = get_column_width();
    const std::string desc = wrap(description, width_ > column + 20 ? width_ - column : 20);
    std::string out = name;
    if (!desc.empty()) {
      // A long name takes its own line; the description starts in the column either way.
      if (name.size() + 2 > column) out += "\n" + std::string(column, ' ');
      else out += std::string(column - name.size(), ' ');
      for (char c : desc) {
        out += c;
        if (c == '\n') out += std::string(column, ' ');
      }
    }
    return out + "\n";
  }

  std::size_t width_;
};

}  // namespace

int help_width() {
  int columns = 100;
  if (const char* env = std::getenv("COLUMNS"); env && std::atoi(env) > 0) columns = std::atoi(env);
  else if (winsize w{}; isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0) columns = w.ws_col;
  return std::clamp(columns, 60, 100);
}

std::shared_ptr<CLI::Formatter> wrapping_formatter(int width) { return std::make_shared<WrappingFormatter>(width); }

}  // namespace fastblur::cli
