//===- Rule.h - what a rule sees and says -----------------------*- C++ -*-===//
//
// A rule is a pure function from the model's view of one access to at most
// one finding. Rules hold no state and include no Clang header; the front end
// turns a finding's origins into source locations.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_RULES_RULE_H
#define WARPLINT_RULES_RULE_H

#include "model/Memory.h"

#include <optional>
#include <string>
#include <vector>

namespace warplint {

enum class Space { Global, Shared, Constant, Local };
const char *spaceName(Space s);

/// One access of an array in a kernel, indexed per dimension.
struct ArrayUse {
  std::vector<LaneExpr> subscripts;
  LaneExpr mask;
  int bytes = 0;
};

/// A shared or constant array indexed per dimension (`tile[ty][tx]`).
struct ArrayInfo {
  std::string name;
  std::string elementType; // as spelled in the declaration
  int elementBytes = 0;
  std::vector<int64_t> dims;        // outermost first
  std::vector<LaneExpr> subscripts; // one per dimension, in elements
  std::vector<std::string> subscriptText;
  /// Every access of this array in the kernel, this one included: a layout
  /// change must not make any of them worse.
  std::vector<ArrayUse> uses;
};

struct AccessFacts {
  const Access &access;
  const AccessResult &result;
  const Context &ctx;
  Shape shape;
  bool shapeAssumed = false;
  Space space = Space::Global;
  bool store = false;
  bool structMember = false; // reads one field of a larger element
  int64_t elementStride = 0; // bytes of the indexed element (struct size)
  const ArrayInfo *array = nullptr;
};

struct RuleNote {
  int origin = -1; // a model origin; -1: at the access itself
  std::string message;
};

struct Finding {
  std::string message; // without the [rule-id] suffix
  std::vector<RuleNote> notes;
};

struct RuleOptions {
  double threshold = 2.0;     // global: warn at sectors >= threshold x ideal
  double bankThreshold = 2.0; // shared: warn at wavefronts >= this x ideal
  double constantThreshold = 2.0; // constant: distinct addresses per request
};

using AccessCheck = std::optional<Finding> (*)(const AccessFacts &,
                                               const RuleOptions &);

struct RuleInfo {
  const char *id;
  const char *summary; // first sentence of the rule's doc page
  AccessCheck check;
};

/// Every rule warplint has (rules/Registry.cpp).
const std::vector<RuleInfo> &allRules();

/// "4", "4.5", "4.88": figures as the messages print them.
std::string formatFigure(double v);

} // namespace warplint

#endif
