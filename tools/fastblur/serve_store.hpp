#pragma once
// The explorer's state: a private temporary folder, the clients' sessions and their images.
// Images are reached only by (session, id): a client never sees another's uploads, and no request
// names a file (uploads are written under names the server makes, in its own folder).
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/image_file.hpp"
#include "serve_request.hpp"

namespace fastblur::cli {

/// A folder only this process uses (mode 0700), removed with its contents when destroyed.
class PrivateTempDir {
 public:
  PrivateTempDir();
  ~PrivateTempDir();
  PrivateTempDir(const PrivateTempDir&) = delete;
  PrivateTempDir& operator=(const PrivateTempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  /// A new file name in the folder, never used before: "<stem>-<n><extension>".
  std::filesystem::path fresh(const std::string& stem, const std::string& extension);

 private:
  std::filesystem::path path_;
  std::atomic<std::uint64_t> counter_{0};
};

/// An image as the explorer holds it: the file's pixels (downloads blur these) and a float preview
/// at most ServeLimits::preview_size on a side (the page's blurs run on it).
struct StoredImage {
  io::Image original;
  std::string name;       ///< the client's file name, for messages and downloads
  std::string extension;  ///< the download's format: the input's (".png", ".jpg", ".tif", ".exr", ...)
  int scale = 1;          ///< the preview is the original averaged over scale x scale blocks
  std::int64_t width = 0, height = 0;
  int channels = 0;                ///< 1 to 4 (the first four of the original's)
  std::vector<float> preview;      ///< packed; integer images divided by their maximum (values in [0, 1])
  View preview_view() const;
  /// What it holds in memory (the original and the preview).
  std::uint64_t bytes() const { return original.pixels.size() + preview.size() * sizeof(float); }
};

/// A preview's pictures, 8-bit and packed, kept by the session until the page fetches them as PNGs
/// (the reply names them by URL; the page fetches the difference only when it shows it).
struct PreviewPictures {
  std::int64_t width = 0, height = 0;
  int channels = 0;                              ///< of result and exact; the difference is RGB
  std::vector<std::uint8_t> result, exact, diff;  ///< packed rows
  std::uint64_t bytes() const { return result.size() + exact.size() + diff.size(); }
};

/// Builds the preview of an image (the scene or an upload).
std::shared_ptr<StoredImage> make_stored_image(io::Image original, std::string name, std::string extension,
                                               const ServeLimits& limits);

class SessionStore {
 public:
  explicit SessionStore(const ServeLimits& limits);
  /// A new session's token (128 random bits, hex). The least recently used session beyond the limit
  /// is forgotten with its images.
  std::string create();
  bool exists(const std::string& session);
  /// Keeps the image under a new id (random, hex) in the session; its oldest beyond the limit goes, and
  /// beyond the memory limit the least recently used sessions' oldest images.
  std::string add(const std::string& session, std::shared_ptr<StoredImage> image);
  /// The session's image, or the bundled scene for "scene"; null when the id is not this session's.
  std::shared_ptr<StoredImage> find(const std::string& session, const std::string& id);
  /// Keeps a preview's pictures under a new id (hex); the session keeps its last kPreviewsKept, and
  /// they count against the memory limit (forgotten before any image).
  std::string keep_preview(const std::string& session, std::shared_ptr<const PreviewPictures> pictures);
  /// The session's preview pictures of that id, or null (unknown, or forgotten).
  std::shared_ptr<const PreviewPictures> find_preview(const std::string& session, const std::string& id);
  /// Starts a blur of (session, client) and returns its number; a later start supersedes it.
  std::uint64_t start(const std::string& session, const std::string& client);
  bool superseded(const std::string& session, const std::string& client, std::uint64_t number);

 private:
  struct Session {
    std::list<std::pair<std::string, std::shared_ptr<StoredImage>>> images;  // oldest first
    std::map<std::string, std::uint64_t> latest;  // by client
    std::list<std::pair<std::string, std::shared_ptr<const PreviewPictures>>> previews;  // oldest first
  };
  // Pages show the newest reply's pictures; two more cover replies whose pictures are still loading
  // when a newer one arrives.
  static constexpr std::size_t kPreviewsKept = 3;
  Session* touch(const std::string& session);  // with mutex_ held; null if unknown
  void trim_memory();                           // with mutex_ held
  // A session's entry (image or preview) by id, or null; takes mutex_.
  template <class Entries>
  typename Entries::value_type::second_type find_entry(Entries Session::*entries, const std::string& session,
                                                       const std::string& id);
  // Forgets the sessions' oldest entries of one kind while `total` passes the memory limit (with mutex_ held).
  template <class Entries>
  void forget_oldest(Entries Session::*entries, std::uint64_t& total);
  ServeLimits limits_;
  std::mutex mutex_;
  std::list<std::pair<std::string, Session>> sessions_;  // most recently used first
  std::shared_ptr<StoredImage> scene_;
  std::uint64_t next_ = 0;
};

/// 128 random bits as 32 hex digits.
std::string random_token();

}  // namespace fastblur::cli
