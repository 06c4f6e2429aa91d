// Streaming (tools/fastblur/band_blur.cpp) and start-up: bands with halos give the whole image's
// result for every border and a support wider than the band; memory follows the width, not the
// height; `--version`, .npy and PNG/JPEG/TIFF runs never load OpenImageIO.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <OpenImageIO/imageio.h>
#include <OpenImageIO/tiffutils.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "io/image_file.hpp"
#include "io/npy.hpp"
#include "support/icc_profile.hpp"
#include "support/temp_dir.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {
namespace fs = std::filesystem;

struct Outcome {
  int code = -1;
  std::string out, err;
};

class BandBlur : public test::TempDirTest {
 protected:
  // Runs the CLI with `args` (and `env`, "NAME=value" entries added to ours; `wrapper`, a command the
  // CLI runs under) as a child process.
  Outcome run(const std::vector<std::string>& args, const std::vector<std::string>& env = {},
              const std::vector<std::string>& wrapper = {}) const {
    const fs::path out = path("stdout"), err = path("stderr");
    const pid_t pid = ::fork();
    if (pid == 0) {
      std::freopen(out.c_str(), "w", stdout);
      std::freopen(err.c_str(), "w", stderr);
      for (const std::string& e : env) ::putenv(const_cast<char*>(e.c_str()));
      std::vector<char*> argv;
      for (const std::string& a : wrapper) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(const_cast<char*>(FASTBLUR_CLI_PATH));
      for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    Outcome r;
    int status = 0;
    if (pid > 0 && ::waitpid(pid, &status, 0) == pid) r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = test::slurp(out);
    r.err = test::slurp(err);
    return r;
  }

  io::Image random_image(ElementType t, int w, int h, int c) const {
    io::Image im;
    im.width = w, im.height = h, im.channels = c, im.type = t;
    im.pixels.resize(static_cast<std::size_t>(w * h * c) * element_size(t));
    auto rng = test::rng_for_test();
    for (int first = 0; first < c; first += 4) {
      const View v = im.channel_view(first, std::min(4, c - first));
      test::fill_random(v, rng);
      if (!is_integer(t))  // image files hold non-negative values
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x)
            for (int k = 0; k < v.channels; ++k) test::set(v, x, y, 0, k, std::abs(test::get(v, x, y, 0, k)));
    }
    return im;
  }

  // The pixels of an image file, or of a .npy written from one, as doubles.
  static std::vector<double> values(const fs::path& p) {
    View v;
    io::Image im;
    io::NpyArray a;
    if (p.extension() == ".npy") {
      a = io::read_npy(p);
      v = View::packed(a.data.data(), a.type, a.shape[1], a.shape[0], 1, 1);
      v.extent[0] = a.element_count() / a.shape[0];  // channels folded into x
      v.stride[1] = v.stride[0] * v.extent[0];
    } else {
      im = io::read_image(p);
      v = View::packed(im.pixels.data(), im.type, im.width * im.channels, im.height, 1, 1);
    }
    std::vector<double> out;
    for (std::int64_t y = 0; y < v.height(); ++y)
      for (std::int64_t x = 0; x < v.width(); ++x) out.push_back(test::get(v, x, y, 0, 0));
    return out;
  }
};

TEST_F(BandBlur, BandsGiveTheWholeImagesResultForEveryBorder) {
  // 8-row bands under a 20-row support (sigma 5): every band reads halos from its neighbours, the
  // first and last apply the border. fir is bit-identical to the whole image in memory (the .npy
  // output path); the other algorithms (and auto where it plans another) within their rounding.
  struct Case {
    const char* name;
    ElementType type;
    int channels;
  };
  const Case cases[] = {Case{"u8.png", ElementType::u8, 3}, Case{"u16.png", ElementType::u16, 4},
                        Case{"f32.tif", ElementType::f32, 1}};
  const char* const borders[] = {"reflect", "mirror", "nearest", "constant", "wrap"};
  const char* const algorithms[] = {"auto", "fir", "iir", "box", "sliding-dct", "kawase", "downsample"};
  for (int ci = 0; ci < 3; ++ci) {
    const Case c = cases[ci];
    io::write_image(path(c.name), random_image(c.type, 37, 201, c.channels));
    const std::string ext = fs::path(c.name).extension().string();
    for (int bi = 0; bi < 5; ++bi)
      for (int ai = 0; ai < 7; ++ai) {
        // FASTBLUR_TEST_SCALE=small: each (border, algorithm) pair on one of the three files, each
        // file still with every border and every algorithm.
        if (!test::grid_cell(bi, ai, ci, 3)) continue;
        const char* border = borders[bi];
        const char* algorithm = algorithms[ai];
        const std::string what = std::string(c.name) + " " + border + " " + algorithm;
        const std::vector<std::string> common{"-s", "5", "-b", border, "--cval", "0.25", "-a", algorithm};
        std::vector<std::string> streamed{"blur", path(c.name).string(), path("band" + ext).string(), "--band-rows",
                                          "8", "--explain"};
        std::vector<std::string> whole{"blur", path(c.name).string(), path("whole.npy").string(), "--explain"};
        streamed.insert(streamed.end(), common.begin(), common.end());
        whole.insert(whole.end(), common.begin(), common.end());
        const Outcome a = run(streamed), b = run(whole);
        ASSERT_EQ(a.code, 0) << what << ": " << a.err;
        ASSERT_EQ(b.code, 0) << what << ": " << b.err;
        const bool wrap = std::string(border) == "wrap";
        EXPECT_NE(a.out.find(wrap ? "whole in memory: a wrap border" : "streamed: bands of 8 rows"), std::string::npos)
            << what << "\n" << a.out;
        const std::vector<double> got = values(path("band" + ext)), want = values(path("whole.npy"));
        ASSERT_EQ(got.size(), want.size()) << what;
        // fir is bit-identical. auto is exact, but the bands run the plan of their window and the
        // whole image its own: where either is sliding-dct fitted to fir (the cheapest exact choice,
        // within 1e-5 of fir), the two agree to rounding only.
        const bool exact = std::string(algorithm) == "fir" ||
                           (std::string(algorithm) == "auto" && a.out.rfind("plan: fir,", 0) == 0 &&
                            b.out.rfind("plan: fir,", 0) == 0);
        double worst = 0.0;
        for (std::size_t i = 0; i < got.size(); ++i) worst = std::max(worst, std::abs(got[i] - want[i]));
        const double allowed = exact ? 0.0 : is_integer(c.type) ? 1.0 : 1e-5;
        EXPECT_LE(worst, allowed) << what;
      }
  }
}

TEST_F(BandBlur, TiledFilesStreamThroughTheImageModule) {
  // A tiled TIFF goes to OpenImageIO, whose read_scanlines divides by zero on tiled files: the module
  // reads it whole once and serves the bands; the result is the whole image's.
  const int w = 53, h = 90;
  std::vector<float> pixels(static_cast<std::size_t>(w * h * 3));
  auto rng = test::rng_for_test();
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (float& p : pixels) p = u(rng);
  OIIO::ImageSpec spec(w, h, 3, OIIO::TypeDesc::UINT16);
  spec.tile_width = spec.tile_height = 16;
  auto out = OIIO::ImageOutput::create(path("tiled.tif").string());
  ASSERT_TRUE(out && out->open(path("tiled.tif").string(), spec));
  ASSERT_TRUE(out->write_image(OIIO::TypeDesc::FLOAT, pixels.data()) && out->close());
  out.reset();
  const Outcome a = run({"blur", path("tiled.tif").string(), path("band.png").string(), "-s", "4", "-a", "fir",
                         "--band-rows", "8", "--explain"});
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_NE(a.out.find("streamed: bands of 8 rows"), std::string::npos) << a.out;
  // The schedule each band runs with, planned for the band's shape (one call through the front door each).
  EXPECT_NE(a.out.find("each band's schedule: cpu, driver "), std::string::npos) << a.out;
  ASSERT_EQ(run({"blur", path("tiled.tif").string(), path("whole.npy").string(), "-s", "4", "-a", "fir"}).code, 0);
  EXPECT_EQ(values(path("band.png")), values(path("whole.npy")));
}

TEST_F(BandBlur, ArraysStreamInSlicesOfTheirFirstAxis) {
  // A volume (slices along z) and an image-shaped array with channels (rows along y), 4 slices per
  // band under a 12-slice support: the same bits as the library's blur of the whole array.
  struct Case {
    std::vector<std::int64_t> shape;
    ElementType type;
    const char* sigma;
    int channels;
    const char* unit;
  };
  for (const Case& c : {Case{{61, 13, 11}, ElementType::f32, "3", 1, "slices"},
                        Case{{70, 9, 3}, ElementType::u16, "3,3,0", 3, "rows"},
                        Case{{90, 7}, ElementType::f64, "3", 1, "rows"}}) {
    io::NpyArray a;
    a.type = c.type;
    a.shape = c.shape;
    a.data.resize(static_cast<std::size_t>(a.element_count()) * element_size(c.type));
    auto rng = test::rng_for_test();
    test::fill_random(a.view(c.channels), rng);
    const auto bytes = io::encode_npy(a);
    test::spit(path("in.npy"), std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
    for (const char* border : {"reflect", "mirror", "nearest", "constant"}) {
      const Outcome r = run({"blur", path("in.npy").string(), path("out.npy").string(), "-s", c.sigma, "-b", border,
                             "-a", "fir", "--band-rows", "4", "--explain"});
      ASSERT_EQ(r.code, 0) << r.err;
      EXPECT_NE(r.out.find(std::string("streamed: bands of 4 ") + c.unit), std::string::npos) << r.out;
      io::NpyArray want = a;
      BlurSpec spec;
      spec.sigma = {3.0, 3.0, c.shape.size() - (c.channels > 1) == 3 ? 3.0 : 0.0};
      spec.border = {parse_border(border), parse_border(border), parse_border(border)};
      spec.algorithm = Algorithm::fir;
      blur(a.view(c.channels), want.view(c.channels), spec);
      const io::NpyArray got = io::read_npy(path("out.npy"));
      EXPECT_EQ(got.shape, a.shape);
      EXPECT_TRUE(got.data == want.data) << border << " " << c.unit;
    }
  }
}

TEST_F(BandBlur, PeakMemoryFollowsTheWidthNotTheHeight) {
#ifdef FASTBLUR_TEST_SANITIZED
  GTEST_SKIP() << "a sanitizer's shadow memory and quarantine are not the CLI's: the release run asserts the bound";
#endif
  // A 3000x16000 RGB TIFF (144 MB) written band by band. Whole in memory, in and out would take
  // 288 MB; streamed, a few bands of 16 MiB.
  const std::int64_t w = 3000, h = 16000;
  io::ImageHeader header;
  header.width = w, header.height = h, header.channels = 3, header.type = ElementType::u8;
  {
    auto out = io::create_image_rows(path("tall.tif"), header);
    std::vector<std::byte> rows(static_cast<std::size_t>(w * 3 * 500));
    for (std::int64_t y0 = 0; y0 < h; y0 += 500) {
      for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<std::byte>((i * 7 + static_cast<std::size_t>(y0)) % 251);
      out->write_rows(y0, y0 + 500, rows.data(), ElementType::u8);
    }
    out->commit();
  }
  // The peak as /usr/bin/time (Debian's `time`) measures it: a child forked from this test process
  // would carry the test's own resident set into its high-water mark, one forked from `time` does not.
  ASSERT_TRUE(fs::exists("/usr/bin/time")) << "the peak is measured with /usr/bin/time: apt-get install time";
  const Outcome r = run({"blur", path("tall.tif").string(), path("out.tif").string(), "-s", "4"}, {},
                        {"/usr/bin/time", "-f", "%M", "-o", path("peak").string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const long peak_kib = std::stol(test::slurp(path("peak")));
  const long image_kib = static_cast<long>(w * h * 3 / 1024);
  EXPECT_LT(peak_kib, image_kib / 2) << "peak " << peak_kib << " KiB for a " << image_kib << " KiB image";
  const io::Image back = io::read_image(path("out.tif"));
  EXPECT_EQ(back.width, w);
  EXPECT_EQ(back.height, h);
}

TEST_F(BandBlur, StartUpLoadsNoImageLibraryUnlessAFormatNeedsIt) {
  // The dynamic loader names every library it opens (LD_DEBUG=files): OpenImageIO and the image
  // module appear only for a format the in-process codecs leave to them (here OpenEXR).
  io::NpyArray a;
  a.type = ElementType::f32;
  a.shape = {16, 16};
  a.data.resize(16 * 16 * 4);
  const auto bytes = io::encode_npy(a);
  test::spit(path("a.npy"), std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  io::write_image(path("a.png"), random_image(ElementType::u8, 16, 12, 3));
  io::write_image(path("a.jpg"), random_image(ElementType::u8, 16, 12, 3));
  io::write_image(path("a.tif"), random_image(ElementType::u16, 16, 12, 4));
  io::write_image(path("a.exr"), random_image(ElementType::f32, 16, 12, 3));
  const auto loads_image_stack = [&](const std::vector<std::string>& args) {
    const Outcome r = run(args, {"LD_DEBUG=files"});
    EXPECT_EQ(r.code, 0) << r.err;
    return r.err.find("libOpenImageIO") != std::string::npos || r.err.find("libfastblur_image") != std::string::npos;
  };
  EXPECT_FALSE(loads_image_stack({"--version"}));
  EXPECT_FALSE(loads_image_stack({"blur", path("a.npy").string(), path("b.npy").string(), "-s", "1"}));
  EXPECT_FALSE(loads_image_stack({"blur", path("a.png").string(), path("b.jpg").string(), "-s", "1"}));
  EXPECT_FALSE(loads_image_stack({"blur", path("a.jpg").string(), path("b.png").string(), "-s", "1"}));
  EXPECT_FALSE(loads_image_stack({"blur", path("a.tif").string(), path("b.tif").string(), "-s", "1"}));
  EXPECT_TRUE(loads_image_stack({"blur", path("a.exr").string(), path("b.exr").string(), "-s", "1"}));
}

TEST_F(BandBlur, PhotoMetadataSurvivesTheCommandInEveryFormat) {
  // A phone photo: EXIF orientation 6 and a capture date, an ICC profile, 300 dpi. The blurred
  // JPEG, PNG and TIFF keep all of them (PNG's EXIF in its eXIf chunk).
  const std::vector<std::uint8_t> icc = test::small_icc_profile();
  const io::Image pixels = random_image(ElementType::u8, 40, 24, 3);
  {
    auto out = OIIO::ImageOutput::create(path("photo.jpg").string());
    OIIO::ImageSpec spec(40, 24, 3, OIIO::TypeDesc::UINT8);
    spec.attribute("Orientation", 6);
    spec.attribute("ICCProfile", OIIO::TypeDesc(OIIO::TypeDesc::UINT8, static_cast<int>(icc.size())), icc.data());
    spec.attribute("XResolution", 300.0f);
    spec.attribute("YResolution", 300.0f);
    spec.attribute("ResolutionUnit", "in");
    spec.attribute("Exif:DateTimeOriginal", "2026:11:24 10:00:00");
    ASSERT_TRUE(out->open(path("photo.jpg").string(), spec));
    ASSERT_TRUE(out->write_image(OIIO::TypeDesc::UINT8, pixels.pixels.data()));
    out->close();
  }
  for (const char* ext : {"jpg", "png", "tif"}) {
    const fs::path out = path(std::string("out.") + ext);
    const Outcome r = run({"blur", path("photo.jpg").string(), out.string(), "-s", "2"});
    ASSERT_EQ(r.code, 0) << ext << ": " << r.err;
    EXPECT_EQ(r.err, "") << ext;
    // Read back by OpenImageIO's decoders, not ours.
    OIIO::ImageSpec config;
    auto in = OIIO::ImageInput::open(out.string(), &config);
    ASSERT_TRUE(in) << ext;
    OIIO::ImageSpec spec = in->spec();
    in->close();
    if (std::string(ext) == "png") {
      // OpenImageIO 2.4's PNG reader reports neither eXIf nor iCCP: our reader's chunks, EXIF decoded by
      // OpenImageIO (PIL reads the same profile back).
      const io::Image back = io::read_image(out);
      ASSERT_TRUE(back.metadata && !back.metadata->exif.empty()) << "no eXIf chunk";
      const auto& m = *back.metadata;
      OIIO::decode_exif(OIIO::cspan<std::uint8_t>(m.exif.data(), static_cast<OIIO::oiio_span_size_type>(m.exif.size())), spec);
      spec.attribute("ICCProfile", OIIO::TypeDesc(OIIO::TypeDesc::UINT8, static_cast<int>(m.icc.size())), m.icc.data());
    }
    EXPECT_EQ(spec.get_int_attribute("Orientation", 1), 6) << ext;
    EXPECT_EQ(spec.get_string_attribute("Exif:DateTimeOriginal"), "2026:11:24 10:00:00") << ext;
    EXPECT_NEAR(spec.get_float_attribute("XResolution"), 300.0f, 0.5f) << ext;
    const OIIO::ParamValue* p = spec.find_attribute("ICCProfile");
    ASSERT_NE(p, nullptr) << ext;
    ASSERT_EQ(static_cast<std::size_t>(p->type().basesize() * p->type().numelements()), icc.size()) << ext;
    EXPECT_EQ(std::memcmp(p->data(), icc.data(), icc.size()), 0) << ext;
  }
}

}  // namespace
}  // namespace fastblur
