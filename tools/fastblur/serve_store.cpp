#include "serve_store.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <random>

#include "fastblur/analysis.hpp"
#include "fastblur/error.hpp"
#include "io/row_convert.hpp"

namespace fastblur::cli {

namespace fs = std::filesystem;

PrivateTempDir::PrivateTempDir() {
  std::error_code ec;
  fs::path base = fs::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string pattern = (base / "fastblur-serve-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw IoError("cannot create a temporary folder in '" + base.string() + "': " + std::strerror(errno));
  path_ = pattern;  // mkdtemp makes it 0700
}

PrivateTempDir::~PrivateTempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

fs::path PrivateTempDir::fresh(const std::string& stem, const std::string& extension) {
  return path_ / (stem + "-" + std::to_string(counter_++) + extension);
}

View StoredImage::preview_view() const {
  return View::packed(const_cast<float*>(preview.data()), ElementType::f32, width, height, 1, channels);
}

std::shared_ptr<StoredImage> make_stored_image(io::Image original, std::string name, std::string extension,
                                               const ServeLimits& limits) {
  auto s = std::make_shared<StoredImage>();
  s->name = std::move(name);
  s->extension = std::move(extension);
  const std::int64_t w = original.width, h = original.height, longest = std::max(w, h);
  s->scale = static_cast<int>(std::max<std::int64_t>(1, (longest + limits.preview_size - 1) / limits.preview_size));
  s->width = std::max<std::int64_t>(1, w / s->scale);
  s->height = std::max<std::int64_t>(1, h / s->scale);
  s->channels = std::min(4, original.channels);
  const std::size_t es = element_size(original.type);
  const int c = s->channels, oc = original.channels, f = s->scale;
  s->preview.assign(static_cast<std::size_t>(s->width * s->height * c), 0.0f);
  // The mean of each scale x scale block: the preview's pixels are areas of the original's.
  for (std::int64_t y = 0; y < s->height; ++y)
    for (std::int64_t x = 0; x < s->width; ++x)
      for (int k = 0; k < c; ++k) {
        double sum = 0.0;
        for (int dy = 0; dy < f; ++dy)
          for (int dx = 0; dx < f; ++dx) {
            const std::size_t at = static_cast<std::size_t>(((y * f + dy) * w + x * f + dx) * oc + k) * es;
            float v = 0.0f;  // as a float image: integers over their range (u8 / 255, u16 / 65535)
            io::convert_row(original.pixels.data() + at, original.type, reinterpret_cast<std::byte*>(&v),
                            ElementType::f32, 1);
            sum += v;
          }
        s->preview[static_cast<std::size_t>((y * s->width + x) * c + k)] = static_cast<float>(sum / (f * f));
      }
  s->original = std::move(original);
  return s;
}

std::string random_token() {
  static std::mutex m;
  static std::random_device device;
  const std::lock_guard<std::mutex> lock(m);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (int i = 0; i < 4; ++i) {
    std::uint32_t v = device();
    for (int k = 0; k < 8; ++k, v >>= 4) out += hex[v & 15];
  }
  return out;
}

namespace {
// The bundled test scene, as `fastblur demo` makes it, at the preview size (no averaging).
std::shared_ptr<StoredImage> scene_image(const ServeLimits& limits) {
  const std::int64_t w = std::min<std::int64_t>(1024, limits.preview_size), h = w * 9 / 16;
  analysis::TestScene scene = analysis::make_test_scene(w, h);
  io::Image im;
  im.width = w, im.height = h, im.channels = 4, im.type = ElementType::f32, im.format = "png";
  im.pixels.resize(scene.rgba.size() * sizeof(float));
  std::memcpy(im.pixels.data(), scene.rgba.data(), im.pixels.size());
  return make_stored_image(std::move(im), "fastblur_scene.png", ".png", limits);
}
}  // namespace

SessionStore::SessionStore(const ServeLimits& limits) : limits_(limits), scene_(scene_image(limits)) {}

std::string SessionStore::create() {
  std::string token = random_token();
  const std::lock_guard<std::mutex> lock(mutex_);
  sessions_.emplace_front(token, Session{});
  while (sessions_.size() > static_cast<std::size_t>(limits_.sessions)) sessions_.pop_back();
  return token;
}

SessionStore::Session* SessionStore::touch(const std::string& session) {
  for (auto it = sessions_.begin(); it != sessions_.end(); ++it)
    if (it->first == session) {
      sessions_.splice(sessions_.begin(), sessions_, it);
      return &sessions_.front().second;
    }
  return nullptr;
}

bool SessionStore::exists(const std::string& session) {
  const std::lock_guard<std::mutex> lock(mutex_);
  return touch(session) != nullptr;
}

std::string SessionStore::add(const std::string& session, std::shared_ptr<StoredImage> image) {
  std::string id = random_token();
  const std::lock_guard<std::mutex> lock(mutex_);
  Session* s = touch(session);
  if (!s) throw InvalidArgument("unknown session: reload the page");
  s->images.emplace_back(id, std::move(image));
  while (s->images.size() > static_cast<std::size_t>(limits_.images_per_session)) s->images.pop_front();
  trim_memory();
  return id;
}

std::string SessionStore::keep_preview(const std::string& session, std::shared_ptr<const PreviewPictures> pictures) {
  std::string id = random_token();
  const std::lock_guard<std::mutex> lock(mutex_);
  Session* s = touch(session);
  if (!s) throw InvalidArgument("unknown session: reload the page");
  s->previews.emplace_back(id, std::move(pictures));
  while (s->previews.size() > kPreviewsKept) s->previews.pop_front();
  trim_memory();
  return id;
}

std::shared_ptr<const PreviewPictures> SessionStore::find_preview(const std::string& session, const std::string& id) {
  return find_entry(&Session::previews, session, id);
}

template <class Entries>
typename Entries::value_type::second_type SessionStore::find_entry(Entries Session::*entries, const std::string& session,
                                                                   const std::string& id) {
  const std::lock_guard<std::mutex> lock(mutex_);
  Session* s = touch(session);
  if (!s) return nullptr;
  for (const auto& [key, entry] : s->*entries)
    if (key == id) return entry;
  return nullptr;
}

template <class Entries>
void SessionStore::forget_oldest(Entries Session::*entries, std::uint64_t& total) {
  for (auto it = sessions_.rbegin(); it != sessions_.rend() && total > limits_.memory_bytes; ++it) {
    Entries& list = it->second.*entries;
    while (!list.empty() && total > limits_.memory_bytes && !(it == std::prev(sessions_.rend()) && list.size() == 1)) {
      total -= list.front().second->bytes();
      list.pop_front();
    }
  }
}

void SessionStore::trim_memory() {
  std::uint64_t total = 0;
  for (const auto& [token, s] : sessions_) {
    for (const auto& [id, image] : s.images) total += image->bytes();
    for (const auto& [id, pictures] : s.previews) total += pictures->bytes();
  }
  // Pictures first (a page asks again for a preview it lost), then images; each time the least
  // recently used sessions' oldest first, the newest session's newest (just added) kept.
  forget_oldest(&Session::previews, total);
  forget_oldest(&Session::images, total);
}

std::shared_ptr<StoredImage> SessionStore::find(const std::string& session, const std::string& id) {
  if (id == "scene") return scene_;
  return find_entry(&Session::images, session, id);
}

std::uint64_t SessionStore::start(const std::string& session, const std::string& client) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const std::uint64_t number = ++next_;
  if (Session* s = touch(session)) {
    if (s->latest.size() > 64 && !s->latest.count(client)) s->latest.clear();  // bounded: clients come and go
    s->latest[client] = number;
  }
  return number;
}

bool SessionStore::superseded(const std::string& session, const std::string& client, std::uint64_t number) {
  const std::lock_guard<std::mutex> lock(mutex_);
  for (auto& [token, s] : sessions_)
    if (token == session) {
      const auto it = s.latest.find(client);
      return it != s.latest.end() && it->second != number;
    }
  return false;
}

}  // namespace fastblur::cli
