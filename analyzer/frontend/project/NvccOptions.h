//===- NvccOptions.h - every nvcc option and what a device parse does with it -===//
//
// One row per option of CUDA 13's `nvcc --help`: its long and short
// spellings, whether it takes a value, and its effect on a Clang device-side
// syntax-only parse: a Clang equivalent (-D, -I, -std=, ...), a macro nvcc
// defines for it, or dropped on purpose (code generation, linking, output).
// test/support/nvcc13-options.txt lists the options of `nvcc --help`; a test
// checks that every one has a row and that no spelling leaks into Clang.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_NVCCOPTIONS_H
#define WARPLINT_FRONTEND_NVCCOPTIONS_H

#include <string>
#include <vector>

namespace warplint {

enum class NvccEffect {
  Drop,             // no effect on parsing device code (value dropped too)
  Define,           // -D, a comma-separated list
  Undefine,         // -U
  Include,          // -I
  SystemInclude,    // -isystem
  PreInclude,       // -include
  Std,              // -std=
  Optimize,         // -O<level>
  TemplateDepth,    // -ftemplate-depth=
  NoExceptions,     // -fno-exceptions
  HostOptions,      // -Xcompiler: host compiler flags, passed on
  OptionsFile,      // --options-file: more options, read from files
  Language,         // -x: warplint parses as CUDA anyway
  ExtendedLambda,   // defines __CUDACC_EXTENDED_LAMBDA__
  RelaxedConstexpr, // defines __CUDACC_RELAXED_CONSTEXPR__
  Arch,             // -arch/-code/-gencode: read for the device architecture
  Relocatable,      // -rdc=true, -dc: -fgpu-rdc and __CUDACC_RDC__
  WholeProgram,     // -ewp: -fgpu-rdc (device launches) and __CUDACC_EWP__
  DeviceDebug,      // -G: defines __CUDACC_DEBUG__
  DefaultStream,    // -default-stream per-thread: its macro
  FastMath,         // -use_fast_math: -fgpu-approx-transcendentals (the work
                    // estimate's costs of math calls and divisions)
};

struct NvccOption {
  const char *longName;  // "--define-macro"
  const char *shortName; // "-D"
  bool takesValue;
  NvccEffect effect;
};

/// The table, in `nvcc --help` order.
const std::vector<NvccOption> &nvccOptions();

/// The option spelled `name` (long or short, without any "=value").
const NvccOption *findNvccOption(const std::string &name);

/// Rewrites the options of an nvcc command (argv[0] first) into Clang
/// spellings; inputs and options nvcc does not know (host flags it forwards)
/// are kept as they are, in order. Options files named by --options-file are
/// read relative to `directory` and their options rewritten in place; a file
/// that cannot be read is reported in `errors`.
std::vector<std::string> translateNvccOptions(const std::vector<std::string> &cmd,
                                              const std::string &directory,
                                              std::vector<std::string> &errors);

/// True when argv[0] names nvcc.
bool isNvcc(const std::string &argv0);

} // namespace warplint

#endif
