#pragma once
// The CLI's help, readable in a terminal: descriptions wrapped to at most 100 columns (fewer on a
// narrower terminal), continuation lines indented under their description (issue 44: `blur --help`
// had 40 lines over 100 characters).
#include <memory>

#include <CLI/CLI.hpp>

namespace fastblur::cli {

/// The width help is wrapped to: the terminal's columns where stdout is one (COLUMNS, then the
/// terminal itself), at most 100 and at least 60.
int help_width();

/// A CLI11 formatter that wraps option descriptions (and the algorithm list's lines) to `width`.
std::shared_ptr<CLI::Formatter> wrapping_formatter(int width);

}  // namespace fastblur::cli
