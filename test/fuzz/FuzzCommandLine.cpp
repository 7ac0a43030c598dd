//===- FuzzCommandLine.cpp - compile commands into device-parse commands --===//
//
// The input holds up to three parts separated by NUL bytes:
//   1. the words of a compile command, one per line (argv[0] first);
//   2. the text of an options file, written as opts.rsp in a scratch
//      directory (reachable as `--options-file opts.rsp` or `@opts.rsp`);
//   3. the text of a compile_commands.json, written in the same directory.
// "%D" anywhere stands for the scratch directory's path. Inputs that name
// anything under /dev, /proc or /sys are skipped.
//
// The command goes through the nvcc option table (translateNvccOptions),
// through deviceParseCommand as an nvcc and as a clang command, and through
// the tool's own per-file path (parseCommand) as the arguments after "--" and
// as --extra-arg; the database is loaded as `-p` loads it, and every file it
// names, a file next to them and a header get their parse command (exact or
// inferred entries). Besides crashes and sanitizer reports, the properties
// every device-parse command has are checked: clang++, CUDA, device only,
// syntax only, one GPU architecture, and the file last in parseCommand's.
//
//===----------------------------------------------------------------------===//
#include "frontend/analysis/Action.h"
#include "frontend/project/CommandLine.h"
#include "frontend/project/NvccOptions.h"
#include "frontend/project/ProjectDatabase.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace {

std::string Dir; // the scratch directory

void fail(const std::string &what, const std::vector<std::string> &cmd) {
  std::fprintf(stderr, "%s:", what.c_str());
  for (const std::string &a : cmd)
    std::fprintf(stderr, " '%s'", a.c_str());
  std::fprintf(stderr, "\n");
  abort();
}

std::string expand(std::string s) {
  for (size_t at = 0; (at = s.find("%D", at)) != std::string::npos;
       at += Dir.size())
    s.replace(at, 2, Dir);
  return s;
}

void write(const std::string &name, const std::string &text) {
  std::ofstream(Dir + "/" + name, std::ios::binary | std::ios::trunc) << text;
}

warplint::CudaSetup setup() {
  warplint::CudaSetup s;
  s.resourceDir = "/resource";
  s.stubDir = "/stub";
  return s;
}

/// What every command deviceParseCommand returns has, up to its "--".
void checkDeviceCommand(const std::vector<std::string> &out) {
  if (out.size() < 3 || out[0] != "clang++" || out[1] != "-x" ||
      out[2] != "cuda")
    fail("device-parse command does not start with clang++ -x cuda", out);
  auto end = std::find(out.begin(), out.end(), "--");
  for (const char *need : {"--cuda-device-only", "-fsyntax-only"})
    if (std::find(out.begin(), end, need) == end)
      fail(std::string("device-parse command lacks ") + need, out);
  if (std::count_if(out.begin(), end, [](const std::string &a) {
        return a.rfind("--cuda-gpu-arch=sm_", 0) == 0;
      }) != 1)
    fail("device-parse command does not name exactly one architecture", out);
}

/// The command ends with its file: absolute, or as the command line gave it
/// (relative to the parse's directory, the current one).
void checkParseCommand(const warplint::ParseCommand &pc) {
  if (pc.argv.empty() || (pc.argv.back() != pc.file &&
                          (pc.dir != "." ||
                           warplint::absolutePath(pc.argv.back()) != pc.file)))
    fail("parse command does not end with its file " + pc.file, pc.argv);
  std::vector<std::string> head(pc.argv.begin(), pc.argv.end() - 1);
  checkDeviceCommand(head);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  char tmpl[] = "/tmp/warplint-fuzz-cmd-XXXXXX";
  if (!mkdtemp(tmpl)) {
    std::perror("mkdtemp");
    abort();
  }
  Dir = tmpl;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (Dir.empty())
    LLVMFuzzerInitialize(nullptr, nullptr);
  std::string text(reinterpret_cast<const char *>(data), size);
  // Device files and the like are not options files to read (/dev/zero
  // never ends, /dev/stdin waits): left out, however the path is spelled.
  for (const char *dir : {"dev/", "proc/", "sys/"})
    if (text.find(dir) != std::string::npos)
      return -1;
  std::vector<std::string> parts{""};
  for (char c : text) {
    if (c == '\0' && parts.size() < 3)
      parts.emplace_back();
    else
      parts.back() += c;
  }
  parts.resize(3);
  std::vector<std::string> words;
  {
    std::string w;
    for (char c : expand(parts[0]) + "\n") {
      if (c == '\n') {
        words.push_back(w);
        w.clear();
      } else {
        w += c;
      }
    }
  }
  if (words.size() > 64)
    words.resize(64);
  write("opts.rsp", expand(parts[1]));
  write("compile_commands.json", expand(parts[2]));

  warplint::CudaSetup cuda = setup();
  std::vector<std::string> errors;

  // The command as written, and as nvcc's and clang's.
  checkDeviceCommand(warplint::deviceParseCommand(words, cuda, Dir, &errors));
  for (const char *argv0 : {"nvcc", "clang++"}) {
    std::vector<std::string> cmd = words;
    if (cmd.empty())
      cmd.push_back(argv0);
    else
      cmd[0] = argv0;
    checkDeviceCommand(warplint::deviceParseCommand(cmd, cuda, Dir, &errors));
    std::vector<std::string> t =
        warplint::translateNvccOptions(cmd, Dir, errors);
    if (t.empty() || t[0] != cmd[0])
      fail("translated command lost its argv[0]", t);
  }
  warplint::newestArch(words);
  for (const std::string &w : words) {
    warplint::findNvccOption(w);
    warplint::isNvcc(w);
    std::string abs = warplint::absolutePath(w);
    if (abs.empty() || abs[0] != '/')
      fail("absolutePath is not absolute", {w, abs});
  }

  // The tool's own path for one file: arguments after "--", --extra-arg.
  warplint::ToolOptions opts;
  opts.cuda = cuda;
  std::vector<std::string> args(words.begin() + (words.empty() ? 0 : 1),
                                words.end());
  opts.fixedArgs = args;
  checkParseCommand(warplint::parseCommand(Dir + "/a.cu", opts, nullptr));
  opts.fixedArgs.reset();
  opts.extraArgs = args;
  checkParseCommand(warplint::parseCommand("a.cu", opts, nullptr));
  opts.extraArgs.clear();

  // The compile database, as -p loads it.
  std::string error;
  auto db = warplint::loadProjectDatabase(Dir, error);
  if (!db)
    return 0;
  std::vector<std::string> files = db->getAllFiles();
  if (files.size() > 16)
    files.resize(16);
  files.push_back(Dir + "/other.cu");
  files.push_back(Dir + "/include/kernels.cuh");
  for (const std::string &f : files)
    checkParseCommand(warplint::parseCommand(f, opts, db.get()));
  for (const clang::tooling::CompileCommand &c : db->getAllCompileCommands())
    if (!c.CommandLine.empty())
      checkDeviceCommand(
          warplint::deviceParseCommand(c.CommandLine, cuda, c.Directory));
  return 0;
}
