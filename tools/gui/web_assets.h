// The page's files (tools/gui/web), embedded in the binary at build time so
// that an installed wallgo-gui needs nothing beside it.
#pragma once

#include <string_view>

namespace wallgo::gui {

struct WebAsset {
  std::string_view path;  // "/index.html"
  std::string_view content_type;
  std::string_view body;
};

// The file served at `path` ("/" is index.html), or nullptr.
const WebAsset* FindAsset(std::string_view path);

}  // namespace wallgo::gui
