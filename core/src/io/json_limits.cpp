// describe_json (nsh/io/json_limits.hpp): a JSON value cut to the length of a message.
#include <nsh/io/json_limits.hpp>

namespace nsh::limits {
namespace {

// Appends a rendering of `node` to `out`, stopping once `out` holds `limit` characters. Each
// level of nesting appends at least one character, so the recursion is at most `limit` deep.
void render(const nlohmann::json& node, std::string& out, std::size_t limit) {
  if (out.size() >= limit) return;
  if (node.is_array() || node.is_object()) {
    const bool object = node.is_object();
    out += object ? '{' : '[';
    bool first = true;
    for (auto it = node.begin(); it != node.end() && out.size() < limit; ++it) {
      if (!first) out += ", ";
      first = false;
      if (object) {
        const std::string key = it.key().size() > limit ? it.key().substr(0, limit) : it.key();
        out += nlohmann::json(key).dump() + ": ";
      }
      render(*it, out, limit);
    }
    if (out.size() < limit) out += object ? '}' : ']';
    return;
  }
  if (node.is_string()) {
    const auto& s = node.get_ref<const std::string&>();
    out += nlohmann::json(s.size() > limit ? s.substr(0, limit) : s).dump();
    return;
  }
  out += node.dump();  // a scalar: not recursive
}

}  // namespace

std::string describe_json(const nlohmann::json& value, std::size_t max_chars) {
  std::string text;
  render(value, text, max_chars + 1);
  if (text.size() > max_chars) text = text.substr(0, max_chars - 3) + "...";
  return std::string(value.type_name()) + " " + text;
}

}  // namespace nsh::limits
