#pragma once
// The explorer's replies compressed with gzip at zlib's fastest level, where the client accepts it.
// Not cpp-httplib's own compression: Debian's build picks Brotli at its slowest quality for JSON and
// SVG whenever a browser accepts it, and a 0.5 MB /api/blur reply (three PNGs) then spent 2.1-2.6 s
// compressing for a 1-7 ms blur, 2-3% smaller than gzip (issue 44; bench/RESULTS.md).
#include <string>
#include <string_view>

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace fastblur::cli {

/// Whether an Accept-Encoding header accepts gzip (a "gzip" or "*" token whose q is not 0).
bool accepts_gzip(std::string_view accept_encoding);

/// `text` as one gzip member (RFC 1952) at zlib's level 1.
std::string gzip_fast(std::string_view text);

/// Sets `body` as the reply with `content_type` (a JSON or SVG type, not text/*): gzip-compressed
/// where the request accepts it and the body is worth it, marked so that cpp-httplib adds no
/// compression of its own.
void reply_compressed(const httplib::Request& req, httplib::Response& res, std::string body, std::string_view content_type);

}  // namespace fastblur::cli
