// Every nvcc option of CUDA 13 and its effect on a device-side parse.
#include "frontend/project/NvccOptions.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

#include <algorithm>
#include <map>

namespace warplint {

using E = NvccEffect;

const std::vector<NvccOption> &nvccOptions() {
  // Generated from `nvcc --help` (CUDA 13.0), effects assigned by hand. Modes,
  // code generation, linking, output, diagnostics numbering and host-side
  // settings do not change how device code parses: Drop.
  static const std::vector<NvccOption> table = {
    {"--cuda", "-cuda", false, E::Drop},
    {"--cubin", "-cubin", false, E::Drop},
    {"--fatbin", "-fatbin", false, E::Drop},
    {"--ptx", "-ptx", false, E::Drop},
    {"--optix-ir", "-optix-ir", false, E::Drop},
    {"--ltoir", "-ltoir", false, E::Drop},
    {"--preprocess", "-E", false, E::Drop},
    {"--generate-dependencies", "-M", false, E::Drop},
    {"--generate-nonsystem-dependencies", "-MM", false, E::Drop},
    {"--generate-dependencies-with-compile", "-MD", false, E::Drop},
    {"--generate-nonsystem-dependencies-with-compile", "-MMD", false, E::Drop},
    {"--dependency-output", "-MF", true, E::Drop},
    {"--generate-dependency-targets", "-MP", false, E::Drop},
    {"--compile", "-c", false, E::Drop},
    {"--device-c", "-dc", false, E::Relocatable},
    {"--device-w", "-dw", false, E::Drop},
    {"--device-link", "-dlink", false, E::Drop},
    {"--link", "-link", false, E::Drop},
    {"--lib", "-lib", false, E::Drop},
    {"--run", "-run", false, E::Drop},
    {"--output-file", "-o", true, E::Drop},
    {"--pre-include", "-include", true, E::PreInclude},
    {"--objdir-as-tempdir", "-objtemp", false, E::Drop},
    {"--library", "-l", true, E::Drop},
    {"--define-macro", "-D", true, E::Define},
    {"--undefine-macro", "-U", true, E::Undefine},
    {"--include-path", "-I", true, E::Include},
    {"--system-include", "-isystem", true, E::SystemInclude},
    {"--library-path", "-L", true, E::Drop},
    {"--output-directory", "-odir", true, E::Drop},
    {"--compiler-bindir", "-ccbin", true, E::Drop},
    {"--allow-unsupported-compiler", "-allow-unsupported-compiler", false, E::Drop},
    {"--archiver-binary", "-arbin", true, E::Drop},
    {"--cudart", "-cudart", true, E::Drop},
    {"--cudadevrt", "-cudadevrt", true, E::Drop},
    {"--libdevice-directory", "-ldir", true, E::Drop},
    {"--target-directory", "-target-dir", true, E::Drop},
    {"--use-local-env", "-use-local-env", false, E::Drop},
    {"--force-cl-env-setup", "-force-cl-env-setup", false, E::Drop},
    {"--profile", "-pg", false, E::Drop},
    {"--debug", "-g", false, E::Drop},
    {"--device-debug", "-G", false, E::DeviceDebug},
    {"--generate-line-info", "-lineinfo", false, E::Drop},
    {"--optimization-info", "-opt-info", true, E::Drop},
    {"--optimize", "-O", true, E::Optimize},
    {"--Ofast-compile", "-Ofc", true, E::Drop},
    {"--dopt", "-dopt", true, E::Drop},
    {"--dlink-time-opt", "-dlto", false, E::Drop},
    {"--lto", "-lto", false, E::Drop},
    {"--gen-opt-lto", "-gen-opt-lto", false, E::Drop},
    {"--ftemplate-backtrace-limit", "-ftemplate-backtrace-limit", true, E::Drop},
    {"--ftemplate-depth", "-ftemplate-depth", true, E::TemplateDepth},
    {"--no-exceptions", "-noeh", false, E::NoExceptions},
    {"--shared", "-shared", false, E::Drop},
    {"--x", "-x", true, E::Language},
    {"--std", "-std", true, E::Std},
    {"--no-host-device-initializer-list", "-nohdinitlist", false, E::Drop},
    {"--no-host-device-move-forward", "-nohdmoveforward", false, E::Drop},
    {"--expt-relaxed-constexpr", "-expt-relaxed-constexpr", false, E::RelaxedConstexpr},
    {"--extended-lambda", "-extended-lambda", false, E::ExtendedLambda},
    {"--expt-extended-lambda", "-expt-extended-lambda", false, E::ExtendedLambda},
    {"--machine", "-m", true, E::Drop},
    {"--m64", "-m64", false, E::Drop},
    {"--compiler-options", "-Xcompiler", true, E::HostOptions},
    {"--linker-options", "-Xlinker", true, E::Drop},
    {"--archive-options", "-Xarchive", true, E::Drop},
    {"--ptxas-options", "-Xptxas", true, E::Drop},
    {"--nvlink-options", "-Xnvlink", true, E::Drop},
    {"--static-global-template-stub", "-static-global-template-stub", true, E::Drop},
    {"--device-entity-has-hidden-visibility", "-device-entity-has-hidden-visibility", true, E::Drop},
    {"--forward-unknown-to-host-compiler", "-forward-unknown-to-host-compiler", false, E::Drop},
    {"--forward-unknown-to-host-linker", "-forward-unknown-to-host-linker", false, E::Drop},
    {"--forward-unknown-opts", "-forward-unknown-opts", false, E::Drop},
    {"--dont-use-profile", "-noprof", false, E::Drop},
    {"--dryrun", "-dryrun", false, E::Drop},
    {"--verbose", "-v", false, E::Drop},
    {"--threads", "-t", true, E::Drop},
    {"--split-compile", "-split-compile", true, E::Drop},
    {"--split-compile-extended", "-split-compile-extended", true, E::Drop},
    {"--fdevice-syntax-only", "-fdevice-syntax-only", false, E::Drop},
    {"--fdevice-time-trace", "-fdevice-time-trace", true, E::Drop},
    {"--keep", "-keep", false, E::Drop},
    {"--keep-dir", "-keep-dir", true, E::Drop},
    {"--save-temps", "-save-temps", false, E::Drop},
    {"--clean-targets", "-clean", false, E::Drop},
    {"--time", "-time", true, E::Drop},
    {"--run-args", "-run-args", true, E::Drop},
    {"--input-drive-prefix", "-idp", true, E::Drop},
    {"--dependency-drive-prefix", "-ddp", true, E::Drop},
    {"--drive-prefix", "-dp", true, E::Drop},
    {"--dependency-target-name", "-MT", true, E::Drop},
    {"--no-align-double", "--no-align-double", false, E::Drop},
    {"--no-device-link", "-nodlink", false, E::Drop},
    {"--gpu-architecture", "-arch", true, E::Arch},
    {"--gpu-code", "-code", true, E::Arch},
    {"--generate-code", "-gencode", true, E::Arch},
    {"--relocatable-device-code", "-rdc", true, E::Relocatable},
    {"--entries", "-e", true, E::Drop},
    {"--maxrregcount", "-maxrregcount", true, E::Drop},
    {"--use_fast_math", "-use_fast_math", false, E::FastMath},
    {"--ftz", "-ftz", true, E::Drop},
    {"--prec-div", "-prec-div", true, E::Drop},
    {"--prec-sqrt", "-prec-sqrt", true, E::Drop},
    {"--fmad", "-fmad", true, E::Drop},
    {"--extra-device-vectorization", "-extra-device-vectorization", false, E::Drop},
    {"--default-stream", "-default-stream", true, E::DefaultStream},
    {"--disable-warnings", "-w", false, E::Drop},
    {"--keep-device-functions", "-keep-device-functions", false, E::Drop},
    {"--source-in-ptx", "-src-in-ptx", false, E::Drop},
    {"--restrict", "-restrict", false, E::Drop},
    {"--Wreorder", "-Wreorder", false, E::Drop},
    {"--Wdefault-stream-launch", "-Wdefault-stream-launch", false, E::Drop},
    {"--Wmissing-launch-bounds", "-Wmissing-launch-bounds", false, E::Drop},
    {"--Wext-lambda-captures-this", "-Wext-lambda-captures-this", false, E::Drop},
    {"--Wno-deprecated-declarations", "-Wno-deprecated-declarations", false, E::Drop},
    {"--Wno-deprecated-gpu-targets", "-Wno-deprecated-gpu-targets", false, E::Drop},
    {"--Werror", "-Werror", true, E::Drop},
    {"--resource-usage", "-res-usage", false, E::Drop},
    {"--extensible-whole-program", "-ewp", false, E::WholeProgram},
    {"--no-compress", "-no-compress", false, E::Drop},
    {"--qpp-config", "-qpp-config", true, E::Drop},
    {"--compile-as-tools-patch", "-astoolspatch", false, E::Drop},
    {"--list-gpu-code", "-code-ls", false, E::Drop},
    {"--list-gpu-arch", "-arch-ls", false, E::Drop},
    {"--display-error-number", "-err-no", false, E::Drop},
    {"--no-display-error-number", "-no-err-no", false, E::Drop},
    {"--diag-error", "-diag-error", true, E::Drop},
    {"--diag-suppress", "-diag-suppress", true, E::Drop},
    {"--diag-warn", "-diag-warn", true, E::Drop},
    {"--host-linker-script", "-hls", true, E::Drop},
    {"--augment-host-linker-script", "-aug-hls", false, E::Drop},
    {"--relocatable-link", "-r", false, E::Drop},
    {"--brief-diagnostics", "-brief-diag", true, E::Drop},
    {"--jump-table-density", "-jtd", true, E::Drop},
    {"--relocatable-ptx", "-reloc-ptx", false, E::Drop},
    {"--device-stack-protector", "-device-stack-protector", true, E::Drop},
    {"--compress-mode", "-compress-mode", true, E::Drop},
    {"--frandom-seed", "-frandom-seed", true, E::Drop},
    {"--sanitize", "-sanitize", true, E::Drop},
    {"--jobserver", "-jobserver", false, E::Drop},
    {"--help", "-h", false, E::Drop},
    {"--version", "-V", false, E::Drop},
    {"--options-file", "-optf", true, E::OptionsFile},
    // Accepted by nvcc though `--help` does not list it: front-end options.
    {"-Xcudafe", "-Xcudafe", true, E::Drop},
  };
  return table;
}

const NvccOption *findNvccOption(const std::string &name) {
  static const std::map<std::string, const NvccOption *> byName = [] {
    std::map<std::string, const NvccOption *> m;
    for (const NvccOption &o : nvccOptions()) {
      m.emplace(o.longName, &o);
      m.emplace(o.shortName, &o);
    }
    return m;
  }();
  auto it = byName.find(name);
  return it == byName.end() ? nullptr : it->second;
}

bool isNvcc(const std::string &argv0) {
  std::string base = llvm::sys::path::filename(argv0).str();
  return base == "nvcc" || base == "nvcc.exe" ||
         llvm::StringRef(base).starts_with("nvcc-");
}

static std::vector<std::string> commaList(const std::string &v) {
  std::vector<std::string> out;
  llvm::SmallVector<llvm::StringRef, 4> parts;
  llvm::StringRef(v).split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef p : parts)
    out.push_back(p.str());
  return out;
}

namespace {
struct Translator {
  const std::string &directory;
  std::vector<std::string> &errors;
  std::vector<std::string> out;
  // The options files being read, outermost first (at most 8 deep): one that
  // names itself again (directly or through others) is an error, not 8
  // levels of copies of itself (which grew exponentially with the times it
  // named itself).
  std::vector<std::string> reading;

  // A comma-separated list, one Clang option per item: `-Dx` (or the item
  // itself, a host flag), or `-isystem x`.
  void eachJoined(const char *flag, const std::string &v) {
    for (const std::string &d : commaList(v))
      out.push_back(flag + d);
  }
  void eachSeparate(const char *flag, const std::string &v) {
    for (const std::string &d : commaList(v)) {
      out.push_back(flag);
      out.push_back(d);
    }
  }

  void apply(const NvccOption &o, const std::string &v) {
    switch (o.effect) {
    case E::Drop:
    case E::Language:
      return;
    case E::Arch:
      // Kept in nvcc's joined spelling for newestArch(), which reads the
      // architecture from it; deviceParseCommand drops it afterwards.
      out.push_back(std::string(o.shortName) + "=" + v);
      return;
    case E::Define:
      return eachJoined("-D", v);
    case E::Undefine:
      return eachJoined("-U", v);
    case E::Include:
      return eachJoined("-I", v);
    case E::SystemInclude:
      return eachSeparate("-isystem", v);
    case E::PreInclude:
      return eachSeparate("-include", v);
    case E::Std:
      out.push_back("-std=" + v);
      return;
    case E::Optimize:
      out.push_back("-O" + v);
      return;
    case E::TemplateDepth:
      out.push_back("-ftemplate-depth=" + v);
      return;
    case E::NoExceptions:
      out.push_back("-fno-exceptions");
      return;
    case E::HostOptions:
      // Each a host compiler flag, but not "--" or "-" (an end of options,
      // standard input), which would change what the device parse reads.
      for (const std::string &d : commaList(v))
        if (d != "--" && d != "-")
          out.push_back(d);
      return;
    case E::ExtendedLambda:
      out.push_back("-D__CUDACC_EXTENDED_LAMBDA__");
      return;
    case E::RelaxedConstexpr:
      out.push_back("-D__CUDACC_RELAXED_CONSTEXPR__");
      return;
    case E::Relocatable:
      // -rdc=true (any case), -rdc true, -dc (no value): a kernel launched
      // from device code parses only with relocatable device code.
      if (!o.takesValue || llvm::StringRef(v).equals_insensitive("true")) {
        out.push_back("-fgpu-rdc");
        out.push_back("-D__CUDACC_RDC__=1");
      }
      return;
    case E::WholeProgram:
      out.push_back("-fgpu-rdc");
      out.push_back("-D__CUDACC_EWP__=1");
      return;
    case E::DeviceDebug:
      out.push_back("-D__CUDACC_DEBUG__=1");
      return;
    case E::FastMath:
      // Clang's spelling of nvcc's approximate float functions; it changes
      // no declaration, only what a call of one costs.
      out.push_back("-fgpu-approx-transcendentals");
      return;
    case E::DefaultStream:
      if (v == "per-thread") {
        out.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
        out.push_back("-D__CUDART_API_PER_THREAD_DEFAULT_STREAM");
      }
      return;
    case E::OptionsFile:
      for (const std::string &f : commaList(v))
        readOptionsFile(f);
      return;
    }
  }

  void readOptionsFile(const std::string &name) {
    llvm::SmallString<256> path(name);
    if (!llvm::sys::path::is_absolute(path))
      llvm::sys::path::make_absolute(directory, path);
    llvm::sys::path::remove_dots(path, true);
    if (reading.size() >= 8) {
      errors.push_back("options file '" + std::string(path) +
                       "' is nested more than 8 deep");
      return;
    }
    if (std::find(reading.begin(), reading.end(), std::string(path)) !=
        reading.end()) {
      errors.push_back("options file '" + std::string(path) +
                       "' includes itself");
      return;
    }
    auto buf = llvm::MemoryBuffer::getFile(path);
    if (!buf) {
      errors.push_back("cannot read options file '" + std::string(path) +
                       "': " + buf.getError().message());
      return;
    }
    // A binary (a program named by mistake) would become thousands of
    // arguments, each a compiler error, minutes of them.
    if ((*buf)->getBuffer().contains('\0')) {
      errors.push_back("options file '" + std::string(path) +
                       "' is not a text file");
      return;
    }
    llvm::BumpPtrAllocator alloc;
    llvm::StringSaver saver(alloc);
    llvm::SmallVector<const char *, 32> tokens;
    llvm::cl::TokenizeGNUCommandLine((*buf)->getBuffer(), saver, tokens);
    std::vector<std::string> args(tokens.begin(), tokens.end());
    reading.push_back(std::string(path));
    run(args, 0);
    reading.pop_back();
  }

  // Options from `args[from]` on; stops after a "--" (kept, with what follows).
  void run(const std::vector<std::string> &args, size_t from) {
    for (size_t i = from; i < args.size(); ++i) {
      const std::string &a = args[i];
      if (a == "--") {
        out.insert(out.end(), args.begin() + i, args.end());
        return;
      }
      if (a.size() < 2 || a[0] != '-') {
        out.push_back(a);
        continue;
      }
      std::string name = a, value;
      bool hasValue = false;
      const NvccOption *o = findNvccOption(name);
      if (!o) {
        size_t eq = a.find('=');
        if (eq != std::string::npos) {
          o = findNvccOption(a.substr(0, eq));
          if (o && o->takesValue) {
            value = a.substr(eq + 1);
            hasValue = true;
          } else {
            o = nullptr;
          }
        }
      }
      if (!o && a.size() > 2) {
        // -DX, -I/path, -O3, -lm, -L/lib, -ofile: a one-letter option with
        // its value joined.
        static const char joined[] = "DUILlOo";
        if (std::string(joined).find(a[1]) != std::string::npos) {
          o = findNvccOption(a.substr(0, 2));
          value = a.substr(2);
          hasValue = true;
        }
      }
      if (!o) {
        out.push_back(a); // a host flag nvcc forwards, or a clang one
        continue;
      }
      if (o->takesValue && !hasValue) {
        if (i + 1 >= args.size())
          continue; // a value-taking option at the end: nothing to apply
        value = args[++i];
      }
      apply(*o, value);
    }
  }
};
} // namespace

std::vector<std::string> translateNvccOptions(const std::vector<std::string> &cmd,
                                              const std::string &directory,
                                              std::vector<std::string> &errors) {
  Translator t{directory, errors, {}, {}};
  if (cmd.empty())
    return {};
  t.out.push_back(cmd[0]);
  t.run(cmd, 1);
  return t.out;
}

} // namespace warplint
