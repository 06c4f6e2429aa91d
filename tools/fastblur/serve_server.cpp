#include "serve_server.hpp"

#include <httplib.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <new>
#include <semaphore>
#include <thread>

#include "fastblur/fastblur.hpp"
#include "fastblur/version.hpp"
#include "serve_compute.hpp"
#include "serve_gzip.hpp"
#include "serve_page.hpp"
#include "serve_store.hpp"
#include "serve_upload.hpp"

namespace fastblur::cli {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kCookie = "fastblur_session";

// An image id this session does not hold (never uploaded here, or forgotten): 404.
struct NotFound {
  std::string message;
};

// One line: a message is shown under a control, never a stack of text.
std::string first_line(std::string message) {
  const auto end = message.find('\n');
  if (end != std::string::npos) message.resize(end);
  return message.substr(0, 1000);
}

void reply_error(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  // Messages may quote what the client sent (a key, a parser's "last read"): bytes that are not
  // UTF-8 are replaced, never a second exception (that was a 500 for any non-UTF-8 body).
  res.set_content(json{{"error", first_line(message)}}.dump(-1, ' ', false, json::error_handler_t::replace),
                  "application/json");
}

void reply_json(const httplib::Request& req, httplib::Response& res, const json& body) {
  reply_compressed(req, res, body.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

// Runs a handler, turning fastblur's errors into their HTTP statuses with the CLI's texts.
template <class F>
void guarded(httplib::Response& res, F&& handler) {
  try {
    handler();
  } catch (const Superseded&) {
    reply_error(res, 409, "superseded by a newer request of this page");
  } catch (const NotFound& e) {
    reply_error(res, 404, e.message);
  } catch (const json::exception& e) {
    reply_error(res, 400, std::string("bad JSON: ") + e.what());
  } catch (const InvalidArgument& e) {
    reply_error(res, 400, e.what());
  } catch (const Unsupported& e) {
    reply_error(res, 400, e.what());
  } catch (const OutOfMemory& e) {
    reply_error(res, 413, e.what());
  } catch (const IoError& e) {
    reply_error(res, 422, e.what());
  } catch (const DeviceError& e) {
    reply_error(res, 503, e.what());
  } catch (const std::bad_alloc&) {
    reply_error(res, 507, "out of memory");
  } catch (const std::exception& e) {
    reply_error(res, 500, e.what());
  }
}

// The session token of the Cookie header, or "".
std::string cookie_session(const httplib::Request& req) {
  const std::string cookies = req.get_header_value("Cookie");
  const std::string key = std::string(kCookie) + "=";
  for (std::size_t at = 0; at < cookies.size();) {
    while (at < cookies.size() && (cookies[at] == ' ' || cookies[at] == ';')) ++at;
    const std::size_t end = std::min(cookies.find(';', at), cookies.size());
    if (cookies.compare(at, key.size(), key) == 0) return cookies.substr(at + key.size(), end - at - key.size());
    at = end;
  }
  return "";
}

// GET parameters: `params` is the same JSON as /api/blur's body.
BlurRequest query_request(const httplib::Request& req, const ServeLimits& limits) {
  const std::string text = req.has_param("params") ? req.get_param_value("params") : "{}";
  return parse_blur_request(json::parse(text), limits);
}

// /api/codegen's query (method, lang, sigma, radius, passes) as `fastblur codegen` reads its
// arguments (command_codegen.cpp), so the texts are identical.
codegen::Shader codegen_shader(const httplib::Request& req) {
  const auto param = [&](const char* key, const char* fallback) {
    return req.has_param(key) ? req.get_param_value(key) : std::string(fallback);
  };
  const auto integer = [&](const char* key, int fallback) {
    if (!req.has_param(key)) return fallback;
    const std::string t = req.get_param_value(key);
    char* end = nullptr;
    const long v = std::strtol(t.c_str(), &end, 10);
    if (t.empty() || *end != '\0' || v < -1 || v > 1000000) throw InvalidArgument(std::string("'") + key + "' must be an integer");
    return static_cast<int>(v);
  };
  const std::string sigma_text = param("sigma", "");
  char* end = nullptr;
  const double sigma = std::strtod(sigma_text.c_str(), &end);
  if (sigma_text.empty() || *end != '\0') throw InvalidArgument("'sigma' must be a number");
  return codegen::generate(codegen::parse_method(param("method", "linear")), codegen::parse_language(param("lang", "glsl")),
                           sigma, integer("radius", -1), integer("passes", 0));
}

}  // namespace

struct ExplorerServer::Impl {
  ServeLimits limits;
  PrivateTempDir temp;
  SessionStore sessions;
  httplib::Server http;
  std::string host;
  int port = 0;
  std::counting_semaphore<> compute{2};  // blurs at once: more would only share the cores
  std::mutex devices_mutex;
  std::map<std::string, Device> devices;

  explicit Impl(const ServeLimits& l) : limits(l), sessions(l) {}

  Device device(const std::string& name) {
    const std::lock_guard<std::mutex> lock(devices_mutex);
    const auto it = devices.find(name);
    if (it != devices.end()) return it->second;
    Device d = Device::parse(name, OptionNames::json());
    if (devices.size() < 16) devices.emplace(name, d);
    return d;
  }

  // The client's session, made (and set as a cookie) if it has none the store knows.
  std::string session(const httplib::Request& req, httplib::Response& res) {
    std::string token = cookie_session(req);
    if (!token.empty() && sessions.exists(token)) return token;
    token = sessions.create();
    res.set_header("Set-Cookie", std::string(kCookie) + "=" + token + "; Path=/; HttpOnly; SameSite=Strict");
    return token;
  }

  // The session's image `id`, under the session `token` the request already has (a request without a
  // cookie gets one session, not one per lookup: its preview would be kept under another).
  std::shared_ptr<StoredImage> image(const std::string& token, const std::string& id) {
    std::shared_ptr<StoredImage> im = sessions.find(token, id);
    if (!im) throw NotFound{"no image '" + id.substr(0, 40) + "' in this session (uploads are kept per page; upload it again)"};
    return im;
  }

  // Computations wait for a slot; a request superseded while waiting gives up.
  struct Slot {
    std::counting_semaphore<>& s;
    explicit Slot(std::counting_semaphore<>& sem) : s(sem) { s.acquire(); }
    ~Slot() { s.release(); }
  };

  // The handlers, by what they serve.
  void routes() { guard_requests(), page_routes(), image_routes(), blur_routes(), derived_routes(); }
  void guard_requests();  // the Host check, errors and exceptions as one-line JSON
  void page_routes();     // the page, its files, the server's info
  void image_routes();    // uploads, source previews, full-size downloads
  void blur_routes();     // a blur's reply and its pictures
  void derived_routes();  // plots and generated shaders of a request
  bool allowed_host(const httplib::Request& req) const;
};

// DNS rebinding: a page of another site that resolves its own name to 127.0.0.1 would send its Host.
bool ExplorerServer::Impl::allowed_host(const httplib::Request& req) const {
  const bool loopback = host.rfind("127.", 0) == 0 || host == "localhost" || host == "::1";
  if (!loopback) return true;  // served to a network on purpose (--host): its clients name it as they like
  const std::string h = req.get_header_value("Host"), p = ":" + std::to_string(port);
  return h == host + p || h == "[" + host + "]" + p || h == "127.0.0.1" + p || h == "localhost" + p || h == "[::1]" + p;
}

void ExplorerServer::Impl::guard_requests() {
  http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    if (allowed_host(req)) return httplib::Server::HandlerResponse::Unhandled;
    reply_error(res, 403, "this server answers requests for " + host + ":" + std::to_string(port) + " only");
    return httplib::Server::HandlerResponse::Handled;
  });
  http.set_error_handler([this](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    if (res.status == 413)
      reply_error(res, 413, "the request is larger than the upload limit of " + std::to_string(limits.max_upload_bytes) + " bytes");
    else if (res.status == 404)
      reply_error(res, 404, "no such page");
    else
      reply_error(res, res.status, "bad request (HTTP " + std::to_string(res.status) + ")");
  });
  http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    reply_error(res, 500, "internal error");
  });
}

void ExplorerServer::Impl::page_routes() {
  http.Get("/", [this](const httplib::Request& req, httplib::Response& res) {
    const PageAsset* page = find_page_asset("index.html");
    session(req, res);
    res.set_content(std::string(page->body), std::string(page->content_type));
  });
  http.Get(R"(/static/([A-Za-z0-9_.-]{1,64}))", [](const httplib::Request& req, httplib::Response& res) {
    const PageAsset* asset = find_page_asset(req.matches[1].str());
    if (!asset) return reply_error(res, 404, "no such file");
    res.set_content(std::string(asset->body), std::string(asset->content_type));
  });
  http.Get("/api/info", [this](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      json borders = json::array({"reflect", "mirror", "nearest", "wrap", "constant"});
      reply_json(req, res, {{"version", FASTBLUR_VERSION_STRING},
                       {"algorithms", json::parse(fastblur::algorithms_json())},  // the core's serialiser
                       {"devices", json::parse(fastblur::devices_json())},
                       {"borders", borders},
                       {"codegen", {{"methods", {"linear", "kawase", "dual-kawase"}}, {"languages", {"glsl", "hlsl"}}}},
                       {"limits",
                        {{"max_upload_bytes", limits.max_upload_bytes}, {"max_pixels", limits.max_pixels},
                         {"preview_size", limits.preview_size}, {"max_sigma", limits.max_sigma},
                         {"images_per_session", limits.images_per_session}}}});
    });
  });
}

void ExplorerServer::Impl::image_routes() {
  http.Post("/api/image", [this](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const std::string token = session(req, res);
      const Upload up = read_upload(req.body, req.get_header_value("X-Filename"), limits, temp);
      if (!up.image) return reply_error(res, up.status, up.error);
      const StoredImage& im = *up.image;
      const std::string id = sessions.add(token, up.image);
      reply_json(req, res, {{"id", id}, {"name", up.name}, {"format", up.format}, {"width", im.original.width},
                       {"height", im.original.height}, {"channels", im.original.channels},
                       {"type", std::string(to_string(im.original.type))}, {"scale", im.scale}});
    });
  });
  http.Get("/api/source", [this](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const auto im = image(session(req, res), req.has_param("image") ? req.get_param_value("image") : "scene");
      res.set_content(preview_png(*im, temp), "image/png");
    });
  });
  http.Get("/api/download", [this](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const BlurRequest r = query_request(req, limits);
      const std::shared_ptr<StoredImage> im = image(session(req, res), r.image);
      const Device d = device(r.device);
      Slot slot(compute);
      const std::string bytes = blur_for_download(r, *im, d, temp);
      const std::string stem = im->name.substr(0, im->name.find_last_of('.'));
      res.set_header("Content-Disposition", "attachment; filename=\"" + stem + "_blur" + im->extension + "\"");
      res.set_content(bytes, "application/octet-stream");
    });
  });
}

void ExplorerServer::Impl::blur_routes() {
  http.Post("/api/blur", [this](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const BlurRequest r = parse_blur_request(json::parse(req.body), limits);
      const std::string token = session(req, res);
      const std::shared_ptr<StoredImage> im = image(token, r.image);
      const std::uint64_t number = sessions.start(token, r.client);
      const auto superseded = [&] { return !r.client.empty() && sessions.superseded(token, r.client, number); };
      const Device d = device(r.device);
      Slot slot(compute);
      if (superseded()) throw Superseded{};
      Preview preview = blur_preview(r, *im, d, superseded);
      // The pictures by URL, each encoded when the page asks for it: the reply is its few KB of
      // JSON, the two pictures the page shows come in parallel, the difference only when shown.
      const std::string id = sessions.keep_preview(token, preview.pictures);
      for (const char* which : {"result", "exact", "diff"})
        preview.reply["images"][which] = "/api/preview/" + id + "/" + which + ".png";
      reply_json(req, res, preview.reply);
    });
  });
  http.Get(R"(/api/preview/([0-9a-f]{32})/(result|exact|diff)\.png)", [this](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const auto pictures = sessions.find_preview(session(req, res), req.matches[1].str());
      if (!pictures) throw NotFound{"no such preview in this session (the page keeps its last few): blur again"};
      res.set_header("Cache-Control", "private, max-age=3600");  // an id's pictures never change
      res.set_content(preview_picture_png(*pictures, req.matches[2].str(), temp), "image/png");
    });
  });
}

void ExplorerServer::Impl::derived_routes() {
  http.Get("/api/plot", [this](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const BlurRequest r = query_request(req, limits);
      Slot slot(compute);
      reply_compressed(req, res, plot_svg(r, req.has_param("kind") ? req.get_param_value("kind") : "impulse"), "image/svg+xml");
    });
  });
  http.Get("/api/codegen", [](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const codegen::Shader s = codegen_shader(req);
      res.set_content(s.code, "text/plain; charset=utf-8");
    });
  });
}

ExplorerServer::ExplorerServer(const ServeLimits& limits) : impl_(std::make_unique<Impl>(limits)) {
  Impl& s = *impl_;
  s.http.set_payload_max_length(limits.max_upload_bytes);
  s.http.set_read_timeout(15, 0);
  s.http.set_write_timeout(30, 0);
  s.http.set_keep_alive_max_count(1000);
  // The thread pool stays httplib's own (at least 8 threads): its tasks are made and run inside the
  // library, whereas a pool constructed here would run the library's tasks through this file's copy of
  // httplib's inline ThreadPool (an ASan build crashed on that mix).
  // SO_REUSEADDR only: httplib's default adds SO_REUSEPORT, with which a second server (or another
  // program) would share a port in use instead of being refused.
  s.http.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  s.routes();
}

ExplorerServer::~ExplorerServer() = default;

namespace {
// Debian's httplib is a compiled library that listens with a backlog of 5. A burst of connections
// (a page's parallel requests; the load test's 16 clients under TSan) overflowed it: the kernel
// answered with SYN cookies, and two whose check failed were reset ("connection reset by peer";
// nstat's ListenOverflows and SyncookiesFailed 2 at the failing run). Linux takes a second listen()
// on a listening socket as a new backlog (capped at net.core.somaxconn), so the socket httplib
// bound to `port` is found among this process's descriptors and given a larger one.
void raise_listen_backlog(int port) {
  for (int fd = 0; fd < 4096; ++fd) {
    int listening = 0;
    socklen_t length = sizeof listening;
    if (::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) != 0 || !listening) continue;
    sockaddr_storage address{};
    length = sizeof address;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) continue;
    const int bound = address.ss_family == AF_INET    ? ntohs(reinterpret_cast<sockaddr_in*>(&address)->sin_port)
                      : address.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&address)->sin6_port)
                                                      : -1;
    if (bound == port) ::listen(fd, 256);
  }
}
}  // namespace

int ExplorerServer::bind(const std::string& host, int port) {
  impl_->host = host;
  const int bound = port == 0 ? impl_->http.bind_to_any_port(host) : (impl_->http.bind_to_port(host, port) ? port : -1);
  if (bound <= 0) throw IoError("cannot listen on " + host + ":" + std::to_string(port) + " (in use, or not an address of this machine; --port 0 picks a free port)");
  impl_->port = bound;
  raise_listen_backlog(bound);
  return bound;
}

std::string ExplorerServer::temp_dir() const { return impl_->temp.path().string(); }

void ExplorerServer::run() { impl_->http.listen_after_bind(); }

void ExplorerServer::stop() { impl_->http.stop(); }

}  // namespace fastblur::cli
