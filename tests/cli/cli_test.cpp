// The CLI end to end: .npy, PNG, EXR and TIFF round trips against the library, and every kind
// of bad input: one line on stderr, a non-zero exit, no output file, the input untouched.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "io/image_file.hpp"
#include "io/npy.hpp"
#include "support/npy_header.hpp"
#include "support/temp_dir.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {
namespace fs = std::filesystem;

struct Result {
  int code;
  std::string out, err;
};

using test::slurp;
using test::spit;

class Cli : public test::TempDirTest {
 protected:
  Result run(const std::string& args) const {
    const std::string cmd = std::string(FASTBLUR_CLI_PATH) + " " + args + " > " + path("stdout").string() + " 2> " +
                            path("stderr").string();
    const int status = std::system(cmd.c_str());
    Result r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(path("stdout")), slurp(path("stderr"))};
    fs::remove(path("stdout"));
    fs::remove(path("stderr"));
    return r;
  }

  // A bad invocation: non-zero exit, exactly one line on stderr naming the problem, no output,
  // no temporary files, the input unchanged.
  void expect_failure(const std::string& args, const std::string& input, const std::string& output,
                      const std::string& mentions) {
    const bool input_is_file = fs::is_regular_file(path(input));
    const std::string before = input_is_file ? slurp(path(input)) : "";
    const bool output_existed = fs::exists(path(output));
    const std::string output_before = output_existed ? slurp(path(output)) : "";
    const Result r = run(args);
    EXPECT_NE(r.code, 0) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("fastblur: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(mentions), std::string::npos) << "stderr: " << r.err << "should mention: " << mentions;
    if (output_existed) EXPECT_EQ(slurp(path(output)), output_before) << "the old output was touched";
    else EXPECT_FALSE(fs::exists(path(output))) << args << " left an output";
    if (input_is_file) EXPECT_EQ(slurp(path(input)), before) << "the input was modified";
    for (const auto& e : fs::directory_iterator(dir_))
      EXPECT_EQ(e.path().filename().string().find("fastblur-tmp"), std::string::npos) << "left " << e.path();
  }

  void write_npy(const std::string& name, io::NpyArray& a) {
    const auto bytes = io::encode_npy(a);
    spit(path(name), std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  }

  // An array of random values of `t` and `shape`, written to `name`.
  io::NpyArray random_npy(const std::string& name, ElementType t, std::vector<std::int64_t> shape, std::mt19937_64& rng) {
    io::NpyArray a;
    a.type = t;
    a.shape = std::move(shape);
    a.data.resize(static_cast<std::size_t>(a.element_count()) * element_size(t));
    test::fill_random(a.view(), rng);
    write_npy(name, a);
    return a;
  }

  io::Image random_image(ElementType t, int w, int h, int c) {
    io::Image im;
    im.width = w;
    im.height = h;
    im.channels = c;
    im.type = t;
    im.pixels.resize(static_cast<std::size_t>(w * h * c) * element_size(t));
    auto rng = test::rng_for_test();
    for (int first = 0; first < c; first += 4) test::fill_random(im.channel_view(first, std::min(4, c - first)), rng);
    if (!is_integer(t))  // images hold non-negative values
      for (int first = 0; first < c; first += 4) {
        View v = im.channel_view(first, std::min(4, c - first));
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x)
            for (int k = 0; k < v.channels; ++k) test::set(v, x, y, 0, k, std::abs(test::get(v, x, y, 0, k)));
      }
    return im;
  }
};

TEST_F(Cli, VersionAndHelp) {
  const Result v = run("--version");
  EXPECT_EQ(v.code, 0);
  EXPECT_NE(v.out.find("fastblur 0."), std::string::npos);
  const Result h = run("blur --help");
  EXPECT_EQ(h.code, 0);
  for (const char* word : {"--sigma", "--border", "--cval", "--truncate", "--radius", "--algorithm", "--threads",
                           "--dtype", "--in-place", "mirror", "wrap", "fir"})
    EXPECT_NE(h.out.find(word), std::string::npos) << word;
  // Help fits a terminal (issue 44: 40 lines of `blur --help` over 100 characters): at most 100
  // columns, or the terminal's COLUMNS down to 60; options grouped, values named for what they take.
  const auto widest = [](const std::string& text) {
    std::size_t most = 0, at = 0;
    for (std::size_t end; (end = text.find('\n', at)) != std::string::npos; at = end + 1) most = std::max(most, end - at);
    return most;
  };
  for (const char* command : {"", "blur ", "analyze ", "codegen ", "serve ", "bench ", "demo ", "devices "}) {
    EXPECT_LE(widest(run(std::string(command) + "--help").out), 100u) << command;
    setenv("COLUMNS", "70", 1);
    EXPECT_LE(widest(run(std::string(command) + "--help").out), 70u) << command << " with COLUMNS=70";
    unsetenv("COLUMNS");
  }
  for (const char* text : {"Blur:", "Borders:", "Algorithm:", "Missing data:", "Output:", "-s,--sigma S[,S...]",
                           "-b,--border MODE[,MODE...]", "-r,--radius R[,R...]", "--mask FILE", "-d,--device DEVICE"})
    EXPECT_NE(h.out.find(text), std::string::npos) << text;
  for (std::size_t at = h.out.find("seed 00"); at != std::string::npos; at = h.out.find("seed 00", at + 1)) {
    const std::string around = h.out.substr(at > 60 ? at - 60 : 0, 140);
    EXPECT_TRUE(around.find("article") != std::string::npos || around.find("GPU Gems") != std::string::npos ||
                around.find("NVIDIA") != std::string::npos)
        << "a seed number without its name: ..." << around << "...";
  }
}

TEST_F(Cli, NpyMatchesTheLibraryForEveryDtypeAndAxisRule) {
  auto rng = test::rng_for_test();
  for (ElementType t : test::all_types()) {
    io::NpyArray a = random_npy("in.npy", t, {13, 17, 3}, rng);  // HxWxC
    const Result r = run(path("in.npy").string() + " " + path("out.npy").string() + " --sigma 2,1.5,0 --border wrap");
    // 'blur' is the subcommand: the line above lacks it on purpose and must fail as usage.
    EXPECT_EQ(r.code, 2);
    ASSERT_EQ(run("blur " + path("in.npy").string() + " " + path("out.npy").string() +
                  " --sigma 2,1.5,0 --border wrap").code, 0);
    io::NpyArray got = io::read_npy(path("out.npy"));
    ASSERT_EQ(got.type, t);
    ASSERT_EQ(got.shape, a.shape);
    // The array/channel rule (fastblur::channel_axis, the Python module's too): the trailing axis of
    // 3, not blurred, is channels - a 17x13 RGB image blurred along x by 1.5 and y by 2.
    io::NpyArray want = a;
    BlurSpec spec;
    spec.sigma = {1.5, 2.0, 0.0};
    spec.with_border(Border::wrap);
    blur(a.view(3), want.view(3), spec);
    EXPECT_EQ(got.data, want.data) << to_string(t);
  }
  // A trailing axis of 5 is not channels: a volume, as it always was (and so is a blurred one).
  random_npy("vol.npy", ElementType::f32, {6, 7, 5}, rng);
  const Result vol = run("blur " + path("vol.npy").string() + " " + path("vol_out.npy").string() + " --sigma 2,1.5,0 --explain");
  ASSERT_EQ(vol.code, 0) << vol.err;
  EXPECT_NE(vol.out.find("axis z: sigma 2"), std::string::npos) << vol.out;
  const Result rgb = run("blur " + path("in.npy").string() + " " + path("out.npy").string() + " --sigma 2,1.5,0 --explain");
  ASSERT_EQ(rgb.code, 0) << rgb.err;
  EXPECT_NE(rgb.out.find("axis y: sigma 2"), std::string::npos) << rgb.out;
  EXPECT_EQ(rgb.out.find("axis z"), std::string::npos) << rgb.out;
}

TEST_F(Cli, FortranOrderedNpyBlursAsItsArray) {
  // np.save of a Fortran-ordered array (nibabel's NIfTI volumes) writes fortran_order True: the
  // CLI blurs the array it holds - the output is the C-ordered file's, to the byte, with SciPy's
  // bits and with the exact engine.
  auto rng = test::rng_for_test();
  const io::NpyArray a = random_npy("c.npy", ElementType::i16, {9, 14, 11}, rng);
  std::string f(a.data.size(), '\0');
  for (std::int64_t i0 = 0; i0 < 9; ++i0)
    for (std::int64_t i1 = 0; i1 < 14; ++i1)
      for (std::int64_t i2 = 0; i2 < 11; ++i2)
        std::memcpy(f.data() + (i0 + 9 * (i1 + 14 * i2)) * 2, a.data.data() + ((i0 * 14 + i1) * 11 + i2) * 2, 2);
  spit(path("f.npy"), test::npy_header(1, "{'descr': '<i2', 'fortran_order': True, 'shape': (9, 14, 11), }") + f);
  for (const char* rounding : {"scipy", "nearest"}) {
    for (const char* name : {"c", "f"})
      ASSERT_EQ(run("blur " + path(std::string(name) + ".npy").string() + " " + path(std::string(name) + "_out.npy").string() +
                    " --sigma 1.5,0.8,2 --rounding " + rounding).code, 0) << name << " " << rounding;
    const io::NpyArray from_c = io::read_npy(path("c_out.npy")), from_f = io::read_npy(path("f_out.npy"));
    EXPECT_EQ(from_f.shape, a.shape) << rounding;
    EXPECT_EQ(from_f.data, from_c.data) << rounding;
  }
}

TEST_F(Cli, NpyDtypeOptionAndOneDimensionalArrays) {
  io::NpyArray a;
  a.type = ElementType::u8;
  a.shape = {40};
  a.data.assign(40, std::byte{0});
  a.data[20] = std::byte{255};
  write_npy("in.npy", a);
  ASSERT_EQ(run("blur " + path("in.npy").string() + " " + path("out.npy").string() + " -s 3 --dtype float32").code, 0);
  io::NpyArray got = io::read_npy(path("out.npy"));
  ASSERT_EQ(got.type, ElementType::f32);
  const auto w = kernel::gaussian_weights(3.0, 12);
  const float* v = reinterpret_cast<const float*>(got.data.data());
  for (int k = -12; k <= 12; ++k) EXPECT_NEAR(v[20 + k], 255 * w[k + 12], 1e-4);
}

TEST_F(Cli, ImagesKeepTheirTypeAndChannelsAreNotBlurred) {
  struct Case { const char* name; ElementType type; int channels; };
  for (const Case& c : {Case{"in.png", ElementType::u8, 4}, Case{"in16.png", ElementType::u16, 3},
                        Case{"in.exr", ElementType::f16, 4}, Case{"in32.exr", ElementType::f32, 2},
                        Case{"in.tif", ElementType::u16, 6}, Case{"inf.tif", ElementType::f32, 1}}) {
    io::Image im = random_image(c.type, 37, 23, c.channels);
    io::write_image(path(c.name), im);
    const std::string out = std::string("out_") + c.name;
    const Result r = run("blur " + path(c.name).string() + " " + path(out).string() + " --sigma 1.5,2.5 -b nearest");
    ASSERT_EQ(r.code, 0) << c.name << ": " << r.err;
    io::Image back = io::read_image(path(c.name));  // what the file holds
    io::Image got = io::read_image(path(out));
    ASSERT_EQ(got.type, c.type) << c.name;
    ASSERT_EQ(got.channels, c.channels) << c.name;
    io::Image want = back;
    BlurSpec spec;
    spec.sigma = {2.5, 1.5, 0.0};
    spec.with_border(Border::nearest);
    for (int first = 0; first < c.channels; first += 4)
      blur(back.channel_view(first, std::min(4, c.channels - first)), want.channel_view(first, std::min(4, c.channels - first)), spec);
    EXPECT_EQ(got.pixels, want.pixels) << c.name;
  }
}

TEST_F(Cli, QualityCompressionAndMetadataReachTheOutput) {
  io::Image im = random_image(ElementType::u8, 64, 48, 3);
  io::write_image(path("a.jpg"), im);
  const std::string a = path("a.jpg").string();
  ASSERT_EQ(run("blur " + a + " " + path("q30.jpg").string() + " -s 1 --quality 30").code, 0);
  ASSERT_EQ(run("blur " + a + " " + path("q95.jpg").string() + " -s 1").code, 0);
  EXPECT_LT(fs::file_size(path("q30.jpg")), fs::file_size(path("q95.jpg")));
  ASSERT_EQ(run("blur " + a + " " + path("c9.png").string() + " -s 1 --compression 9").code, 0);
  ASSERT_EQ(run("blur " + a + " " + path("c0.png").string() + " -s 1 --compression 0").code, 0);
  EXPECT_LT(fs::file_size(path("c9.png")), fs::file_size(path("c0.png")));
  const Result q = run("blur " + a + " " + path("bad.png").string() + " -s 1 --quality 50");
  EXPECT_EQ(q.code, 2);
  EXPECT_NE(q.err.find("--quality is for JPEG"), std::string::npos) << q.err;
  const Result c = run("blur " + a + " " + path("bad.png").string() + " -s 1 --compression fast");
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.err.find("zlib level 0 to 9"), std::string::npos) << c.err;
  EXPECT_FALSE(fs::exists(path("bad.png")));
}

TEST_F(Cli, ImagesAndArraysConvertEitherWay) {
  // An image written as .npy is (H, W, C) of the image's type; the same blur either way.
  io::Image im = random_image(ElementType::u16, 31, 19, 3);
  io::write_image(path("a.png"), im);
  const std::string a = path("a.png").string();
  ASSERT_EQ(run("blur " + a + " " + path("a.npy").string() + " -s 1.5").code, 0);
  ASSERT_EQ(run("blur " + a + " " + path("b.png").string() + " -s 1.5").code, 0);
  const io::NpyArray as_npy = io::read_npy(path("a.npy"));
  EXPECT_EQ(as_npy.type, ElementType::u16);
  EXPECT_EQ(as_npy.shape, (std::vector<std::int64_t>{19, 31, 3}));
  EXPECT_EQ(as_npy.data, io::read_image(path("b.png")).pixels);
  // And back: an (H, W, C) array (the channel rule) or an (H, W) array to an image file.
  ASSERT_EQ(run("blur " + path("a.npy").string() + " " + path("c.png").string() + " -s 0").code, 0);
  EXPECT_EQ(io::read_image(path("c.png")).pixels, as_npy.data);
  io::NpyArray gray;
  gray.type = ElementType::u8;
  gray.shape = {9, 14};
  gray.data.assign(9 * 14, std::byte{200});
  write_npy("gray.npy", gray);
  ASSERT_EQ(run("blur " + path("gray.npy").string() + " " + path("gray.png").string() + " -s 2").code, 0);
  const io::Image g = io::read_image(path("gray.png"));
  EXPECT_EQ(g.width, 14);
  EXPECT_EQ(g.height, 9);
  EXPECT_EQ(g.channels, 1);
  EXPECT_EQ(g.pixels, gray.data);  // flat stays flat
  // A volume has no image form.
  io::NpyArray vol;
  vol.type = ElementType::f32;
  vol.shape = {5, 6, 7};
  vol.data.assign(5 * 6 * 7 * 4, std::byte{0});
  write_npy("vol.npy", vol);
  const Result r = run("blur " + path("vol.npy").string() + " " + path("vol.png").string() + " -s 1");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is a volume"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("vol.png")));
}

TEST_F(Cli, BatchesWriteEveryGoodFileAndReportTheBadOnes) {
  std::string inputs;
  for (int k = 0; k < 4; ++k) {
    io::write_image(path("in" + std::to_string(k) + ".png"), random_image(ElementType::u8, 20 + k, 15, 3));
    inputs += " " + path("in" + std::to_string(k) + ".png").string();
  }
  spit(path("in2.png"), "not a png at all\n");  // a corrupt file in the middle
  fs::create_directories(path("out"));
  const Result r = run("blur" + inputs + " -o " + path("out").string() + " -s 1.5");
  EXPECT_EQ(r.code, 1) << r.err;
  for (int k : {0, 1, 3}) {
    const fs::path out = path("out/in" + std::to_string(k) + ".png");
    ASSERT_TRUE(fs::exists(out)) << out;
    // The same bytes as a single call gives.
    ASSERT_EQ(run("blur " + path("in" + std::to_string(k) + ".png").string() + " " + path("one.png").string() + " -s 1.5").code, 0);
    EXPECT_EQ(io::read_image(out).pixels, io::read_image(path("one.png")).pixels);
  }
  EXPECT_FALSE(fs::exists(path("out/in2.png")));
  EXPECT_NE(r.err.find("in2.png"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3 of 4 files blurred, 1 failed"), std::string::npos) << r.err;
  // A pattern, and conversions through it.
  const Result p = run("blur " + path("in0.png").string() + " " + path("in1.png").string() + " -o " +
                       path("{stem}_blurred.npy").string() + " -s 1");
  EXPECT_EQ(p.code, 0) << p.err;
  EXPECT_TRUE(fs::exists(path("in0_blurred.npy")) && fs::exists(path("in1_blurred.npy")));
  // Refused before any file is written: two inputs to one output, a missing directory, a pattern
  // without an input of its own; bad arguments for every file exit 2.
  const Result same = run("blur " + path("in0.png").string() + " " + path("in1.png").string() + " -o " +
                          path("fixed.png").string() + " -s 1");
  EXPECT_EQ(same.code, 2);
  const Result clash = run("blur " + path("in0.png").string() + " " + path("out/../in0.png").string() + " -o " +
                           path("c_{name}").string() + " -s 1");
  EXPECT_EQ(clash.code, 2);
  EXPECT_NE(clash.err.find("would both be written"), std::string::npos) << clash.err;
  const Result bad = run("blur " + path("in0.png").string() + " " + path("in1.png").string() + " -o " +
                         path("out").string() + " -s -1");
  EXPECT_EQ(bad.code, 2) << bad.err;
  const Result three = run("blur " + path("in0.png").string() + " " + path("in1.png").string() + " " + path("x.png").string() + " -s 1");
  EXPECT_EQ(three.code, 2);
  EXPECT_NE(three.err.find("--output"), std::string::npos) << three.err;
  EXPECT_FALSE(fs::exists(path("x.png")) || fs::exists(path("c_in0.png")));
}

TEST_F(Cli, InPlaceReplacesTheInputOnlyWhenAsked) {
  io::Image im = random_image(ElementType::u8, 20, 20, 3);
  io::write_image(path("a.png"), im);
  expect_failure("blur " + path("a.png").string() + " " + path("a.png").string() + " -s 2", "a.png", "a.png", "--in-place");
  const std::string before = slurp(path("a.png"));
  ASSERT_EQ(run("blur " + path("a.png").string() + " " + path("a.png").string() + " -s 2 --in-place").code, 0);
  EXPECT_NE(slurp(path("a.png")), before);
}

TEST_F(Cli, BadArguments) {
  io::Image im = random_image(ElementType::u8, 16, 12, 3);
  io::write_image(path("a.png"), im);
  const std::string in = path("a.png").string(), out = path("b.png").string();
  expect_failure("blur " + in + " " + out + " -s -1", "a.png", "b.png", "must be a finite value >= 0");
  expect_failure("blur " + in + " " + out + " -s nan", "a.png", "b.png", "must be a finite value >= 0");
  expect_failure("blur " + in + " " + out + " -s inf", "a.png", "b.png", "must be a finite value >= 0");
  expect_failure("blur " + in + " " + out + " -s 1,2,0,4", "a.png", "b.png", "4 values");
  expect_failure("blur " + in + " " + out + " -s 1,2,3", "a.png", "b.png", "channels of an image are never blurred");
  expect_failure("blur " + in + " " + out + " -s two", "a.png", "b.png", "not a number");
  expect_failure("blur " + in + " " + out + " -s 1 -r -3", "a.png", "b.png", "--radius");
  expect_failure("blur " + in + " " + out + " -s 1 -r 2.5", "a.png", "b.png", "whole number");
  expect_failure("blur " + in + " " + out + " -s 1 -b reflect101", "a.png", "b.png", "unknown border mode");
  expect_failure("blur " + in + " " + out + " -s 1 -a magic", "a.png", "b.png", "unknown algorithm");
  expect_failure("blur " + in + " " + out + " -s 1 --dtype complex64", "a.png", "b.png", "unknown element type");
  expect_failure("blur " + in + " " + out + " -s 1 --dtype int32", "a.png", "b.png", "images hold uint8");
  expect_failure("blur " + in + " " + out + " -s 1 --rounding up", "a.png", "b.png", "--rounding");
  expect_failure("blur " + in + " " + out + " -s 1 -j -1", "a.png", "b.png", "--threads");
  expect_failure("blur " + in + " " + out + " -s 1 -t 3 -r 2", "a.png", "b.png", "excludes");
  expect_failure("blur " + in + " " + out + " -s 1e12", "a.png", "b.png", "beyond the maximum");
  expect_failure("blur " + in + " " + path("nodir/b.png").string() + " -s 1", "a.png", "nodir/b.png", "does not exist");
  expect_failure("blur " + in + " " + path("b.xyz").string() + " -s 1", "a.png", "b.xyz", "unknown image format");
  expect_failure("blur " + path("missing.png").string() + " " + out + " -s 1", "missing.png", "b.png", "no such file");
  fs::create_directories(path("adir"));
  expect_failure("blur " + path("adir").string() + " " + out + " -s 1", "adir", "b.png", "is a directory");
  spit(path("notes.txt"), "just some text, not an image\n");
  expect_failure("blur " + path("notes.txt").string() + " " + out + " -s 1", "notes.txt", "b.png", "cannot read");
  // Slips are named with a suggestion and the command's help, before CLI11's own checks (which
  // reported a missing --sigma for --sigmaa, and "A subcommand is required" for blurr).
  expect_failure("blurr " + in + " " + out + " -s 1", "a.png", "b.png", "unknown command 'blurr' (did you mean 'blur'?)");
  expect_failure("blur " + in + " " + out + " --sigmaa 1", "a.png", "b.png",
                 "unknown option '--sigmaa' for 'blur' (did you mean '--sigma'?); run 'fastblur blur --help'");
  expect_failure("blur " + in + " " + out + " -s 1 --algoritm box", "a.png", "b.png", "(did you mean '--algorithm'?)");
  expect_failure("blur " + in + " " + out + " -s 1 --zzzzzzzz", "a.png", "b.png", "unknown option '--zzzzzzzz' for 'blur';");
  expect_failure("blur " + in + " " + out, "a.png", "b.png", "--sigma is required (run 'fastblur blur --help' for usage)");
  expect_failure("frobnicate", "a.png", "b.png", "unknown command 'frobnicate'; run 'fastblur --help'");
  // An extension no image library has is refused without loading the image module (OpenImageIO and
  // its dependencies: 0.4 s and 138 MB to refuse out.xyz, issue 44): with a module that cannot
  // load, the refusal is still the format's; an extension OpenImageIO may know does load it.
  setenv("FASTBLUR_IMAGE_MODULE", in.c_str(), 1);
  expect_failure("blur " + in + " " + path("b.xyz").string() + " -s 1", "a.png", "b.xyz", "unknown image format");
  expect_failure("blur " + in + " " + path("b.exr").string() + " -s 1", "a.png", "b.exr", "image module");
  unsetenv("FASTBLUR_IMAGE_MODULE");
}

TEST_F(Cli, CorruptAndTruncatedFilesOfEveryFormat) {
  io::Image rgba = random_image(ElementType::u8, 64, 48, 4);
  io::Image rgb = random_image(ElementType::f32, 64, 48, 3);
  io::write_image(path("a.png"), rgba);
  io::write_image(path("a.jpg"), rgba.channels == 4 ? random_image(ElementType::u8, 64, 48, 3) : rgba);
  io::write_image(path("a.tif"), rgba);
  io::write_image(path("a.exr"), rgb);
  io::write_image(path("a.hdr"), rgb);
  io::NpyArray arr;
  arr.type = ElementType::f32;
  arr.shape = {30, 20};
  arr.data.resize(30 * 20 * 4);
  write_npy("a.npy", arr);
  spit(path("old.out.png"), "previous output");
  for (const std::string ext : {"png", "jpg", "tif", "exr", "hdr", "npy"}) {
    const std::string whole = slurp(path("a." + ext));
    spit(path("trunc." + ext), whole.substr(0, whole.size() / 2));
    std::string garbage = whole;
    for (std::size_t i = whole.size() / 3; i < whole.size(); i += 7) garbage[i] = static_cast<char>(garbage[i] ^ 0x5A);
    spit(path("noise." + ext), garbage.substr(0, 24) + std::string(200, '\x7f'));
    const std::string out = ext == "npy" ? "o.npy" : "o.png";
    expect_failure("blur " + path("trunc." + ext).string() + " " + path(out).string() + " -s 1", "trunc." + ext, out,
                   "");
    expect_failure("blur " + path("noise." + ext).string() + " " + path(out).string() + " -s 1", "noise." + ext, out,
                   "");
    // A failure leaves an existing output as it was.
    if (ext != "npy")
      expect_failure("blur " + path("trunc." + ext).string() + " " + path("old.out.png").string() + " -s 1",
                     "trunc." + ext, "old.out.png", "");
  }
}

TEST_F(Cli, MalformedNpyHeaders) {
  const auto npy = [&](const std::string& header, std::size_t data_bytes) {
    std::string h = header;
    h.append((64 - (10 + h.size() + 1) % 64) % 64, ' ');
    h += '\n';
    std::string file = std::string("\x93NUMPY\x01\x00", 8);
    file += static_cast<char>(h.size() & 0xFF);
    file += static_cast<char>(h.size() >> 8);
    return file + h + std::string(data_bytes, '\0');
  };
  struct Case { std::string bytes, mentions; };
  const Case cases[] = {
      {"NUMPY not really", "magic"},
      {npy("{'descr': '<c8', 'fortran_order': False, 'shape': (4, 4), }", 128), "unsupported .npy dtype"},
      {npy("{'descr': '>f4', 'fortran_order': False, 'shape': (4, 4), }", 64), "big-endian"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 2, 2), }", 64), "4 dimensions"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (), }", 4), "0 dimensions"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 0), }", 0), "empty"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }", 63), "truncated"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999, 99999999999), }", 8), "too large"},
      {npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4) ", 64), "expected"},
      {npy("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (4, 4), }", 64), "fortran_order"},
      {npy("{'descr': '<f4', 'shape': (4, 4), }", 64), "lacks"},
      {npy("{'descr': '<f4, 'fortran_order': False, 'shape': (4, 4), }", 64), ""},
      {std::string("\x93NUMPY\x01\x00\xff\xff{}", 12), "past the end"},
      {std::string("\x93NUMPY\x09\x00\x10\x00{}", 12), "version 9"},
  };
  int i = 0;
  for (const Case& c : cases) {
    const std::string name = "bad" + std::to_string(i++) + ".npy";
    spit(path(name), c.bytes);
    expect_failure("blur " + path(name).string() + " " + path("o.npy").string() + " -s 1", name, "o.npy", c.mentions);
  }
}

TEST_F(Cli, ToleranceAndExplainChooseAndShowThePlan) {
  io::NpyArray a;
  a.type = ElementType::f32;
  a.shape = {200, 300};
  a.data.resize(200 * 300 * 4);
  auto rng = test::rng_for_test();
  test::fill_random(a.view(), rng);
  write_npy("in.npy", a);
  // A named algorithm runs as named, and says so when it cannot meet the tolerance (issue 44).
  const Result named = run("blur " + path("in.npy").string() + " " + path("k.npy").string() +
                           " -s 3 --algorithm kawase --tolerance 0.0001");
  ASSERT_EQ(named.code, 0) << named.err;
  EXPECT_NE(named.err.find("fastblur: warning: kawase's predicted max error"), std::string::npos) << named.err;
  EXPECT_NE(named.err.find("exceeds --tolerance 0.0001"), std::string::npos) << named.err;
  const Result within = run("blur " + path("in.npy").string() + " " + path("k.npy").string() +
                            " -s 3 --algorithm kawase --tolerance 0.2");
  ASSERT_EQ(within.code, 0) << within.err;
  EXPECT_EQ(within.err, "");
  const Result r = run("blur " + path("in.npy").string() + " " + path("out.npy").string() +
                       " -s 30 --tolerance 0.08 --explain");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("plan: "), std::string::npos);
  EXPECT_NE(r.out.find("considered:"), std::string::npos);
  EXPECT_EQ(r.out.find("plan: fir"), std::string::npos) << r.out;  // an O(1) algorithm wins at sigma 30
  // The result is the plan's: blur with the planned spec gives the same bytes.
  BlurSpec spec = BlurSpec::isotropic_2d(30);
  spec.tolerance = 0.08;
  io::NpyArray want = a;
  blur(a.view(), want.view(), spec);
  EXPECT_EQ(io::read_npy(path("out.npy")).data, want.data);
}

TEST_F(Cli, EveryAlgorithmRunsFromTheCommandLine) {
  io::Image im = random_image(ElementType::u8, 64, 48, 4);
  io::write_image(path("a.png"), im);
  for (const auto& info : algorithms()) {
    const std::string out = "out_" + std::string(info.name) + ".png";
    const Result r = run("blur " + path("a.png").string() + " " + path(out).string() + " -s 3 -a " + std::string(info.name));
    if (info.gpu_only) {  // a GPU technique: a clear error on the CPU
      EXPECT_EQ(r.code, 1) << r.err;
      EXPECT_NE(r.err.find("Vulkan"), std::string::npos) << r.err;
      EXPECT_FALSE(fs::exists(path(out)));
      continue;
    }
    EXPECT_EQ(r.code, 0) << info.name << ": " << r.err;
    EXPECT_TRUE(fs::exists(path(out))) << info.name;
  }
  const Result k = run("blur " + path("a.png").string() + " " + path("k.png").string() +
                       " -s 1 -a kawase --offsets 0.5,1.5,2.5,2.5,3.5");
  EXPECT_EQ(k.code, 0) << k.err;
  const Result b = run("blur " + path("a.png").string() + " " + path("b.png").string() + " -s 4 -a box --passes 7");
  EXPECT_EQ(b.code, 2);
  EXPECT_NE(b.err.find("1 to 6"), std::string::npos) << b.err;
  const Result d = run("blur " + path("a.png").string() + " " + path("d.png").string() + " -s 6 -a sliding-dct --sdct-order 3");
  EXPECT_EQ(d.code, 0) << d.err;
  const Result e = run("blur " + path("a.png").string() + " " + path("e.png").string() + " -s 6 -a sliding-dct --sdct-order 12");
  EXPECT_EQ(e.code, 2);
  EXPECT_NE(e.err.find("--sdct-order must be 2 to 8"), std::string::npos) << e.err;
  EXPECT_FALSE(fs::exists(path("e.png")));
  // An option the algorithm does not take is refused, never ignored: another algorithm's, or any
  // with auto (whose candidates' parameters are the planner's).
  const Result f = run("blur " + path("a.png").string() + " " + path("f.png").string() + " -s 6 -a box --sdct-order 3");
  EXPECT_EQ(f.code, 2);
  EXPECT_NE(f.err.find("--sdct-order is an option of sliding-dct, not of box"), std::string::npos) << f.err;
  const Result g = run("blur " + path("a.png").string() + " " + path("g.png").string() + " -s 6 --passes 4");
  EXPECT_EQ(g.code, 2);
  EXPECT_NE(g.err.find("--passes is an option of box and kawase: name the algorithm"), std::string::npos) << g.err;
  EXPECT_FALSE(fs::exists(path("f.png")) || fs::exists(path("g.png")));
}

TEST_F(Cli, AnalyzePrintsMetricsJsonAndPlots) {
  // Every algorithm the CPU runs draws all three plots (planar ones too: their 1D plot is a marginal).
  for (const AlgorithmInfo& a : algorithms()) {
    if (a.gpu_only) continue;  // Vulkan only
    const fs::path dir = path("plots_" + std::string(a.name));
    // FASTBLUR_TEST_SCALE=small: sigma 2, a smaller impulse response to measure and plot.
    const Result r = run("analyze -a " + std::string(a.name) + " -s " + test::scaled<std::string>("5", "2") + " --plot " +
                         dir.string());
    ASSERT_EQ(r.code, 0) << a.name << ": " << r.err;
    for (const char* word : {"effective sigma", "max error", "L1 error", "anisotropy", "PSNR"})
      EXPECT_NE(r.out.find(word), std::string::npos) << a.name << ": " << word;
    for (const char* f : {"cross_section.svg", "impulse_log.svg", "contours.svg"}) {
      const std::string svg = slurp(dir / f);
      EXPECT_EQ(svg.rfind("<svg", 0), 0u) << a.name << ": " << f;
      EXPECT_NE(svg.find("<path d=\"M"), std::string::npos) << a.name << ": " << f;  // something was drawn
    }
  }
  const Result j = run("analyze -a iir -s 10 --json");
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_EQ(j.out.front(), '{');
  EXPECT_NE(j.out.find("\"algorithm\": \"iir\""), std::string::npos) << j.out;
  EXPECT_NE(j.out.find("\"l1_error\""), std::string::npos);
  EXPECT_EQ(run("analyze -s -3").code, 2);
  // Within a second up to the explorer's largest sigma, 100 (issue 44: 8.2 s, 8 of them the scalar
  // reference blur of the scene), two at analyze's own, 200; sanitized builds get 8 times that.
#ifdef FASTBLUR_TEST_SANITIZED
  constexpr double kBudget = 8.0;
#else
  constexpr double kBudget = 1.0;
#endif
  for (const auto& [sigma, budget] : {std::pair{"100", kBudget}, std::pair{"200", 2 * kBudget}}) {
    const auto start = std::chrono::steady_clock::now();
    const Result big = run(std::string("analyze --json -s ") + sigma);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(big.code, 0) << big.err;
    EXPECT_NE(big.out.find("\"psnr_db\""), std::string::npos) << big.out;
    EXPECT_LT(seconds, budget) << "analyze --sigma " << sigma;
  }
}

TEST_F(Cli, DevicesAndTheDeviceOption) {
  const Result d = run("devices");
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_NE(d.out.find("cpu"), std::string::npos);
  io::Image im = random_image(ElementType::u8, 40, 30, 3);
  io::write_image(path("a.png"), im);
  const Result bad = run("blur " + path("a.png").string() + " " + path("b.png").string() + " -s 2 -d gpu");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--device"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(path("b.png")));
  if (d.out.find("vulkan:0") == std::string::npos) GTEST_SKIP() << "no Vulkan device: " << d.out;
  const Result g = run("blur " + path("a.png").string() + " " + path("g.png").string() + " -s 2 -d vulkan:0");
  ASSERT_EQ(g.code, 0) << g.err;
  const Result c = run("blur " + path("a.png").string() + " " + path("c.png").string() + " -s 2");
  ASSERT_EQ(c.code, 0) << c.err;
  const io::Image gi = io::read_image(path("g.png")), ci = io::read_image(path("c.png"));
  ASSERT_EQ(gi.pixels.size(), ci.pixels.size());
  int worst = 0;
  for (std::size_t i = 0; i < gi.pixels.size(); ++i)
    worst = std::max(worst, std::abs(int(gi.pixels[i]) - int(ci.pixels[i])));
  EXPECT_LE(worst, 1);  // float32 on the device, rounded to 8 bits
  const Result k = run("blur " + path("a.png").string() + " " + path("k.png").string() + " -s 2 -d vulkan -a fft");
  EXPECT_EQ(k.code, 1);
  EXPECT_NE(k.err.find("not available on the Vulkan backend"), std::string::npos) << k.err;
  EXPECT_FALSE(fs::exists(path("k.png")));
  // Every algorithm the GPU runs works from the command line with --device.
  for (const char* alg : {"kawase", "dual-kawase", "mip-poisson", "fir-linear", "iir", "box", "downsample"}) {
    const Result r = run("blur " + path("a.png").string() + " " + path("g_" + std::string(alg) + ".png").string() +
                         " -s 3 -d vulkan -a " + alg);
    EXPECT_EQ(r.code, 0) << alg << ": " << r.err;
  }
}

TEST_F(Cli, CodegenPrintsShaders) {
  const Result g = run("codegen -s 4.2");
  ASSERT_EQ(g.code, 0) << g.err;
  EXPECT_NE(g.out.find("FASTBLUR_WEIGHTS"), std::string::npos);
  EXPECT_NE(g.out.find("vec4 fastblur_gaussian_pass"), std::string::npos);
  const Result h = run("codegen -s 4.2 -m kawase -l hlsl");
  ASSERT_EQ(h.code, 0) << h.err;
  EXPECT_NE(h.out.find("float4 fastblur_kawase_pass"), std::string::npos);
  const Result d = run("codegen -s 7.5 -m dual-kawase");
  ASSERT_EQ(d.code, 0) << d.err;
  EXPECT_NE(d.out.find("vec4 fastblur_dual_kawase_down"), std::string::npos);
  EXPECT_NE(d.out.find("FASTBLUR_DUAL_KAWASE_LEVELS"), std::string::npos);
  EXPECT_EQ(run("codegen -s 0.5 -m dual-kawase").code, 2);  // below the chain's smallest sigma
  EXPECT_EQ(run("codegen -s 2 -m bokeh").code, 2);
}

TEST_F(Cli, BenchTimesTheGridAgainstTheCopyFloor) {
  const Result r = run("bench --quick -j 1");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("copy bandwidth"), std::string::npos) << r.out;
  // One row per case, each with two positive times and the algorithm each used.
  for (const char* c : {"RGBA8 k7", "RGBA8 k35", "RGBA8 s20", "RGBA32F k7", "RGBA32F k35", "RGBA32F s20"}) {
    const auto at = r.out.find(c);
    ASSERT_NE(at, std::string::npos) << c << " missing in\n" << r.out;
    const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
    double exact = 0, tol = 0;
    char exact_alg[32] = {}, tol_alg[32] = {};
    const std::string fmt = std::string(c) + " %lf (%31[^)]) %lf (%31[^)])";
    ASSERT_EQ(std::sscanf(line.c_str(), fmt.c_str(), &exact, exact_alg, &tol, tol_alg), 4) << line;
    EXPECT_GT(exact, 0) << line;
    EXPECT_GT(tol, 0) << line;
    // Exact: fir, or what equals it within 1e-5 (fft, sliding-dct fitted to fir's kernel).
    EXPECT_TRUE(std::string(exact_alg) == "fir" || std::string(exact_alg) == "fft" || std::string(exact_alg) == "sliding-dct")
        << line;
  }
  EXPECT_NE(r.err.find("[13/13]"), std::string::npos) << r.err;  // progress, not a terminal: one line per step
  EXPECT_EQ(run("bench --size 10x10").code, 2);
  EXPECT_EQ(run("bench --size wide").code, 2);
  EXPECT_EQ(run("bench --repeats 0").code, 2);
}

}  // namespace
}  // namespace fastblur
