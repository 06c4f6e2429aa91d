#pragma once
// `fastblur serve`'s HTTP server (cpp-httplib): the page and its JSON API over the library.
//   GET  /                the page (static files under /static/, embedded in the binary)
//   GET  /api/info        algorithms with their options, devices, borders, limits
//   POST /api/image       an image file as the body (X-Filename: its name) -> {"id", ...}, kept in this
//                         client's session (a cookie)
//   GET  /api/source      ?image=ID: the preview of an image as PNG
//   POST /api/blur        a request (serve_request.hpp) -> result, exact, difference, metrics, plan, timings
//   GET  /api/plot        ?kind=impulse|cross_section|contours&params=JSON -> SVG (analyze's plots)
//   GET  /api/codegen     ?sigma=&method=&lang=&radius=&passes= -> `fastblur codegen`'s text
//   GET  /api/download    ?params=JSON -> the full-resolution result in the input's format
// Errors are {"error": one line} with 400 (bad request), 404, 409 (superseded by a newer request of
// the same page), 413 (too large), 422 (an unreadable image) or 500.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "serve_request.hpp"

namespace fastblur::cli {

class ExplorerServer {
 public:
  explicit ExplorerServer(const ServeLimits& limits);
  ~ExplorerServer();
  /// Binds `host`:`port` (0: any free port); returns the port. Throws IoError when it cannot.
  int bind(const std::string& host, int port);
  /// The folder this server's temporary files live in (removed when it is destroyed).
  std::string temp_dir() const;
  /// Serves until stop() (from another thread).
  void run();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace fastblur::cli
