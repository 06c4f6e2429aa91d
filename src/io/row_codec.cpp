#include "io/row_codec.hpp"

#include <cerrno>
#include <cstring>

#include "fastblur/error.hpp"
#include "io/row_convert.hpp"

namespace fastblur::io {

void check_row_order(const std::filesystem::path& path, const char* verb, std::int64_t y0, std::int64_t y1,
                     std::int64_t next, std::int64_t height) {
  if (y0 != next || y1 < y0 || y1 > height)
    throw IoError(std::string("cannot ") + verb + " '" + path.string() + "': rows out of order");
}

SequentialRowWriter::SequentialRowWriter(std::filesystem::path target, const ImageHeader& header, ElementType file_type,
                                         bool copy_always)
    : target_(std::move(target)), header_(header), file_type_(file_type), copy_always_(copy_always) {}

void SequentialRowWriter::fail(const std::string& why) const {
  throw IoError("cannot write '" + target_.string() + "': " + why);
}

void SequentialRowWriter::write_rows(std::int64_t y0, std::int64_t y1, const std::byte* rows, ElementType type) {
  check_row_order(target_, "write", y0, y1, next_, header_.height);
  const std::size_t count = static_cast<std::size_t>(header_.width * header_.channels);
  const std::size_t in_row = count * element_size(type);
  const bool convert = copy_always_ || type != file_type_;
  if (convert) row_.resize(count * element_size(file_type_));
  for (std::int64_t y = y0; y < y1; ++y) {
    const std::byte* row = rows + (y - y0) * in_row;
    if (convert) convert_row(row, type, row_.data(), file_type_, count);
    // Not converted, the caller's row goes as is: the libraries that take it do not write to it.
    write_row(y, convert ? row_.data() : const_cast<std::byte*>(row));
  }
  next_ = y1;
}

void SequentialRowWriter::commit() {
  if (next_ != header_.height)
    fail("only " + std::to_string(next_) + " of " + std::to_string(header_.height) + " rows were given");
  finish();
}

void close_written(std::FILE*& file, const std::filesystem::path& target) {
  const bool flushed = std::fflush(file) == 0 && !std::ferror(file);
  const int closed = std::fclose(file);
  file = nullptr;
  if (!flushed || closed != 0) throw IoError("cannot write '" + target.string() + "': " + std::strerror(errno));
}

}  // namespace fastblur::io
