// The registry entries of the Newmark family: one per spec name, with its declared options.
#include <nsh/schemes/newmark_family.hpp>

namespace nsh {

namespace {

template <template <class> class SchemeT, class Own>
void add_newmark_member(Registry& registry, const std::string& name, const std::string& summary) {
  SchemeEntry entry;
  entry.name = name;
  entry.summary = summary;
  entry.options = declared_options<NewmarkFamilyOptions<Own>>();
  set_factories<SchemeT>(entry);
  registry.add(std::move(entry));
}

}  // namespace

void register_newmark_family(Registry& registry) {
  add_newmark_member<NewmarkFamily, NewmarkOptions>(
      registry, "newmark",
      "nonsmooth Newmark (Chen-Acary-Virlez-Bruls splitting: smooth step, then impulse LCP)");
  add_newmark_member<NewmarkFamily, HhtOptions>(
      registry, "hht", "nonsmooth HHT-alpha (Chen-Acary-Virlez-Bruls splitting)");
  add_newmark_member<NewmarkFamily, GenAlphaOptions>(
      registry, "gen-alpha",
      "nonsmooth generalized-alpha (Chen-Acary-Virlez-Bruls splitting), from rho_inf or "
      "explicit parameters");
  add_newmark_member<KrenkHogsberg, KrenkHogsbergOptions>(
      registry, "krenk-hogsberg",
      "nonsmooth Krenk-Hogsberg alpha-scheme: mean-value equation of motion, first-order filter "
      "on K[q], "
      "algorithmic energy decays also with damping (derived, see header)");
}

}  // namespace nsh
