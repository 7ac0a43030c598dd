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
#include "frontend/analysis/Analysis.h"
#include "rules/RuleSet.h"

#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyModule.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

#include <cstdlib>
#include <vector>

using namespace clang;
using namespace clang::ast_matchers;

namespace warplint {
namespace {

/// The rule options every check sets (`warplint-<rule>.<Option>`), read
/// when clang-tidy creates the checks: the values of all rules, since one
/// analysis serves every check.
RuleOptionValues &configuredOptions() {
  static RuleOptionValues values;
  return values;
}

/// The messages of the translation unit being checked, computed by the
/// first check that asks and dropped when the next one starts: the
/// findings, and the analysis's own messages with rule "".
struct Findings {
  bool done = false;
  std::vector<DiagnosticRecord> all;
};
Findings &current() {
  static Findings f;
  return f;
}

class Collector : public MessagePrinter {
public:
  explicit Collector(std::vector<DiagnosticRecord> &out) : Out(out) {}
  void finding(const DiagnosticRecord &d) override { Out.push_back(d); }
  void plain(const DiagnosticRecord &d) override { Out.push_back(d); }
  // (clang-tidy asks for no --explain drawings.)
  void explanation(const DiagnosticRecord &) override {}

private:
  std::vector<DiagnosticRecord> &Out;
};

class RuleCheck : public tidy::ClangTidyCheck {
public:
  RuleCheck(StringRef name, tidy::ClangTidyContext *context,
            const RuleDef &rule)
      : ClangTidyCheck(name, context), Rule(rule) {
    for (const RuleOption *o : Rule.options()) {
      std::string v = this->Options.get(o->name, "").str();
      char *end = nullptr;
      double d = v.empty() ? 0 : std::strtod(v.c_str(), &end);
      if (!v.empty() && end && *end == '\0' && d > 0)
        configuredOptions()[Rule.id()][o->name] = d;
      else if (!v.empty())
        configurationDiag("invalid value '%0' for %1.%2: a number > 0 is "
                          "expected")
            << v << name << o->name;
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
    RuleSet set("*", configuredOptions(), {});
    for (const RuleOption *o : Rule.options())
      this->Options.store(opts, o->name,
                          std::to_string(set.option(Rule.id(), *o)));
  }
  void check(const MatchFinder::MatchResult &result) override {
    Findings &f = current();
    if (!f.done) {
      ToolOptions opts;
      opts.rules = RuleSet("*", configuredOptions(), {});
      opts.textDiagnostics = false;
      opts.accessRecords = false; // the findings are all it reports
      Collector collector(f.all);
      analyzeParsed(*result.Context, opts, collector);
      f.done = true;
    }
    const std::string rule = Rule.id();
    for (const DiagnosticRecord &d : f.all) {
      // The analysis's own warnings (a limit it reached) come with the
      // memory rule that would have judged the accesses it left out.
      if (d.rule != rule &&
          !(d.rule.empty() && rule == "uncoalesced-global-access"))
        continue;
      diag(locationOf(d.at), "%0",
           d.severity == "remark" ? DiagnosticIDs::Remark
                                  : DiagnosticIDs::Warning)
          << d.message << rangeOf(d.range);
      for (const NoteRecord &n : d.notes)
        diag(locationOf(n.at), "%0", DiagnosticIDs::Note)
            << n.message << rangeOf(n.range);
    }
  }

private:
  const RuleDef &Rule;
};

class Module : public tidy::ClangTidyModule {
public:
  void addCheckFactories(tidy::ClangTidyCheckFactories &factories) override {
    for (const RuleDef *r : allRules()) {
      factories.registerCheckFactory(
          std::string("warplint-") + r->id(),
          [r](StringRef name, tidy::ClangTidyContext *context) {
            return std::make_unique<RuleCheck>(name, context, *r);
          });
    }
  }
};

} // namespace
} // namespace warplint

static clang::tidy::ClangTidyModuleRegistry::Add<warplint::Module>
    X("warplint-module", "warplint: per-warp memory and divergence rules");
