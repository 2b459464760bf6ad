#include <nsh/reports/svg_plot.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace nsh::reports {

namespace {

// Colour-blind-safe palette (Okabe–Ito, then two greys).
const char* const kPalette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00",
                                "#56B4E9", "#000000", "#F0E442", "#777777", "#999933"};
constexpr int kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);

struct Range {
  double lo, hi;
};

double to_axis(double value, AxisScale scale) {
  return scale == AxisScale::log ? std::log10(value) : value;
}

// The axis range: padded to whole ticks so that the frame starts and ends on a labelled value.
Range axis_range(double lo, double hi, AxisScale scale, bool empty) {
  if (empty) return scale == AxisScale::log ? Range{1, 10} : Range{0, 1};
  if (scale == AxisScale::log) {
    double a = std::floor(std::log10(lo)), b = std::ceil(std::log10(hi));
    if (a == b) {
      a -= 1;
      b += 1;
    }
    return {std::pow(10.0, a), std::pow(10.0, b)};
  }
  if (lo == hi) {
    const double pad = lo == 0 ? 1 : std::abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const auto ticks = axis_ticks(lo, hi, scale);
  return {std::min(lo, ticks.front()), std::max(hi, ticks.back())};
}

std::string num(double x) {
  return fmt::format("{:.2f}", x);
}

std::string marker_svg(Marker marker, double x, double y, const std::string& color) {
  const double r = 3.5;
  switch (marker) {
    case Marker::none:
      return {};
    case Marker::circle:
      return fmt::format(R"(<circle cx="{}" cy="{}" r="{}" fill="{}"/>)", num(x), num(y), r, color);
    case Marker::square:
      return fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>)", num(x - r),
                         num(y - r), num(2 * r), num(2 * r), color);
    case Marker::triangle:
      return fmt::format(R"(<path d="M{} {}L{} {}L{} {}Z" fill="{}"/>)", num(x), num(y - r - 1),
                         num(x + r + 0.5), num(y + r), num(x - r - 0.5), num(y + r), color);
    case Marker::diamond:
      return fmt::format(R"(<path d="M{} {}L{} {}L{} {}L{} {}Z" fill="{}"/>)", num(x),
                         num(y - r - 1), num(x + r), num(y), num(x), num(y + r + 1), num(x - r),
                         num(y), color);
    case Marker::cross:
      return fmt::format(
          R"(<path d="M{} {}L{} {}M{} {}L{} {}" stroke="{}" stroke-width="1.8" fill="none"/>)",
          num(x - r), num(y - r), num(x + r), num(y + r), num(x - r), num(y + r), num(x + r),
          num(y - r), color);
  }
  return {};
}

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::vector<double> axis_ticks(double lo, double hi, AxisScale scale, int target) {
  std::vector<double> ticks;
  if (!(std::isfinite(lo) && std::isfinite(hi)) || hi < lo) return ticks;
  if (scale == AxisScale::log) {
    if (!(lo > 0)) return ticks;
    const int a = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
    const int b = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
    const int decades = std::max(b - a, 0);
    const bool fine = std::log10(hi) - std::log10(lo) < 2;  // 2 and 5 between the decades
    const int stride = std::max(1, (decades + 7) / 8);
    for (int d = a; d <= b; d += stride) {
      const double p = d >= 0 ? std::pow(10.0, d) : 1 / std::pow(10.0, -d);
      ticks.push_back(p);
      if (fine && d < b) {
        ticks.push_back(2 * p);
        ticks.push_back(5 * p);
      }
    }
    return ticks;
  }
  if (lo == hi) return {lo};
  const double raw = (hi - lo) / std::max(target, 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / magnitude;
  const double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
  const double first = std::floor(lo / step), last = std::ceil(hi / step);
  for (double k = first; k <= last + 0.5; k += 1) {
    double value = k * step;
    if (std::abs(value) < step * 1e-9) value = 0;  // no 1e-17 instead of 0
    ticks.push_back(value);
  }
  return ticks;
}

std::string tick_label(double value) {
  if (value == 0) return "0";
  return fmt::format("{:.6g}", value);
}

SvgPlot::SvgPlot(std::string title, std::string x_label, std::string y_label)
    : title_(std::move(title)), x_label_(std::move(x_label)), y_label_(std::move(y_label)) {}

SvgPlot& SvgPlot::x_scale(AxisScale scale) {
  x_scale_ = scale;
  return *this;
}
SvgPlot& SvgPlot::y_scale(AxisScale scale) {
  y_scale_ = scale;
  return *this;
}
SvgPlot& SvgPlot::size(int width, int height) {
  width_ = std::max(width, 200);
  height_ = std::max(height, 150);
  return *this;
}
SvgPlot& SvgPlot::add(PlotSeries series) {
  if (series.x.size() != series.y.size())
    throw std::invalid_argument(fmt::format("plot series '{}': {} x values but {} y values",
                                            series.name, series.x.size(), series.y.size()));
  if (series.color.empty()) series.color = kPalette[series_.size() % kPaletteSize];
  series_.push_back(std::move(series));
  return *this;
}
SvgPlot& SvgPlot::mark(PlotMark mark) {
  marks_.push_back(std::move(mark));
  return *this;
}

bool SvgPlot::drawable(double x, double y) const {
  if (!std::isfinite(x) || !std::isfinite(y)) return false;
  if (x_scale_ == AxisScale::log && !(x > 0)) return false;
  if (y_scale_ == AxisScale::log && !(y > 0)) return false;
  return true;
}

std::size_t SvgPlot::drawable_points() const {
  std::size_t count = 0;
  for (const auto& s : series_)
    for (std::size_t i = 0; i < s.x.size(); ++i) count += drawable(s.x[i], s.y[i]) ? 1 : 0;
  return count;
}

std::string SvgPlot::render() const {
  // Data ranges over the drawable points (and the marks, on x).
  const double inf = std::numeric_limits<double>::infinity();
  double xlo = inf, xhi = -inf, ylo = inf, yhi = -inf;
  for (const auto& s : series_)
    for (std::size_t i = 0; i < s.x.size(); ++i)
      if (drawable(s.x[i], s.y[i])) {
        xlo = std::min(xlo, s.x[i]);
        xhi = std::max(xhi, s.x[i]);
        ylo = std::min(ylo, s.y[i]);
        yhi = std::max(yhi, s.y[i]);
      }
  const bool empty = !(xlo <= xhi);
  for (const auto& m : marks_)
    if (!empty && std::isfinite(m.x) && (x_scale_ == AxisScale::linear || m.x > 0)) {
      xlo = std::min(xlo, m.x);
      xhi = std::max(xhi, m.x);
    }
  const Range xr = axis_range(xlo, xhi, x_scale_, empty);
  const Range yr = axis_range(ylo, yhi, y_scale_, empty);

  const bool legend = !series_.empty();
  const double left = 78, top = 38, bottom = 52;
  const double right = legend ? 190 : 20;
  const double pw = width_ - left - right, ph = height_ - top - bottom;
  const double ax0 = to_axis(xr.lo, x_scale_), ax1 = to_axis(xr.hi, x_scale_);
  const double ay0 = to_axis(yr.lo, y_scale_), ay1 = to_axis(yr.hi, y_scale_);
  auto px = [&](double x) { return left + (to_axis(x, x_scale_) - ax0) / (ax1 - ax0) * pw; };
  auto py = [&](double y) { return top + ph - (to_axis(y, y_scale_) - ay0) / (ay1 - ay0) * ph; };

  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )"
      R"(class="nsh-plot" data-points="{2}" role="img" aria-label="{3}" )"
      R"(font-family="sans-serif" font-size="12">)"
      "\n",
      width_, height_, drawable_points(), xml_escape(title_));
  out += "<title>" + xml_escape(title_) + "</title>\n";
  out += fmt::format(R"(<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>)"
                     "\n",
                     width_, height_);
  out += fmt::format(
      R"(<text x="{}" y="22" text-anchor="middle" font-size="14" font-weight="bold">{}</text>)"
      "\n",
      num(left + pw / 2), xml_escape(title_));

  // Grid, ticks and tick labels.
  out += R"(<g class="axes" stroke="#dddddd" stroke-width="1">)";
  out += "\n";
  std::string labels;
  for (double t : (empty ? axis_ticks(xr.lo, xr.hi, x_scale_) : axis_ticks(xlo, xhi, x_scale_))) {
    if (t < xr.lo * (1 - 1e-12) - 1e-300 || t > xr.hi * (1 + 1e-12) + 1e-300) continue;
    const double x = px(t);
    out += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}"/>)", num(x), num(top),
                       num(top + ph));
    labels += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)", num(x),
                          num(top + ph + 16), xml_escape(tick_label(t)));
  }
  for (double t : (empty ? axis_ticks(yr.lo, yr.hi, y_scale_) : axis_ticks(ylo, yhi, y_scale_))) {
    if (t < yr.lo - std::abs(yr.lo) * 1e-12 || t > yr.hi + std::abs(yr.hi) * 1e-12) continue;
    const double y = py(t);
    out += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}"/>)", num(left), num(y),
                       num(left + pw));
    labels += fmt::format(R"(<text x="{}" y="{}" text-anchor="end">{}</text>)", num(left - 6),
                          num(y + 4), xml_escape(tick_label(t)));
  }
  out += "</g>\n";
  out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#333333"/>)"
                     "\n",
                     num(left), num(top), num(pw), num(ph));
  out += "<g class=\"tick-labels\" fill=\"#333333\">" + labels + "</g>\n";
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)"
                     "\n",
                     num(left + pw / 2), num(height_ - 12.0), xml_escape(x_label_));
  out += fmt::format(
      R"svg(<text x="0" y="0" text-anchor="middle" transform="translate(18 {}) rotate(-90)">{}</text>)svg"
      "\n",
      num(top + ph / 2), xml_escape(y_label_));

  if (empty)
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" fill="#999999">no data</text>)"
                       "\n",
                       num(left + pw / 2), num(top + ph / 2));

  // Vertical marks.
  for (const auto& m : marks_) {
    if (empty || !std::isfinite(m.x) || (x_scale_ == AxisScale::log && !(m.x > 0))) continue;
    const double x = px(m.x);
    out += fmt::format(
        R"(<g class="mark"><line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="{3}" )"
        R"(stroke-dasharray="4 3"/><text x="{4}" y="{5}" fill="{3}" font-size="10">{6}</text></g>)"
        "\n",
        num(x), num(top), num(top + ph), xml_escape(m.color), num(x + 3), num(top + 11),
        xml_escape(m.label));
  }

  // Series.
  for (const auto& s : series_) {
    const std::string color = xml_escape(s.color);
    out += fmt::format(R"(<g class="series" data-name="{}">)", xml_escape(s.name));
    if (s.line) {
      std::string d;
      bool pen_down = false;
      for (std::size_t i = 0; i < s.x.size(); ++i) {
        if (!drawable(s.x[i], s.y[i])) {
          pen_down = false;
          continue;
        }
        d += fmt::format("{}{} {}", pen_down ? "L" : "M", num(px(s.x[i])), num(py(s.y[i])));
        pen_down = true;
      }
      if (!d.empty())
        out += fmt::format(R"(<path d="{}" fill="none" stroke="{}" stroke-width="1.6"{}/>)", d,
                           color, s.dashed ? R"( stroke-dasharray="6 3")" : "");
    }
    for (std::size_t i = 0; i < s.x.size(); ++i)
      if (drawable(s.x[i], s.y[i])) out += marker_svg(s.marker, px(s.x[i]), py(s.y[i]), color);
    out += "</g>\n";
  }

  // Legend, to the right of the frame.
  if (legend) {
    const double lx = left + pw + 14;
    out += "<g class=\"legend\">";
    double ly = top + 8;
    for (const auto& s : series_) {
      const std::string color = xml_escape(s.color);
      if (s.line)
        out += fmt::format(
            R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1.6"{}/>)", num(lx),
            num(ly), num(lx + 24), num(ly), color, s.dashed ? R"( stroke-dasharray="6 3")" : "");
      out += marker_svg(s.marker, lx + 12, ly, color);
      std::string name = s.name;
      if (name.size() > 28) {  // cut on a UTF-8 character boundary
        std::size_t cut = 27;
        while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
        name = name.substr(0, cut) + "…";
      }
      out += fmt::format(R"(<text x="{}" y="{}" font-size="11">{}</text>)", num(lx + 30),
                         num(ly + 4), xml_escape(name));
      ly += 18;
    }
    out += "</g>\n";
  }
  out += "</svg>\n";
  return out;
}

}  // namespace nsh::reports
