#pragma once
// Naming what the user mistyped: the closest known command or option, for "did you mean" hints.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace fastblur::cli {

/// The candidate closest to `typed` by edit distance, if close enough to be a slip (at most a third
/// of its length, and 2 or more edits only for longer names); "" otherwise.
std::string closest(const std::string& typed, const std::vector<std::string>& candidates);

/// Before CLI11's own messages (which report a missing --sigma before an unknown --sigmaa, and "A
/// subcommand is required" for "blurr"): the first word that is not a command, or the first long
/// option the command does not have, as one line naming it with a suggestion and the help to run;
/// "" when every word is known.
std::string unknown_word(const CLI::App& app, int argc, const char* const* argv);

/// "fastblur <command> --help" for the command on the command line, else "fastblur --help".
std::string help_hint(const CLI::App& app, int argc, const char* const* argv);

}  // namespace fastblur::cli
