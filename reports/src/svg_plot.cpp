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

namespace {

// The plot area and the data-to-pixel map, shared by render() and coincident_series().
struct Frame {
  Range xr{0, 1}, yr{0, 1};
  bool empty{true};
  double xlo{0}, xhi{0}, ylo{0}, yhi{0};  ///< data ranges (ticks cover them)
  double left{78}, top{38}, pw{1}, ph{1};
  AxisScale xs{AxisScale::linear}, ys{AxisScale::linear};
  double px(double x) const {
    const double a0 = to_axis(xr.lo, xs), a1 = to_axis(xr.hi, xs);
    return left + (to_axis(x, xs) - a0) / (a1 - a0) * pw;
  }
  double py(double y) const {
    const double a0 = to_axis(yr.lo, ys), a1 = to_axis(yr.hi, ys);
    return top + ph - (to_axis(y, ys) - a0) / (a1 - a0) * ph;
  }
};

// Greedy line breaking at spaces (a word longer than the width stays whole on its line).
std::vector<std::string> wrap(const std::string& text, double font_size, double width) {
  std::vector<std::string> lines;
  std::string line, word;
  auto flush_word = [&] {
    if (word.empty()) return;
    const std::string candidate = line.empty() ? word : line + " " + word;
    if (!line.empty() && text_width(candidate, font_size) > width) {
      lines.push_back(line);
      line = word;
    } else {
      line = candidate;
    }
    word.clear();
  };
  for (char c : text) {
    if (c == ' ') {
      flush_word();
    } else {
      word += c;
    }
  }
  flush_word();
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace

double text_width(const std::string& text, double font_size) {
  std::size_t characters = 0;
  for (unsigned char c : text) characters += (c & 0xC0) != 0x80 ? 1 : 0;
  return 0.6 * font_size * static_cast<double>(characters);
}

SvgPlot& SvgPlot::subtitle(std::string text) {
  subtitle_ = std::move(text);
  return *this;
}
SvgPlot& SvgPlot::note(std::string text) {
  notes_.push_back(std::move(text));
  return *this;
}

namespace {

// Title and subtitle lines with their font sizes: the title shrinks from 14 to 11 px to fit
// the width, then wraps; the subtitle (11 px) wraps.
struct Heading {
  double title_size{14};
  std::vector<std::string> title_lines, subtitle_lines;
  double height{0};  ///< from the top of the picture to the frame
};

Heading heading(const std::string& title, const std::string& subtitle, double width) {
  Heading h;
  const double available = width - 20;
  while (h.title_size > 11 && text_width(title, h.title_size) > available) h.title_size -= 0.5;
  h.title_lines = wrap(title, h.title_size, available);
  h.subtitle_lines = wrap(subtitle, 11, available);
  h.height = 8 + h.title_lines.size() * (h.title_size + 4) + h.subtitle_lines.size() * 14 + 10;
  return h;
}

}  // namespace

std::vector<std::vector<std::size_t>> SvgPlot::coincident_series() const {
  // The same frame as render() builds (legend and notes do not change the plot area).
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
  std::vector<std::vector<std::size_t>> groups;
  if (!(xlo <= xhi)) return groups;
  for (const auto& m : marks_)
    if (std::isfinite(m.x) && (x_scale_ == AxisScale::linear || m.x > 0)) {
      xlo = std::min(xlo, m.x);
      xhi = std::max(xhi, m.x);
    }
  Frame f;
  f.xs = x_scale_;
  f.ys = y_scale_;
  f.xr = axis_range(xlo, xhi, x_scale_, false);
  f.yr = axis_range(ylo, yhi, y_scale_, false);
  const Heading head = heading(title_, subtitle_, width_);
  f.top = head.height;
  f.pw = width_ - f.left - 20;
  f.ph = std::max(100.0, height_ - f.top - 52);
  auto pixels = [&](const PlotSeries& s) {
    std::vector<std::pair<double, double>> p;
    for (std::size_t i = 0; i < s.x.size(); ++i)
      if (drawable(s.x[i], s.y[i])) p.emplace_back(f.px(s.x[i]), f.py(s.y[i]));
    return p;
  };
  std::vector<std::vector<std::pair<double, double>>> drawn;
  for (const auto& s : series_) drawn.push_back(pixels(s));
  std::vector<bool> taken(series_.size(), false);
  for (std::size_t i = 0; i < series_.size(); ++i) {
    if (taken[i] || drawn[i].empty()) continue;
    std::vector<std::size_t> group{i};
    for (std::size_t j = i + 1; j < series_.size(); ++j) {
      if (taken[j] || drawn[j].size() != drawn[i].size()) continue;
      bool same = true;
      for (std::size_t k = 0; k < drawn[i].size() && same; ++k)
        same = std::abs(drawn[i][k].first - drawn[j][k].first) <= 0.5 &&
               std::abs(drawn[i][k].second - drawn[j][k].second) <= 0.5;
      if (same) {
        group.push_back(j);
        taken[j] = true;
      }
    }
    if (group.size() > 1) groups.push_back(std::move(group));
  }
  return groups;
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
  Frame f;
  f.xs = x_scale_;
  f.ys = y_scale_;
  f.xr = axis_range(xlo, xhi, x_scale_, empty);
  f.yr = axis_range(ylo, yhi, y_scale_, empty);
  const Heading head = heading(title_, subtitle_, width_);
  const double left = f.left, bottom = 52, right = 20;
  f.top = head.height;
  const double top = f.top;
  f.pw = width_ - left - right;
  f.ph = std::max(100.0, height_ - top - bottom);
  const double pw = f.pw, ph = f.ph;
  auto px = [&](double x) { return f.px(x); };
  auto py = [&](double y) { return f.py(y); };
  const Range xr = f.xr, yr = f.yr;

  // Legend rows under the x label, every name in full; then the coincidence and other notes.
  struct LegendItem {
    std::size_t series;
    double x, y;
  };
  std::vector<LegendItem> items;
  double legend_y = top + ph + bottom + 4;
  {
    double x = left;
    for (std::size_t i = 0; i < series_.size(); ++i) {
      const double w = 30 + text_width(series_[i].name, 11) + 18;
      if (x > left && x + w > width_ - 10) {
        x = left;
        legend_y += 18;
      }
      items.push_back({i, x, legend_y});
      x += w;
    }
  }
  const auto groups = coincident_series();
  std::vector<std::string> notes;
  std::vector<std::string> coincides(series_.size());
  for (const auto& g : groups) {
    std::string names, ids;
    for (std::size_t k = 0; k < g.size(); ++k) {
      names += (k ? " = " : "") + series_[g[k]].name;
      ids += (k ? " " : "") + std::to_string(g[k]);
    }
    for (std::size_t i : g) coincides[i] = ids;
    notes.push_back(
        fmt::format("{} curves coincide (drawn on top of each other): {}", g.size(), names));
  }
  for (const auto& n : notes_) notes.push_back(n);
  std::vector<std::string> note_lines;
  for (const auto& n : notes)
    for (auto& line : wrap(n, 11, width_ - left - 10)) note_lines.push_back(line);
  const double legend_bottom = items.empty() ? top + ph + bottom : legend_y + 12;
  const int total_height = static_cast<int>(
      std::ceil(legend_bottom + note_lines.size() * 15 + (note_lines.empty() ? 0 : 8)));

  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )"
      R"(class="nsh-plot" data-points="{2}" data-coincident-groups="{4}" role="img" )"
      R"(aria-label="{3}" font-family="sans-serif" font-size="12">)"
      "\n",
      width_, total_height, drawable_points(), xml_escape(title_), groups.size());
  out += "<title>" + xml_escape(title_ + (subtitle_.empty() ? "" : " (" + subtitle_ + ")")) +
         "</title>\n";
  out += fmt::format(R"(<rect x="0" y="0" width="{}" height="{}" fill="#ffffff"/>)"
                     "\n",
                     width_, total_height);
  {
    double y = 8;
    for (const auto& line : head.title_lines) {
      y += head.title_size + 4;
      out += fmt::format(R"(<text class="title" x="{}" y="{}" text-anchor="middle" font-size="{}" )"
                         R"(font-weight="bold">{}</text>)"
                         "\n",
                         num(width_ / 2.0), num(y - 4), head.title_size, xml_escape(line));
    }
    for (const auto& line : head.subtitle_lines) {
      y += 14;
      out +=
          fmt::format(R"(<text class="subtitle" x="{}" y="{}" text-anchor="middle" font-size="11" )"
                      R"(fill="#444444">{}</text>)"
                      "\n",
                      num(width_ / 2.0), num(y - 3), xml_escape(line));
    }
  }

  // Grid, ticks and tick labels.
  out += R"(<g class="axes" stroke="#dddddd" stroke-width="1">)";
  out += "\n";
  std::string labels;
  double last_label_end = -inf;
  for (double t : (empty ? axis_ticks(xr.lo, xr.hi, x_scale_) : axis_ticks(xlo, xhi, x_scale_))) {
    if (t < xr.lo * (1 - 1e-12) - 1e-300 || t > xr.hi * (1 + 1e-12) + 1e-300) continue;
    const double x = px(t);
    out += fmt::format(R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}"/>)", num(x), num(top),
                       num(top + ph));
    // A label that would run into the previous one is left out (its grid line stays).
    const std::string label = tick_label(t);
    const double w = text_width(label, 12);
    if (x - w / 2 < last_label_end + 4) continue;
    last_label_end = x + w / 2;
    labels += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)", num(x),
                          num(top + ph + 16), xml_escape(label));
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
                     num(left + pw / 2), num(top + ph + 40), xml_escape(x_label_));
  out += fmt::format(
      R"svg(<text x="0" y="0" text-anchor="middle" transform="translate(18 {}) rotate(-90)">{}</text>)svg"
      "\n",
      num(top + ph / 2), xml_escape(y_label_));

  if (empty)
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" fill="#999999">no data</text>)"
                       "\n",
                       num(left + pw / 2), num(top + ph / 2));

  // Vertical marks; a label that would overlap an earlier one moves to the next row, and a
  // label near the right edge is drawn to the left of its line.
  {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < marks_.size(); ++i) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return marks_[a].x < marks_[b].x; });
    std::vector<double> row_end;
    for (std::size_t i : order) {
      const auto& m = marks_[i];
      if (empty || !std::isfinite(m.x) || (x_scale_ == AxisScale::log && !(m.x > 0))) continue;
      const double x = px(m.x);
      std::string text;
      if (!m.label.empty()) {
        const double w = text_width(m.label, 10);
        const bool flip = x + 3 + w > left + pw;
        const double start = flip ? x - 3 - w : x + 3;
        std::size_t row = 0;
        while (row < row_end.size() && start < row_end[row] + 4) ++row;
        if (row == row_end.size()) row_end.push_back(-inf);
        row_end[row] = start + w;
        text = fmt::format(R"(<text x="{}" y="{}" fill="{}" font-size="10"{}>{}</text>)",
                           num(flip ? x - 3 : x + 3),
                           num(top + 11 + 12.0 * static_cast<double>(row)), xml_escape(m.color),
                           flip ? R"( text-anchor="end")" : "", xml_escape(m.label));
      }
      out +=
          fmt::format(R"(<g class="mark"><line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="{3}" )"
                      R"(stroke-dasharray="4 3"/>{4}</g>)"
                      "\n",
                      num(x), num(top), num(top + ph), xml_escape(m.color), text);
    }
  }

  // Series.
  for (std::size_t si = 0; si < series_.size(); ++si) {
    const auto& s = series_[si];
    const std::string color = xml_escape(s.color);
    out +=
        fmt::format(R"(<g class="series" data-name="{}"{}>)", xml_escape(s.name),
                    coincides[si].empty() ? std::string()
                                          : fmt::format(R"( data-coincides="{}")", coincides[si]));
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

  // Legend under the frame, names in full.
  if (!items.empty()) {
    out += "<g class=\"legend\">";
    for (const auto& item : items) {
      const auto& s = series_[item.series];
      const std::string color = xml_escape(s.color);
      if (s.line)
        out += fmt::format(
            R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="1.6"{}/>)",
            num(item.x), num(item.y), num(item.x + 24), num(item.y), color,
            s.dashed ? R"( stroke-dasharray="6 3")" : "");
      out += marker_svg(s.marker, item.x + 12, item.y, color);
      out += fmt::format(R"(<text x="{}" y="{}" font-size="11">{}</text>)", num(item.x + 30),
                         num(item.y + 4), xml_escape(s.name));
    }
    out += "</g>\n";
  }
  if (!note_lines.empty()) {
    out += "<g class=\"notes\" font-size=\"11\" fill=\"#8a4b00\">";
    double y = legend_bottom + 8;
    for (const auto& line : note_lines) {
      y += 15;
      out +=
          fmt::format(R"(<text x="{}" y="{}">{}</text>)", num(left), num(y - 4), xml_escape(line));
    }
    out += "</g>\n";
  }
  out += "</svg>\n";
  return out;
}

}  // namespace nsh::reports
