#pragma once
// Text inside XML and HTML: the JUnit files of nsh check and the report's pages and SVG plots
// carry case names, specs and messages that a user wrote.

#include <string>
#include <string_view>

namespace nsh {

/// `text` with &, <, >, " and ' escaped, fit for XML text and attribute values. Control
/// characters other than tab and newline, which XML 1.0 does not allow even escaped, become
/// spaces.
std::string xml_escape(std::string_view text);

}  // namespace nsh
