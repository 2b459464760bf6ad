// The registry entries of the Newmark family: one per spec name, with its declared options.
#include <nsh/schemes/newmark_family.hpp>

namespace nsh {

namespace {

// One-parameter names of the two storages (a template template parameter of one parameter
// takes no template of two, defaulted or not, in clang 14).
template <class Scalar>
using DenseNewmarkFamily = NewmarkFamily<Scalar>;
template <class Scalar>
using SparseNewmarkFamily = NewmarkFamily<Scalar, SparseStorage>;
template <class Scalar>
using DenseKrenkHogsberg = KrenkHogsberg<Scalar>;
template <class Scalar>
using SparseKrenkHogsberg = KrenkHogsberg<Scalar, SparseStorage>;

/// Dense models in every scalar; sparse models (nsh simulate of a sparse case file) in double
/// and Real50, natively.
template <template <class> class Dense, template <class> class Sparse, class Own>
void add_newmark_member(Registry& registry, const std::string& name, const std::string& summary) {
  SchemeEntry entry;
  entry.name = name;
  entry.summary = summary;
  entry.options = declared_options<NewmarkFamilyOptions<Own>>();
  set_factories<Dense>(entry);
  set_sparse_factories<Sparse>(entry, InexactScalars{});
  registry.add(std::move(entry));
}

}  // namespace

void register_newmark_family(Registry& registry) {
  add_newmark_member<DenseNewmarkFamily, SparseNewmarkFamily, NewmarkOptions>(
      registry, "newmark",
      "nonsmooth Newmark (Chen-Acary-Virlez-Bruls splitting: smooth step, then impulse LCP)");
  add_newmark_member<DenseNewmarkFamily, SparseNewmarkFamily, HhtOptions>(
      registry, "hht", "nonsmooth HHT-alpha (Chen-Acary-Virlez-Bruls splitting)");
  add_newmark_member<DenseNewmarkFamily, SparseNewmarkFamily, GenAlphaOptions>(
      registry, "gen-alpha",
      "nonsmooth generalized-alpha (Chen-Acary-Virlez-Bruls splitting), from rho_inf or "
      "explicit parameters");
  add_newmark_member<DenseKrenkHogsberg, SparseKrenkHogsberg, KrenkHogsbergOptions>(
      registry, "krenk-hogsberg",
      "nonsmooth Krenk-Hogsberg alpha-scheme: mean-value equation of motion, first-order filter "
      "on K[q], "
      "algorithmic energy decays also with damping (derived, see header)");
}

}  // namespace nsh
