// What a run prints: its summary, the machine formats, its exit code.
#include "driver/Driver.h"

#include "report/CiReports.h"
#include "rules/RuleSet.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace warplint {

using llvm::errs;
using llvm::outs;

std::string docDirectory(const char *argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&docDirectory));
  if (!exe.empty()) {
    llvm::SmallString<256> dir(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(dir, "..", "share", "doc", "warplint");
    llvm::sys::path::remove_dots(dir, true);
    if (llvm::sys::fs::is_directory(dir + "/rules"))
      return std::string(dir);
  }
  return WARPLINT_DOC_DIR;
}

std::string stubDirectory(const char *argv0) {
  std::string exe = llvm::sys::fs::getMainExecutable(
      argv0, reinterpret_cast<void *>(&stubDirectory));
  if (!exe.empty()) {
    llvm::SmallString<256> dir(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(dir, "..", "share", "warplint", "include-stub");
    llvm::sys::path::remove_dots(dir, true);
    if (llvm::sys::fs::is_directory(dir))
      return std::string(dir);
  }
  return WARPLINT_STUB_DIR;
}

void printSummary(const Report &report, const std::string &extra) {
  size_t failedFiles = 0;
  for (const auto &f : report.files)
    failedFiles += !f.ok;
  size_t n = 0, remarks = 0;
  for (const auto &d : report.diagnostics)
    if (!d.repeat) // one per place and rule, as printed
      (d.severity == "remark" ? remarks : n) += 1;
  errs() << "warplint: " << n << " warning" << (n == 1 ? "" : "s");
  if (remarks)
    errs() << " and " << remarks << " remark" << (remarks == 1 ? "" : "s");
  AccessTally tally = report.accessesNotKept;
  for (const auto &a : report.accesses)
    tally.add(a);
  errs() << " in " << report.files.size() << " file"
         << (report.files.size() == 1 ? "" : "s") << " ("
         << report.kernels.size() << " kernel configuration"
         << (report.kernels.size() == 1 ? "" : "s") << ", " << tally.accesses
         << " memory access" << (tally.accesses == 1 ? "" : "es") << ")";
  size_t leftOut = 0;
  for (const auto &k : report.kernels)
    leftOut += k.accessesLeftOut;
  if (leftOut)
    errs() << "; " << leftOut << " accesses left out (per-kernel limit)";
  size_t deep = 0;
  for (const auto &k : report.kernels)
    deep += k.callsNotFollowed;
  if (deep)
    errs() << "; " << deep << (deep == 1 ? " call" : " calls")
           << " not followed (deeper than warplint follows, or defined in "
              "another file)";
  if (tally.intrinsics)
    errs() << "; " << tally.intrinsics << " intrinsic access"
           << (tally.intrinsics == 1 ? "" : "es")
           << " whose lane layout warplint does not model";
  if (tally.notEvaluated || tally.ranged)
    errs() << "; " << tally.notEvaluated << " not evaluated, " << tally.ranged
           << " depending on unknown values (--remarks or --format=json "
              "says which)";
  if (failedFiles)
    errs() << "; " << failedFiles << " of " << report.files.size() << " file"
           << (report.files.size() == 1 ? "" : "s") << " could not be analyzed";
  size_t hostNotChecked = 0;
  for (const auto &f : report.files)
    hostNotChecked += !f.hostNotChecked.empty();
  if (hostNotChecked)
    errs() << "; " << hostNotChecked << " file"
           << (hostNotChecked == 1 ? "" : "s")
           << " with host code not checked";
  if (report.suppressed)
    errs() << "; " << report.suppressed << " suppressed by NOLINT";
  if (report.headerHidden)
    errs() << "; " << report.headerHidden
           << " in headers --header-filter leaves out";
  if (report.baselined)
    errs() << "; " << report.baselined << " in the baseline not shown";
  errs() << extra << "\n";
}

bool printMachineFormat(const std::string &format, const Report &report,
                        const std::string &root, const char *argv0,
                        std::optional<llvm::json::Object> shard) {
  if (format == "json") {
    outs() << toJson(report) << "\n";
  } else if (format == "sarif") {
    std::vector<RuleDoc> rules;
    for (const RuleDef *r : allRules())
      rules.push_back({r->id(), r->summary()});
    SarifOptions so;
    so.root = root;
    so.docDir = docsUrl();
    so.version = WARPLINT_VERSION;
    so.shard = std::move(shard);
    outs() << toSarif(report, rules, so) << "\n";
  } else if (format == "github") {
    outs() << toGithub(report, root);
  } else if (format == "rdjson") {
    outs() << toRdjson(report, root, docsUrl()) << "\n";
  } else {
    return false;
  }
  return true;
}

int exitCode(const Report &report, const std::string &failOn,
             bool failOnWarnings) {
  for (const auto &f : report.files)
    if (!f.ok)
      return 2;
  bool anyWarning = false, anyRemark = false;
  for (const auto &d : report.diagnostics)
    (d.severity == "warning" ? anyWarning : anyRemark) = true;
  if (failOn == "remark")
    return anyWarning || anyRemark ? 1 : 0;
  return (failOnWarnings || failOn == "warning") && anyWarning ? 1 : 0;
}

bool validFormat(const std::string &f) {
  return f == "text" || f == "json" || f == "sarif" || f == "github" ||
         f == "rdjson";
}

bool projectRoot(const std::string &given, std::string &root) {
  root = given;
  if (root.empty()) {
    llvm::SmallString<256> cwd;
    if (!llvm::sys::fs::current_path(cwd))
      root = std::string(cwd);
    return true;
  }
  llvm::SmallString<256> abs(root);
  if (llvm::sys::fs::make_absolute(abs) || !llvm::sys::fs::is_directory(abs)) {
    errs() << "warplint: error: --project-root: no directory '" << root
           << "'\n";
    return false;
  }
  llvm::sys::path::remove_dots(abs, true);
  root = std::string(abs);
  return true;
}

} // namespace warplint
