// fastblur serve: the interactive explorer - a local web page over the library (serve_server.hpp).
#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "commands.hpp"
#include "fastblur/error.hpp"
#include "serve_server.hpp"

extern char** environ;

namespace fastblur::cli {
namespace {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  bool open = false;
  double max_upload_mb = 64, max_memory_mb = 4096;
  std::int64_t max_pixels = 24'000'000;
  std::int64_t preview = 1280;
};

// xdg-open where the desktop has it; otherwise the printed URL is the way in.
void open_browser(const std::string& url) {
  const char* path = std::getenv("PATH");
  bool found = false;
  const std::string dirs = path ? path : "/usr/bin:/bin";
  for (std::size_t at = 0; at <= dirs.size() && !found;) {
    const std::size_t end = std::min(dirs.find(':', at), dirs.size());
    found = ::access((std::filesystem::path(dirs.substr(at, end - at)) / "xdg-open").c_str(), X_OK) == 0;
    at = end + 1;
  }
  if (!found) {
    std::printf("--open: xdg-open is not installed; open the URL above in a browser\n");
    return;
  }
  const char* argv[] = {"xdg-open", url.c_str(), nullptr};
  pid_t pid = 0;
  if (::posix_spawnp(&pid, "xdg-open", nullptr, nullptr, const_cast<char* const*>(argv), environ) != 0)
    std::printf("--open: xdg-open failed to start; open the URL above in a browser\n");
  else
    std::thread([pid] { ::waitpid(pid, nullptr, 0); }).detach();  // reaped, never waited for
}

int run_serve(const ServeOptions& o) {
  if (o.port < 0 || o.port > 65535) throw InvalidArgument("--port must be 0 (any free port) to 65535");
  if (!(o.max_upload_mb > 0) || o.max_upload_mb > 4096) throw InvalidArgument("--max-upload-mb must be > 0 and at most 4096");
  if (!(o.max_memory_mb > 0)) throw InvalidArgument("--max-memory-mb must be > 0");
  if (o.max_pixels < 1) throw InvalidArgument("--max-pixels must be >= 1");
  if (o.preview < 64 || o.preview > 8192) throw InvalidArgument("--preview must be 64 to 8192");
  ServeLimits limits;
  limits.max_upload_bytes = static_cast<std::uint64_t>(o.max_upload_mb * (1 << 20));
  limits.max_pixels = o.max_pixels;
  limits.memory_bytes = static_cast<std::uint64_t>(o.max_memory_mb * (1 << 20));
  limits.preview_size = o.preview;

  // SIGINT, SIGTERM and SIGHUP stop the server so that its temporary folder is removed: blocked in
  // every thread (the server's inherit the mask) and taken by one waiting thread.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stop_signals, s);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  ExplorerServer server(limits);
  const int port = server.bind(o.host, o.port);
  const std::string shown_host = o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host;
  const std::string url = "http://" + shown_host + ":" + std::to_string(port) + "/";
  std::printf("fastblur serve: %s\n", url.c_str());
  std::printf("  temporary files in %s (removed on exit); Ctrl-C stops the server\n", server.temp_dir().c_str());
  std::fflush(stdout);
  if (o.open) {
    open_browser(url);
    std::fflush(stdout);
  }
  std::atomic<int> received{0};
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    received = signal;
    server.stop();
  });
  server.run();
  if (received == 0) pthread_kill(waiter.native_handle(), SIGTERM);  // listen ended on its own: wake the waiter
  waiter.join();
  std::printf("fastblur serve: stopped\n");
  return 0;
}

}  // namespace

Command add_serve_command(CLI::App& app) {
  auto o = std::make_shared<ServeOptions>();
  CLI::App* sub = app.add_subcommand("serve", "The interactive explorer: a local web page to blur the test scene or your "
                                              "images with every algorithm, with timings, metrics, plots and shader code");
  sub->add_option("--host", o->host, "Address to listen on (default: this machine only)")->capture_default_str();
  sub->add_option("-p,--port", o->port, "Port; 0 picks any free port (the URL printed says which)")->capture_default_str();
  sub->add_flag("--open", o->open, "Open the page in the desktop's browser (xdg-open)");
  sub->add_option("--max-upload-mb", o->max_upload_mb, "Largest uploaded file, MiB")->capture_default_str();
  sub->add_option("--max-memory-mb", o->max_memory_mb, "Memory for all clients' images, MiB (the least recently used "
                                                      "are forgotten first)")->capture_default_str();
  sub->add_option("--max-pixels", o->max_pixels, "Largest uploaded image, width x height")->capture_default_str();
  sub->add_option("--preview", o->preview, "The page blurs images averaged down to at most this many pixels on a side "
                                           "(downloads are full resolution)")->capture_default_str();
  return {sub, [o] { return run_serve(*o); }};
}

}  // namespace fastblur::cli
