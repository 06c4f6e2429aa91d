// The glue between OpenImageIO and fastblur's views: every layout a reader can hand over (scanline,
// tiled, planar, per-channel formats, 1-6 channels, 8/12/16-bit, half, float, other integer depths)
// arrives as packed interleaved pixels of the right type and values; sizes from headers are checked
// before allocating; headers known to crash OpenImageIO 2.4's readers are refused first.
#include <OpenImageIO/imageio.h>
#include <gtest/gtest.h>

#include <chrono>
#include <iterator>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fastblur/error.hpp"
#include "io/image_file.hpp"
#include "support/icc_profile.hpp"
#include "support/temp_dir.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {
namespace fs = std::filesystem;

class ImageFile : public test::TempDirTest {};

struct Layout {
  const char* ext;
  OIIO::TypeDesc file_type;
  int channels;
  int tile = 0;
  bool planar = false;
  int bits = 0;
  std::vector<OIIO::TypeDesc> channel_formats{};
  ElementType expected;
};

// Values on a grid every format below holds exactly: multiples of 1/15 (4-bit levels).
float value(int x, int y, int c) { return static_cast<float>((x * 3 + y * 5 + c * 7) % 16) / 15.0f; }

TEST_F(ImageFile, EveryLayoutArrivesPackedAndInterleaved) {
  using TD = OIIO::TypeDesc;
  const Layout layouts[] = {
      {"png", TD::UINT8, 1, 0, false, 0, {}, ElementType::u8},
      {"png", TD::UINT16, 4, 0, false, 0, {}, ElementType::u16},
      {"tif", TD::UINT8, 3, 16, false, 0, {}, ElementType::u8},          // tiled
      {"tif", TD::UINT16, 3, 0, true, 0, {}, ElementType::u16},          // planar
      {"tif", TD::FLOAT, 5, 16, true, 0, {}, ElementType::f32},          // tiled and planar, 5 channels
      {"tif", TD::UINT16, 2, 0, false, 12, {}, ElementType::u16},        // 12 bits per sample
      {"tif", TD::UINT8, 1, 0, false, 4, {}, ElementType::u8},           // 4 bits per sample
      {"tif", TD::UINT32, 1, 0, false, 0, {}, ElementType::f32},         // other integers: float
      {"tif", TD::DOUBLE, 2, 0, false, 0, {}, ElementType::f64},
      {"exr", TD::HALF, 6, 0, false, 0, {}, ElementType::f16},
      {"exr", TD::HALF, 4, 16, false, 0, {}, ElementType::f16},          // tiled
      // Mixed per-channel formats arrive in the widest, so nothing is lost.
      {"exr", TD::HALF, 3, 0, false, 0, {TD::HALF, TD::FLOAT, TD::HALF}, ElementType::f32},
  };
  const int w = 37, h = 21;  // not multiples of the tile size
  for (const Layout& l : layouts) {
    const fs::path file = dir_ / (std::string("img.") + l.ext);
    OIIO::ImageSpec spec(w, h, l.channels, l.file_type);
    if (!l.channel_formats.empty()) spec.channelformats = l.channel_formats;
    if (l.tile) spec.tile_width = spec.tile_height = l.tile;
    if (l.planar) spec.attribute("planarconfig", "separate");
    if (l.bits) spec.attribute("oiio:BitsPerSample", l.bits);
    spec.attribute("oiio:UnassociatedAlpha", 1);  // PNG would divide colour by alpha on writing
    std::vector<float> pixels(static_cast<std::size_t>(w * h * l.channels));
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < l.channels; ++c) pixels[static_cast<std::size_t>((y * w + x) * l.channels + c)] = value(x, y, c);
    auto out = OIIO::ImageOutput::create(file.string());
    ASSERT_TRUE(out && out->open(file.string(), spec)) << l.ext << ": " << OIIO::geterror();
    ASSERT_TRUE(out->write_image(TD::FLOAT, pixels.data()) && out->close()) << l.ext;
    out.reset();

    const io::Image im = io::read_image(file);
    const std::string what = std::string(l.ext) + " " + l.file_type.c_str() + " x" + std::to_string(l.channels) +
                             (l.tile ? " tiled" : "") + (l.planar ? " planar" : "") +
                             (l.bits ? " " + std::to_string(l.bits) + "-bit" : "");
    ASSERT_EQ(im.width, w) << what;
    ASSERT_EQ(im.height, h) << what;
    ASSERT_EQ(im.channels, l.channels) << what;
    EXPECT_EQ(im.type, l.expected) << what;
    ASSERT_EQ(im.pixels.size(), static_cast<std::size_t>(w * h * l.channels) * element_size(im.type)) << what;
    const double scale = test::type_scale(im.type);
    for (int first = 0; first < l.channels; first += 4) {
      io::Image copy = im;
      const View v = copy.channel_view(first, std::min(4, l.channels - first));
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
          for (int c = 0; c < v.channels; ++c)
            ASSERT_NEAR(test::get(v, x, y, 0, c) / scale, value(x, y, first + c), 1e-3)
                << what << " at " << x << "," << y << "," << first + c;
    }
  }
}

TEST_F(ImageFile, SizesFromTheHeaderAreCheckedBeforeAllocating) {
  io::Image im;
  im.width = 64;
  im.height = 32;
  im.channels = 3;
  im.type = ElementType::u16;
  im.pixels.resize(64 * 32 * 3 * 2);
  io::write_image(dir_ / "a.png", im);
  try {
    io::read_image(dir_ / "a.png", 64 * 32 * 3 * 2 - 1);
    FAIL() << "read beyond the limit";
  } catch (const OutOfMemory& e) {
    EXPECT_NE(std::string(e.what()).find("12288 bytes"), std::string::npos) << e.what();
  }
  EXPECT_EQ(io::read_image(dir_ / "a.png", 64 * 32 * 3 * 2).pixels.size(), 12288u);
}

TEST_F(ImageFile, MetadataIsCarriedToTheOutputAndEncodingOptionsApply) {
  // A phone photo's metadata: EXIF orientation 6 (shown rotated), an ICC profile, resolution, a
  // capture date. Blurred output must keep them where the format holds them.
  const int w = 40, h = 24;
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(w * h * 3));
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<std::uint8_t>((i * 37) % 251);
  const std::vector<std::uint8_t> icc = test::small_icc_profile();
  {
    auto out = OIIO::ImageOutput::create((dir_ / "photo.jpg").string());
    OIIO::ImageSpec spec(w, h, 3, OIIO::TypeDesc::UINT8);
    spec.attribute("Orientation", 6);
    spec.attribute("ICCProfile", OIIO::TypeDesc(OIIO::TypeDesc::UINT8, static_cast<int>(icc.size())), icc.data());
    spec.attribute("XResolution", 300.0f);
    spec.attribute("YResolution", 300.0f);
    spec.attribute("ResolutionUnit", "in");
    spec.attribute("Exif:DateTimeOriginal", "2026:11:24 10:00:00");
    ASSERT_TRUE(out->open((dir_ / "photo.jpg").string(), spec));
    ASSERT_TRUE(out->write_image(OIIO::TypeDesc::UINT8, pixels.data()));
    out->close();
  }
  const io::Image photo = io::read_image(dir_ / "photo.jpg");
  ASSERT_NE(photo.metadata, nullptr);
  for (const char* ext : {"jpg", "tif", "png"}) {
    const fs::path out = dir_ / (std::string("out.") + ext);
    testing::internal::CaptureStderr();
    io::write_image(out, photo);
    const std::string warning = testing::internal::GetCapturedStderr();
    EXPECT_EQ(warning, "") << ext;
    auto in = OIIO::ImageInput::open(out.string());
    ASSERT_TRUE(in) << ext;
    const OIIO::ImageSpec& spec = in->spec();
    EXPECT_NEAR(spec.get_float_attribute("XResolution"), 300.0f, 0.5f) << ext;
    if (std::string(ext) != "png") {  // OpenImageIO 2.4's PNG writer holds no EXIF and no orientation
      EXPECT_EQ(spec.get_int_attribute("Orientation", 1), 6) << ext;
      const OIIO::ParamValue* p = spec.find_attribute("ICCProfile");
      ASSERT_NE(p, nullptr) << ext;
      ASSERT_EQ(static_cast<std::size_t>(p->type().basesize() * p->type().numelements()), icc.size()) << ext;
      EXPECT_EQ(std::memcmp(p->data(), icc.data(), icc.size()), 0) << ext;
      EXPECT_EQ(spec.get_string_attribute("Exif:DateTimeOriginal"), "2026:11:24 10:00:00") << ext;
    }
    in->close();
  }
  // Metadata a writer refuses (an ICC profile libpng rejects, that libjpeg wrote): the pixels are
  // written without it, with a warning.
  {
    std::vector<std::uint8_t> broken(300, 7);
    auto out = OIIO::ImageOutput::create((dir_ / "broken.jpg").string());
    OIIO::ImageSpec spec(w, h, 3, OIIO::TypeDesc::UINT8);
    spec.attribute("ICCProfile", OIIO::TypeDesc(OIIO::TypeDesc::UINT8, 300), broken.data());
    ASSERT_TRUE(out->open((dir_ / "broken.jpg").string(), spec));
    ASSERT_TRUE(out->write_image(OIIO::TypeDesc::UINT8, pixels.data()));
    out->close();
    const io::Image b = io::read_image(dir_ / "broken.jpg");
    testing::internal::CaptureStderr();
    io::write_image(dir_ / "broken.png", b);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("written without the input's metadata"), std::string::npos) << err;
    EXPECT_EQ(io::read_image(dir_ / "broken.png").pixels, b.pixels);
  }
  // Quality and compression: lower quality, smaller file; a PNG level changes size, not pixels.
  io::WriteOptions low, high;
  low.quality = 20;
  high.quality = 98;
  io::write_image(dir_ / "low.jpg", photo, std::nullopt, low);
  io::write_image(dir_ / "high.jpg", photo, std::nullopt, high);
  EXPECT_LT(fs::file_size(dir_ / "low.jpg"), fs::file_size(dir_ / "high.jpg"));
  io::WriteOptions none, best;
  none.compression = "0";
  best.compression = "9";
  io::write_image(dir_ / "none.png", photo, std::nullopt, none);
  io::write_image(dir_ / "best.png", photo, std::nullopt, best);
  EXPECT_GT(fs::file_size(dir_ / "none.png"), fs::file_size(dir_ / "best.png"));
  EXPECT_EQ(io::read_image(dir_ / "none.png").pixels, io::read_image(dir_ / "best.png").pixels);
  io::WriteOptions bad;
  bad.quality = 101;
  EXPECT_THROW(io::write_image(dir_ / "bad.jpg", photo, std::nullopt, bad), InvalidArgument);
  bad.quality = 50;
  EXPECT_THROW(io::write_image(dir_ / "bad.png", photo, std::nullopt, bad), InvalidArgument);
  bad = {};
  bad.compression = "fast";
  EXPECT_THROW(io::write_image(dir_ / "bad.png", photo, std::nullopt, bad), InvalidArgument);
  EXPECT_FALSE(fs::exists(dir_ / "bad.png") || fs::exists(dir_ / "bad.jpg"));
}

TEST_F(ImageFile, ADpxHeaderThatCrashesOpenImageIOIsRefused) {
  // fuzz_image: a DPX header promising 0xFFFF0000 bytes of user data made OpenImageIO 2.4.7
  // allocate 4 GiB and abort (tests/fuzz/regressions/image/dpx-user-data-4gib-abort).
  for (bool little : {true, false}) {
    std::string file(2048, '\0');
    std::memcpy(file.data(), little ? "XPDS" : "SDPX", 4);
    const unsigned char size_le[4] = {0x00, 0x00, 0xff, 0xff}, size_be[4] = {0xff, 0xff, 0x00, 0x00};
    std::memcpy(file.data() + 32, little ? size_le : size_be, 4);
    std::ofstream(dir_ / "bad.dpx", std::ios::binary) << file;
    try {
      io::read_image(dir_ / "bad.dpx");
      FAIL() << "read a corrupt DPX file";
    } catch (const IoError& e) {
      EXPECT_NE(std::string(e.what()).find("corrupt DPX header"), std::string::npos) << e.what();
    }
  }
}

TEST_F(ImageFile, MayaIffIsRefusedBeforeOpenImageIOReadsIt) {
  // fuzz_image: a Maya IFF header whose flags ask for a z-buffer makes OpenImageIO 2.4's IffInput
  // abort in read_header (tests/fuzz/regressions/image/iff-zbuffer-flags-abort), and malformed tile
  // chunks make read_native_tile copy a negative length (iff-tile-negative-memcpy). IFF is refused
  // by its magic, whatever the file's name.
  // The input as fuzz_image found it (flags 0x000100ff; 0x4 or 0x13 abort as well).
  const unsigned char header[] = {
      0x46, 0x4f, 0x52, 0x34, 0x00, 0x00, 0x00, 0xb1, 0x43, 0x49, 0x4d, 0x47, 0x54, 0x42, 0x48, 0x44,
      0x00, 0x00, 0x00, 0x20, 0x24, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x05, 0x00, 0x01, 0x00, 0x01,
      0x00, 0x01, 0x00, 0xff, 0x04, 0x00, 0x19, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46, 0x4f, 0x27, 0x00,
      0x00, 0x00, 0x00, 0x7d, 0x54, 0x42, 0x4d, 0x50, 0x52, 0x47, 0x42, 0x41, 0x00, 0x00, 0x00, 0x74,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x06, 0x00, 0x04, 0x82, 0x24, 0xc7, 0x9c, 0x3d, 0xe0, 0xb5, 0x57,
      0x1a, 0xf0, 0x91, 0x33, 0x08, 0xab, 0x4d, 0x21, 0xc4, 0x66, 0x3b, 0xde, 0x80, 0x54, 0xf7, 0x99};
  for (const char* name : {"bad.iff", "bad.png"}) {
    std::ofstream(dir_ / name, std::ios::binary).write(reinterpret_cast<const char*>(header), sizeof header);
    try {
      io::read_image(dir_ / name);
      FAIL() << "read a corrupt IFF file";
    } catch (const IoError& e) {
      EXPECT_NE(std::string(e.what()).find("Maya IFF files are not read"), std::string::npos) << e.what();
    }
  }
}

TEST_F(ImageFile, OpenExrAttributesLargerThanTheFileAreRefused) {
  // fuzz_serve: a 578-byte EXR whose string attribute claimed about 2 GiB had OpenEXR allocate and
  // zero it before failing (more than 30 s under ASan). Every attribute must fit in the file.
  io::Image im;
  im.width = 6;
  im.height = 4;
  im.channels = 3;
  im.type = ElementType::f32;
  im.pixels.resize(6 * 4 * 3 * 4, std::byte{0});
  io::write_image(dir_ / "good.exr", im);
  std::string bytes;
  {
    std::ifstream in(dir_ / "good.exr", std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  EXPECT_EQ(io::read_image(dir_ / "good.exr").width, 6);  // the check passes real files
  // The first attribute after magic and version: name, type, then its 4-byte size.
  const std::size_t name_end = bytes.find('\0', 8), type_end = bytes.find('\0', name_end + 1);
  ASSERT_LT(type_end + 4, bytes.size());
  bytes[type_end + 1] = '\xf0', bytes[type_end + 2] = '\xff', bytes[type_end + 3] = '\xff', bytes[type_end + 4] = '\x7f';
  std::ofstream(dir_ / "bad.exr", std::ios::binary) << bytes;
  const auto start = std::chrono::steady_clock::now();
  try {
    io::read_image(dir_ / "bad.exr");
    FAIL() << "read an EXR whose attribute claims 2 GiB";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("corrupt OpenEXR header"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

}  // namespace
}  // namespace fastblur
