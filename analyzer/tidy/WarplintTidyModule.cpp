//===- WarplintTidyModule.cpp - warplint's rules as clang-tidy checks -----===//
//
// A clang-tidy plugin: `clang-tidy -load=libwarplint-tidy.so
// -checks='-*,warplint-*' k.cu -- ...` runs warplint's rules as checks named
// `warplint-<rule id>`, so that projects already running clang-tidy get them
// without a new tool. The translation unit clang-tidy parsed is analyzed
// once, whichever checks are on, and each check reports its own rule's
// findings with their notes. The module links the same shared Clang and LLVM
// libraries as Debian's clang-tidy and none of clang-tidy's own libraries:
// those come from the clang-tidy binary that loads it.
//
//===----------------------------------------------------------------------===//
#include "frontend/Analysis.h"
#include "rules/Rule.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <cstdlib>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;

namespace warplint {
namespace {

/// The options every check shares (the rules' thresholds), set from each
/// check's own options when clang-tidy creates the checks.
RuleOptions &sharedRuleOptions() {
  static RuleOptions opts;
  return opts;
}

/// The findings of the translation unit being checked, computed by the
/// first check that asks and dropped when the next one starts.
struct Findings {
  bool done = false;
  std::vector<SinkFinding> all;
};
Findings &current() {
  static Findings f;
  return f;
}

/// The option each rule takes, and where it goes in RuleOptions.
struct RuleOption {
  const char *rule, *name;
  double RuleOptions::*field;
};
const RuleOption RuleOptionTable[] = {
    {"uncoalesced-global-access", "Threshold", &RuleOptions::threshold},
    {"smem-bank-conflict", "Threshold", &RuleOptions::bankThreshold},
    {"constant-nonuniform-access", "Threshold",
     &RuleOptions::constantThreshold},
    {"idle-lanes", "IssueRatio", &RuleOptions::issueRatioThreshold},
};

class RuleCheck : public tidy::ClangTidyCheck {
public:
  RuleCheck(StringRef name, tidy::ClangTidyContext *context, std::string rule)
      : ClangTidyCheck(name, context), Rule(std::move(rule)) {
    for (const RuleOption &o : RuleOptionTable)
      if (Rule == o.rule) {
        std::string v = this->Options.get(o.name, "").str();
        char *end = nullptr;
        double d = v.empty() ? 0 : std::strtod(v.c_str(), &end);
        if (!v.empty() && end && *end == '\0' && d > 0)
          sharedRuleOptions().*o.field = d;
        else if (!v.empty())
          configurationDiag("invalid value '%0' for %1.%2: a number > 0 is "
                            "expected")
              << v << name << o.name;
      }
  }
  bool isLanguageVersionSupported(const LangOptions &lo) const override {
    return lo.CUDA;
  }
  void registerMatchers(MatchFinder *finder) override {
    finder->addMatcher(translationUnitDecl().bind("tu"), this);
  }
  void onStartOfTranslationUnit() override { current() = Findings(); }
  void storeOptions(tidy::ClangTidyOptions::OptionMap &opts) override {
    for (const RuleOption &o : RuleOptionTable)
      if (Rule == o.rule)
        this->Options.store(opts, o.name,
                            std::to_string(sharedRuleOptions().*o.field));
  }
  void check(const MatchFinder::MatchResult &result) override {
    Findings &f = current();
    if (!f.done) {
      ToolOptions opts;
      opts.rules = sharedRuleOptions();
      opts.textDiagnostics = false;
      analyzeParsed(*result.Context, opts,
                    [&](const SinkFinding &s) { f.all.push_back(s); });
      f.done = true;
    }
    for (const SinkFinding &s : f.all) {
      // The analysis's own warnings (a limit it reached) come with the
      // memory rule that would have judged the accesses it left out.
      if (s.rule != Rule &&
          !(s.rule.empty() && Rule == "uncoalesced-global-access"))
        continue;
      diag(s.loc, "%0", s.remark ? DiagnosticIDs::Remark
                                 : DiagnosticIDs::Warning)
          << s.message << s.range;
      for (const auto &[at, msg, range] : s.notes)
        diag(at, "%0", DiagnosticIDs::Note) << msg << range;
    }
  }

private:
  std::string Rule;
};

class Module : public tidy::ClangTidyModule {
public:
  void addCheckFactories(tidy::ClangTidyCheckFactories &factories) override {
    for (const RuleInfo &r : allRules()) {
      std::string rule = r.id;
      factories.registerCheckFactory(
          "warplint-" + rule,
          [rule](StringRef name, tidy::ClangTidyContext *context) {
            return std::make_unique<RuleCheck>(name, context, rule);
          });
    }
  }
};

} // namespace
} // namespace warplint

static clang::tidy::ClangTidyModuleRegistry::Add<warplint::Module>
    X("warplint-module", "warplint: per-warp memory and divergence rules");
