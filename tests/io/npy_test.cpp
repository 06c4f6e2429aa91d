// The .npy reader on files it did not write: every dtype and version round trip, pipes, truncated
// transfers refused before the data is allocated, hostile headers, and agreement between the
// in-memory parser and the streaming reader.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "io/npy.hpp"
#include "support/npy_header.hpp"
#include "support/temp_dir.hpp"
#include "support/test_support.hpp"

namespace fastblur {
namespace {
namespace fs = std::filesystem;

class Npy : public test::TempDirTest {
 protected:
  fs::path write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return dir_ / name;
  }
};

using test::npy_header;

TEST_F(Npy, EveryDtypeAndVersionReadsBackFromMemoryFilesAndPipes) {
  auto rng = test::rng_for_test();
  for (ElementType t : test::all_types())
    for (int major : {1, 2, 3}) {
      io::NpyArray a;
      a.type = t;
      a.shape = {3, 5, 2};
      a.data.resize(30 * element_size(t));
      for (auto& b : a.data) b = static_cast<std::byte>(rng());
      // encode_npy writes version 1; rewrite the header for versions 2 and 3.
      std::vector<std::byte> v1 = io::encode_npy(a);
      const io::NpyHeader h = io::parse_npy_header(v1);
      const std::string dict(reinterpret_cast<const char*>(v1.data()) + 10, h.data_offset - 10);
      const std::string file = npy_header(major, dict.substr(0, dict.find('}') + 1)) +
                               std::string(reinterpret_cast<const char*>(a.data.data()), a.data.size());
      const io::NpyArray from_memory = io::parse_npy(std::as_bytes(std::span(file.data(), file.size())));
      const io::NpyArray from_file = io::read_npy(write("a.npy", file));
      for (const io::NpyArray* got : {&from_memory, &from_file}) {
        EXPECT_EQ(got->type, t);
        EXPECT_EQ(got->shape, a.shape);
        EXPECT_EQ(got->data, a.data);
      }
      // A pipe has no size to check up front; the reader streams it.
      const fs::path fifo = dir_ / "pipe.npy";
      fs::remove(fifo);
      ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
      std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << file; });
      const io::NpyArray from_pipe = io::read_npy(fifo);
      writer.join();
      EXPECT_EQ(from_pipe.data, a.data);
    }
}

TEST_F(Npy, FortranOrderedFilesReadAsTheirArrayInCOrder) {
  // np.save of a Fortran-ordered array (a NIfTI volume from nibabel) writes fortran_order True and
  // the data first axis fastest: the reader gives the same array, laid out in C order, from memory,
  // a file, a pipe and slice by slice.
  auto rng = test::rng_for_test();
  for (const std::vector<std::int64_t>& shape : {std::vector<std::int64_t>{7}, {3, 5}, {4, 3, 6}, {1, 5, 2}}) {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    std::vector<std::uint16_t> c(static_cast<std::size_t>(n)), f(c.size());
    for (auto& v : c) v = static_cast<std::uint16_t>(rng());
    const std::int64_t n0 = shape[0], n1 = shape.size() > 1 ? shape[1] : 1, n2 = shape.size() > 2 ? shape[2] : 1;
    for (std::int64_t i0 = 0; i0 < n0; ++i0)
      for (std::int64_t i1 = 0; i1 < n1; ++i1)
        for (std::int64_t i2 = 0; i2 < n2; ++i2)
          f[static_cast<std::size_t>(i0 + n0 * (i1 + n1 * i2))] = c[static_cast<std::size_t>((i0 * n1 + i1) * n2 + i2)];
    std::string dims;
    for (auto d : shape) dims += std::to_string(d) + ", ";
    const std::string file = npy_header(1, "{'descr': '<u2', 'fortran_order': True, 'shape': (" + dims + "), }") +
                             std::string(reinterpret_cast<const char*>(f.data()), f.size() * 2);
    const auto* want = reinterpret_cast<const std::byte*>(c.data());
    const std::vector<std::byte> c_bytes(want, want + c.size() * 2);
    const fs::path on_disk = write("f.npy", file);
    for (const io::NpyArray& got : {io::parse_npy(std::as_bytes(std::span(file.data(), file.size()))), io::read_npy(on_disk)}) {
      EXPECT_EQ(got.type, ElementType::u16);
      EXPECT_EQ(got.shape, shape);
      EXPECT_EQ(got.data, c_bytes);
    }
    io::NpySliceReader slices(on_disk);
    EXPECT_TRUE(slices.header().fortran_order);
    std::vector<std::byte> read(c_bytes.size());
    const std::size_t slice = c_bytes.size() / static_cast<std::size_t>(n0);
    for (std::int64_t first = 0; first < n0; first += 2)
      slices.read(first, std::min(n0, first + 2), read.data() + static_cast<std::size_t>(first) * slice);
    EXPECT_EQ(read, c_bytes);
  }
}

TEST_F(Npy, TruncatedTransfersAreRefusedBeforeTheirDataIsAllocated) {
  // A header promising 2^40 float64 (8 TiB) over 100 bytes: an IoError naming the truncation, not
  // an attempt to allocate 8 TiB.
  const std::string file = npy_header(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1048576, 1048576), }") +
                           std::string(100, '\0');
  try {
    io::read_npy(write("huge.npy", file));
    FAIL() << "a truncated file was read";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("8796093022208 bytes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(io::parse_npy(std::as_bytes(std::span(file.data(), file.size()))), IoError);
  // Cut anywhere: header, data, one byte short.
  io::NpyArray a;
  a.type = ElementType::f32;
  a.shape = {4, 4};
  a.data.resize(64);
  const std::vector<std::byte> whole = io::encode_npy(a);
  for (std::size_t cut : {std::size_t{0}, std::size_t{5}, std::size_t{9}, std::size_t{40}, whole.size() - 64,
                          whole.size() - 1}) {
    const std::string part(reinterpret_cast<const char*>(whole.data()), cut);
    EXPECT_THROW(io::read_npy(write("cut.npy", part)), IoError) << cut;
    EXPECT_THROW(io::parse_npy(std::as_bytes(std::span(part.data(), part.size()))), IoError) << cut;
  }
}

TEST_F(Npy, HostileHeadersAreRefusedCheaply) {
  // A version 2 header claiming 2 GiB of text, a million dimensions, a dimension of 2^63.
  const std::string long_claim("\x93NUMPY\x02\x00\xff\xff\xff\x7f{'descr': '<f4'", 28);
  EXPECT_THROW(io::read_npy(write("claim.npy", long_claim)), IoError);
  std::string dims = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
  for (int i = 0; i < 20000; ++i) dims += "1, ";
  dims += "), }";
  EXPECT_THROW(io::read_npy(write("dims.npy", npy_header(2, dims))), IoError);
  EXPECT_THROW(io::read_npy(write("big.npy", npy_header(1, "{'descr': '<f4', 'fortran_order': False, 'shape': "
                                                       "(9223372036854775807,), }"))),
               IoError);
  EXPECT_THROW(io::read_npy(dir_ / "missing.npy"), IoError);
  EXPECT_THROW(io::read_npy(dir_), IoError);  // a directory
}

}  // namespace
}  // namespace fastblur
