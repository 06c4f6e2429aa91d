#pragma once
// The file extensions fuzz_image feeds to OpenImageIO (the input's first byte picks one) and the
// outputs it writes back; shared with the seed generator so that a seed's byte picks its format.
#include <array>
#include <string_view>

namespace fastblur::fuzz {

// Every still-image reader of Debian 12's OpenImageIO 2.4, with a few aliases (video, volume and
// "null" readers left out: the CLI is for images).
inline constexpr std::array<std::string_view, 28> kImageInputExtensions = {
    "png",  "jpg", "tif", "exr", "hdr", "bmp", "dpx", "cin", "dds", "fits", "gif",  "ico", "iff", "jp2",
    "pnm",  "ppm", "pgm", "psd", "rla", "sgi", "pic", "tga", "webp", "zfile", "heic", "dcm", "j2k", "tx"};
inline constexpr std::array<std::string_view, 3> kImageOutputExtensions = {"tif", "exr", "png"};

}  // namespace fastblur::fuzz
