#pragma once
// The client of the any-language step protocol (docs/external-protocol.md), as nsh sees it:
// the command that starts it, what it said about itself in the handshake, and the error
// every protocol violation raises.
//
// A protocol violation (a crash, a hang past the deadline, malformed JSON, a missing field, a
// wrong dimension, a number that is not finite or does not parse in the requested precision)
// is an ExternalProtocolError naming the request (handshake, initialize, step k) and the
// field. It is a StepError, so `nsh simulate` stops with exit 1 and keeps the rows before it;
// and it is recorded (first_protocol_error), because the property runner reads a StepError as
// an honest refusal of one case: `nsh check` reports the recorded violation instead of a
// verdict, and every later run of the same client fails at once instead of waiting again.
// A client that honestly cannot take a step answers {"error": "..."}: a plain StepError.

#include <nsh/error.hpp>
#include <nsh/registry.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace nsh::external {

/// The protocol's version; the handshake names it and a client must answer it.
inline constexpr int protocol_version = 1;

/// How to start the client and how long to wait for it (docs/limits.md).
struct ExternalCommand {
  std::string command;                     ///< run as /bin/sh -c COMMAND
  double timeout_seconds{10};              ///< per request (write and reply)
  std::size_t max_reply_bytes{16u << 20};  ///< longest reply line
};

class ExternalProtocolError : public StepError {
 public:
  using StepError::StepError;
};

/// The ledger and bookkeeping fields a client may fill (its "fills" list).
const std::vector<std::string>& fillable_fields();

/// What a client said about itself in the handshake.
struct ClientInfo {
  std::string name;    ///< a label for tables
  std::string family;  ///< "moreau-jean", ... (a label; default "external")
  int smooth_order{1};
  std::vector<std::string> precisions;  ///< of "double", "50", "rational"
  std::vector<SchemeOption> options;    ///< what --scheme external:KEY=VALUE may set
  std::set<std::string> fills;          ///< of fillable_fields()
  std::string claims_as;                ///< a built-in spec whose claims it is held to, or ""
  std::map<std::string, std::string> parameters;  ///< exact text, read by the claims
  /// An event-driven client: SchemeInfo::resolves_every_impact (default false).
  bool resolves_every_impact{false};
  bool supports(const std::string& precision) const;
  bool filled(const std::string& field) const { return fills.count(field) != 0; }
};

/// The precision name of the protocol for Scalar: "double", "50", "rational".
template <class Scalar>
std::string precision_name();

/// Start the client, make the handshake with `options` in `precision` and stop it.
/// ExternalProtocolError naming the field on a bad answer; SpecError if the client refuses.
ClientInfo query_client(const ExternalCommand& command, const std::string& precision,
                        const std::map<std::string, std::string>& options);

/// The first protocol violation of any client in this process, if one happened (the message
/// names the command, the request and the field).
std::optional<std::string> first_protocol_error();
/// Record a violation (the first one is kept) and return the error to throw.
ExternalProtocolError protocol_error(const std::string& message);

/// The command as one shell word ('...' with embedded quotes escaped), for replay lines.
std::string shell_quote(const std::string& text);

}  // namespace nsh::external
