#pragma once
// Case files (docs/case-files.md): JSON documents describing a model, an initial state
// and a horizon. Numbers may be JSON numbers or strings ("1/3", "0.1", "1e-3"); the parser keeps
// every number as its source text, so that each scalar type reads it exactly (Rational) or to
// full precision (Real50), never through a double.
//
//   { "name": "two-body", "family": "linear",            // family defaults to "linear"
//     "M": [[2, 0], [0, 3]], "K": ..., "C": ..., "F": [0, 0],
//     "F_amplitude": [..], "omega": 2,                     // optional harmonic force
//     "G": [[1], [-1]], "w": [0], "e": ["1/2"],            // e: one number or one per contact
//     "q0": [0, 0], "v0": [-1, 1], "t0": 0, "T": 1, "h": "1/100" }   // t0, h optional
//
// Other families ("sweeping", "penalty-line", ...) use the same document and number readers
// with their own fields.
//
// Sparse linear cases (docs/case-files.md): with "sparse": true, M, C and K are each given by
// their stored entries, 0-based, in any order,
//
//   { "name": "bar", "sparse": true,
//     "M": {"rows": 3, "cols": 3, "entries": [[0, 0, "1/3"], [0, 1, "1/6"], [1, 0, "1/6"], ...]},
//     "K": {"rows": 3, "cols": 3, "entries": [...]},                 // C, K optional as before
//     "G": {"rows": 3, "cols": 1, "entries": [[0, 0, 1]]},           // or dense rows [[1], ...]
//     "w": [0], "e": 0, "q0": [...], "v0": [...], "T": 3 }
//
// - rows, cols: positive integers (at most 10^7); each entry [i, j, value] with integer
//   0 <= i < rows, 0 <= j < cols and value a number or a string ("1/6"). Nothing else is
//   accepted in the object (a typo such as "entires" is an error, not an empty matrix).
// - Entries at the same (i, j) are summed, as finite-element assembly does; entries that are
//   (or sum to) exactly zero are not stored. A symmetric matrix lists both triangles: there is
//   no implied symmetry, so a missing half is caught by the model's symmetry check.
// - G (n x m, few contacts) may be triplets or dense rows; F, w, e, q0, v0 stay dense lists.
// - "sparse": false, or no "sparse" field, is the dense format above, unchanged; a triplet
//   object there is an error naming the field, as is a list of rows in a sparse document.
// load_sparse_linear_case reads either form without a dense copy; load_linear_case reads either
// form into dense matrices (refused above 4096 degrees of freedom).

#include <nsh/model/linear_model.hpp>
#include <nsh/model/sparse_model.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace nsh {

/// A parsed case file. Every number in `root` is stored as a JSON string holding its source
/// text (so 0.1 stays "0.1").
struct CaseDocument {
  nlohmann::json root;
  std::string source;  ///< file path or "<text>", for messages
  std::string name;    ///< "name" field (or the file stem)
  std::string family;  ///< "family" field, default "linear"
};

/// Parse JSON text. Malformed JSON throws InputError naming `source`, line and column.
CaseDocument parse_case_text(const std::string& text, const std::string& source = "<text>");
/// Read and parse a file. Missing file: InputError naming the path.
CaseDocument read_case_file(const std::string& path);

/// A built-in case name ("bouncing-ball") or a path to a case file -> the file's path.
/// Built-in cases are looked up in $NSH_CASES_DIR, the source tree's cases/data and the
/// installed share/nsh/cases. Unknown names: InputError listing the built-in cases.
std::string locate_case(const std::string& name_or_path);
/// Names of the built-in case files (file stems in the first cases directory found).
std::vector<std::string> builtin_case_names();

/// Readers for one field of a document; `field` is the path used in messages ("M[1][0]").
/// A missing required field, a non-number, a wrong length or a ragged matrix throws InputError.
template <class Scalar>
Scalar case_number(const nlohmann::json& node, const std::string& field);
template <class Scalar>
Vector<Scalar> case_vector(const nlohmann::json& node, const std::string& field);
template <class Scalar>
Matrix<Scalar> case_matrix(const nlohmann::json& node, const std::string& field);
/// A sparse matrix {"rows": r, "cols": c, "entries": [[i, j, value], ...]} (format above):
/// duplicates summed, exact zeros not stored. Errors name the entry ("M.entries[3]") and value.
template <class Scalar>
SparseMatrix<Scalar> case_sparse_matrix(const nlohmann::json& node, const std::string& field);

/// A linear-family case: the model, the initial state, the horizon and an optional default h.
template <class Scalar>
struct LinearCase {
  LinearModel<Scalar> model;
  State<Scalar> initial;
  Scalar T{1};
  std::optional<Scalar> h;
};

/// A linear case whose model is sparse (nsh/model/sparse_model.hpp).
template <class Scalar>
struct SparseLinearCase {
  SparseLinearModel<Scalar> model;
  State<Scalar> initial;
  Scalar T{1};
  std::optional<Scalar> h;
};

/// Load a "linear" document into Scalar, fill defaults (K, C, F, w zero; e broadcast) and
/// validate the model and the state. Errors name the field. A sparse document is read into
/// dense matrices from its triplets; above 4096 degrees of freedom it is refused (InputError
/// naming "M": a command that reads sparse models, such as nsh events, takes it).
template <class Scalar>
LinearCase<Scalar> load_linear_case(const CaseDocument& document);

/// Load a "linear" document, sparse or dense, into a validated sparse model without any dense
/// n x n copy (the event-driven reference on large finite-element models). double and Real50.
template <class Scalar>
SparseLinearCase<Scalar> load_sparse_linear_case(const CaseDocument& document);

/// Write a sparse model and state as a sparse case file (every stored entry of M, C, K and the
/// nonzeros of G as triplets, row by row; exact strings in Rational, full precision otherwise)
/// that load_sparse_linear_case reads back to the same values. `description`, when not empty,
/// becomes the "description" field. double, Real50 and Rational (a Rational model here is only
/// data to print, e.g. an exactly assembled finite-element model).
template <class Scalar>
std::string write_sparse_linear_case(const std::string& name,
                                     const SparseLinearModel<Scalar>& model,
                                     const State<Scalar>& initial, const Scalar& T,
                                     const std::optional<Scalar>& h = std::nullopt,
                                     const std::string& description = "");

/// Write a model and state as a case file (exact strings in Rational, full precision
/// otherwise) that load_linear_case reads back to the same values.
template <class Scalar>
std::string write_linear_case(const std::string& name, const LinearModel<Scalar>& model,
                              const State<Scalar>& initial, const Scalar& T,
                              const std::optional<Scalar>& h = std::nullopt);

}  // namespace nsh
