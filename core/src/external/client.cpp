// The client side of the step protocol as nsh sees it (nsh/external/client.hpp): the handshake,
// the reading of one reply and the record of the first protocol violation.
#include "protocol.hxx"

#include <nsh/format.hpp>
#include <nsh/io/case_file.hpp>
#include <nsh/io/json_limits.hpp>
#include <nsh/limits.hpp>
#include <nsh/number.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <mutex>

namespace nsh::external {
namespace {

using nlohmann::json;

std::mutex& error_mutex() {
  static std::mutex m;
  return m;
}
std::optional<std::string>& recorded_error() {
  static std::optional<std::string> first;
  return first;
}

/// A string field of the handshake; `fallback` when absent and not required.
std::string text_field(const json& reply, const std::string& key, bool required,
                       const std::string& fallback, const std::string& head) {
  const auto it = reply.find(key);
  if (it == reply.end()) {
    if (required) throw protocol_error(head + fmt::format("field '{}' is missing", key));
    return fallback;
  }
  if (!it->is_string())
    throw protocol_error(head + fmt::format("field '{}': expected a string, got {}", key,
                                            limits::describe_json(*it)));
  return it->get<std::string>();
}

/// A list of strings of the handshake (absent: empty).
std::vector<std::string> text_list(const json& reply, const std::string& key,
                                   const std::string& head) {
  std::vector<std::string> out;
  const auto it = reply.find(key);
  if (it == reply.end()) return out;
  if (!it->is_array())
    throw protocol_error(head + fmt::format("field '{}': expected a list of strings, got {}", key,
                                            limits::describe_json(*it)));
  for (std::size_t i = 0; i < it->size(); ++i) {
    if (!(*it)[i].is_string())
      throw protocol_error(head + fmt::format("field '{}[{}]': expected a string, got {}", key, i,
                                              limits::describe_json((*it)[i])));
    out.push_back((*it)[i].get<std::string>());
  }
  return out;
}

ClientInfo parse_info(const json& reply, const std::string& head) {
  detail::require_known_keys(reply,
                             {"version", "name", "family", "smooth_order", "precisions", "options",
                              "fills", "claims_as", "parameters", "resolves_every_impact"},
                             head + "the handshake reply");
  ClientInfo info;
  const std::string version = text_field(reply, "version", true, "", head);
  if (version != std::to_string(protocol_version))
    throw protocol_error(head + fmt::format("field 'version': the client speaks version {}, nsh "
                                            "speaks version {}",
                                            version, protocol_version));
  info.name = text_field(reply, "name", true, "", head);
  info.family = text_field(reply, "family", false, "external", head);
  const std::string order = text_field(reply, "smooth_order", true, "", head);
  if (order.empty() || order.size() > 2 ||
      !std::all_of(order.begin(), order.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      std::stoi(order) < 1)
    throw protocol_error(head + "field 'smooth_order': expected an integer in 1..99, got " + order);
  info.smooth_order = std::stoi(order);
  info.precisions = text_list(reply, "precisions", head);
  if (info.precisions.empty())
    throw protocol_error(head +
                         "field 'precisions': missing or empty (a list of \"double\", "
                         "\"50\", \"rational\")");
  for (std::size_t i = 0; i < info.precisions.size(); ++i)
    if (info.precisions[i] != "double" && info.precisions[i] != "50" &&
        info.precisions[i] != "rational")
      throw protocol_error(head + fmt::format("field 'precisions[{}]': '{}' is not one of double, "
                                              "50, rational",
                                              i, info.precisions[i]));
  if (!info.supports("double"))
    throw protocol_error(head +
                         "field 'precisions': must include \"double\" (nsh asks every "
                         "scheme for its info in double)");
  for (const std::string& field : text_list(reply, "fills", head)) {
    const auto& known = fillable_fields();
    if (std::find(known.begin(), known.end(), field) == known.end())
      throw protocol_error(head + fmt::format("field 'fills': '{}' is not a field a client "
                                              "fills; accepted: {}",
                                              field, join(known)));
    info.fills.insert(field);
  }
  info.claims_as = text_field(reply, "claims_as", false, "", head);
  // A client held to a built-in scheme's claims must expose what those claims read: an unfilled
  // field would leave a claimed property inapplicable (a verdict that checked nothing) or judge
  // it on neutral zeros.
  if (!info.claims_as.empty()) {
    std::vector<std::string> missing;
    for (const std::string& field : fillable_fields())
      if (!info.filled(field)) missing.push_back(field);
    if (!missing.empty())
      throw protocol_error(head + fmt::format("field 'claims_as': '{}' holds the client to a "
                                              "built-in scheme's claims, which read every field "
                                              "a client fills; 'fills' lacks {}",
                                              info.claims_as, join(missing)));
  }
  if (const auto it = reply.find("parameters"); it != reply.end()) {
    if (!it->is_object())
      throw protocol_error(head + "field 'parameters': expected an object {\"theta\": \"1/2\"}");
    for (const auto& [key, value] : it->items()) {
      if (!value.is_string())  // numbers arrive as their text
        throw protocol_error(head + fmt::format("field 'parameters.{}': expected a number, got {}",
                                                key, limits::describe_json(value)));
      (void)parse_rational(value.get<std::string>(), "parameters." + key);
      info.parameters[key] = value.get<std::string>();
    }
  }
  if (const auto it = reply.find("resolves_every_impact"); it != reply.end()) {
    if (!it->is_boolean())
      throw protocol_error(head + fmt::format("field 'resolves_every_impact': expected true or "
                                              "false, got {}",
                                              limits::describe_json(*it)));
    info.resolves_every_impact = it->get<bool>();
  }
  if (const auto it = reply.find("options"); it != reply.end()) {
    if (!it->is_array())
      throw protocol_error(head + "field 'options': expected a list of {\"key\", \"default\"}");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& option = (*it)[i];
      const std::string at = fmt::format("options[{}]", i);
      if (!option.is_object())
        throw protocol_error(head + "field '" + at +
                             "': expected an object {\"key\", \"default\"}");
      detail::require_known_keys(option, {"key", "default", "description", "choices"},
                                 head + "field '" + at + "'");
      SchemeOption o;
      o.key = text_field(option, "key", true, "", head + at + ": ");
      o.default_value = text_field(option, "default", true, "", head + at + ": ");
      o.description = text_field(option, "description", false, "", head + at + ": ");
      o.choices = text_list(option, "choices", head + at + ": ");
      if (o.key.empty() || o.key.find_first_of(":,=") != std::string::npos)
        throw protocol_error(head + "field '" + at + ".key': '" + o.key +
                             "' is empty or holds one of : , =");
      info.options.push_back(o);
    }
  }
  return info;
}

}  // namespace

bool ClientInfo::supports(const std::string& precision) const {
  return std::find(precisions.begin(), precisions.end(), precision) != precisions.end();
}

const std::vector<std::string>& fillable_fields() {
  static const std::vector<std::string> fields{
      "index_set", "velocity_newton", "external_impulse",     "W_ext",
      "W_damp",    "W_contact",       "numerical_dissipation"};
  return fields;
}

template <>
std::string precision_name<double>() {
  return "double";
}
template <>
std::string precision_name<Real50>() {
  return "50";
}
template <>
std::string precision_name<Rational>() {
  return "rational";
}

std::optional<std::string> first_protocol_error() {
  std::lock_guard<std::mutex> lock(error_mutex());
  return recorded_error();
}

ExternalProtocolError protocol_error(const std::string& message) {
  std::lock_guard<std::mutex> lock(error_mutex());
  if (!recorded_error()) recorded_error() = message;
  return ExternalProtocolError(message);
}

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

namespace detail {

std::string client_label(const ExternalCommand& command) {
  return "external " + shell_quote(command.command);
}

void require_known_keys(const json& reply, const std::vector<std::string>& accepted,
                        const std::string& what) {
  for (const auto& [key, value] : reply.items()) {
    (void)value;
    if (!key.empty() && key[0] == '_') continue;
    if (std::find(accepted.begin(), accepted.end(), key) == accepted.end())
      throw protocol_error(what + fmt::format(": unknown field '{}'; accepted: {}",
                                              limits::describe_key(key), join(accepted)));
  }
}

json exchange(ChildProcess& process, const ExternalCommand& command, const std::string& request,
              const json& message) {
  const std::string head = client_label(command) + ": " + request + ": ";
  std::string line;
  try {
    process.write_line(message.dump(), command.timeout_seconds);
    line = process.read_line(command.timeout_seconds, command.max_reply_bytes);
  } catch (const ChildProcessError& e) {
    process.terminate();
    throw protocol_error(head + e.what());
  }
  try {
    // The case-file reader: numbers keep their text (each precision reads it exactly), a
    // duplicate key is refused, the nesting depth is bounded (docs/limits.md).
    return parse_case_text(line, "the reply").root;
  } catch (const InputError& e) {
    process.terminate();
    std::string shown = line.substr(0, 200);
    throw protocol_error(head + "malformed reply (" + e.what() + "): " + shown +
                         (line.size() > 200 ? "..." : ""));
  }
}

std::unique_ptr<ChildProcess> start_client(const ExternalCommand& command,
                                           const std::string& precision,
                                           const std::map<std::string, std::string>& options,
                                           ClientInfo& info) {
  std::unique_ptr<ChildProcess> process;
  try {
    process = std::make_unique<ChildProcess>(command.command);
  } catch (const ChildProcessError& e) {
    throw protocol_error(client_label(command) + ": " + e.what());
  }
  json hello{{"nsh", "step-protocol"},
             {"version", protocol_version},
             {"precision", precision},
             {"options", json::object()}};
  for (const auto& [key, value] : options) hello["options"][key] = value;
  const json reply = exchange(*process, command, "handshake", hello);
  const std::string head = client_label(command) + ": handshake: ";
  if (const auto error = reply.find("error"); error != reply.end()) {
    process->terminate();
    throw SpecError("--external",
                    "the client refused the handshake (precision " + precision +
                        "): " + (error->is_string() ? error->get<std::string>() : error->dump()));
  }
  info = parse_info(reply, head);
  return process;
}

}  // namespace detail

ClientInfo query_client(const ExternalCommand& command, const std::string& precision,
                        const std::map<std::string, std::string>& options) {
  ClientInfo info;
  detail::start_client(command, precision, options, info)->terminate();
  return info;
}

}  // namespace nsh::external
