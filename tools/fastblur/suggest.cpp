#include "suggest.hpp"

#include <algorithm>
#include <cstring>

namespace fastblur::cli {
namespace {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// The subcommand named on the command line (the first word that is one), or null.
const CLI::App* command_of(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
      if (sub->get_name() == argv[i]) return sub;
    return nullptr;
  }
  return nullptr;
}

}  // namespace

std::string closest(const std::string& typed, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = typed.size() / 3 + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(typed, c);
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::string help_hint(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* sub = command_of(app, argc, argv);
  return sub ? "fastblur " + sub->get_name() + " --help" : "fastblur --help";
}

std::string unknown_word(const CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) names.push_back(sub->get_name());
  int first = 1;
  while (first < argc && argv[first][0] == '-') ++first;
  if (first >= argc) return "";
  if (std::find(names.begin(), names.end(), argv[first]) == names.end()) {
    const std::string hint = closest(argv[first], names);
    return "unknown command '" + std::string(argv[first]) + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)") +
           "; run 'fastblur --help' for the commands";
  }
  const CLI::App* sub = command_of(app, argc, argv);
  for (int i = first + 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--") == 0) break;  // the rest are positional
    if (std::strncmp(argv[i], "--", 2) != 0) continue;
    std::string name(argv[i]);
    name = name.substr(0, name.find('='));
    if (sub->get_option_no_throw(name) != nullptr) continue;
    std::vector<std::string> options;
    for (const CLI::Option* o : sub->get_options())
      for (const std::string& l : o->get_lnames()) options.push_back("--" + l);
    const std::string hint = closest(name, options);
    return "unknown option '" + name + "' for '" + sub->get_name() + "'" +
           (hint.empty() ? "" : " (did you mean '" + hint + "'?)") + "; run 'fastblur " + sub->get_name() + " --help'";
  }
  return "";
}

}  // namespace fastblur::cli
