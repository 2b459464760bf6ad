#pragma once
// Private to the external module: the handshake and the reading of one reply
// (docs/external-protocol.md), shared by query_client and ExternalScheme.
#include <nsh/external/child_process.hpp>
#include <nsh/external/client.hpp>

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace nsh::external::detail {

/// "external 'CMD'" for the head of every message.
std::string client_label(const ExternalCommand& command);

/// Send `message` and read one reply object (numbers kept as their text, as in a case file).
/// Every failure — the transport, malformed JSON, a reply that is not an object, a JSON
/// nesting deeper than docs/limits.md allows — is a recorded protocol error naming
/// `request`; the process is stopped. A reply {"error": "..."} is returned as it is.
nlohmann::json exchange(ChildProcess& process, const ExternalCommand& command,
                        const std::string& request, const nlohmann::json& message);

/// Refuse any key of `reply` that is not in `accepted` (keys starting with "_" are comments),
/// naming the key and listing the accepted ones.
void require_known_keys(const nlohmann::json& reply, const std::vector<std::string>& accepted,
                        const std::string& what);

/// Start the client and make the handshake; `info` gets its answer. A client that refuses the
/// handshake ({"error"}) gives SpecError with its message (the options or the precision).
std::unique_ptr<ChildProcess> start_client(const ExternalCommand& command,
                                           const std::string& precision,
                                           const std::map<std::string, std::string>& options,
                                           ClientInfo& info);

}  // namespace nsh::external::detail
