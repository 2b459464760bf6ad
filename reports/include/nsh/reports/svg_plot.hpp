#pragma once
// A small, dependency-free SVG plot writer for the reports: x-y plots with linear or log axes,
// "nice" ticks with readable labels, several series (lines and/or markers), vertical marks at
// chosen x values, a legend and a title (docs/decisions.md, "Plots": why not gnuplot or
// Vega-Lite).
//
// Nothing is cut: the title shrinks (down to 10 px) and then wraps to fit the width, a subtitle
// line carries the details, the legend sits under the frame with every name in full (as many
// rows as it needs; the height grows), mark labels that would overlap go to the next row, and
// series that would be drawn on top of each other (every point within half a pixel) are
// detected and said: "curves coincide: A = B = C" under the legend, and the series' group is in
// its `data-coincides` attribute. The output is one self-contained <svg> element (no
// scripts, no external fonts or stylesheets), so it can be written to a .svg file or inlined
// into an HTML page and rendered by any browser or image viewer without a network.
//
// Points that cannot be drawn (non-finite, or <= 0 on a log axis) are left out and break the
// line they belong to; the number drawn is reported in the root element's `data-points`
// attribute, so a test can tell a plot with data from an empty frame.

#include <nsh/xml_escape.hpp>  // the pages and plots escape their text with nsh::xml_escape

#include <string>
#include <vector>

namespace nsh::reports {

enum class AxisScale { linear, log };
enum class Marker { none, circle, square, triangle, diamond, cross };

/// One named data series. x and y must have the same length.
struct PlotSeries {
  std::string name;
  std::vector<double> x;
  std::vector<double> y;
  bool line{true};                ///< join consecutive drawable points
  Marker marker{Marker::circle};  ///< drawn at every drawable point (none: line only)
  bool dashed{false};
  std::string color;  ///< CSS color; empty picks the next palette color
};

/// A vertical line at x with a short label (e.g. "claim broken", "tightest").
struct PlotMark {
  double x{0};
  std::string label;
  std::string color{"#c0392b"};
};

class SvgPlot {
 public:
  SvgPlot(std::string title, std::string x_label, std::string y_label);

  SvgPlot& x_scale(AxisScale scale);
  SvgPlot& y_scale(AxisScale scale);
  /// Width and height of the frame area plus title and axes; the legend and the notes add
  /// their own rows below.
  SvgPlot& size(int width, int height);
  /// A second, smaller title line (scheme, step size, precision).
  SvgPlot& subtitle(std::string text);
  /// A note printed under the legend (what the plot leaves out, how it was measured).
  SvgPlot& note(std::string text);
  /// Throws std::invalid_argument if x and y differ in length.
  SvgPlot& add(PlotSeries series);
  SvgPlot& mark(PlotMark mark);

  /// Number of points that will be drawn, over every series.
  std::size_t drawable_points() const;
  bool has_data() const { return drawable_points() > 0; }

  /// Groups (two or more, by series index) of series whose drawable points all fall within
  /// half a pixel of each other's: on the plot only the last of each group is visible.
  std::vector<std::vector<std::size_t>> coincident_series() const;

  /// The <svg> element as text (with xmlns, so it is also a standalone SVG document body).
  std::string render() const;

 private:
  bool drawable(double x, double y) const;

  std::string title_, subtitle_, x_label_, y_label_;
  std::vector<std::string> notes_;
  AxisScale x_scale_{AxisScale::linear}, y_scale_{AxisScale::linear};
  int width_{720}, height_{420};
  std::vector<PlotSeries> series_;
  std::vector<PlotMark> marks_;
};

/// Tick positions covering [lo, hi]: steps of 1, 2 or 5 times a power of ten on a linear axis
/// (at most about `target` ticks); powers of ten on a log axis (with 2 and 5 between them when
/// the range spans less than two decades, every few decades when it spans many).
std::vector<double> axis_ticks(double lo, double hi, AxisScale scale, int target = 6);

/// Width in pixels of `text` at `font_size` in a sans-serif font, estimated (0.6 em per
/// character, UTF-8 aware): what the layout uses to keep text inside the picture.
double text_width(const std::string& text, double font_size);

/// A short readable label: "0", "0.25", "1.5e+04", "1e-08" (no round-off noise such as
/// 0.30000000000000004).
std::string tick_label(double value);

}  // namespace nsh::reports
