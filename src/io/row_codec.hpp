#pragma once
// What the in-process codecs (png_codec, jpeg_codec, tiff_codec) share: rows come in order, each
// once; a writer converts each row to the file's type before its library sees it, and closes its
// file checking that everything reached the disk.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "io/image_file.hpp"

namespace fastblur::io {

/// Throws IoError ("cannot VERB 'path': rows out of order") unless [y0, y1) starts at `next` and
/// ends within `height`.
void check_row_order(const std::filesystem::path& path, const char* verb, std::int64_t y0, std::int64_t y1,
                     std::int64_t next, std::int64_t height);

/// A writer taking rows in order: each converted to the file's type (row_convert.hpp) and given to
/// write_row; commit() checks that every row came, then finish()es the file.
class SequentialRowWriter : public ImageRowWriter {
 public:
  void write_rows(std::int64_t y0, std::int64_t y1, const std::byte* rows, ElementType type) final;
  void commit() final;

 protected:
  /// `copy_always`: the library may change the row it is given (libtiff), so rows of the file's
  /// type are copied too.
  SequentialRowWriter(std::filesystem::path target, const ImageHeader& header, ElementType file_type, bool copy_always);
  /// One row of header().width x channels elements of the file's type; throws IoError.
  virtual void write_row(std::int64_t y, std::byte* row) = 0;
  /// Ends and closes the file; throws IoError.
  virtual void finish() = 0;
  /// Throws IoError("cannot write 'target': why").
  [[noreturn]] void fail(const std::string& why) const;
  const std::filesystem::path& target() const { return target_; }
  const ImageHeader& header() const { return header_; }
  ElementType file_type() const { return file_type_; }

 private:
  std::filesystem::path target_;
  ImageHeader header_;
  ElementType file_type_;
  bool copy_always_;
  std::vector<std::byte> row_;
  std::int64_t next_ = 0;
};

/// Flushes and closes a written file (set to null); throws IoError naming `target` if the data did
/// not all reach it.
void close_written(std::FILE*& file, const std::filesystem::path& target);

}  // namespace fastblur::io
