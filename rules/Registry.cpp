// The one list of rules. A rule listed here must have fixtures under
// test/fixtures/<id>/ and a page docs/rules/<id>.md (test/rule_docs checks).
#include "rules/Rule.h"
#include "rules/ConstantNonuniformAccess.h"
#include "rules/SmemBankConflict.h"
#include "rules/UncoalescedGlobalAccess.h"

#include <cmath>
#include <cstdio>

namespace warplint {

const std::vector<RuleInfo> &allRules() {
  static const std::vector<RuleInfo> rules = {
      {"uncoalesced-global-access",
       "Flags global loads and stores whose warp pulls in at least twice the "
       "32-byte sectors its active lanes need.",
       checkUncoalescedGlobalAccess},
      {"smem-bank-conflict",
       "Flags shared-memory loads and stores whose warp needs at least twice "
       "the wavefronts it would without bank conflicts.",
       checkSmemBankConflict},
      {"constant-nonuniform-access",
       "Flags __constant__ loads whose lanes read different addresses, which "
       "the constant cache serves one after another.",
       checkConstantNonuniformAccess},
  };
  return rules;
}

const char *spaceName(Space s) {
  switch (s) {
  case Space::Global: return "global";
  case Space::Shared: return "shared";
  case Space::Constant: return "constant";
  case Space::Local: return "local";
  }
  return "?";
}

std::string formatFigure(double v) {
  char buf[32];
  if (std::fabs(v - std::round(v)) < 1e-9)
    std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (std::fabs(v * 10 - std::round(v * 10)) < 1e-9)
    std::snprintf(buf, sizeof buf, "%.1f", v);
  else
    std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

} // namespace warplint
