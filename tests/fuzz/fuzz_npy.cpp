// Fuzzes the .npy reader: parse_npy on the bytes in memory and read_npy on the same bytes as a file
// (the streaming reader the CLI uses), which must agree: the same array, or both an IoError. A
// parsed array must be consistent (1-3 dimensions, data of exactly the promised size), survive
// encode_npy -> parse_npy unchanged, and blur through its view like any array.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "fastblur/fastblur.hpp"
#include "fuzz_support.hpp"
#include "io/npy.hpp"

namespace fb = fastblur;
namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail = "") { fb::fuzz::fail("fuzz_npy", what, detail); }

// A private file for read_npy, on tmpfs where there is one.
const fs::path& scratch_file() {
  static const fs::path path = fb::fuzz::scratch_dir("fuzz-npy") / "in.npy";
  return path;
}

struct Outcome {
  std::optional<fb::io::NpyArray> array;
  std::string error;
};

template <class F>
Outcome attempt(F&& f) {
  Outcome o;
  try {
    o.array = f();
  } catch (const fb::IoError& e) {
    o.error = e.what();
  }
  return o;
}

bool same_array(const fb::io::NpyArray& a, const fb::io::NpyArray& b) {
  return a.type == b.type && a.shape == b.shape && a.data == b.data;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  const Outcome parsed = attempt([&] { return fb::io::parse_npy(bytes); });
  {
    std::ofstream out(scratch_file(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  const Outcome read = attempt([&] { return fb::io::read_npy(scratch_file()); });
  if (parsed.array.has_value() != read.array.has_value())
    fail("parse_npy and read_npy disagree:", parsed.array ? "read_npy: " + read.error : "parse_npy: " + parsed.error);
  if (!parsed.array) return 0;
  const fb::io::NpyArray& a = *parsed.array;
  if (!same_array(a, *read.array)) fail("parse_npy and read_npy read different arrays");

  if (a.shape.empty() || a.shape.size() > 3) fail("an array with an unsupported number of dimensions was accepted");
  std::uint64_t count = 1;
  for (auto d : a.shape) {
    if (d < 1) fail("a dimension below 1 was accepted");
    count *= static_cast<std::uint64_t>(d);
  }
  if (a.data.size() != count * fb::element_size(a.type)) fail("the data size does not match the shape");
  const fb::io::NpyHeader h = fb::io::parse_npy_header(bytes);
  if (h.data_offset + h.data_bytes > size || h.data_bytes != a.data.size()) fail("the header's data range is wrong");

  const std::vector<std::byte> encoded = fb::io::encode_npy(a);
  const fb::io::NpyArray again = fb::io::parse_npy(encoded);
  if (!same_array(a, again)) fail("encode_npy -> parse_npy changed the array");

  // The array's view is a valid blur source and destination.
  if (count <= 4096) {
    fb::io::NpyArray copy = a;
    fb::io::NpyArray out;
    out.type = fb::ElementType::f32;
    out.shape = a.shape;
    out.data.resize(count * 4);
    fb::BlurSpec spec;
    spec.sigma = {1.0, 1.0, 1.0};
    spec.threads = 1;
    fb::blur(copy.view(), out.view(), spec);
    fb::blur(copy.view(), copy.view(), spec);  // in place, the array's own type
  }
  return 0;
}
