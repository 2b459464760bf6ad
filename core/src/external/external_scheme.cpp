// ExternalScheme (nsh/external/external_scheme.hpp): a Scheme whose do_step asks a child
// program, the pool of idle clients, and the registry entry "external".
#include "protocol.hxx"

#include <nsh/external/external_scheme.hpp>
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

/// Idle clients by (command, precision, options): a run takes one, its scheme gives it back
/// when it is destroyed healthy. Destroying the pool (at exit) kills and reaps them all.
class ClientPool {
 public:
  static ClientPool& instance() {
    static ClientPool pool;
    return pool;
  }
  std::unique_ptr<ChildProcess> take(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& idle = idle_[key];
    if (idle.empty()) return nullptr;
    auto process = std::move(idle.back());
    idle.pop_back();
    return process;
  }
  void give(const std::string& key, std::unique_ptr<ChildProcess> process) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto& idle = idle_[key];
    // A run nested in another (double_vs_real50 steps two schemes at once) needs two; more
    // than a few idle ones is a leak of processes, not a saving.
    if (idle.size() < 4) idle.push_back(std::move(process));
  }
  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    idle_.clear();
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::vector<std::unique_ptr<ChildProcess>>> idle_;
};

std::string options_key(const std::map<std::string, std::string>& options) {
  std::string out;
  for (const auto& [key, value] : options) out += key + "=" + value + ",";
  return out;
}

/// A number the client sent, read in Scalar (exact text: the case-file number reader).
template <class Scalar>
Scalar reply_number(const json& node, const std::string& field) {
  return case_number<Scalar>(node, field);
}

template <class Scalar>
Vector<Scalar> reply_vector(const json& reply, const std::string& field, Index size) {
  const auto it = reply.find(field);
  if (it == reply.end()) throw InputError(field, "is missing");
  if (!it->is_array())
    throw InputError(field, fmt::format("expected a list of {} numbers, got {}", size,
                                        limits::describe_json(*it)));
  if (static_cast<Index>(it->size()) != size)
    throw InputError(field, fmt::format("expected {} entries, got {}", size, it->size()));
  return case_vector<Scalar>(*it, field);
}

template <class Scalar>
json number_text(const Scalar& x) {
  return format_scalar(x);
}

template <class Scalar>
json vector_text(const Vector<Scalar>& x) {
  json out = json::array();
  for (Index i = 0; i < x.size(); ++i) out.push_back(format_scalar(x(i)));
  return out;
}

template <class Scalar>
json matrix_text(const Matrix<Scalar>& A) {
  json out = json::array();
  for (Index i = 0; i < A.rows(); ++i) {
    json row = json::array();
    for (Index j = 0; j < A.cols(); ++j) row.push_back(format_scalar(A(i, j)));
    out.push_back(row);
  }
  return out;
}

template <class Scalar>
Scalar abs_of(const Scalar& x) {
  return x < Scalar(0) ? Scalar(-x) : x;
}

}  // namespace

template <class Scalar>
ExternalScheme<Scalar>::ExternalScheme(ExternalCommand command, const SchemeSpec& spec,
                                       ClientInfo info)
    : command_(std::move(command)), spec_(spec), client_(std::move(info)) {
  if (!client_.supports(precision_name<Scalar>()))
    throw SpecError("--precision",
                    fmt::format("{} does not step in precision {} (it lists {})",
                                detail::client_label(command_), precision_name<Scalar>(),
                                fmt::join(client_.precisions, ", ")));
}

template <class Scalar>
ExternalScheme<Scalar>::~ExternalScheme() {
  release();
}

template <class Scalar>
void ExternalScheme<Scalar>::release() {
  if (process_ && healthy_ && process_->running())
    ClientPool::instance().give(
        command_.command + "\n" + precision_name<Scalar>() + "\n" + options_key(spec_.options()),
        std::move(process_));
  process_.reset();
  healthy_ = false;
}

template <class Scalar>
SchemeInfo ExternalScheme<Scalar>::info() const {
  SchemeInfo info;
  info.family = client_.family;
  info.spec = client_.claims_as.empty() ? spec_.str() : client_.claims_as;
  info.smooth_order = client_.smooth_order;
  info.impulse_lcp = client_.filled("index_set");
  info.algorithmic_energy = false;
  info.momentum_conserving = client_.filled("external_impulse");
  info.resolves_every_impact = client_.resolves_every_impact;
  info.parameters = client_.parameters;
  // The claims read the options of the spec the client claims as (activation, impact, ...)
  // from the parameters: the client reports the numbers it steps with, the registry resolves
  // the rest of that spec with the defaults its scheme declares.
  if (!client_.claims_as.empty()) {
    const SchemeSpec claimed = Registry::builtin().resolve(client_.claims_as);
    for (const auto& [key, value] : claimed.options()) info.parameters.emplace(key, value);
  }
  return info;
}

template <class Scalar>
void ExternalScheme<Scalar>::fail(const std::string& request, const std::string& what) {
  if (process_) process_->terminate();
  healthy_ = false;
  throw protocol_error(detail::client_label(command_) + ": " + request + ": " + what);
}

template <class Scalar>
json ExternalScheme<Scalar>::exchange(const std::string& request, const json& message) {
  healthy_ = false;  // until the reply has been read whole
  json reply = detail::exchange(*process_, command_, request, message);
  healthy_ = true;
  return reply;
}

template <class Scalar>
void ExternalScheme<Scalar>::do_initialize(const LinearModel<Scalar>& model,
                                           const State<Scalar>& initial, const Scalar& h) {
  // After a violation every run of the client fails at once: a hanging client costs one
  // deadline, not one per case of a check.
  if (const auto earlier = first_protocol_error())
    throw ExternalProtocolError(*earlier +
                                " (an earlier request failed; the client is not "
                                "asked again)");
  model_ = &model;
  step_ = 0;
  if (!process_) {
    process_ = ClientPool::instance().take(command_.command + "\n" + precision_name<Scalar>() +
                                           "\n" + options_key(spec_.options()));
    if (!process_) {
      ClientInfo answered;
      process_ =
          detail::start_client(command_, precision_name<Scalar>(), spec_.options(), answered);
    }
    healthy_ = true;
  }
  // The model as a case file (exact numbers as strings): the case-file writer, read back with
  // the number texts kept.
  json document =
      parse_case_text(write_linear_case<Scalar>(model.name.empty() ? "case" : model.name, model,
                                                initial, initial.t + h, h))
          .root;
  if (model.tangent_directions() > 0) {
    document["G_T"] = matrix_text<Scalar>(model.G_T);
    document["mu"] = vector_text<Scalar>(model.mu);
  }
  const json reply = exchange(
      "initialize", json{{"request", "initialize"}, {"case", document}, {"h", number_text(h)}});
  if (const auto error = reply.find("error"); error != reply.end()) {
    throw StepError(detail::client_label(command_) +
                    ": initialize: the client refused the model: " +
                    (error->is_string() ? error->get<std::string>() : error->dump()));
  }
  try {
    detail::require_known_keys(reply, {"ok"}, "the initialize reply");
  } catch (const ExternalProtocolError& e) {
    fail("initialize", e.what());
  }
  const auto ok = reply.find("ok");
  if (ok == reply.end() || !ok->is_boolean() || !ok->get<bool>())
    fail("initialize", "field 'ok': expected true (or {\"error\": \"...\"})");
}

template <class Scalar>
void ExternalScheme<Scalar>::do_step(State<Scalar>& state, StepSummary<Scalar>& summary) {
  const LinearModel<Scalar>& model = *model_;
  const Index n = model.dofs(), m = model.contacts(), d = model.tangent_directions();
  ++step_;
  const std::string request = fmt::format("step {} (t = {})", step_, format_scalar(state.t));
  const json reply = exchange(request, json{{"request", "step"},
                                            {"step", step_},
                                            {"t", number_text(state.t)},
                                            {"q", vector_text<Scalar>(state.q)},
                                            {"v", vector_text<Scalar>(state.v)}});
  if (const auto error = reply.find("error"); error != reply.end())
    throw StepError(detail::client_label(command_) + ": " + request +
                    ": the client could not take the step: " +
                    (error->is_string() ? error->get<std::string>() : error->dump()));
  std::vector<std::string> accepted{"q", "v", "impulse"};
  if (d > 0) accepted.push_back("tangential_impulse");
  for (const auto& field : fillable_fields())
    if (client_.filled(field)) accepted.push_back(field);
  try {
    detail::require_known_keys(reply, accepted,
                               "the reply (fields not in the handshake's "
                               "\"fills\" are not accepted)");
  } catch (const ExternalProtocolError& e) {
    fail(request, e.what());
  }
  try {
    const Vector<Scalar> U_before =
        m > 0 ? Vector<Scalar>(model.G.transpose() * state.v) : Vector<Scalar>(0);
    Vector<Scalar> q = reply_vector<Scalar>(reply, "q", n);
    Vector<Scalar> v = reply_vector<Scalar>(reply, "v", n);
    if (m > 0 || reply.contains("impulse"))
      summary.impulse = reply_vector<Scalar>(reply, "impulse", m);
    else
      summary.impulse.resize(0);
    // d, U_T before and after are the kit's (Scheme::step derives them from the states).
    if (d > 0)
      summary.tangential_impulse = reply_vector<Scalar>(reply, "tangential_impulse", m * d);
    else
      summary.tangential_impulse.resize(0);
    summary.index_set.clear();
    if (client_.filled("index_set")) {
      const auto it = reply.find("index_set");
      if (it == reply.end()) throw InputError("index_set", "is missing (declared in \"fills\")");
      if (!it->is_array())
        throw InputError("index_set",
                         "expected a list of contact indices, got " + limits::describe_json(*it));
      for (std::size_t i = 0; i < it->size(); ++i) {
        const json& entry = (*it)[i];
        const std::string field = fmt::format("index_set[{}]", i);
        const std::string text = entry.is_string() ? entry.get<std::string>() : "";
        if (text.empty() || text.size() > 9 ||
            !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
          throw InputError(field, "expected a contact index 0.." + std::to_string(m - 1) +
                                      ", got " + limits::describe_json(entry));
        const Index alpha = std::stol(text);
        if (alpha >= m)
          throw InputError(field,
                           fmt::format("contact {} does not exist (the model has {})", alpha, m));
        if (std::find(summary.index_set.begin(), summary.index_set.end(), alpha) !=
            summary.index_set.end())
          throw InputError(field, fmt::format("contact {} is listed twice", alpha));
        summary.index_set.push_back(alpha);
      }
      std::sort(summary.index_set.begin(), summary.index_set.end());
    } else {
      for (Index a = 0; a < m; ++a)
        if (summary.impulse(a) != Scalar(0)) summary.index_set.push_back(a);
    }
    summary.velocity_newton = client_.filled("velocity_newton")
                                  ? reply_vector<Scalar>(reply, "velocity_newton", m)
                                  : U_before;
    summary.external_impulse = client_.filled("external_impulse")
                                   ? reply_vector<Scalar>(reply, "external_impulse", n)
                                   : Vector<Scalar>(Vector<Scalar>::Zero(n));
    const auto ledger = [&](const char* field) {
      if (!client_.filled(field)) return Scalar(0);
      const auto it = reply.find(field);
      if (it == reply.end()) throw InputError(field, "is missing (declared in \"fills\")");
      return reply_number<Scalar>(*it, field);
    };
    summary.W_ext = ledger("W_ext");
    summary.W_damp = ledger("W_damp");
    summary.W_contact = ledger("W_contact");
    summary.numerical_dissipation = ledger("numerical_dissipation");
    summary.has_algorithmic_energy = false;
    summary.has_stored_energy = false;
    summary.acceleration_like_before.resize(0);
    summary.acceleration_like_after.resize(0);
    // The LCP record, from the answer: nsh certifies it, the client's word is not asked.
    summary.lcp = LcpResult<Scalar>{};
    summary.lcp_solved = !summary.index_set.empty() && client_.filled("index_set");
    if (summary.lcp_solved) {
      const Index k = static_cast<Index>(summary.index_set.size());
      const Vector<Scalar> U_after = model.G.transpose() * v;
      summary.lcp.z.resize(k);
      summary.lcp.w.resize(k);
      Scalar natural_map(0), scale(1);
      for (Index i = 0; i < k; ++i) {
        const Index a = summary.index_set[static_cast<std::size_t>(i)];
        summary.lcp.z(i) = summary.impulse(a);
        summary.lcp.w(i) = U_after(a) + model.e(a) * summary.velocity_newton(a);
        natural_map =
            std::max(natural_map, abs_of<Scalar>(std::min(summary.lcp.z(i), summary.lcp.w(i))));
        scale =
            std::max({scale, abs_of<Scalar>(summary.lcp.z(i)), abs_of<Scalar>(summary.lcp.w(i))});
      }
      Scalar tolerance(0);
      if constexpr (!is_exact_v<Scalar>)
        tolerance = Scalar(4096) * std::numeric_limits<Scalar>::epsilon() * scale;
      summary.lcp.certificate.natural_map = natural_map;
      summary.lcp.certificate.tolerance = tolerance;
      summary.lcp.certificate.accepted = natural_map <= tolerance;
      summary.lcp.status =
          summary.lcp.certificate.accepted ? LcpStatus::solved : LcpStatus::uncertified;
      summary.lcp.message = "certified by nsh from the client's answer";
    }
    state.q = std::move(q);
    state.v = std::move(v);
  } catch (const InputError& e) {
    fail(request, "reply field " + e.field() + ": " +
                      std::string(e.what()).substr(e.field().empty() ? 0 : e.field().size() + 2));
  }
}

ClientInfo register_external_scheme(Registry& registry, const ExternalCommand& command) {
  const ClientInfo info = query_client(command, "double", {});
  SchemeEntry entry;
  entry.name = scheme_name;
  entry.summary = "the program " + command.command + " (" + info.name +
                  ", step protocol of docs/external-protocol.md)";
  entry.options = info.options;
  // Every option set the claims' probes ask for gets its own handshake (its parameters and
  // claims_as may differ), once.
  auto cache = std::make_shared<std::map<std::string, ClientInfo>>();
  auto mutex = std::make_shared<std::mutex>();
  (*cache)[options_key({})] = info;
  auto info_for = [command, cache, mutex](const SchemeSpec& spec) {
    std::lock_guard<std::mutex> lock(*mutex);
    const std::string key = options_key(spec.options());
    auto it = cache->find(key);
    if (it == cache->end())
      it = cache->emplace(key, query_client(command, "double", spec.options())).first;
    return it->second;
  };
  entry.make.get<double>() = [command, info_for](const SchemeSpec& spec) {
    return std::make_unique<ExternalScheme<double>>(command, spec, info_for(spec));
  };
  if (info.supports("50"))
    entry.make.get<Real50>() = [command, info_for](const SchemeSpec& spec) {
      return std::make_unique<ExternalScheme<Real50>>(command, spec, info_for(spec));
    };
  if (info.supports("rational"))
    entry.make.get<Rational>() = [command, info_for](const SchemeSpec& spec) {
      return std::make_unique<ExternalScheme<Rational>>(command, spec, info_for(spec));
    };
  registry.add(std::move(entry));
  return info;
}

void stop_idle_clients() {
  ClientPool::instance().clear();
}

#define NSH_INSTANTIATE(Scalar) template class ExternalScheme<Scalar>;
NSH_FOR_EACH_SCALAR(NSH_INSTANTIATE)
#undef NSH_INSTANTIATE

}  // namespace nsh::external
