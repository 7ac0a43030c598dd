//===- RuleSet.h - the rules, their options and their dispatch --*- C++ -*-===//
//
// A rule is one file: a stateless check over the facts of one kind of site
// (an access, a branch, a barrier or collective, a shared-memory hazard, a
// launch, a kernel), with an id, the first sentence of its doc page and the
// options it takes, each with its default, as clang-tidy's CheckOptions. It
// registers with one line in rules/Rules.def. A RuleSet is built once per
// configuration from the `Rules` globs and the options set for each rule,
// and runs the enabled rules of a site's kind over its facts.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_RULES_RULESET_H
#define WARPLINT_RULES_RULESET_H

#include "rules/Rule.h"

#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace warplint {

/// How findings that rest on data loaded at run time are reported: not at
/// all, as remarks, as warnings, (addresses only) as warnings for the
/// kinds of data address whose estimate the GPU bears out, or (masks only)
/// as warnings where the figure holds with few lanes active (docs/model.md).
enum class DataLevel { Off, Remark, Warning, Narrow, Auto };

/// The options every rule shares.
struct SharedOptions {
  /// Accesses under a condition on data loaded per lane (`if (a > b)
  /// swap`): the address pattern is known, which lanes take it is not.
  /// Reported as an upper bound. Auto, the default: a warning where the
  /// figure with only SparseMaskLanes random lanes of a warp taking it is
  /// over the threshold too (each lane its own sector or bank: whichever
  /// lanes the data picks, the excess stays), a remark where it rests on
  /// most lanes taking it. On the real-code suite every such line warned
  /// measures at least 1.5x (docs/model.md).
  DataLevel dataMasks = DataLevel::Auto;
  /// Accesses whose address depends on data loaded per lane (`x[col[n]]`):
  /// their figure with the data drawn at random. Narrow, the default: a
  /// warning for global elements of 1 or 2 bytes, for any element picked
  /// by a field of data's bits (`table[w & 0xff]`), for global atomics by
  /// key, and for a segment or a record per lane. A warp's 32 such
  /// elements fit one or two sectors only where the lanes' data lies within
  /// 32 or 64 bytes, which data seldom does (per-thread strings, byte
  /// tables: 115 of 118 such lines of the real-code suite measure at least
  /// 1.5x; fields of bits 34 of 35, atomics 17 of 17, segments 19 of 19,
  /// records 11 of 11). For other wider elements the estimate is right
  /// about as often as not (a mesh's connectivity is mostly local, a sparse
  /// matrix's columns are not).
  DataLevel dataAddresses = DataLevel::Narrow;
  /// Also warn on branches whose condition depends on data loaded per lane.
  bool warnDataDependentBranches = false;
};

/// An option a rule declares: `<rule id>.<name>` in a configuration (a
/// `Thresholds` entry for an option named Threshold), a number with a
/// default and a lower bound it must exceed.
struct RuleOption {
  const char *name;
  double defaultValue;
  const char *description;
  double mustExceed;
};

/// What one check runs with: its rule's options and the shared ones.
class RuleContext {
public:
  RuleContext(const std::vector<const RuleOption *> &declared,
              std::vector<double> values, SharedOptions shared)
      : Declared(&declared), Values(std::move(values)), Shared(shared) {}
  /// The value of one of the rule's own options.
  double operator[](const RuleOption &o) const;
  const SharedOptions &shared() const { return Shared; }

private:
  const std::vector<const RuleOption *> *Declared;
  std::vector<double> Values;
  SharedOptions Shared;
};

template <class Facts>
using CheckFn = std::optional<Finding> (*)(const Facts &, const RuleContext &);
/// Weighs an access rule's finding once its kernel's accesses are all
/// judged: `w` is the access's weight in its kernel, `space` its memory.
using WeighFn = void (*)(const AccessWeight &w, Space space,
                         const RuleContext &, Finding &);

/// A rule: its id, the first sentence of its doc page, its options and its
/// check. The check's parameter type says which kind of site it judges.
class RuleDef {
public:
  template <class Facts>
  RuleDef(const char *id, const char *summary, CheckFn<Facts> check,
          std::vector<const RuleOption *> options = {})
      : Id(id), Summary(summary), Check(check), Options(std::move(options)) {}
  /// An access rule whose findings are weighed by what their access costs
  /// its kernel.
  RuleDef(const char *id, const char *summary, CheckFn<AccessFacts> check,
          WeighFn weigh, std::vector<const RuleOption *> options)
      : Id(id), Summary(summary), Check(check), Weigh(weigh),
        Options(std::move(options)) {}

  const char *id() const { return Id; }
  const char *summary() const { return Summary; }
  const std::vector<const RuleOption *> &options() const { return Options; }
  /// The check if the rule judges `Facts`, else null.
  template <class Facts> CheckFn<Facts> check() const {
    const CheckFn<Facts> *c = std::get_if<CheckFn<Facts>>(&Check);
    return c ? *c : nullptr;
  }
  /// The option named `name` (none: the rule has none of that name).
  const RuleOption *option(std::string_view name) const;
  /// How the rule weighs its findings (null: they are not weighed).
  WeighFn weigh() const { return Weigh; }

private:
  const char *Id, *Summary;
  std::variant<CheckFn<AccessFacts>, CheckFn<BranchFacts>, CheckFn<SyncFacts>,
               CheckFn<HazardFacts>, CheckFn<LaunchFacts>, CheckFn<KernelFacts>>
      Check;
  WeighFn Weigh = nullptr;
  std::vector<const RuleOption *> Options;
};

/// Every rule warplint has, in the order of rules/Rules.def (the order of
/// --list-rules, and of findings at one place).
const std::vector<const RuleDef *> &allRules();
const RuleDef *findRule(std::string_view id);

/// Is `id` turned on by `enabled` ("*", "uncoalesced-*,-smem-*", ...)?
/// clang-tidy style comma-separated globs, '-' to turn one off; the last
/// glob that matches decides.
bool ruleEnabled(const std::string &enabled, const std::string &id);

/// Option values as a configuration sets them: by rule id, then option
/// name. What is not set keeps its default.
using RuleOptionValues = std::map<std::string, std::map<std::string, double>>;

/// The rules one configuration runs, each with its options.
class RuleSet {
public:
  /// Every rule, with the default options.
  RuleSet() : RuleSet("*", {}, {}) {}
  RuleSet(std::string enabled, const RuleOptionValues &values,
          SharedOptions shared);

  const std::string &enabledGlobs() const { return Enabled; }
  bool enabled(std::string_view id) const;
  bool empty() const { return Entries.empty(); }
  const SharedOptions &shared() const { return Shared; }
  /// The option values the set was built with (defaults left out).
  const RuleOptionValues &values() const { return Values; }
  /// The value rule `id` runs `o` with (its default where it is off).
  double option(std::string_view id, const RuleOption &o) const;

  /// Runs the enabled rules that judge `Facts` on `facts`, in the order of
  /// allRules(), handing each finding to `emit(ruleId, Finding)`.
  template <class Facts, class Emit>
  void run(const Facts &facts, Emit &&emit) const {
    for (const Entry &e : Entries)
      if (CheckFn<Facts> check = e.rule->check<Facts>())
        if (std::optional<Finding> f = check(facts, e.context))
          emit(e.rule->id(), std::move(*f));
  }
  /// Weighs `f`, a finding of the rule `id` on an access in `space`, by the
  /// access's weight `w` in its kernel, where that rule weighs its findings.
  void weigh(std::string_view id, const AccessWeight &w, Space space,
             Finding &f) const;

private:
  struct Entry {
    const RuleDef *rule;
    RuleContext context;
  };
  std::string Enabled;
  SharedOptions Shared;
  std::vector<Entry> Entries;
  RuleOptionValues Values;
};

} // namespace warplint

#endif
