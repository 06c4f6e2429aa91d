// Fuzzes the command line in-process through cli::run, the function main() calls: CLI11's parsing
// of every option, the sigma / radius / border / offset lists, the algorithm options, and the blur
// command end to end on small prepared files (.npy of every dtype and 1-3 dimensions, PNG, TIFF,
// OpenEXR), checking the CLI's promises after every run:
//  - the input is never modified (unless --in-place, and then only by a complete result),
//  - a failed run leaves no output and no temporary file; a successful one a readable output of the
//    input's shape.
// Input: byte 0 picks the mode (and the input file); the rest is the arguments, one per line.
//  mode 0: fastblur blur IN OUT ARGS...      mode 1: fastblur blur COPY COPY ARGS... (in place)
//  mode 2: fastblur analyze|codegen ARGS...  mode 3: fastblur ARGS...
// Arguments holding '/' are refused (so nothing outside the private directory can be named), and
// so are the demo, devices and serve subcommands (a 1080p blur; a Vulkan driver; a server that runs
// until stopped), which take no input.
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "app.hpp"
#include "core/element.hpp"
#include "fastblur/fastblur.hpp"
#include "fuzz_support.hpp"
#include "io/image_file.hpp"
#include "io/npy.hpp"
#include "support/files.hpp"

namespace fb = fastblur;
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail = "") { fb::fuzz::fail("fuzz_cli", what, detail); }

using fb::test::slurp;

struct Input {
  fs::path path;
  std::string bytes;  // as prepared: the CLI must never change them
  bool npy;
};

struct World {
  fs::path root, inputs, work;
  std::vector<Input> files;
  std::FILE* devnull = nullptr;
};

// Values from a small linear congruential generator: bytes for integer types, [0, 1) for floats.
fb::io::NpyArray make_array(fb::ElementType t, std::vector<std::int64_t> shape, std::uint32_t seed) {
  fb::io::NpyArray a;
  a.type = t;
  a.shape = std::move(shape);
  const std::size_t es = fb::element_size(t);
  a.data.resize(static_cast<std::size_t>(a.element_count()) * es);
  for (std::int64_t i = 0; i < a.element_count(); ++i) {
    seed = seed * 1664525u + 1013904223u;
    const double unit = static_cast<double>(seed >> 8) / (1u << 24);
    const double v = t == fb::ElementType::u8 ? unit * 255 : t == fb::ElementType::u16 ? unit * 65535 : unit;
    fb::core::store_element(t, a.data.data() + static_cast<std::size_t>(i) * es, v);
  }
  return a;
}

fb::io::Image make_image(fb::ElementType t, int w, int h, int c) {
  fb::io::Image im;
  im.width = w;
  im.height = h;
  im.channels = c;
  im.type = t;
  im.pixels = make_array(t, {h, w, c}, static_cast<std::uint32_t>(w * 131 + h * 7 + c)).data;
  return im;
}

World& world() {
  static World w = [] {
    World x;
    x.root = fb::fuzz::scratch_dir("fuzz-cli");
    x.inputs = x.root / "inputs";
    x.work = x.root / "work";
    fs::create_directories(x.inputs);
    fs::create_directories(x.work);
    const auto add_npy = [&](const char* name, const fb::io::NpyArray& a) {
      const auto bytes = fb::io::encode_npy(a);
      std::ofstream(x.inputs / name, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                                            static_cast<std::streamsize>(bytes.size()));
      x.files.push_back({x.inputs / name, slurp(x.inputs / name), true});
    };
    const auto add_image = [&](const char* name, const fb::io::Image& im) {
      fb::io::write_image(x.inputs / name, im);
      x.files.push_back({x.inputs / name, slurp(x.inputs / name), false});
    };
    add_npy("a.npy", make_array(fb::ElementType::f32, {5, 7}, 1));
    add_npy("b.npy", make_array(fb::ElementType::u8, {4, 6, 3}, 2));
    add_npy("c.npy", make_array(fb::ElementType::f64, {9}, 3));
    add_npy("d.npy", make_array(fb::ElementType::u16, {3, 4, 5}, 4));
    add_npy("e.npy", make_array(fb::ElementType::f16, {6, 6}, 5));
    add_image("f.png", make_image(fb::ElementType::u8, 6, 5, 4));
    add_image("g.png", make_image(fb::ElementType::u16, 4, 4, 1));
    add_image("h.exr", make_image(fb::ElementType::f16, 5, 4, 3));
    add_image("i.tif", make_image(fb::ElementType::f32, 3, 3, 2));
    add_image("j.tif", make_image(fb::ElementType::u8, 4, 3, 6));
    fs::current_path(x.work);  // relative names the fuzzer writes land here
    x.devnull = std::fopen("/dev/null", "w");
    // Help, plans and metrics go to stdout: away with them.
    const int null_fd = ::open("/dev/null", O_WRONLY);
    ::dup2(null_fd, 1);
    ::close(null_fd);
    return x;
  }();
  return w;
}

void clean_work_dir(const World& w) {
  for (const auto& e : fs::directory_iterator(w.work)) fs::remove_all(e.path());
}

void expect_no_temporaries(const World& w) {
  for (const auto& e : fs::recursive_directory_iterator(w.root))
    if (e.path().filename().string().find("fastblur-tmp") != std::string::npos)
      fail("a temporary file was left behind:", e.path().string());
}

// The output of a successful blur must read back with the input's shape.
void expect_readable_like(const fs::path& out, const Input& in) {
  if (in.npy) {
    const auto a = fb::io::read_npy(in.path), b = fb::io::read_npy(out);
    if (a.shape != b.shape) fail("the output array has another shape than the input");
  } else {
    const auto a = fb::io::read_image(in.path), b = fb::io::read_image(out);
    if (a.width != b.width || a.height != b.height) fail("the output image has another size than the input");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  World& w = world();
  std::vector<std::string> args;
  {
    std::string cur;
    for (std::size_t i = 1; i < size; ++i) {
      if (data[i] == '\n') {
        args.push_back(cur);
        cur.clear();
      } else {
        cur += static_cast<char>(data[i]);
      }
    }
    if (size > 1) args.push_back(cur);
  }
  if (args.size() > 24) return 0;
  for (const std::string& a : args)
    if (a.size() > 96 || a.find('/') != std::string::npos || a.find('\0') != std::string::npos || a == "demo" ||
        a == "devices" || a == "serve" || a.rfind("-o", 0) == 0 || a.rfind("--output", 0) == 0)
      return 0;  // no paths of the fuzzer's own: batch outputs (-o) would land in the working directory

  const int mode = data[0] % 4;
  // analyze measures against a float64 blur of the 512x512 scene, O(sigma) per pixel: seconds at
  // sigma 88 in a release build, past the per-input time limit under ASan. Its parsing is what is
  // fuzzed here, so its numbers stay at 16 or below.
  bool analyze = mode == 2 && (data[0] / 4) % 2;
  for (const std::string& a : args) analyze |= a == "analyze";
  if (analyze)
    for (const std::string& a : args)
      for (std::size_t at = 0; at < a.size(); at = a.find(',', at) == std::string::npos ? a.size() : a.find(',', at) + 1) {
        const double v = std::strtod(a.c_str() + at, nullptr);
        if (!(std::abs(v) <= 16.0)) return 0;
      }
  const Input& in = w.files[(data[0] / 4) % w.files.size()];
  static const char* const kImageOutputs[] = {"o.png", "o.tif", "o.exr"};
  std::vector<std::string> argv{"fastblur"};
  fs::path out;
  if (mode == 0 || mode == 1) {
    if (mode == 0) {
      out = w.work / (in.npy ? "o.npy" : kImageOutputs[(data[0] / 40) % 3]);
      argv.insert(argv.end(), {"blur", in.path.string(), out.string()});
    } else {
      out = w.work / ("copy" + in.path.extension().string());
      std::ofstream(out, std::ios::binary) << in.bytes;
      argv.insert(argv.end(), {"blur", out.string(), out.string()});
    }
  } else if (mode == 2) {
    argv.push_back((data[0] / 4) % 2 ? "analyze" : "codegen");
  }
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<const char*> cargs;
  for (const auto& a : argv) cargs.push_back(a.c_str());

  const int rc = fb::cli::run(static_cast<int>(cargs.size()), cargs.data(), w.devnull);
  std::fflush(stdout);

  if (rc != 0 && rc != 1 && rc != 2) fail("exit status", std::to_string(rc));
  for (const Input& f : w.files)
    if (slurp(f.path) != f.bytes) fail("an input file was modified:", f.path.string());
  expect_no_temporaries(w);
  if (mode == 0) {
    if (rc != 0 && fs::exists(out)) fail("a failed blur left an output");
    if (rc == 0 && fs::exists(out)) expect_readable_like(out, in);
  } else if (mode == 1) {
    if (rc != 0 && slurp(out) != in.bytes) fail("a failed in-place blur changed its input");
    if (rc == 0) expect_readable_like(out, in);
  }
  clean_work_dir(w);
  return 0;
}
