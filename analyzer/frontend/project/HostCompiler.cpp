// The host compiler's own include directories, asked once per compiler.
#include "frontend/project/HostCompiler.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Regex.h"

#include <map>
#include <memory>
#include <mutex>

namespace warplint {

std::string namedHostCompiler(const std::vector<std::string> &cmd) {
  std::string named;
  for (size_t i = 1; i < cmd.size(); ++i) {
    llvm::StringRef a = cmd[i];
    if (a == "--")
      break;
    if ((a == "-ccbin" || a == "--compiler-bindir") && i + 1 < cmd.size())
      named = cmd[++i];
    else if (a.consume_front("-ccbin=") || a.consume_front("--compiler-bindir="))
      named = a.str();
  }
  // nvcc takes a directory too: its g++ (nvcc's default host compiler).
  if (!named.empty() && llvm::sys::fs::is_directory(named)) {
    llvm::SmallString<256> p(named);
    llvm::sys::path::append(p, "g++");
    named = std::string(p);
  }
  return named;
}

std::vector<std::string> parseSearchList(const std::string &out) {
  std::vector<std::string> dirs;
  llvm::SmallVector<llvm::StringRef, 32> lines;
  llvm::StringRef(out).split(lines, '\n');
  bool in = false;
  for (llvm::StringRef l : lines) {
    l = l.rtrim("\r");
    if (l.starts_with("#include <...> search starts here:")) {
      in = true;
      continue;
    }
    if (l.starts_with("End of search list."))
      break;
    if (in && l.starts_with(" ")) {
      l = l.trim();
      l.consume_back(" (framework directory)");
      dirs.push_back(l.str());
    }
  }
  return dirs;
}

std::vector<std::string>
privateIncludeDirs(const std::vector<std::string> &searchList) {
  static const llvm::Regex gccOwn("/lib(64|x32)?/gcc(-cross)?/[^/]+/[^/]+/include$");
  std::vector<std::string> out;
  for (const std::string &d : searchList) {
    llvm::SmallString<256> p(d);
    llvm::sys::path::remove_dots(p, /*remove_dot_dot=*/true);
    if (gccOwn.match(p))
      out.push_back(std::string(p));
  }
  return out;
}

bool mayQuery(const std::string &compiler,
              const std::vector<std::string> &allowed) {
  // A compiler by name: the user's own, found on PATH, not a program the
  // database brings along.
  static const llvm::Regex plainName(
      "^([a-z0-9_]+-)*(gcc|g\\+\\+|c\\+\\+|cc|clang|clang\\+\\+)(-[0-9.]+)?$");
  if (compiler.find('/') == std::string::npos && plainName.match(compiler))
    return true;
  for (const std::string &g : allowed) {
    llvm::Expected<llvm::GlobPattern> pat = llvm::GlobPattern::create(g);
    if (!pat) {
      llvm::consumeError(pat.takeError());
      continue;
    }
    if (pat->match(compiler))
      return true;
  }
  return false;
}

static HostIncludes ask(const std::string &compiler,
                        const std::vector<std::string> &allowed) {
  HostIncludes r;
  if (!mayQuery(compiler, allowed)) {
    r.note = "host compiler '" + compiler +
             "' not asked for its include directories (allow it with "
             "--query-driver=" + compiler + ")";
    return r;
  }
  std::string program = compiler;
  if (compiler.find('/') == std::string::npos) {
    auto found = llvm::sys::findProgramByName(compiler);
    if (!found) {
      r.note = "host compiler '" + compiler + "' not found on PATH";
      return r;
    }
    program = *found;
  } else if (!llvm::sys::fs::can_execute(compiler)) {
    r.note = "host compiler '" + compiler + "' not found";
    return r;
  }
  llvm::SmallString<128> errFile;
  if (llvm::sys::fs::createTemporaryFile("warplint-host", "txt", errFile)) {
    r.note = "cannot ask host compiler '" + compiler + "': no temporary file";
    return r;
  }
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(""), llvm::StringRef(errFile)};
  llvm::StringRef args[] = {program, "-E", "-x", "c++", "-v", "/dev/null",
                            "-o", "/dev/null"};
  std::string msg;
  int rc = llvm::sys::ExecuteAndWait(program, args, std::nullopt, redirects,
                                     /*SecondsToWait=*/10, 0, &msg);
  auto buf = llvm::MemoryBuffer::getFile(errFile);
  llvm::sys::fs::remove(errFile);
  if (rc != 0 || !buf) {
    r.note = "host compiler '" + compiler + "' did not list its include "
             "directories" + (msg.empty() ? "" : ": " + msg);
    return r;
  }
  std::vector<std::string> list = parseSearchList((*buf)->getBuffer().str());
  if (list.empty())
    r.note = "host compiler '" + compiler +
             "' did not list its include directories";
  r.dirs = privateIncludeDirs(list);
  return r;
}

const HostIncludes &hostIncludes(const std::string &compiler,
                                 const std::vector<std::string> &allowed) {
  static std::mutex lock;
  static std::map<std::string, std::unique_ptr<HostIncludes>> cache;
  std::lock_guard<std::mutex> hold(lock);
  auto &slot = cache[compiler];
  if (!slot)
    slot = std::make_unique<HostIncludes>(ask(compiler, allowed));
  return *slot;
}

} // namespace warplint
