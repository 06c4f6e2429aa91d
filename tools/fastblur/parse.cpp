#include "parse.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "fastblur/error.hpp"

namespace fastblur::cli {
namespace {
std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) parts.push_back(item);
  if (!text.empty() && text.back() == ',') parts.emplace_back();
  return parts;
}
}  // namespace

std::vector<double> parse_number_list(const std::string& text, const std::string& what) {
  std::vector<double> values;
  for (const std::string& part : split(text)) {
    const char* begin = part.c_str();
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    while (end && *end == ' ') ++end;
    if (part.empty() || end == begin || *end != '\0')
      throw InvalidArgument(what + " '" + text + "' is not a number or comma-separated list of numbers");
    values.push_back(v);
  }
  if (values.empty()) throw InvalidArgument(what + " is empty");
  return values;
}

std::vector<Border> parse_border_list(const std::string& text) {
  std::vector<Border> out;
  for (const std::string& part : split(text)) out.push_back(parse_border(part));
  if (out.empty()) throw InvalidArgument("--border is empty");
  return out;
}

}  // namespace fastblur::cli
