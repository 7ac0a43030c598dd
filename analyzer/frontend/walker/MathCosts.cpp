#include "frontend/walker/MathCosts.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace warplint {

namespace {
struct MathCost {
  const char *name;
  int normal, fast;
};
// Sorted by name (strcmp order), as the script writes it.
constexpr MathCost Costs[] = {
#include "frontend/walker/MathCosts.inc"
};

struct DivisionCost {
  bool isDouble;
  int normal, fast;
};
constexpr DivisionCost Divisions[] = {
#include "frontend/walker/MathDivisions.inc"
};

const MathCost *find(std::string_view name) {
  auto it = std::lower_bound(
      std::begin(Costs), std::end(Costs), name,
      [](const MathCost &c, std::string_view n) {
        return std::string_view(c.name) < n;
      });
  return it != std::end(Costs) && it->name == name ? it : nullptr;
}
} // namespace

std::optional<int> mathCallCost(std::string_view name, bool floatResult,
                                bool fastMath) {
  // libdevice's names: __nv_expf, and __nv_fast_expf where clang's headers
  // call the approximate version (-use_fast_math).
  if (name.substr(0, 10) == "__nv_fast_") {
    name.remove_prefix(10);
    fastMath = true;
  } else if (name.substr(0, 5) == "__nv_") {
    name.remove_prefix(5);
  }
  const MathCost *c = nullptr;
  // A C++ overload on float (exp(float), std::sqrt(float)) is the f form.
  if (floatResult && !name.empty() && name.back() != 'f' &&
      name.substr(0, 2) != "__")
    c = find(std::string(name) + "f");
  if (!c)
    c = find(name);
  if (!c)
    return std::nullopt;
  return fastMath ? c->fast : c->normal;
}

int divisionCost(bool isDouble, bool fastMath) {
  for (const DivisionCost &d : Divisions)
    if (d.isDouble == isDouble)
      return fastMath ? d.fast : d.normal;
  return 1; // (the table holds both)
}

} // namespace warplint
