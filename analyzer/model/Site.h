//===- Site.h - the model's whole judgement of one access -------*- C++ -*-===//
//
// One access site, as the front end hands it to the model: where the memory
// is (its space), what it accesses, and the few facts of the source the
// model cannot see from the address (the size of the table it indexes, the
// other side of an asynchronous copy). analyzeSite() applies the whole
// per-access policy: the cost model of the space, the fallbacks for
// addresses that depend on data (a small table, whole bank rows, a random
// draw), and what the hardware does to a bypassing copy whose shared side
// conflicts.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_SITE_H
#define WARPLINT_MODEL_SITE_H

#include "model/Memory.h"

#include <optional>
#include <string>
#include <vector>

namespace warplint {

enum class Space { Global, Shared, Constant, Local };
const char *spaceName(Space s);

/// What the front end knows of one access beyond its address.
struct SiteInput {
  explicit SiteInput(const Access &a) : access(a) {}
  const Access &access;
  Space space = Space::Global;
  bool atomic = false;
  /// Set when the front end does not model the intrinsic that makes it:
  /// why ("unknown: <intrinsic>: <reason>"); the site is not evaluated.
  std::string unknown;
  /// The access indexes a constant-size array of this many bytes (none:
  /// not such an array).
  std::optional<int64_t> tableBytes;
  /// The shared side of a 16-byte asynchronous copy that bypasses L1 (null:
  /// none).
  const Access *splitPeer = nullptr;
};

struct SiteResult {
  AccessResult result;
  /// The shared destination of a bypassing 16-byte copy conflicts, which
  /// splits the global read into one request a lane (result is scaled).
  bool splitByConflict = false;
};

/// The figures warplint gives the access under `shapes` (shapes[0] is the
/// block shape in use, the others alternatives the figures must hold for).
SiteResult analyzeSite(const SiteInput &site, const Context &ctx,
                       const std::vector<Shape> &shapes);

} // namespace warplint

#endif
