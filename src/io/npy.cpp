#include "io/npy.hpp"

#include <cctype>
#include <cstring>
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

View NpyArray::view() {
  std::int64_t ext[3] = {1, 1, 1};
  for (std::size_t a = 0; a < shape.size(); ++a) ext[a] = shape[shape.size() - 1 - a];
  return View::packed(data.data(), type, ext[0], ext[1], ext[2], 1);
}

NpyArray parse_npy(std::span<const std::byte> file) {
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
  if (header_len > file.size() - offset) fail("the header runs past the end of the file");
  HeaderParser p{std::string_view(reinterpret_cast<const char*>(file.data()) + offset, header_len)};
  NpyArray a;
  bool have_descr = false, have_order = false, have_shape = false;
  p.expect('{');
  while (!p.eat('}')) {
    const std::string key = p.string();
    p.expect(':');
    if (key == "descr") {
      a.type = type_of(p.string());
      have_descr = true;
    } else if (key == "fortran_order") {
      const std::string w = p.word();
      if (w == "True") throw IoError("unsupported .npy layout: Fortran order; save a C-order array (np.ascontiguousarray)");
      if (w != "False") fail("fortran_order must be True or False");
      have_order = true;
    } else if (key == "shape") {
      p.expect('(');
      while (!p.eat(')')) {
        a.shape.push_back(p.integer());
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
  if (a.shape.empty() || a.shape.size() > 3)
    throw IoError("unsupported .npy array with " + std::to_string(a.shape.size()) +
                  " dimensions: expected 1, 2 or 3");
  std::int64_t count = 1;
  for (auto d : a.shape) {
    if (d == 0) throw IoError(".npy array is empty (a dimension is 0)");
    if (d > kMaxElements / count) throw IoError(".npy array is too large (more than 2^40 elements)");
    count *= d;
  }
  const std::size_t bytes = static_cast<std::size_t>(count) * element_size(a.type);
  const std::size_t data_at = offset + header_len;
  if (file.size() - data_at < bytes)
    throw IoError("truncated .npy file: the header promises " + std::to_string(bytes) + " bytes of data, the file has " +
                  std::to_string(file.size() - data_at));
  a.data.assign(file.begin() + static_cast<std::ptrdiff_t>(data_at),
                file.begin() + static_cast<std::ptrdiff_t>(data_at + bytes));
  return a;
}

NpyArray read_npy(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError("cannot open '" + path.string() + "' for reading");
  in.seekg(0, std::ios::end);
  const auto size = static_cast<std::size_t>(in.tellg());
  in.seekg(0);
  std::vector<std::byte> bytes(size);
  if (!in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size)))
    throw IoError("cannot read '" + path.string() + "'");
  try {
    return parse_npy(bytes);
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
