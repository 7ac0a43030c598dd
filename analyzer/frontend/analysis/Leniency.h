// Which compiler errors need not fail a file: warplint checks device code,
// and nvcc accepts some code Clang's CUDA mode rejects. The command line
// (Action.cpp's diagnostic router) and the language server decide the same
// way with it.
#pragma once

#include "clang/Basic/Diagnostic.h"

namespace clang {
class CompilerInstance;
}

namespace warplint {

enum class Leniency {
  None,        // an error: the file's results are partial
  HostCode,    // in host-only code no kernel depends on: not checked
  NvccAccepts, // device code nvcc accepts: not checked, its uses unmodelled
};

/// How the error `info` counts, read while `ci` parses (the function Sema is
/// in decides host code). Device code nvcc accepts: a __shared__ variable of
/// a class with a non-empty default constructor, written without an
/// initializer (nvcc warns); an asm `%` that is no operand (nvcc hands it to
/// ptxas); a member template of a dependent type called without the
/// `template` keyword (`vec<T>::cast<N>(...)`: Clang says so, or reads `<` as
/// less-than and finds an overload set); and `x = {}` on a class with several
/// assignment operators (cuda_fp16's __half2: Clang finds the copy, move and
/// raw overloads equally good, nvcc's front end picks one). Host code: a
/// semantic error (names, types, overloads: where Clang's CUDA mode and gcc
/// part; not a syntax error nor a missing header, which nvcc gives too)
/// inside a function that is host only (not __device__, __global__,
/// __host__ __device__, nor constexpr, which device code may call). An error
/// outside any function (a declaration, a type a kernel may use) stays an
/// error.
Leniency lenient(clang::DiagnosticsEngine::Level level,
                 const clang::Diagnostic &info,
                 const clang::CompilerInstance &ci);

/// The words a not-failing error is shown with: "host code not checked" or
/// "not checked (nvcc accepts it)".
const char *leniencyLabel(Leniency l);

} // namespace warplint
