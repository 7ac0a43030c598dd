//===- CommandLine.h - compile commands for a device-side parse -*- C++ -*-===//
//
// Users' compile databases come from nvcc (CMake's CUDA language) or clang.
// clang rejects most nvcc flags, so each command is rewritten into one that
// parses the file for the device, once, with the CUDA toolkit or with the
// bundled minimal header. No Clang headers here: the rewriting is plain
// string work and is unit-tested on its own.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_COMMANDLINE_H
#define WARPLINT_FRONTEND_COMMANDLINE_H

#include <string>
#include <vector>

namespace warplint {

struct CudaSetup {
  std::string arch;        // "sm_90"; empty: newest in the command, else sm_90
  std::string cudaPath;    // toolkit root; empty: bundled header
  std::string resourceDir; // clang's resource dir (CUDA wrapper headers)
  std::string stubDir;     // analyzer/include-stub
};

/// Rewrites `cmd` (argv[0] first, the source file somewhere in it) into a
/// clang command for a device-only syntax-only CUDA parse. An nvcc command's
/// options go through the nvcc option table (NvccOptions.h), options files
/// read relative to `directory`; what cannot be read is added to `errors`.
/// warplint's own flags always come before a "--" and the inputs after it.
std::vector<std::string> deviceParseCommand(const std::vector<std::string> &cmd,
                                            const CudaSetup &setup,
                                            const std::string &directory = ".",
                                            std::vector<std::string> *errors = nullptr);

/// Newest sm_NN named by nvcc or clang architecture flags, or "".
std::string newestArch(const std::vector<std::string> &cmd);

/// `path` made absolute (against the working directory) and without "." or
/// ".." components: how a run names its files.
std::string absolutePath(const std::string &path);

/// The toolkit root to use: `requested` if given ("" with noToolkit), else
/// /usr/local/cuda when it has include/cuda_runtime.h.
std::string findCudaPath(const std::string &requested, bool noToolkit);

} // namespace warplint

#endif
