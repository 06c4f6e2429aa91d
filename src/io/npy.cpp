#include "io/npy.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

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
  if (order == '>' && code != "u1")
    throw IoError("unsupported .npy dtype '" + descr + "': big-endian data; save it little-endian (astype('<" +
                  code + "'))");
  if (order != '<' && order != '|' && order != '=' && order != '>') fail("unknown dtype '" + descr + "'");
  if (code == "u1") return ElementType::u8;
  if (code == "u2") return ElementType::u16;
  if (code == "f2") return ElementType::f16;
  if (code == "f4") return ElementType::f32;
  if (code == "f8") return ElementType::f64;
  throw IoError("unsupported .npy dtype '" + descr +
                "': expected uint8, uint16, float16, float32 or float64");
}

std::string descr_of(ElementType t) {
  switch (t) {
    case ElementType::u8: return "|u1";
    case ElementType::u16: return "<u2";
    case ElementType::f16: return "<f2";
    case ElementType::f32: return "<f4";
    case ElementType::f64: return "<f8";
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
      if (w == "True") throw IoError("unsupported .npy layout: Fortran order; save a C-order array (np.ascontiguousarray)");
      if (w != "False") fail("fortran_order must be True or False");
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

}  // namespace

NpyArray parse_npy(std::span<const std::byte> file) {
  const NpyHeader h = parse_npy_header(file);
  const std::uint64_t present = file.size() - h.data_offset;
  if (present < h.data_bytes) fail_truncated(h.data_bytes, present);
  NpyArray a;
  a.type = h.type;
  a.shape = h.shape;
  const auto* data = file.data() + h.data_offset;
  a.data.assign(data, data + static_cast<std::size_t>(h.data_bytes));
  return a;
}

NpyArray read_npy(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot open '" + path.string() + "' for reading");
  // Reads up to `n` more bytes onto `bytes`; returns how many came.
  const auto read_more = [&](std::vector<std::byte>& bytes, std::size_t n) {
    const std::size_t old = bytes.size();
    bytes.resize(old + n);
    in.read(reinterpret_cast<char*>(bytes.data() + old), static_cast<std::streamsize>(n));
    const auto got = static_cast<std::size_t>(in.gcount());
    bytes.resize(old + got);
    if (in.bad()) throw IoError("cannot read '" + path.string() + "'");
    return got;
  };
  try {
    // Magic, version and header length first, then exactly the header: nothing of the data is
    // read or allocated before the header has been checked.
    std::vector<std::byte> head;
    read_more(head, 12);
    std::size_t header_end = head.size();
    if (head.size() >= 10) {
      const auto u8 = [&](std::size_t k) { return static_cast<std::size_t>(head[k]); };
      if (u8(6) == 1) header_end = 10 + (u8(8) | (u8(9) << 8));
      else if ((u8(6) == 2 || u8(6) == 3) && head.size() >= 12)
        header_end = 12 + (u8(8) | (u8(9) << 8) | (u8(10) << 16) | (u8(11) << 24));
    }
    if (header_end > head.size())
      read_more(head, std::min(header_end, kMaxNpyHeaderBytes + 13) - head.size());
    const NpyHeader h = parse_npy_header(head);
    // Bytes of the data already read with the header (a v1 header is followed by data at 10+len,
    // and 12 bytes were read first).
    const std::size_t early = head.size() - std::min(head.size(), h.data_offset);
    // A regular file tells its size: refuse a truncated one before allocating its data.
    std::error_code ec;
    const auto file_size = std::filesystem::is_regular_file(path, ec) ? std::filesystem::file_size(path, ec)
                                                                      : static_cast<std::uintmax_t>(-1);
    if (!ec && file_size != static_cast<std::uintmax_t>(-1) && file_size - h.data_offset < h.data_bytes)
      fail_truncated(h.data_bytes, file_size - h.data_offset);
    NpyArray a;
    a.type = h.type;
    a.shape = h.shape;
    a.data = allocate_data(h.data_bytes);
    const std::size_t from_head = std::min<std::size_t>(early, a.data.size());
    std::memcpy(a.data.data(), head.data() + h.data_offset, from_head);
    std::size_t have = from_head;
    while (have < a.data.size()) {
      in.read(reinterpret_cast<char*>(a.data.data() + have), static_cast<std::streamsize>(a.data.size() - have));
      const auto got = static_cast<std::size_t>(in.gcount());
      if (in.bad()) throw IoError("cannot read '" + path.string() + "'");
      if (got == 0) fail_truncated(h.data_bytes, have);
      have += got;
    }
    return a;
  } catch (const IoError& e) {
    throw IoError(path.string() + ": " + e.what());
  }
}

std::vector<std::byte> encode_npy(const NpyArray& a) {
  std::string header = "{'descr': '" + descr_of(a.type) + "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < a.shape.size(); ++i) header += (i ? ", " : "") + std::to_string(a.shape[i]);
  header += a.shape.size() == 1 ? ",), }" : "), }";
  // Pad with spaces so the data starts on a 64-byte boundary; the header ends with '\n'.
  const std::size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::vector<std::byte> out(10 + header.size() + a.data.size());
  std::memcpy(out.data(), "\x93NUMPY\x01\x00", 8);
  out[8] = static_cast<std::byte>(header.size() & 0xFF);
  out[9] = static_cast<std::byte>(header.size() >> 8);
  std::memcpy(out.data() + 10, header.data(), header.size());
  if (!a.data.empty()) std::memcpy(out.data() + 10 + header.size(), a.data.data(), a.data.size());
  return out;
}

}  // namespace fastblur::io
