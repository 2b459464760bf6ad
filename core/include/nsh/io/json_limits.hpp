#pragma once
// The resource limit of nsh/limits.hpp that needs a JSON document: describe_json, for the
// messages of the readers of case files, shard files and the step protocol. Here, in nsh::io,
// so that nsh::core does not depend on nlohmann_json.

#include <nsh/limits.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace nsh::limits {

/// A JSON value in at most `max_chars` characters for a message ("array [[[[[[..."), with its
/// type name first. Walks at most `max_chars` nodes whatever the value's depth or size, so a
/// hostile value never costs more than the message shows (nlohmann's dump is recursive and
/// unbounded).
std::string describe_json(const nlohmann::json& value, std::size_t max_chars = 60);

}  // namespace nsh::limits
