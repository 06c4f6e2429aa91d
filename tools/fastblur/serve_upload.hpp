#pragma once
// The explorer's image upload without the socket: the body kept in the private folder, read within
// the limits, turned into a stored image - or the HTTP status and one-line message that refuse it.
// The route (serve_server.cpp) and the fuzz_serve harness call the same function.
#include <memory>
#include <string>

#include "serve_store.hpp"

namespace fastblur::cli {

/// A file name from a client, for messages and downloads only: its last part, in safe characters.
std::string client_file_name(std::string name);

/// The extension the file is kept under (readers and writers choose formats by it): the client's, if
/// it is a plain one, else the format its first bytes say.
std::string upload_extension(const std::string& name, const std::string& bytes);

struct Upload {
  std::shared_ptr<StoredImage> image;  ///< null when refused
  std::string name;                    ///< the client's file name, made safe
  std::string format;
  int status = 200;                    ///< 400 empty, 413 too large, 422 unreadable
  std::string error;                   ///< one line, naming the client's file (never the kept path)
};

/// Reads an upload of `body` named by the client's X-Filename `filename`. The kept file is removed
/// before returning. Throws IoError when the folder cannot keep it (the route's guard: 422).
Upload read_upload(const std::string& body, const std::string& filename, const ServeLimits& limits, PrivateTempDir& temp);

}  // namespace fastblur::cli
