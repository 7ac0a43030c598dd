#include "rules/RuleSet.h"

#include <cmath>
#include <cstdio>

namespace warplint {

#define WARPLINT_RULE(name) const RuleDef &name##Rule();
#include "rules/Rules.def"

const std::vector<const RuleDef *> &allRules() {
  static const std::vector<const RuleDef *> rules = {
#define WARPLINT_RULE(name) &name##Rule(),
#include "rules/Rules.def"
  };
  return rules;
}

const RuleDef *findRule(std::string_view id) {
  for (const RuleDef *r : allRules())
    if (id == r->id())
      return r;
  return nullptr;
}

const RuleOption *RuleDef::option(std::string_view name) const {
  for (const RuleOption *o : Options)
    if (name == o->name)
      return o;
  return nullptr;
}

double RuleContext::operator[](const RuleOption &o) const {
  for (size_t i = 0; i < Declared->size(); ++i)
    if ((*Declared)[i] == &o)
      return Values[i];
  return o.defaultValue; // not the rule's own option: a programming error
}

static bool glob(const char *p, const char *t) {
  if (!*p)
    return !*t;
  if (*p == '*')
    return glob(p + 1, t) || (*t && glob(p, t + 1));
  return *t == *p && glob(p + 1, t + 1);
}

bool ruleEnabled(const std::string &enabled, const std::string &id) {
  bool on = false;
  size_t start = 0;
  while (start <= enabled.size()) {
    size_t comma = enabled.find(',', start);
    std::string item = enabled.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    while (!item.empty() && item.front() == ' ')
      item.erase(item.begin());
    while (!item.empty() && item.back() == ' ')
      item.pop_back();
    bool negative = !item.empty() && item[0] == '-';
    if (negative)
      item.erase(item.begin());
    if (!item.empty() && glob(item.c_str(), id.c_str()))
      on = !negative;
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return on;
}

RuleSet::RuleSet(std::string enabled, const RuleOptionValues &values,
                 SharedOptions shared)
    : Enabled(std::move(enabled)), Shared(shared), Values(values) {
  for (const RuleDef *r : allRules()) {
    if (!ruleEnabled(Enabled, r->id()))
      continue;
    std::vector<double> own;
    for (const RuleOption *o : r->options())
      own.push_back(option(r->id(), *o));
    Entries.push_back({r, RuleContext(r->options(), std::move(own), Shared)});
  }
}

bool RuleSet::enabled(std::string_view id) const {
  for (const Entry &e : Entries)
    if (id == e.rule->id())
      return true;
  return false;
}

double RuleSet::option(std::string_view id, const RuleOption &o) const {
  auto rule = Values.find(std::string(id));
  if (rule != Values.end()) {
    auto v = rule->second.find(o.name);
    if (v != rule->second.end())
      return v->second;
  }
  return o.defaultValue;
}

void RuleSet::weigh(std::string_view id, const AccessWeight &w, Space space,
                    Finding &f) const {
  for (const Entry &e : Entries)
    if (e.rule->id() == id) {
      if (WeighFn weigh = e.rule->weigh())
        weigh(w, space, e.context, f);
      return;
    }
}

std::string formatFigure(double v) {
  // Two decimals at most, and none that are zeros: 31.998 is "32", not
  // "32.00" (which reads as an exact figure printed oddly).
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (!s.empty() && s.back() == '0')
    s.pop_back();
  if (!s.empty() && s.back() == '.')
    s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string formatRange(double lo, double hi) {
  // Ends within 1% of each other are one figure: a range of 16 to 16.01
  // says no more than 16 does, and reads as a difference that matters.
  std::string a = formatFigure(lo), b = formatFigure(hi);
  if (a == b ||
      std::abs(hi - lo) <= 0.01 * std::max(std::abs(lo), std::abs(hi)))
    return a;
  return a + " to " + b;
}

std::string formatEstimate(double v) {
  // A mean of random draws: one decimal says what it can.
  return formatFigure(std::round(v * 10) / 10);
}

} // namespace warplint
