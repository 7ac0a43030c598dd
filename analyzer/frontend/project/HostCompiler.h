//===- HostCompiler.h - the host compiler nvcc would use, asked once -*- C++ -*-===//
//
// nvcc hands host code to a host compiler (`-ccbin`, else g++), whose own
// headers (omp.h, the x86 intrinsics) Clang does not ship. As clangd's
// --query-driver, warplint asks that compiler once for its search list
// (`-E -x c++ -v /dev/null`) and puts its private include directory after
// Clang's own (-idirafter), so `#include <omp.h>` finds gcc's.
//
// A compile database is data (docs/security.md): the compiler is run only
// when it is a plain compiler name found on PATH (g++, gcc-12,
// x86_64-linux-gnu-g++-12, clang++-22, ...) or a path the user allows with
// --query-driver. No Clang here: plain process and string work.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_HOSTCOMPILER_H
#define WARPLINT_FRONTEND_HOSTCOMPILER_H

#include <string>
#include <vector>

namespace warplint {

/// The host compiler an nvcc command names with `-ccbin`/`--compiler-bindir`
/// (a directory stands for its g++), or "" when it names none.
std::string namedHostCompiler(const std::vector<std::string> &cmd);

/// The directories in `searchList` (a compiler's `#include <...>` list) that
/// are the compiler's own: gcc's `<prefix>/lib/gcc/<triple>/<version>/include`.
std::vector<std::string>
privateIncludeDirs(const std::vector<std::string> &searchList);

/// The `#include <...>` search list in the output of `cc -E -v`.
std::vector<std::string> parseSearchList(const std::string &verboseOutput);

/// True when `compiler` may be run: a plain compiler name (no directory), or
/// a path matching one of `allowed` (globs, as clangd's --query-driver).
bool mayQuery(const std::string &compiler,
              const std::vector<std::string> &allowed);

struct HostIncludes {
  std::vector<std::string> dirs; // to add with -idirafter
  std::string note;              // why there are none ("" when fine)
};

/// `compiler`'s private include directories, asked once per compiler (the
/// answer is cached for the process; safe from several threads).
const HostIncludes &hostIncludes(const std::string &compiler,
                                 const std::vector<std::string> &allowed);

} // namespace warplint

#endif
