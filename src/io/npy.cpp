#include "io/npy.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/pixel_runs.hpp"
#include "fastblur/error.hpp"

namespace fastblur::io {
namespace {

constexpr std::int64_t kMaxElements = std::int64_t{1} << 40;

[[noreturn]] void fail(const std::string& what) { throw IoError("malformed .npy file: " + what); }

// A tiny reader for the Python dict literal in the header, e.g.
// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
struct HeaderParser {
  std::string_view s;
  std::size_t i = 0;
  void skip() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  bool eat(char c) {
    skip();
    if (i < s.size() && s[i] == c) return ++i, true;
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "' at byte " + std::to_string(i) + " of the header");
  }
  std::string string() {
    skip();
    if (i >= s.size() || (s[i] != '\'' && s[i] != '"')) fail("expected a quoted string in the header");
    const char q = s[i++];
    const std::size_t start = i;
    while (i < s.size() && s[i] != q) ++i;
    if (i >= s.size()) fail("unterminated string in the header");
    return std::string(s.substr(start, i++ - start));
  }
  std::string word() {
    skip();
    const std::size_t start = i;
    while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) ++i;
    return std::string(s.substr(start, i - start));
  }
  std::int64_t integer() {
    skip();
    std::int64_t v = 0;
    const std::size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      if (v > kMaxElements) fail("a dimension of the shape is too large");
      v = v * 10 + (s[i++] - '0');
    }
    if (i == start) fail("expected a non-negative integer in the shape");
    if (i < s.size() && s[i] == 'L') ++i;  // Python 2 long suffix
    return v;
  }
};

ElementType type_of(const std::string& descr) {
  if (descr.size() < 3) fail("unknown dtype '" + descr + "'");
  const char order = descr[0];
  const std::string code = descr.substr(1);
  if (order == '>' && code != "u1" && code != "i1" && code != "b1")
    throw IoError("unsupported .npy dtype '" + descr + "': big-endian data; save it little-endian (astype('<" +
                  code + "'))");
  if (order != '<' && order != '|' && order != '=' && order != '>') fail("unknown dtype '" + descr + "'");
  if (code == "u1") return ElementType::u8;
  if (code == "u2") return ElementType::u16;
  if (code == "f2") return ElementType::f16;
  if (code == "f4") return ElementType::f32;
  if (code == "f8") return ElementType::f64;
  if (code == "i1") return ElementType::i8;
  if (code == "i2") return ElementType::i16;
  if (code == "i4") return ElementType::i32;
  if (code == "i8") return ElementType::i64;
  if (code == "u4") return ElementType::u32;
  if (code == "u8") return ElementType::u64;
  if (code == "b1") return ElementType::b8;
  throw IoError("unsupported .npy dtype '" + descr +
                "': expected bool, uint8 ... uint64, int8 ... int64, float16, float32 or float64");
}

std::string descr_of(ElementType t) {
  switch (t) {
    case ElementType::u8: return "|u1";
    case ElementType::u16: return "<u2";
    case ElementType::f16: return "<f2";
    case ElementType::f32: return "<f4";
    case ElementType::f64: return "<f8";
    case ElementType::i8: return "|i1";
    case ElementType::i16: return "<i2";
    case ElementType::i32: return "<i4";
    case ElementType::i64: return "<i8";
    case ElementType::u32: return "<u4";
    case ElementType::u64: return "<u8";
    case ElementType::b8: return "|b1";
  }
  return "";
}

}  // namespace

std::int64_t NpyArray::element_count() const {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

View NpyArray::view(int channels) {
  std::int64_t ext[3] = {1, 1, 1};
  const std::size_t spatial = shape.size() - (channels > 1 ? 1 : 0);
  for (std::size_t a = 0; a < spatial; ++a) ext[a] = shape[spatial - 1 - a];
  return View::packed(data.data(), type, ext[0], ext[1], ext[2], channels);
}

NpyHeader parse_npy_header(std::span<const std::byte> file) {
  static const char kMagic[] = "\x93NUMPY";
  if (file.size() < 10 || std::memcmp(file.data(), kMagic, 6) != 0) fail("missing the \\x93NUMPY magic");
  const auto u8 = [&](std::size_t k) { return static_cast<std::uint32_t>(file[k]); };
  const std::uint32_t major = u8(6);
  std::size_t header_len, offset;
  if (major == 1) {
    header_len = u8(8) | (u8(9) << 8);
    offset = 10;
  } else if (major == 2 || major == 3) {
    if (file.size() < 12) fail("truncated header");
    header_len = u8(8) | (u8(9) << 8) | (u8(10) << 16) | (u8(11) << 24);
    offset = 12;
  } else {
    throw IoError("unsupported .npy format version " + std::to_string(major) + "." + std::to_string(u8(7)));
  }
  if (header_len > kMaxNpyHeaderBytes)
    fail("the header claims " + std::to_string(header_len) + " bytes, more than any real .npy header");
  if (header_len > file.size() - offset) fail("the header runs past the end of the file");
  HeaderParser p{std::string_view(reinterpret_cast<const char*>(file.data()) + offset, header_len)};
  NpyHeader h;
  bool have_descr = false, have_order = false, have_shape = false;
  p.expect('{');
  while (!p.eat('}')) {
    const std::string key = p.string();
    p.expect(':');
    if (key == "descr") {
      h.type = type_of(p.string());
      have_descr = true;
    } else if (key == "fortran_order") {
      const std::string w = p.word();
      if (w != "True" && w != "False") fail("fortran_order must be True or False");
      h.fortran_order = w == "True";
      have_order = true;
    } else if (key == "shape") {
      p.expect('(');
      while (!p.eat(')')) {
        // More than 3 dimensions is refused below; stop collecting long before a hostile header
        // of a million dimensions could cost memory.
        if (h.shape.size() > 32) fail("the shape has more than 32 dimensions");
        h.shape.push_back(p.integer());
        if (!p.eat(',')) {
          p.expect(')');
          break;
        }
      }
      have_shape = true;
    } else {
      fail("unexpected key '" + key + "' in the header");
    }
    if (!p.eat(',')) {
      p.expect('}');
      break;
    }
  }
  if (!have_descr || !have_order || !have_shape) fail("the header lacks descr, fortran_order or shape");
  if (h.shape.empty() || h.shape.size() > 3)
    throw IoError("unsupported .npy array with " + std::to_string(h.shape.size()) +
                  " dimensions: expected 1, 2 or 3");
  std::int64_t count = 1;
  for (auto d : h.shape) {
    if (d == 0) throw IoError(".npy array is empty (a dimension is 0)");
    if (d > kMaxElements / count) throw IoError(".npy array is too large (more than 2^40 elements)");
    count *= d;
  }
  h.data_offset = offset + header_len;
  h.data_bytes = static_cast<std::uint64_t>(count) * element_size(h.type);  // <= 2^43
  return h;
}

namespace {

[[noreturn]] void fail_truncated(std::uint64_t promised, std::uint64_t present) {
  throw IoError("truncated .npy file: the header promises " + std::to_string(promised) +
                " bytes of data, the file has " + std::to_string(present));
}

std::vector<std::byte> allocate_data(std::uint64_t bytes) {
  try {
    return std::vector<std::byte>(static_cast<std::size_t>(bytes));
  } catch (const std::bad_alloc&) {
    throw OutOfMemory("cannot allocate " + std::to_string(bytes) + " bytes for the .npy array");
  }
}

// A Fortran-ordered array's data (`shape` in NumPy's order, its first axis varying fastest) laid
// out in C order: out[((i0 n1) + i1) n2 + i2] = in[i0 + n0 (i1 + n1 i2)], each C row (i0, i1)
// gathered from elements n0 n1 apart.
std::vector<std::byte> fortran_to_c(const std::vector<std::int64_t>& shape, std::size_t element,
                                    const std::byte* in, std::uint64_t bytes) {
  std::vector<std::byte> out = allocate_data(bytes);
  std::int64_t n[3] = {1, 1, 1};
  for (std::size_t d = 0; d < shape.size(); ++d) n[d] = shape[d];
  const auto step = static_cast<std::ptrdiff_t>(n[0] * n[1]) * static_cast<std::ptrdiff_t>(element);
  std::byte* to = out.data();
  for (std::int64_t i0 = 0; i0 < n[0]; ++i0)
    for (std::int64_t i1 = 0; i1 < n[1]; ++i1, to += n[2] * static_cast<std::ptrdiff_t>(element))
      core::gather_pixels(in + static_cast<std::size_t>(i0 + n[0] * i1) * element, step, element, n[2], to);
  return out;
}

}  // namespace

NpyArray parse_npy(std::span<const std::byte> file) {
  const NpyHeader h = parse_npy_header(file);
  const std::uint64_t present = file.size() - h.data_offset;
  if (present < h.data_bytes) fail_truncated(h.data_bytes, present);
  NpyArray a;
  a.type = h.type;
  a.shape = h.shape;
  const auto* data = file.data() + h.data_offset;
  if (h.fortran_order) a.data = fortran_to_c(h.shape, element_size(h.type), data, h.data_bytes);
  else a.data.assign(data, data + static_cast<std::size_t>(h.data_bytes));
  return a;
}

namespace {

// Reads up to `n` more bytes of `in` onto `bytes`; returns how many came.
std::size_t read_more(std::istream& in, const std::filesystem::path& path, std::vector<std::byte>& bytes, std::size_t n) {
  const std::size_t old = bytes.size();
  bytes.resize(old + n);
  in.read(reinterpret_cast<char*>(bytes.data() + old), static_cast<std::streamsize>(n));
  const auto got = static_cast<std::size_t>(in.gcount());
  bytes.resize(old + got);
  if (in.bad()) throw IoError("cannot read '" + path.string() + "'");
  return got;
}

// The header, read and checked before anything of the data is allocated, and the data bytes read
// with it (a v1 header is followed by data at 10+len, and 12 bytes are read first). A regular file
// tells its size: a truncated one is refused here.
struct Head {
  NpyHeader header;
  std::vector<std::byte> early;
};
Head read_head(std::istream& in, const std::filesystem::path& path) {
  std::vector<std::byte> head;
  read_more(in, path, head, 12);
  std::size_t header_end = head.size();
  if (head.size() >= 10) {
    const auto u8 = [&](std::size_t k) { return static_cast<std::size_t>(head[k]); };
    if (u8(6) == 1) header_end = 10 + (u8(8) | (u8(9) << 8));
    else if ((u8(6) == 2 || u8(6) == 3) && head.size() >= 12)
      header_end = 12 + (u8(8) | (u8(9) << 8) | (u8(10) << 16) | (u8(11) << 24));
  }
  if (header_end > head.size()) read_more(in, path, head, std::min(header_end, kMaxNpyHeaderBytes + 13) - head.size());
  Head h{parse_npy_header(head), {}};
  if (head.size() > h.header.data_offset) h.early.assign(head.begin() + static_cast<std::ptrdiff_t>(h.header.data_offset), head.end());
  std::error_code ec;
  const auto file_size = std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec)
                                                                    : static_cast<std::uintmax_t>(-1);
  if (!ec && file_size != static_cast<std::uintmax_t>(-1) && file_size - h.header.data_offset < h.header.data_bytes)
    fail_truncated(h.header.data_bytes, file_size - h.header.data_offset);
  return h;
}

// Fills `out` (n bytes) from what `early` still holds, then from `in`.
void read_data(std::istream& in, std::vector<std::byte>& early, std::size_t& early_used, std::byte* out, std::size_t n,
               std::uint64_t total, std::uint64_t& have, const std::filesystem::path& path) {
  const std::size_t from_head = std::min(early.size() - early_used, n);
  if (from_head > 0) std::memcpy(out, early.data() + early_used, from_head);  // memcpy of nothing may not take null
  early_used += from_head;
  std::size_t done = from_head;
  have += from_head;
  while (done < n) {
    in.read(reinterpret_cast<char*>(out + done), static_cast<std::streamsize>(n - done));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (in.bad()) throw IoError("cannot read '" + path.string() + "'");
    if (got == 0) fail_truncated(total, have);
    done += got;
    have += got;
  }
}

}  // namespace

NpyArray read_npy(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot open '" + path.string() + "' for reading");
  try {
    Head h = read_head(in, path);
    NpyArray a;
    a.type = h.header.type;
    a.shape = h.header.shape;
    a.data = allocate_data(h.header.data_bytes);
    std::size_t used = 0;
    std::uint64_t have = 0;
    read_data(in, h.early, used, a.data.data(), a.data.size(), h.header.data_bytes, have, path);
    if (h.header.fortran_order) a.data = fortran_to_c(a.shape, element_size(a.type), a.data.data(), h.header.data_bytes);
    return a;
  } catch (const IoError& e) {
    throw IoError(path.string() + ": " + e.what());
  }
}

NpySliceReader::NpySliceReader(const std::filesystem::path& path) : path_(path), in_(path, std::ios::binary) {
  if (!in_) throw IoError("cannot open '" + path.string() + "' for reading");
  try {
    Head h = read_head(in_, path);
    header_ = h.header;
    early_ = std::move(h.early);
  } catch (const IoError& e) {
    throw IoError(path.string() + ": " + e.what());
  }
  std::uint64_t slice = element_size(header_.type);
  for (std::size_t a = 1; a < header_.shape.size(); ++a) slice *= static_cast<std::uint64_t>(header_.shape[a]);
  slice_bytes_ = slice;  // a 0-d array is one slice of one element
  if (header_.fortran_order) {
    try {
      std::vector<std::byte> data = allocate_data(header_.data_bytes);
      read_data(in_, early_, early_used_, data.data(), data.size(), header_.data_bytes, have_, path_);
      whole_ = fortran_to_c(header_.shape, element_size(header_.type), data.data(), header_.data_bytes);
    } catch (const IoError& e) {
      throw IoError(path_.string() + ": " + e.what());
    }
  }
}

void NpySliceReader::read(std::int64_t first, std::int64_t end, std::byte* out) {
  const std::int64_t slices = header_.shape.empty() ? 1 : header_.shape[0];
  if (first != next_ || end < first || end > slices) throw IoError("cannot read '" + path_.string() + "': slices out of order");
  if (header_.fortran_order) {
    std::memcpy(out, whole_.data() + static_cast<std::size_t>(first) * slice_bytes_,
                static_cast<std::size_t>((end - first) * static_cast<std::int64_t>(slice_bytes_)));
    next_ = end;
    return;
  }
  try {
    read_data(in_, early_, early_used_, out, static_cast<std::size_t>((end - first) * static_cast<std::int64_t>(slice_bytes_)),
              header_.data_bytes, have_, path_);
  } catch (const IoError& e) {
    throw IoError(path_.string() + ": " + e.what());
  }
  next_ = end;
}

std::vector<std::byte> encode_npy_header(ElementType type, const std::vector<std::int64_t>& shape) {
  std::string header = "{'descr': '" + descr_of(type) + "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < shape.size(); ++i) header += (i ? ", " : "") + std::to_string(shape[i]);
  header += shape.size() == 1 ? ",), }" : "), }";
  // Pad with spaces so the data starts on a 64-byte boundary; the header ends with '\n'.
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::vector<std::byte> out(10 + header.size());
  std::memcpy(out.data(), "\x93NUMPY\x01\x00", 8);
  out[8] = static_cast<std::byte>(header.size() & 0xFF);
  out[9] = static_cast<std::byte>(header.size() >> 8);
  std::memcpy(out.data() + 10, header.data(), header.size());
  return out;
}

std::vector<std::byte> encode_npy(const NpyArray& a) {
  std::vector<std::byte> out = encode_npy_header(a.type, a.shape);
  out.insert(out.end(), a.data.begin(), a.data.end());
  return out;
}

}  // namespace fastblur::io
