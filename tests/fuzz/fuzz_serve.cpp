// Fuzzes the explorer (`fastblur serve`) without its socket. The first byte picks the path:
//  - even: a POST /api/blur body - JSON parsed, read as a request (parse_blur_request), and computed
//    as the route computes it (blur_preview on a small stored image, on the CPU);
//  - odd: a POST /api/image upload - the next byte gives the client's file name's extension, the
//    rest is the file (read_upload, as the route calls it), then a preview blur of what it made.
// The promise of both: every failure is one of the errors the route's guard turns into a 4xx (the
// library's Error, a JSON exception) - anything else would be a 500 - and the reply built from the
// message never throws (the explorer answered every body that was not UTF-8 with a 500 so).
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "fastblur/fastblur.hpp"
#include "fuzz_support.hpp"
#include "serve_compute.hpp"
#include "serve_request.hpp"
#include "serve_store.hpp"
#include "serve_upload.hpp"

namespace fb = fastblur;
namespace cli = fastblur::cli;
using nlohmann::json;

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail = "") { fb::fuzz::fail("fuzz_serve", what, detail); }

// Small limits: each run stays in milliseconds.
cli::ServeLimits limits() {
  cli::ServeLimits l;
  l.max_upload_bytes = 1 << 16;
  l.max_pixels = 1 << 14;
  l.preview_size = 48;
  l.max_sigma = 12.0;
  return l;
}

cli::PrivateTempDir& temp() {
  static cli::PrivateTempDir dir;
  return dir;
}

// A 23x17 RGB image with a pattern: what requests blur.
std::shared_ptr<cli::StoredImage> small_image() {
  static const std::shared_ptr<cli::StoredImage> image = [] {
    fb::io::Image im;
    im.width = 23;
    im.height = 17;
    im.channels = 3;
    im.type = fb::ElementType::u8;
    im.format = "png";
    im.pixels.resize(23 * 17 * 3);
    for (std::size_t i = 0; i < im.pixels.size(); ++i) im.pixels[i] = static_cast<std::byte>((i * 37 + i / 69 * 11) % 256);
    return cli::make_stored_image(std::move(im), "small.png", ".png", limits());
  }();
  return image;
}

// What the route's guard sends for a message: it must always be JSON.
void reply(const std::string& message) {
  try {
    const std::string body = json{{"error", message.substr(0, message.find('\n'))}}.dump(-1, ' ', false, json::error_handler_t::replace);
    if (body.empty()) fail("an empty reply");
  } catch (const std::exception& e) {
    fail("the error reply threw:", e.what());
  }
}

template <class F>
void guarded(F&& handler) {
  try {
    handler();
  } catch (const fb::Error& e) {
    reply(e.what());
  } catch (const json::exception& e) {
    reply(std::string("bad JSON: ") + e.what());
  } catch (const std::bad_alloc&) {
    reply("out of memory");
  } catch (const std::exception& e) {
    fail("a 500: an exception the route's guard does not expect:", e.what());
  }
}

const std::function<bool()> never = [] { return false; };

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const bool upload = data[0] & 1;
  if (!upload) {
    const std::string body(reinterpret_cast<const char*>(data) + 1, size - 1);
    guarded([&] {
      const cli::BlurRequest r = cli::parse_blur_request(json::parse(body), limits());
      const fb::Device device = fb::Device::parse(r.device);
      if (!device.is_cpu()) return;  // the device is the route's to open (DeviceError: 503)
      if (r.image != "scene") return;  // an id this session does not hold: the route's 404
      const cli::Preview preview = cli::blur_preview(r, *small_image(), device, never);
      if (!preview.pictures || !preview.reply.contains("plan")) fail("a blur reply without its pictures or plan");
      // The pictures the page fetches (the server names them by URL), each a PNG of the preview's size.
      for (const char* which : {"result", "exact", "diff"})
        if (cli::preview_picture_png(*preview.pictures, which, temp()).compare(0, 4, "\x89PNG") != 0)
          fail("a preview picture that is not a PNG:", which);
      (void)preview.reply.dump(-1, ' ', false, json::error_handler_t::replace);
    });
    return 0;
  }
  if (size < 2) return 0;
  static const char* kNames[] = {"a.png", "a.jpg", "a.tif", "a.exr", "a.hdr", "a.bmp", "noextension", "../../etc/x.PNG"};
  const std::string name = kNames[data[1] % 8];
  const std::string body(reinterpret_cast<const char*>(data) + 2, size - 2);
  guarded([&] {
    const cli::Upload up = cli::read_upload(body, name, limits(), temp());
    if (!std::filesystem::is_empty(temp().path())) fail("the upload's file was left in the temporary folder");
    if (!up.image) {
      if (up.status < 400 || up.status > 499) fail("an upload refused with a status that is not 4xx:", std::to_string(up.status));
      if (up.error.empty() || up.error.find('\n') != std::string::npos) fail("not a one-line refusal:", up.error);
      if (up.error.find(temp().path().string()) != std::string::npos) fail("a refusal names the kept file:", up.error);
      reply(up.error);
      return;
    }
    if (up.image->width < 1 || up.image->height < 1 || up.image->width > limits().preview_size ||
        up.image->height > limits().preview_size)
      fail("a preview outside its limits");
    cli::BlurRequest r;
    r.sigma = {1.5, 1.5};
    (void)cli::blur_preview(r, *up.image, fb::Device::cpu(), never);
  });
  return 0;
}
