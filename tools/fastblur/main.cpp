// fastblur: blur images and volumes from the command line.
#include "app.hpp"
#include "io/atomic_file.hpp"

int main(int argc, char** argv) {
  // An interrupted run (Ctrl-C, kill) removes its temporary output and leaves the old one as it was.
  fastblur::io::remove_temporaries_on_signals();
  return fastblur::cli::run(argc, argv);
}
