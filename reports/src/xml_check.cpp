#include <nsh/reports/xml_check.hpp>

#include <cctype>
#include <set>
#include <vector>

namespace nsh::reports {

namespace {

bool name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':' ||
         (static_cast<unsigned char>(c) & 0x80);
}
bool name_char(char c) {
  return name_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.';
}

}  // namespace

std::optional<std::string> xml_wellformedness_error(const std::string& s) {
  std::size_t i = 0;
  int line = 1;
  std::vector<std::string> stack;
  int roots = 0;
  auto fail = [&](const std::string& what) {
    return std::optional<std::string>("line " + std::to_string(line) + ": " + what);
  };
  auto advance = [&](std::size_t to) {
    for (; i < to && i < s.size(); ++i)
      if (s[i] == '\n') ++line;
  };
  auto check_entity = [&](std::size_t at) -> std::optional<std::string> {
    const std::size_t end = s.find(';', at);
    if (end == std::string::npos || end - at > 12) return fail("bare '&'");
    const std::string name = s.substr(at + 1, end - at - 1);
    static const std::set<std::string> known{"amp", "lt", "gt", "quot", "apos"};
    if (known.count(name)) return std::nullopt;
    if (name.size() >= 2 && name[0] == '#') {
      for (std::size_t k = 1; k < name.size(); ++k)
        if (!std::isxdigit(static_cast<unsigned char>(name[k])) && !(k == 1 && name[k] == 'x'))
          return fail("bad character reference &" + name + ";");
      return std::nullopt;
    }
    return fail("unknown entity &" + name + ";");
  };
  while (i < s.size()) {
    if (s[i] != '<') {
      if (s[i] == '&') {
        if (auto e = check_entity(i)) return e;
      } else if (stack.empty() && !std::isspace(static_cast<unsigned char>(s[i]))) {
        return fail("text outside the root element");
      }
      advance(i + 1);
      continue;
    }
    if (s.compare(i, 4, "<!--") == 0) {
      const std::size_t end = s.find("-->", i + 4);
      if (end == std::string::npos) return fail("unterminated comment");
      advance(end + 3);
      continue;
    }
    if (s.compare(i, 9, "<![CDATA[") == 0) {
      const std::size_t end = s.find("]]>", i);
      if (end == std::string::npos) return fail("unterminated CDATA");
      advance(end + 3);
      continue;
    }
    if (s.compare(i, 2, "<?") == 0) {
      const std::size_t end = s.find("?>", i);
      if (end == std::string::npos) return fail("unterminated processing instruction");
      advance(end + 2);
      continue;
    }
    if (s.compare(i, 9, "<!DOCTYPE") == 0) {
      if (roots || !stack.empty()) return fail("DOCTYPE after the root element started");
      const std::size_t end = s.find('>', i);
      if (end == std::string::npos) return fail("unterminated DOCTYPE");
      advance(end + 1);
      continue;
    }
    const bool closing = i + 1 < s.size() && s[i + 1] == '/';
    std::size_t j = i + (closing ? 2 : 1);
    if (j >= s.size() || !name_start(s[j])) return fail("'<' not starting a tag");
    std::size_t k = j;
    while (k < s.size() && name_char(s[k])) ++k;
    const std::string name = s.substr(j, k - j);
    if (closing) {
      while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
      if (k >= s.size() || s[k] != '>') return fail("malformed end tag </" + name);
      if (stack.empty() || stack.back() != name)
        return fail("end tag </" + name + "> does not match <" +
                    (stack.empty() ? std::string("(none)") : stack.back()) + ">");
      stack.pop_back();
      advance(k + 1);
      continue;
    }
    std::set<std::string> attributes;
    bool self_closing = false;
    while (true) {
      const std::size_t before = k;
      while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
      if (k >= s.size()) return fail("unterminated tag <" + name);
      if (s[k] == '>') break;
      if (s.compare(k, 2, "/>") == 0) {
        self_closing = true;
        ++k;
        break;
      }
      if (k == before) return fail("attributes of <" + name + "> need white space between them");
      if (!name_start(s[k])) return fail("bad attribute in <" + name + ">");
      std::size_t a = k;
      while (k < s.size() && name_char(s[k])) ++k;
      const std::string attribute = s.substr(a, k - a);
      if (!attributes.insert(attribute).second)
        return fail("attribute " + attribute + " repeated in <" + name + ">");
      while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
      if (k >= s.size() || s[k] != '=') return fail("attribute " + attribute + " without value");
      ++k;
      while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k]))) ++k;
      if (k >= s.size() || (s[k] != '"' && s[k] != '\''))
        return fail("unquoted value of attribute " + attribute);
      const char quote = s[k];
      const std::size_t end = s.find(quote, k + 1);
      if (end == std::string::npos) return fail("unterminated value of attribute " + attribute);
      for (std::size_t c = k + 1; c < end; ++c) {
        if (s[c] == '<') return fail("'<' in the value of attribute " + attribute);
        if (s[c] == '&') {
          const std::size_t save = i;
          i = c;
          if (auto e = check_entity(c)) return e;
          i = save;
        }
      }
      k = end + 1;
    }
    if (stack.empty()) {
      if (++roots > 1) return fail("second root element <" + name + ">");
    }
    if (!self_closing) stack.push_back(name);
    advance(k + 1);
  }
  if (!stack.empty()) return fail("unclosed element <" + stack.back() + ">");
  if (roots == 0) return fail("no root element");
  return std::nullopt;
}

}  // namespace nsh::reports
