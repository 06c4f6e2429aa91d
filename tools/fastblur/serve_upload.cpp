// The explorer's upload path (serve_upload.hpp), shared by the route and the fuzz_serve harness.
#include "serve_upload.hpp"

#include <cctype>
#include <cstring>
#include <fstream>
#include <system_error>

#include "fastblur/error.hpp"
#include "io/image_file.hpp"

namespace fastblur::cli {
namespace fs = std::filesystem;

namespace {
// Messages about the kept file name the client's file instead (as the CLI names its input).
std::string with_client_name(std::string message, const std::string& temp_path, const std::string& name) {
  for (std::size_t at; (at = message.find(temp_path)) != std::string::npos;) message.replace(at, temp_path.size(), name);
  return message;
}
}  // namespace

std::string client_file_name(std::string name) {
  const auto slash = name.find_last_of("/\\");
  if (slash != std::string::npos) name = name.substr(slash + 1);
  std::string out;
  for (char c : name.substr(0, 100))
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
  while (!out.empty() && out.front() == '.') out.erase(out.begin());
  return out.empty() ? "upload" : out;
}

std::string upload_extension(const std::string& name, const std::string& bytes) {
  const auto dot = name.find_last_of('.');
  if (dot != std::string::npos && name.size() - dot >= 2 && name.size() - dot <= 6) {
    std::string ext = name.substr(dot);
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext;
  }
  const auto starts = [&](const char* magic, std::size_t n) { return bytes.size() >= n && std::memcmp(bytes.data(), magic, n) == 0; };
  if (starts("\x89PNG", 4)) return ".png";
  if (starts("\xff\xd8\xff", 3)) return ".jpg";
  if (starts("II*\0", 4) || starts("MM\0*", 4)) return ".tif";
  if (starts("\x76\x2f\x31\x01", 4)) return ".exr";
  if (starts("#?RADIANCE", 10) || starts("#?RGBE", 6)) return ".hdr";
  return ".png";
}

Upload read_upload(const std::string& body, const std::string& filename, const ServeLimits& limits, PrivateTempDir& temp) {
  Upload up;
  const auto refuse = [&up](int status, std::string message) {
    up.status = status;
    up.error = std::move(message);
    return up;
  };
  if (body.size() > limits.max_upload_bytes)
    return refuse(413, "the file is " + std::to_string(body.size()) + " bytes, more than the upload limit of " +
                           std::to_string(limits.max_upload_bytes));
  if (body.empty()) return refuse(400, "the upload is empty: send the image file as the request body");
  up.name = client_file_name(filename);
  const std::string extension = upload_extension(up.name, body);
  const fs::path path = temp.fresh("upload", extension);
  struct Remove {
    fs::path p;
    ~Remove() {
      std::error_code ec;
      fs::remove(p, ec);
    }
  } remove{path};
  {
    std::ofstream out(path, std::ios::binary);
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
    if (!out) throw IoError("cannot keep the upload in the temporary folder");
  }
  io::Image im;
  try {
    // The pixel count from the header, before any pixel memory exists.
    const io::ImageHeader header = io::open_image_rows(path)->header();
    if (header.width * header.height > limits.max_pixels)
      return refuse(413, "'" + up.name + "' is " + std::to_string(header.width) + "x" + std::to_string(header.height) +
                             " pixels, more than the limit of " + std::to_string(limits.max_pixels) + " pixels");
    im = io::read_image(path, static_cast<std::uint64_t>(limits.max_pixels) * 4 * 8);
  } catch (const Error& e) {
    return refuse(dynamic_cast<const OutOfMemory*>(&e) ? 413 : 422, with_client_name(e.what(), path.string(), up.name));
  }
  up.format = im.format;
  up.image = make_stored_image(std::move(im), up.name, extension, limits);
  return up;
}

}  // namespace fastblur::cli
