// Rewriting users' nvcc and clang compile commands for a device-side parse.
#include "frontend/project/CommandLine.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace warplint {
namespace {

bool has(const std::vector<std::string> &v, const std::string &s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

CudaSetup toolkit() { return {"", "/usr/local/cuda", "/res", "/stub"}; }

TEST(CommandLine, CMakeNvccCommand) {
  // What CMake writes for a CUDA target built with nvcc.
  std::vector<std::string> cmd = {
      "/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler",
      "-DUSE_FAST=1", "-I/src/include", "-O3",
      "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
      "-gencode", "arch=compute_90,code=sm_90", "-Xcompiler=-fPIC,-Wall",
      "-Xptxas", "-v", "-lineinfo", "--expt-relaxed-constexpr",
      "--extended-lambda", "-rdc=true", "-ccbin", "/usr/bin/g++", "-x", "cu",
      "-c", "/src/k.cu", "-o", "k.o"};
  auto out = deviceParseCommand(cmd, toolkit());
  EXPECT_EQ(out[0], "clang++");
  EXPECT_EQ(out[1], "-x");
  EXPECT_EQ(out[2], "cuda");
  for (const char *kept : {"-DUSE_FAST=1", "-I/src/include", "-O3", "-fPIC",
                           "-Wall", "/src/k.cu", "--cuda-device-only",
                           "--cuda-gpu-arch=sm_90", "-fsyntax-only",
                           "--cuda-path=/usr/local/cuda", "/usr/local/cuda/include/cccl",
                           "-resource-dir=/res", "-D__CUDACC_EXTENDED_LAMBDA__",
                           "-D__CUDACC_RELAXED_CONSTEXPR__"})
    EXPECT_TRUE(has(out, kept)) << kept;
  for (const char *dropped :
       {"-forward-unknown-to-host-compiler", "-lineinfo", "-rdc=true", "-v",
        "-ccbin", "/usr/bin/g++", "cu", "-Xptxas", "--extended-lambda"})
    EXPECT_FALSE(has(out, dropped)) << dropped;
}

TEST(CommandLine, NvccModesThatChangeWhatParses) {
  // Relocatable device code, in each of nvcc's spellings (a kernel launched
  // from device code needs it), and -ewp: Clang's -fgpu-rdc and nvcc's
  // macro; -rdc=false and no option: neither.
  struct Row {
    std::vector<std::string> flags;
    bool rdc;
    const char *macro;
  } rows[] = {
      {{"-rdc=true"}, true, "-D__CUDACC_RDC__=1"},
      {{"-rdc", "true"}, true, "-D__CUDACC_RDC__=1"},
      {{"--relocatable-device-code=true"}, true, "-D__CUDACC_RDC__=1"},
      {{"--relocatable-device-code", "TRUE"}, true, "-D__CUDACC_RDC__=1"},
      {{"-dc"}, true, "-D__CUDACC_RDC__=1"},
      {{"--device-c"}, true, "-D__CUDACC_RDC__=1"},
      {{"-ewp"}, true, "-D__CUDACC_EWP__=1"},
      {{"-rdc=false"}, false, nullptr},
      {{"-c"}, false, nullptr},
      {{"-G"}, false, "-D__CUDACC_DEBUG__=1"},
      {{"-default-stream", "per-thread"}, false,
       "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"},
      {{"--default-stream=legacy"}, false, nullptr},
      {{"-allow-unsupported-compiler"}, false, nullptr},
  };
  for (const Row &r : rows) {
    std::vector<std::string> cmd{"nvcc"};
    cmd.insert(cmd.end(), r.flags.begin(), r.flags.end());
    cmd.push_back("k.cu");
    auto out = deviceParseCommand(cmd, toolkit());
    EXPECT_EQ(has(out, "-fgpu-rdc"), r.rdc) << r.flags[0];
    if (r.macro)
      EXPECT_TRUE(has(out, r.macro)) << r.flags[0];
    EXPECT_FALSE(has(out, r.flags[0])) << r.flags[0];
  }
  // nvcc's spellings after "--" (a clang command) mean the same.
  EXPECT_TRUE(has(deviceParseCommand({"clang++", "-rdc=true", "k.cu"}, toolkit()),
                  "-fgpu-rdc"));
  EXPECT_TRUE(has(deviceParseCommand({"clang++", "-fgpu-rdc", "k.cu"}, toolkit()),
                  "-fgpu-rdc"));
}

TEST(CommandLine, ArchChoice) {
  struct Row {
    std::vector<std::string> cmd;
    std::string arch;
  } rows[] = {
      {{"nvcc", "-arch=sm_80"}, "sm_80"},
      {{"nvcc", "-arch", "sm_75", "-gencode=arch=compute_86,code=sm_86"}, "sm_86"},
      {{"clang++", "--cuda-gpu-arch=sm_70", "--cuda-gpu-arch=sm_90"}, "sm_90"},
      {{"clang++", "--offload-arch=sm_89"}, "sm_89"},
      {{"g++", "-O2"}, ""},
      // A number no architecture has (found by fuzz_command_line: its
      // conversion threw and aborted): left out, the others still count.
      {{"nvcc", "-gencode", "arch=compute_80999999999999999999,code=sm_80"},
       "sm_80"},
      {{"nvcc", "-arch=sm_99999999999"}, ""},
  };
  for (const Row &r : rows)
    EXPECT_EQ(newestArch(r.cmd), r.arch);
  auto out = deviceParseCommand({"nvcc", "-arch=sm_80"}, toolkit());
  EXPECT_TRUE(has(out, "--cuda-gpu-arch=sm_80"));
  CudaSetup forced = toolkit();
  forced.arch = "sm_100";
  out = deviceParseCommand({"nvcc", "-arch=sm_80"}, forced);
  EXPECT_TRUE(has(out, "--cuda-gpu-arch=sm_100"));
  EXPECT_FALSE(has(out, "--cuda-gpu-arch=sm_80"));
}

TEST(CommandLine, BundledHeaderMode) {
  CudaSetup s{"", "", "/res", "/stub"};
  auto out = deviceParseCommand({"clang++", "k.cu"}, s);
  for (const char *flag : {"-nocudainc", "-nocudalib", "/stub/warplint_cuda.h",
                           "/stub/cuda_stub_sys"})
    EXPECT_TRUE(has(out, flag)) << flag;
  EXPECT_FALSE(has(out, "--cuda-path=/usr/local/cuda"));
}

TEST(CommandLine, NvccBuiltinsDeclaredInBothModes) {
  CudaSetup bundled{"", "", "/res", "/stub"};
  for (const CudaSetup &s : {bundled, toolkit()})
    EXPECT_TRUE(has(deviceParseCommand({"clang++", "k.cu"}, s),
                    "/stub/warplint_nvcc_builtins.h"));
}

TEST(CommandLine, UserFlagsThatWouldHideFindings) {
  auto out = deviceParseCommand(
      {"clang++", "-Werror", "-w", "-Xcompiler", "-Werror", "--cuda-host-only",
       "--std", "c++20", "k.cu"},
      toolkit());
  EXPECT_FALSE(has(out, "-Werror"));
  EXPECT_FALSE(has(out, "-w"));
  EXPECT_FALSE(has(out, "--cuda-host-only"));
  EXPECT_TRUE(has(out, "-std=c++20"));
}

// Found by fuzzing (test/fuzz/regressions/fuzz_command_line): host flags
// passed with -Xcompiler are filtered as the command's own are, so they
// cannot add a second GPU architecture or undo the device-only parse.
TEST(CommandLine, HostFlagsAreFilteredLikeTheCommand) {
  auto out = deviceParseCommand(
      {"clang++", "-Xcompiler", "--cuda-gpu-arch=sm_75,-fPIC,--cuda-host-only",
       "--compiler-options=--offload-arch=sm_70,-Werror", "k.cu"},
      toolkit());
  EXPECT_EQ(std::count_if(out.begin(), out.end(),
                          [](const std::string &a) {
                            return a.rfind("--cuda-gpu-arch=", 0) == 0 ||
                                   a.rfind("--offload-arch=", 0) == 0;
                          }),
            1);
  EXPECT_TRUE(has(out, "-fPIC"));
  EXPECT_FALSE(has(out, "--cuda-host-only"));
  EXPECT_FALSE(has(out, "-Werror"));
}

// Found by fuzzing too: a host flag "--" ended the options before
// warplint's own (`--cuda-device-only` became a file name), and "-" would
// read standard input as a source file. Neither reaches the device parse,
// through Clang's spelling or nvcc's.
TEST(CommandLine, HostFlagsCannotEndTheOptions) {
  for (std::vector<std::string> cmd :
       {std::vector<std::string>{"clang++", "-Xcompiler=--,-fPIC", "k.cu"},
        {"clang++", "-Xcompiler", "-", "k.cu"},
        {"nvcc", "-Xcompiler=--,-fPIC", "k.cu"},
        {"nvcc", "--compiler-options", "-", "k.cu"}}) {
    auto out = deviceParseCommand(cmd, toolkit());
    EXPECT_FALSE(has(out, "--")) << cmd[1];
    EXPECT_FALSE(has(out, "-")) << cmd[1];
    EXPECT_TRUE(has(out, "--cuda-device-only")) << cmd[1];
  }
}

} // namespace
} // namespace warplint
