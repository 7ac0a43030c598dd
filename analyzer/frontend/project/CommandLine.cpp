#include "frontend/project/CommandLine.h"

#include "frontend/project/NvccOptions.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>

namespace warplint {

static bool startsWith(const std::string &s, const std::string &p) {
  return s.compare(0, p.size(), p) == 0;
}

static std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

// Every number following "sm_" or "compute_" in s that could name an
// architecture (at most four digits: `compute_8099999999` names none, and
// converting it would overflow).
static void archNumbers(const std::string &s, std::vector<int> &out) {
  for (const char *p : {"sm_", "compute_"}) {
    size_t pos = 0;
    while ((pos = s.find(p, pos)) != std::string::npos) {
      pos += std::char_traits<char>::length(p);
      size_t end = pos;
      while (end < s.size() && isdigit((unsigned char)s[end]))
        ++end;
      int n = 0;
      if (end > pos && end - pos <= 4 &&
          !llvm::StringRef(s).substr(pos, end - pos).getAsInteger(10, n))
        out.push_back(n);
    }
  }
}

std::string absolutePath(const std::string &path) {
  llvm::SmallString<256> p(path);
  llvm::sys::fs::make_absolute(p);
  llvm::sys::path::remove_dots(p, true);
  return std::string(p);
}

std::string newestArch(const std::vector<std::string> &cmd) {
  std::vector<int> nums;
  for (size_t i = 0; i < cmd.size(); ++i) {
    const std::string &a = cmd[i];
    bool joined = startsWith(a, "-arch=") || startsWith(a, "-gencode=") ||
                  startsWith(a, "--generate-code=") ||
                  startsWith(a, "--gpu-architecture=") ||
                  startsWith(a, "--cuda-gpu-arch=") ||
                  startsWith(a, "--offload-arch=") || startsWith(a, "-code=");
    bool separate = a == "-arch" || a == "-gencode" || a == "--generate-code" ||
                    a == "--gpu-architecture" || a == "-code";
    if (joined)
      archNumbers(a, nums);
    else if (separate && i + 1 < cmd.size())
      archNumbers(cmd[i + 1], nums);
  }
  if (nums.empty())
    return "";
  return "sm_" + std::to_string(*std::max_element(nums.begin(), nums.end()));
}

// nvcc flags with no clang meaning; the second list takes a separate value.
static const char *const DropFlags[] = {
    "-forward-unknown-to-host-compiler", "--forward-unknown-to-host-compiler",
    "-rdc=true", "-rdc=false", "--relocatable-device-code=true",
    "--relocatable-device-code=false", "-dc", "--device-c", "-dw", "-lineinfo",
    "--generate-line-info", "-G", "--device-debug", "--use_fast_math",
    "-use_fast_math", "--keep", "-keep", "--resource-usage",
    "-Wno-deprecated-gpu-targets", "--Wno-deprecated-gpu-targets",
    "--cuda-device-only", "--cuda-host-only", "-fsyntax-only", "-w",
    "--extended-lambda", "--expt-extended-lambda", "-extended-lambda",
    "--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "-Werror",
    "-nocudainc", "-nocudalib"};
static const char *const DropWithValue[] = {
    "-Xptxas", "-Xnvlink", "-Xfatbin", "-ccbin", "--compiler-bindir",
    "-arch", "-gencode", "--generate-code", "--gpu-architecture", "-code",
    "-cudart", "--cudart", "-t", "--threads", "-maxrregcount",
    "--maxrregcount", "--options-file", "-diag-suppress", "--diag-suppress",
    "-Xarch_device", "--default-stream"};
static const char *const DropJoinedPrefixes[] = {
    "-arch=", "-gencode=", "--generate-code=", "--gpu-architecture=", "-code=",
    "-Xptxas=", "--ptxas-options=", "-Xnvlink=", "-ccbin=",
    "--compiler-bindir=", "-cudart=", "--cudart=", "-maxrregcount=",
    "--maxrregcount=", "--cuda-gpu-arch=", "--offload-arch=", "--cuda-path=",
    "-resource-dir=", "--diag-suppress=", "--diag_suppress=", "-Werror=",
    "--threads=", "--default-stream=", "--Werror="};

template <size_t N>
static bool inList(const std::string &a, const char *const (&list)[N]) {
  return std::find_if(list, list + N, [&](const char *s) { return a == s; }) !=
         list + N;
}

std::vector<std::string> deviceParseCommand(const std::vector<std::string> &in,
                                            const CudaSetup &setup,
                                            const std::string &directory,
                                            std::vector<std::string> *errors) {
  std::vector<std::string> ignored;
  const std::vector<std::string> cmd =
      !in.empty() && isNvcc(in[0])
          ? translateNvccOptions(in, directory, errors ? *errors : ignored)
          : in;
  std::vector<std::string> out{"clang++"};
  std::string arch = setup.arch.empty() ? newestArch(cmd) : setup.arch;
  if (arch.empty())
    arch = "sm_90";
  bool extendedLambda = false, relaxedConstexpr = false;
  // What follows a "--" is inputs only: warplint's flags go before it.
  std::vector<std::string> inputs;
  for (size_t i = 1; i < cmd.size(); ++i) {
    const std::string &a = cmd[i];
    if (a == "--") {
      inputs.assign(cmd.begin() + i, cmd.end());
      break;
    }
    auto value = [&](std::string &v) {
      if (i + 1 < cmd.size())
        v = cmd[++i];
    };
    if (a == "--extended-lambda" || a == "--expt-extended-lambda" ||
        a == "-extended-lambda")
      extendedLambda = true;
    if (a == "--expt-relaxed-constexpr" || a == "-expt-relaxed-constexpr")
      relaxedConstexpr = true;
    // Relocatable device code in nvcc's spellings where the command is not
    // nvcc's (flags after "--", --extra-arg): Clang's -fgpu-rdc, as the
    // nvcc option table makes of them.
    if (a == "-rdc=true" || a == "--relocatable-device-code=true" ||
        a == "-dc" || a == "--device-c") {
      out.push_back("-fgpu-rdc");
      out.push_back("-D__CUDACC_RDC__=1");
      continue;
    }
    if (inList(a, DropFlags))
      continue;
    if (inList(a, DropWithValue)) {
      std::string ignored;
      value(ignored);
      continue;
    }
    if (std::any_of(std::begin(DropJoinedPrefixes), std::end(DropJoinedPrefixes),
                    [&](const char *p) { return startsWith(a, p); }))
      continue;
    if (a == "-x") { // the language is set below
      std::string ignored;
      value(ignored);
      continue;
    }
    if (startsWith(a, "-x") && a.size() > 2)
      continue;
    // Host flags are passed on, but not those dropped from the command
    // itself (-Werror, -w, a second --cuda-gpu-arch=, ...), nor "--" (which
    // would make warplint's own flags after it inputs) and "-" (standard
    // input as a source file).
    auto hostFlags = [&](const std::string &v) {
      for (const std::string &part : split(v, ','))
        if (!part.empty() && part != "--" && part != "-" &&
            !inList(part, DropFlags) &&
            std::none_of(std::begin(DropJoinedPrefixes),
                         std::end(DropJoinedPrefixes),
                         [&](const char *p) { return startsWith(part, p); }))
          out.push_back(part);
    };
    if (a == "-Xcompiler" || a == "--compiler-options") {
      std::string v;
      value(v);
      hostFlags(v);
      continue;
    }
    if (startsWith(a, "-Xcompiler=") || startsWith(a, "--compiler-options=")) {
      hostFlags(a.substr(a.find('=') + 1));
      continue;
    }
    if (startsWith(a, "--std=") || a == "--std") {
      std::string v = a == "--std" ? "" : a.substr(6);
      if (v.empty())
        value(v);
      out.push_back("-std=" + v);
      continue;
    }
    if (a == "-std" && i + 1 < cmd.size()) {
      out.push_back("-std=" + cmd[++i]);
      continue;
    }
    if (startsWith(a, "--include-path=")) {
      out.push_back("-I" + a.substr(15));
      continue;
    }
    if (startsWith(a, "--define-macro=")) {
      out.push_back("-D" + a.substr(15));
      continue;
    }
    if (startsWith(a, "--system-include=")) {
      out.push_back("-isystem" + a.substr(17));
      continue;
    }
    out.push_back(a);
  }
  // -x applies to the inputs after it, so it goes first.
  out.insert(out.begin() + 1, {"-x", "cuda"});
  out.push_back("--cuda-device-only");
  out.push_back("--cuda-gpu-arch=" + arch);
  out.push_back("-fsyntax-only");
  out.push_back("-Wno-unknown-cuda-version");
  // nvcc's front end accepts `register` in C++17 code with a warning; Clang
  // makes it an error by default.
  out.push_back("-Wno-register");
  if (!setup.resourceDir.empty())
    out.push_back("-resource-dir=" + setup.resourceDir);
  if (!setup.cudaPath.empty()) {
    out.push_back("--cuda-path=" + setup.cudaPath);
    // CUDA 13 keeps the CCCL headers (cuda/std, cub, thrust) where only nvcc
    // looks by itself.
    out.push_back("-isystem");
    out.push_back(setup.cudaPath + "/include/cccl");
  } else {
    out.push_back("-nocudainc");
    out.push_back("-nocudalib");
    out.push_back("-isystem");
    out.push_back(setup.stubDir + "/cuda_stub_sys");
    out.push_back("-include");
    out.push_back(setup.stubDir + "/warplint_cuda.h");
  }
  // What nvcc declares by itself and Clang does not (the __nv_atomic_*
  // builtins, some cache-hinted loads and stores).
  out.push_back("-include");
  out.push_back(setup.stubDir + "/warplint_nvcc_builtins.h");
  if (extendedLambda)
    out.push_back("-D__CUDACC_EXTENDED_LAMBDA__");
  if (relaxedConstexpr)
    out.push_back("-D__CUDACC_RELAXED_CONSTEXPR__");
  out.insert(out.end(), inputs.begin(), inputs.end());
  return out;
}

static bool isFile(const std::string &p) {
  struct stat st;
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string findCudaPath(const std::string &requested, bool noToolkit) {
  if (noToolkit)
    return "";
  if (!requested.empty())
    return isFile(requested + "/include/cuda_runtime.h") ? requested : "";
  const char *env = getenv("CUDA_PATH");
  if (env && *env && isFile(std::string(env) + "/include/cuda_runtime.h"))
    return env;
  if (isFile("/usr/local/cuda/include/cuda_runtime.h"))
    return "/usr/local/cuda";
  return "";
}

} // namespace warplint
