#pragma once
// The whole command line as one function: main() runs it, and so does the fuzz harness
// (tests/fuzz/fuzz_cli.cpp), so both see exactly the same parsing and error handling.
#include <cstdio>

namespace fastblur::cli {

/// Parses `argv` (argv[0] is the program name) and runs the chosen subcommand. Returns the exit
/// status: 0 on success, 2 for bad arguments, 1 for every other failure, each failure reported as
/// one line "fastblur: error: ..." on `errors`. Never throws.
int run(int argc, const char* const* argv, std::FILE* errors = stderr);

}  // namespace fastblur::cli
