#include "serve_gzip.hpp"

#include <httplib.h>
#include <zlib.h>

#include <cctype>
#include <cstdlib>
#include <new>
#include <stdexcept>

namespace fastblur::cli {

bool accepts_gzip(std::string_view header) {
  for (std::size_t at = 0; at < header.size();) {
    const std::size_t end = std::min(header.find(',', at), header.size());
    std::string_view item = header.substr(at, end - at);
    at = end + 1;
    const auto trim = [](std::string_view s) {
      while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
      while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
      return s;
    };
    const std::size_t semi = item.find(';');
    const std::string_view token = trim(item.substr(0, semi));
    if (token != "gzip" && token != "*") continue;
    if (semi == std::string_view::npos) return true;
    std::string_view param = trim(item.substr(semi + 1));
    if (param.substr(0, 2) != "q=") return true;
    return std::strtod(std::string(param.substr(2)).c_str(), nullptr) > 0.0;
  }
  return false;
}

std::string gzip_fast(std::string_view text) {
  z_stream z{};
  // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&z, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw std::bad_alloc();
  std::string out(deflateBound(&z, static_cast<uLong>(text.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  z.avail_in = static_cast<uInt>(text.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int done = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (done != Z_STREAM_END) throw std::runtime_error("gzip: the reply did not compress");
  return out;
}

void reply_compressed(const httplib::Request& req, httplib::Response& res, std::string body, std::string_view content_type) {
  // cpp-httplib compresses exactly "application/json" and "image/svg+xml": with a charset
  // parameter (the same type to a browser) it leaves the body as it is set here.
  const std::string type = std::string(content_type) + "; charset=utf-8";
  constexpr std::size_t kWorthIt = 1024;  // below a packet or so, compressing saves nothing
  if (body.size() >= kWorthIt && body.size() < (std::size_t{1} << 31) && accepts_gzip(req.get_header_value("Accept-Encoding"))) {
    res.set_header("Content-Encoding", "gzip");
    res.set_header("Vary", "Accept-Encoding");
    res.set_content(gzip_fast(body), type);
    return;
  }
  res.set_content(std::move(body), type);
}

}  // namespace fastblur::cli
