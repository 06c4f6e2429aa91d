#pragma once
// The explorer page's files (tools/fastblur/serve/), compiled into the binary by
// tools/fastblur/serve/embed.cmake so that `fastblur serve` works offline and no request reaches
// the filesystem.
#include <string_view>

namespace fastblur::cli {

struct PageAsset {
  std::string_view name;          ///< "index.html", "app.js", ...
  std::string_view content_type;  ///< from the extension
  std::string_view body;
};

/// The embedded file of that exact name, or null. Names are compared as bytes, so no request
/// path can name anything else.
const PageAsset* find_page_asset(std::string_view name);

}  // namespace fastblur::cli
