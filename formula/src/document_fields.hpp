#pragma once
// Reading a lagrangian case document's fields: shared by the compiler (compile_lagrangian.cpp)
// and the loader (formula_model.cpp), which a unity build compiles together.
#include <nlohmann/json.hpp>

#include <string>

namespace nsh::formula::detail {

/// root[key], or a null node when the field is absent.
inline const nlohmann::json& document_field(const nlohmann::json& root, const std::string& key) {
  static const nlohmann::json missing;
  const auto it = root.find(key);
  return it == root.end() ? missing : *it;
}

inline bool document_has_field(const nlohmann::json& root, const std::string& key) {
  return root.find(key) != root.end();
}

}  // namespace nsh::formula::detail
