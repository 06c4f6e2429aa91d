// Small SVG charts for `fastblur analyze`: no plotting library needed to look at a kernel.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "fastblur/analysis.hpp"

namespace fastblur::analysis {
namespace {

constexpr double kW = 720, kH = 440, kLeft = 70, kRight = 170, kTop = 40, kBottom = 50;

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '<' ? "&lt;" : c == '>' ? "&gt;" : c == '&' ? "&amp;" : std::string(1, c);
  return out;
}

std::string header(const std::string& title) {
  return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kW) + "\" height=\"" + num(kH) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
         "<text x=\"" + num(kW / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\">" + escape(title) + "</text>\n";
}

}  // namespace

std::string line_chart_svg(const std::string& title, const std::string& x_label, const std::string& y_label,
                           const std::vector<Series>& series, bool log_y) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  const auto ty = [&](double v) { return log_y ? std::log10(std::max(v, 1e-300)) : v; };
  for (const Series& s : series)
    for (std::size_t i = 0; i < s.x.size(); ++i) {
      x0 = std::min(x0, s.x[i]);
      x1 = std::max(x1, s.x[i]);
      if (!log_y || s.y[i] > 0) {
        y0 = std::min(y0, ty(s.y[i]));
        y1 = std::max(y1, ty(s.y[i]));
      }
    }
  if (log_y) y0 = std::max(y0, y1 - 12.0);  // twelve decades are plenty
  if (!log_y && std::abs(y0) < 1e-9 * std::abs(y1)) y0 = 0.0;  // rounding noise around zero
  if (!(x1 > x0)) x1 = x0 + 1;
  if (!(y1 > y0)) y1 = y0 + 1;
  const double pw = kW - kLeft - kRight, ph = kH - kTop - kBottom;
  const auto X = [&](double v) { return kLeft + (v - x0) / (x1 - x0) * pw; };
  const auto Y = [&](double v) { return kTop + (1.0 - (std::max(ty(v), y0) - y0) / (y1 - y0)) * ph; };
  std::string svg = header(title);
  svg += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(pw) + "\" height=\"" + num(ph) +
         "\" fill=\"none\" stroke=\"#444\"/>\n";
  for (int i = 0; i <= 4; ++i) {  // ticks
    const double xv = x0 + (x1 - x0) * i / 4, yv = y0 + (y1 - y0) * i / 4;
    svg += "<text x=\"" + num(X(xv)) + "\" y=\"" + num(kTop + ph + 18) + "\" text-anchor=\"middle\">" + num(xv) + "</text>\n";
    const double ypix = kTop + (1.0 - static_cast<double>(i) / 4) * ph;
    svg += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(ypix + 4) + "\" text-anchor=\"end\">" +
           (log_y ? "1e" + num(std::round(yv * 10) / 10) : num(yv)) + "</text>\n";
    svg += "<line x1=\"" + num(kLeft) + "\" x2=\"" + num(kLeft + pw) + "\" y1=\"" + num(ypix) + "\" y2=\"" + num(ypix) +
           "\" stroke=\"#ddd\"/>\n";
  }
  svg += "<text x=\"" + num(kLeft + pw / 2) + "\" y=\"" + num(kH - 10) + "\" text-anchor=\"middle\">" + escape(x_label) + "</text>\n";
  svg += "<text transform=\"translate(16," + num(kTop + ph / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         escape(y_label) + "</text>\n";
  int legend = 0;
  for (const Series& s : series) {
    std::string d;
    for (std::size_t i = 0; i < s.x.size(); ++i) d += (i ? " L" : "M") + num(X(s.x[i])) + " " + num(Y(s.y[i]));
    svg += "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + s.color + "\" stroke-width=\"1.6\"" +
           (s.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
    const double ly = kTop + 14 + 18 * legend++;
    svg += "<line x1=\"" + num(kW - kRight + 10) + "\" x2=\"" + num(kW - kRight + 34) + "\" y1=\"" + num(ly) + "\" y2=\"" +
           num(ly) + "\" stroke=\"" + s.color + "\" stroke-width=\"2\"" + (s.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>\n";
    svg += "<text x=\"" + num(kW - kRight + 40) + "\" y=\"" + num(ly + 4) + "\">" + escape(s.name) + "</text>\n";
  }
  return svg + "</svg>\n";
}

std::string contour_svg(const std::string& title, const std::vector<double>& img, int w, int h,
                        const std::vector<double>& levels, const std::vector<double>* reference) {
  const double size = std::min(kW - kLeft - kRight, kH - kTop - kBottom);
  const double cell = size / std::max(w - 1, h - 1);
  const auto X = [&](double x) { return kLeft + x * cell; };
  const auto Y = [&](double y) { return kTop + y * cell; };
  static const char* colors[] = {"#d62728", "#ff7f0e", "#2ca02c", "#1f77b4", "#9467bd", "#8c564b", "#e377c2"};
  const std::vector<double>& scale_of = reference ? *reference : img;
  const double peak = *std::max_element(scale_of.begin(), scale_of.end());
  std::string svg = header(title);
  svg += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(cell * (w - 1)) + "\" height=\"" +
         num(cell * (h - 1)) + "\" fill=\"none\" stroke=\"#444\"/>\n";
  // Marching squares: per cell, the level crosses the edges whose corners lie on opposite sides.
  const auto trace = [&](const std::vector<double>& f, double level, const std::string& color, bool dashed) {
    std::string d;
    const auto at = [&](int x, int y) { return f[static_cast<std::size_t>(y) * w + x]; };
    for (int y = 0; y + 1 < h; ++y)
      for (int x = 0; x + 1 < w; ++x) {
        const double v[4] = {at(x, y), at(x + 1, y), at(x + 1, y + 1), at(x, y + 1)};
        const double px[4] = {0, 1, 1, 0}, py[4] = {0, 0, 1, 1};
        double cx[4], cy[4];
        int n = 0;
        for (int e = 0; e < 4; ++e) {
          const int f2 = (e + 1) % 4;
          if ((v[e] >= level) != (v[f2] >= level)) {
            const double t = (level - v[e]) / (v[f2] - v[e]);
            cx[n] = x + px[e] + t * (px[f2] - px[e]);
            cy[n] = y + py[e] + t * (py[f2] - py[e]);
            ++n;
          }
        }
        for (int k = 0; k + 1 < n; k += 2)
          d += "M" + num(X(cx[k])) + " " + num(Y(cy[k])) + " L" + num(X(cx[k + 1])) + " " + num(Y(cy[k + 1])) + " ";
      }
    return "<path d=\"" + d + "\" fill=\"none\" stroke=\"" + color + "\" stroke-width=\"" + (dashed ? "1" : "1.6") +
           "\"" + (dashed ? " stroke-dasharray=\"4 3\"" : "") + "/>\n";
  };
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const std::string color = colors[i % 7];
    svg += trace(img, levels[i], color, false);
    if (reference) svg += trace(*reference, levels[i], color, true);
    const double ly = kTop + 14 + 18 * static_cast<double>(i);
    svg += "<text x=\"" + num(kW - kRight + 10) + "\" y=\"" + num(ly + 4) + "\" fill=\"" + color + "\">" + num(levels[i] / peak) +
           " of the peak</text>\n";
  }
  if (reference)
    svg += "<text x=\"" + num(kW - kRight + 10) + "\" y=\"" + num(kTop + 14 + 18 * static_cast<double>(levels.size()) + 8) +
           "\">dashed: Gaussian</text>\n";
  return svg + "</svg>\n";
}

}  // namespace fastblur::analysis
