// The SVG writer produces well-formed, self-contained XML with the data it was given.
#include <nsh/reports/svg_plot.hpp>
#include <nsh/reports/xml_check.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <regex>
#include <string>

namespace nsh::reports {
namespace {

SvgPlot sample_plot() {
  SvgPlot plot("Error & order <test>", "step size h", "error q_max");
  plot.x_scale(AxisScale::log).y_scale(AxisScale::log);
  PlotSeries a;
  a.name = "moreau-jean:theta=1/2 \"p=2\"";
  a.x = {0.1, 0.05, 0.025, 0.0125};
  a.y = {1e-2, 2.5e-3, 6.25e-4, 1.5625e-4};
  plot.add(a);
  PlotSeries b;
  b.name = "θ=1 (unicode name that is longer than the legend allows)";
  b.x = {0.1, 0.05, 0.025, 0.0125};
  b.y = {1e-1, 5e-2, 0.0, std::numeric_limits<double>::quiet_NaN()};  // two not drawable
  b.marker = Marker::square;
  b.dashed = true;
  plot.add(b);
  plot.mark({0.03, "impact", "#c0392b"});
  return plot;
}

PlotSeries series(std::string name, std::vector<double> x, std::vector<double> y) {
  PlotSeries s;
  s.name = std::move(name);
  s.x = std::move(x);
  s.y = std::move(y);
  return s;
}

bool xmllint_available() {
  return std::system("xmllint --version >/dev/null 2>&1") == 0;
}

TEST(SvgPlot, WellFormedXmlWithEscapedText) {
  const std::string svg = sample_plot().render();
  const auto error = xml_wellformedness_error(svg);
  EXPECT_FALSE(error) << *error << "\n" << svg;
  EXPECT_NE(svg.find("Error &amp; order &lt;test&gt;"), std::string::npos);
  EXPECT_NE(svg.find("xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos);
  EXPECT_EQ(svg.find("<script"), std::string::npos);
  EXPECT_EQ(svg.find("http://", svg.find("xmlns") + 40), std::string::npos) << "no external refs";
  EXPECT_NE(svg.find("data-points=\"6\""), std::string::npos) << "4 + 2 drawable points";
  EXPECT_NE(svg.find("impact"), std::string::npos);
}

TEST(SvgPlot, XmllintAcceptsIt) {
  if (!xmllint_available()) GTEST_SKIP() << "xmllint not installed (libxml2-utils)";
  const std::string path = ::testing::TempDir() + "nsh_svg_plot_test.svg";
  {
    std::ofstream out(path);
    out << sample_plot().render();
  }
  EXPECT_EQ(std::system(("xmllint --noout " + path).c_str()), 0);
  // And xmllint rejects what the checker rejects: a broken file.
  {
    std::ofstream out(path);
    out << "<svg><g></svg>";
  }
  EXPECT_NE(std::system(("xmllint --noout " + path + " 2>/dev/null").c_str()), 0);
  std::remove(path.c_str());
}

TEST(SvgPlot, EmptyPlotIsWellFormedAndSaysSo) {
  SvgPlot plot("nothing", "x", "y");
  plot.y_scale(AxisScale::log);
  PlotSeries s;
  s.name = "zeros";
  s.x = {1, 2};
  s.y = {0, 0};
  plot.add(s);
  EXPECT_FALSE(plot.has_data());
  const std::string svg = plot.render();
  EXPECT_FALSE(xml_wellformedness_error(svg));
  EXPECT_NE(svg.find("data-points=\"0\""), std::string::npos);
  EXPECT_NE(svg.find("no data"), std::string::npos);
}

TEST(SvgPlot, MismatchedSeriesIsRejected) {
  SvgPlot plot("t", "x", "y");
  PlotSeries s;
  s.x = {1, 2};
  s.y = {1};
  EXPECT_THROW(plot.add(s), std::invalid_argument);
}

TEST(SvgPlot, LegendKeepsEveryNameInFull) {
  // Two Moreau-Jean variants that differ only past the 24th character.
  SvgPlot plot("convergence", "h", "error");
  plot.x_scale(AxisScale::log).y_scale(AxisScale::log);
  const std::string a = "moreau-jean:activation=position-velocity,theta=1/2 (double, order 2.00)";
  const std::string b = "moreau-jean:activation=position-velocity,theta=1 (double, order 1.00)";
  PlotSeries s1 = series(a, {0.1, 0.05}, {1e-2, 2.5e-3});
  PlotSeries s2 = series(b, {0.1, 0.05}, {1e-1, 5e-2});
  plot.add(s1).add(s2);
  const std::string svg = plot.render();
  EXPECT_NE(svg.find(">" + xml_escape(a) + "<"), std::string::npos);
  EXPECT_NE(svg.find(">" + xml_escape(b) + "<"), std::string::npos);
  EXPECT_EQ(svg.find("…"), std::string::npos);
  EXPECT_FALSE(xml_wellformedness_error(svg));
}

TEST(SvgPlot, LongTitlesShrinkOrWrapInsideTheWidth) {
  const std::string title =
      "bouncing-ball: energy ledger, moreau-jean:activation=position-velocity,theta=1/2 "
      "h=0.01 and a few more words that cannot fit on one line at any readable size";
  SvgPlot plot(title, "t", "E");
  plot.size(500, 300);
  plot.add(series("E", {0, 1}, {1, 2}));
  const std::string svg = plot.render();
  EXPECT_FALSE(xml_wellformedness_error(svg));
  // Every title line fits the picture: count the lines and check their estimated widths.
  const std::string open = "<text class=\"title\"";
  int lines = 0;
  for (std::size_t at = svg.find(open); at != std::string::npos; at = svg.find(open, at + 1)) {
    ++lines;
    const auto size_at = svg.find("font-size=\"", at) + 11;
    const double size = std::stod(svg.substr(size_at));
    const auto text_at = svg.find('>', at) + 1;
    const std::string line = svg.substr(text_at, svg.find('<', text_at) - text_at);
    EXPECT_LE(text_width(line, size), 500 - 20 + 1e-9) << line;
  }
  EXPECT_GE(lines, 2);
}

TEST(SvgPlot, CoincidingCurvesAreDetectedAndSaid) {
  SvgPlot plot("impact time", "h", "error");
  plot.x_scale(AxisScale::log).y_scale(AxisScale::log);
  for (const char* name : {"newmark", "hht", "gen-alpha"})
    plot.add(series(name, {0.1, 0.05, 0.025}, {4e-2, 2e-2, 1e-2}));
  plot.add(series("moreau-jean", {0.1, 0.05, 0.025}, {4e-2, 1e-2, 2.5e-3}));
  const auto groups = plot.coincident_series();
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0], (std::vector<std::size_t>{0, 1, 2}));
  const std::string svg = plot.render();
  EXPECT_NE(svg.find("3 curves coincide"), std::string::npos);
  EXPECT_NE(svg.find("newmark = hht = gen-alpha"), std::string::npos);
  EXPECT_NE(svg.find("data-coincident-groups=\"1\""), std::string::npos);
  // Distinct curves are not flagged.
  SvgPlot apart("t", "x", "y");
  apart.add(series("a", {1, 2}, {1, 2})).add(series("b", {1, 2}, {1, 3}));
  EXPECT_TRUE(apart.coincident_series().empty());
}

TEST(SvgPlot, MarkLabelsThatWouldOverlapGoToTheNextRow) {
  SvgPlot plot("marks", "t", "y");
  plot.add(series("y", {0, 10}, {0, 1}));
  plot.mark({5.0, "tightest (step 500)", "#2c7a2c"});
  plot.mark({5.1, "broken (3 steps)", "#c0392b"});
  const std::string svg = plot.render();
  const std::regex label(R"re(<text x="[0-9.]+" y="([0-9.]+)" fill="#(2c7a2c|c0392b)")re");
  std::vector<std::string> rows;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), label); it != std::sregex_iterator();
       ++it)
    rows.push_back((*it)[1]);
  ASSERT_EQ(rows.size(), 2u) << svg;
  EXPECT_NE(rows[0], rows[1]);
}

TEST(AxisTicks, LinearTicksAreRoundAndCoverTheRange) {
  const auto ticks = axis_ticks(-0.13, 0.92, AxisScale::linear);
  ASSERT_GE(ticks.size(), 3u);
  EXPECT_LE(ticks.front(), -0.13);
  EXPECT_GE(ticks.back(), 0.92);
  for (double t : ticks) EXPECT_EQ(tick_label(t).size() <= 5, true) << tick_label(t);
  EXPECT_EQ(tick_label(0.30000000000000004), "0.3");
  EXPECT_EQ(tick_label(0), "0");
}

TEST(AxisTicks, LogTicksArePowersOfTen) {
  const auto ticks = axis_ticks(3e-9, 2e-2, AxisScale::log);
  ASSERT_FALSE(ticks.empty());
  for (double t : ticks) {
    const double e = std::log10(t);
    EXPECT_NEAR(e, std::round(e), 1e-12);
  }
  EXPECT_LE(ticks.front(), 3e-9);
  EXPECT_GE(ticks.back(), 2e-2);
  EXPECT_EQ(tick_label(1e-8), "1e-08");
  // Less than two decades: 2 and 5 in between.
  const auto fine = axis_ticks(0.15, 3.0, AxisScale::log);
  EXPECT_NE(std::find(fine.begin(), fine.end(), 0.5), fine.end());
}

TEST(XmlCheck, RejectsBrokenMarkup) {
  EXPECT_TRUE(xml_wellformedness_error("<a><b></a></b>"));
  EXPECT_TRUE(xml_wellformedness_error("<a x=1></a>"));
  EXPECT_TRUE(xml_wellformedness_error("<a x=\"1\" x=\"2\"></a>"));
  EXPECT_TRUE(xml_wellformedness_error("<a>&nbsp;</a>"));
  EXPECT_TRUE(xml_wellformedness_error("<a>1 < 2</a>"));
  EXPECT_TRUE(xml_wellformedness_error("<a></a><b></b>"));
  EXPECT_TRUE(xml_wellformedness_error("<a>"));
  EXPECT_FALSE(xml_wellformedness_error("<!DOCTYPE html>\n<a x='1'><!-- c --><b/>&amp;&#955;</a>"));
}

}  // namespace
}  // namespace nsh::reports
