#include "frontend/project/ProjectLaunches.h"

#include "frontend/project/Inputs.h"

#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <memory>
#include <set>

using namespace clang;

namespace warplint {

std::string mangledName(ASTContext &ac, const FunctionDecl *k) {
  std::unique_ptr<MangleContext> mc(ac.createMangleContext());
  if (!mc->shouldMangleDeclName(k))
    return k->getNameAsString();
  std::string out;
  llvm::raw_string_ostream os(out);
  mc->mangleName(GlobalDecl(k), os);
  return out;
}

namespace {
template <class T> void addUnique(std::vector<T> &to, const T &v) {
  if (std::find(to.begin(), to.end(), v) == to.end())
    to.push_back(v);
}

/// Merges `from` (one file's launches of a kernel) into `into`.
void merge(ForeignLaunches &into, const ForeignLaunches &from) {
  for (const Shape &s : from.shapes)
    addUnique(into.shapes, s);
  for (const Shape &s : from.partial)
    addUnique(into.partial, s);
  into.unknown += from.unknown;
  for (const auto &[index, av] : from.args) {
    LaunchSites::ArgValues &to = into.args[index];
    for (int64_t v : av.values)
      addUnique(to.values, v);
    to.where.insert(to.where.end(), av.where.begin(), av.where.end());
    to.allConstant = to.allConstant && av.allConstant;
  }
  for (const std::string &f : from.files)
    addUnique(into.files, f);
}

} // namespace

FileFacts exportFacts(ASTContext &ac, const LaunchSites &sites) {
  FileFacts facts;
  for (const auto &[f, calls] : sites.outgoing)
    if (f->isExternallyVisible()) {
      std::vector<CallValues> &to = facts.calls[mangledName(ac, f)];
      to.insert(to.end(), calls.begin(), calls.end());
    }
  LaunchTable &out = facts.launches;
  std::string file;
  const SourceManager &sm = ac.getSourceManager();
  if (auto fe = sm.getFileEntryRefForID(sm.getMainFileID()))
    file = llvm::sys::path::filename(fe->getName()).str();
  // Every kernel the file launches, however much is known of the launch.
  std::set<const FunctionDecl *> kernels;
  for (const auto &m : {sites.shapes, sites.partial})
    for (const auto &[k, v] : m)
      kernels.insert(k);
  for (const auto &[k, n] : sites.unknown)
    kernels.insert(k);
  for (const auto &[k, a] : sites.args)
    kernels.insert(k);
  for (const FunctionDecl *k : kernels) {
    // A kernel with internal linkage is its own file's, whatever its name.
    if (!k->isExternallyVisible())
      continue;
    ForeignLaunches &f = out[mangledName(ac, k)];
    if (auto it = sites.shapes.find(k); it != sites.shapes.end())
      f.shapes = it->second;
    if (auto it = sites.partial.find(k); it != sites.partial.end())
      f.partial = it->second;
    if (auto it = sites.unknown.find(k); it != sites.unknown.end())
      f.unknown = it->second;
    if (auto it = sites.args.find(k); it != sites.args.end())
      f.args = it->second;
    f.files = {file};
  }
  return facts;
}

ProjectLaunches::ProjectLaunches(std::vector<std::string> files, Parser parse)
    : Files(std::move(files)), Parse(std::move(parse)) {
  std::sort(Files.begin(), Files.end());
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
}

void ProjectLaunches::remember(const std::string &file, FileFacts facts) {
  std::lock_guard<std::mutex> hold(Lock);
  if (Parsed.count(file))
    return;
  std::promise<std::optional<FileFacts>> p;
  p.set_value(std::move(facts));
  Parsed.emplace(file, p.get_future().share());
}

const std::string &ProjectLaunches::text(const std::string &file) {
  std::lock_guard<std::mutex> hold(Lock);
  auto it = Text.find(file);
  if (it == Text.end()) {
    std::string text;
    // An input read once (stdin, a FIFO, a device) is never read again.
    if (const InputText *in = inputText(file))
      text = in->text;
    else if (auto buf = llvm::MemoryBuffer::getFile(file))
      text = (*buf)->getBuffer().str();
    it = Text.emplace(file, std::move(text)).first;
  }
  return it->second;
}

std::unique_ptr<clang::ASTUnit>
ProjectLaunches::parseUnit(const std::string &file) {
  return ParseUnit ? ParseUnit(file) : nullptr;
}

std::vector<std::string>
ProjectLaunches::filesNaming(const std::string &ident,
                             const std::string &except) {
  std::vector<std::string> out;
  for (const std::string &f : Files)
    if (f != except && mentions(text(f), ident, Mention::Call))
      out.push_back(f);
  return out;
}

const FileFacts *ProjectLaunches::factsOf(const std::string &file) {
  std::shared_future<std::optional<FileFacts>> facts;
  std::optional<std::promise<std::optional<FileFacts>>> mine;
  {
    std::lock_guard<std::mutex> hold(Lock);
    auto it = Parsed.find(file);
    if (it == Parsed.end()) {
      mine.emplace();
      it = Parsed.emplace(file, mine->get_future().share()).first;
    }
    facts = it->second;
  }
  if (mine)
    mine->set_value(Parse(file)); // outside the lock: a parse takes seconds
  const std::optional<FileFacts> &f = facts.get();
  return f ? &*f : nullptr;
}

std::vector<const FileFacts *>
ProjectLaunches::naming(const std::vector<std::string> &names,
                        const std::string &except, Mention how) {
  std::vector<const FileFacts *> out;
  for (const std::string &file : Files) {
    if (file == except)
      continue;
    bool named = false;
    for (const std::string &n : names)
      named = named || mentions(text(file), n, how);
    if (!named)
      continue;
    if (const FileFacts *f = factsOf(file))
      out.push_back(f);
  }
  return out;
}

LaunchTable ProjectLaunches::launchesOf(const std::vector<std::string> &names,
                                        const std::string &except) {
  LaunchTable out;
  for (const FileFacts *f : naming(names, except, Mention::Launch))
    for (const auto &[name, launches] : f->launches)
      merge(out[name], launches);
  return out;
}

CallTable ProjectLaunches::callsOf(const std::vector<std::string> &names,
                                   const std::string &except) {
  CallTable out;
  for (const FileFacts *f : naming(names, except, Mention::Call))
    for (const auto &[name, calls] : f->calls)
      out[name].insert(out[name].end(), calls.begin(), calls.end());
  return out;
}

CallsByFunction importCalls(ASTContext &ac,
                            const std::vector<const FunctionDecl *> &launchers,
                            ProjectLaunches &project,
                            const std::string &mainFile) {
  // A function another file can call: not `main`, which no file calls but
  // nearly every file names (each file whose main() launches a kernel
  // parsed every other file of the run that says "main").
  auto callable = [](const FunctionDecl *f) {
    return f->getIdentifier() && f->isExternallyVisible() && !f->isMain();
  };
  std::vector<std::string> names;
  std::set<std::string> named;
  for (const FunctionDecl *f : launchers)
    if (callable(f) && named.insert(f->getName().str()).second)
      names.push_back(f->getName().str());
  CallsByFunction out;
  if (names.empty())
    return out;
  CallTable calls = project.callsOf(names, mainFile);
  for (const FunctionDecl *f : launchers)
    if (callable(f))
      if (auto it = calls.find(mangledName(ac, f)); it != calls.end())
        out[f] = it->second;
  return out;
}

void importLaunches(ASTContext &ac, LaunchSites &sites,
                    const std::vector<const FunctionDecl *> &kernels,
                    ProjectLaunches &project, const std::string &mainFile) {
  // The kernels this file does not launch at all.
  std::vector<const FunctionDecl *> missing;
  // (A set beside the list: a file of 50,000 kernels made a search of the
  // list per kernel quadratic.)
  std::vector<std::string> names;
  std::set<std::string> named;
  for (const FunctionDecl *k : kernels) {
    const FunctionDecl *c = k->getCanonicalDecl();
    if (sites.shapes.count(c) || sites.partial.count(c) ||
        sites.unknown.count(c) || sites.args.count(c) ||
        !k->getIdentifier() || !k->isExternallyVisible())
      continue;
    missing.push_back(c);
    if (named.insert(k->getName().str()).second)
      names.push_back(k->getName().str());
  }
  if (missing.empty())
    return;
  LaunchTable foreign = project.launchesOf(names, mainFile);
  if (foreign.empty())
    return;
  for (const FunctionDecl *k : missing) {
    auto it = foreign.find(mangledName(ac, k));
    if (it == foreign.end())
      continue;
    const ForeignLaunches &f = it->second;
    if (!f.shapes.empty())
      sites.shapes[k] = f.shapes;
    if (!f.partial.empty())
      sites.partial[k] = f.partial;
    if (f.unknown)
      sites.unknown[k] = f.unknown;
    if (!f.args.empty())
      sites.args[k] = f.args;
    std::string from = f.files.empty() ? "another file" : f.files[0];
    if (f.files.size() == 2)
      from += " and " + f.files[1];
    else if (f.files.size() > 2)
      from += " and " + std::to_string(f.files.size() - 1) + " other files";
    sites.foreign[k] = from;
  }
}

} // namespace warplint
