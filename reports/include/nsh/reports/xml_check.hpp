#pragma once
// A small XML well-formedness checker for the files the reports write (SVG, the XHTML-clean
// index.html): elements nest and close in order, attributes are quoted and not repeated, entity
// references are known or numeric, and there is exactly one root element. It is not a
// validating parser (no DTD, no namespaces); it is what a test needs to catch broken markup
// without depending on an external tool.

#include <optional>
#include <string>

namespace nsh::reports {

/// nullopt if `text` is well-formed XML, else the first problem with its line number.
/// A leading "<!DOCTYPE html>" is accepted.
std::optional<std::string> xml_wellformedness_error(const std::string& text);

}  // namespace nsh::reports
