#pragma once
// A scheme that runs in another program: the any-language step protocol
// (docs/external-protocol.md). nsh sends the model once per run (a case file, exact numbers as
// strings), then one "step" request per step with the state (t, q, v); the client answers the
// new state and the impulses (P; P_T when the model has friction), and optionally its index
// set, its Newton velocity, its external impulse and its ledger terms (the fields it declared
// in its "fills"). The scheme kit (nsh/schemes/scheme.hpp) then derives everything the states
// determine — times, gaps, local velocities, energies — so a client is never trusted for
// those; a field it did not declare keeps the kit's neutral value (an empty index set is
// {alpha : P^alpha != 0}; velocity_newton is U_k, Moreau's law).
//
// Where the client declares its index set, nsh fills the step's LCP record from the client's
// answer (z = P on I, w = U_{k+1} + e o U_newton on I, its natural map as the certificate):
// the certificate is nsh's own check of the answer, not the client's word.
//
// Client processes are kept for reuse between runs with the same command, precision and
// options (a pool): a run sends "initialize" to an idle client, so a check of a thousand
// cases starts a Python interpreter once per precision, not a thousand times. Every process
// is killed and reaped when its scheme fails or when the program ends.

#include <nsh/external/client.hpp>
#include <nsh/registry.hpp>
#include <nsh/schemes/scheme.hpp>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace nsh::external {

class ChildProcess;

template <class Scalar>
class ExternalScheme : public Scheme<Scalar> {
 public:
  /// `spec`: "external[:key=value,...]" with the client's options (resolved by the registry);
  /// `info`: the client's handshake answer for these options.
  ExternalScheme(ExternalCommand command, const SchemeSpec& spec, ClientInfo info);
  ~ExternalScheme() override;

  SchemeInfo info() const override;

 private:
  void do_initialize(const LinearModel<Scalar>& model, const State<Scalar>& initial,
                     const Scalar& h) override;
  void do_step(State<Scalar>& state, StepSummary<Scalar>& summary) override;

  /// Send one request line and read the reply object; protocol errors name `request`.
  nlohmann::json exchange(const std::string& request, const nlohmann::json& message);
  [[noreturn]] void fail(const std::string& request, const std::string& what);
  void release();

  ExternalCommand command_;
  SchemeSpec spec_;
  ClientInfo client_;
  std::unique_ptr<ChildProcess> process_;
  bool healthy_{false};
  const LinearModel<Scalar>* model_{nullptr};
  Index step_{0};
};

/// The registry name of the external scheme.
inline constexpr const char* scheme_name = "external";

/// Ask the client for its info (handshake in double, default options) and register the entry
/// "external" in `registry`, with the client's options and a factory per precision it
/// supports. Returns the client's info. SpecError if "external" is taken; protocol errors as
/// query_client. The claims are the property suite's business (the CLI attaches them).
ClientInfo register_external_scheme(Registry& registry, const ExternalCommand& command);

/// Stop every idle pooled client (also done at exit).
void stop_idle_clients();

extern template class ExternalScheme<double>;
extern template class ExternalScheme<Real50>;
extern template class ExternalScheme<Rational>;

}  // namespace nsh::external
