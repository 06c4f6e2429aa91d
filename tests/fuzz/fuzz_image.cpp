// Fuzzes the glue between OpenImageIO and fastblur: read_image on fuzzed files of every format
// OpenImageIO reads (the first byte picks the file's extension; OpenImageIO falls back to probing
// every reader when that one refuses), so every channel count, bit depth, per-channel format and
// tiled or planar layout a reader hands over reaches our type mapping, size checks and channel
// views. Then, as the CLI does: blur the channels in groups of at most 4, write the result with
// write_image (TIFF, OpenEXR or PNG, the second byte's choice) and read it back.
#include <OpenImageIO/imageio.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fastblur/fastblur.hpp"
#include "fuzz_support.hpp"
#include "image_formats.hpp"
#include "io/image_file.hpp"

namespace fb = fastblur;
namespace fs = std::filesystem;

namespace {

// Large enough for any image a fuzzer builds quickly, small enough that a header promising
// gigabytes is refused by read_image's limit instead of exhausting the fuzzer's memory.
constexpr std::uint64_t kPixelLimit = std::uint64_t{64} << 20;

[[noreturn]] void fail(const char* what, const std::string& detail = "") { fb::fuzz::fail("fuzz_image", what, detail); }

const fs::path& scratch_dir() {
  static const fs::path dir = fb::fuzz::scratch_dir("fuzz-image");
  return dir;
}

void check_consistent(const fb::io::Image& im, const char* what) {
  if (im.width < 1 || im.height < 1 || im.channels < 1) fail(what, "returned an empty image");
  const std::uint64_t want = static_cast<std::uint64_t>(im.width) * static_cast<std::uint64_t>(im.height) *
                             static_cast<std::uint64_t>(im.channels) * fb::element_size(im.type);
  if (im.pixels.size() != want) fail(what, "returned pixels of the wrong size");
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // One thread in OpenImageIO and its codecs: reproducible runs, and sanitizer reports that point
  // at the input.
  OIIO::attribute("threads", 1);
  OIIO::attribute("exr_threads", 1);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  using fb::fuzz::kImageInputExtensions, fb::fuzz::kImageOutputExtensions;
  const fs::path in_path = scratch_dir() / ("in." + std::string(kImageInputExtensions[data[0] % kImageInputExtensions.size()]));
  const fs::path out_path = scratch_dir() / ("out." + std::string(kImageOutputExtensions[data[1] % kImageOutputExtensions.size()]));
  {
    std::ofstream out(in_path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data + 2), static_cast<std::streamsize>(size - 2));
  }
  fb::io::Image im;
  try {
    im = fb::io::read_image(in_path, kPixelLimit);
  } catch (const fb::Error&) {
    fs::remove(in_path);
    return 0;
  }
  fs::remove(in_path);
  check_consistent(im, "read_image");
  if (im.width * im.height > 65536) return 0;

  // As the CLI does: the channels in groups of at most 4, each a view with the full pixel stride.
  fb::io::Image out = im;
  fb::BlurSpec spec = fb::BlurSpec::isotropic_2d(1.5);
  spec.threads = 1;
  for (int first = 0; first < im.channels; first += 4) {
    const int count = std::min(4, im.channels - first);
    fb::blur(im.channel_view(first, count), out.channel_view(first, count), spec);
  }
  try {
    fb::io::write_image(out_path, out);
  } catch (const fb::IoError&) {
    // A format that cannot hold this image (PNG with 5 channels, ...): no file may remain.
    if (fs::exists(out_path)) fail("a failed write_image left", out_path.string());
    for (const auto& e : fs::directory_iterator(scratch_dir()))
      if (e.path().filename().string().find("fastblur-tmp") != std::string::npos) fail("a failed write left", e.path().string());
    return 0;
  }
  const fb::io::Image back = fb::io::read_image(out_path);
  check_consistent(back, "read_image of our own output");
  if (back.width != out.width || back.height != out.height) fail("the written image changed size");
  if (out_path.extension() != ".png" && back.channels != out.channels) fail("the written image changed channel count");
  fs::remove(out_path);
  return 0;
}
