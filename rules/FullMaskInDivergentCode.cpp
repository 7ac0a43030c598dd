#include "rules/RuleSet.h"

#include "model/Explain.h"

namespace warplint {

static std::optional<Finding>
checkFullMaskInDivergentCode(const SyncFacts &f, const RuleContext &) {
  Finding out;
  if (f.tileSize > 0) {
    // A cooperative-groups tile's collective: every thread of the tile
    // must arrive.
    if (!f.reach.evaluated || !f.partialTile)
      return std::nullopt;
    out.message = f.callee + "() needs every thread of its tile (" +
                  std::to_string(f.tileSize) + " threads) but only lanes " +
                  laneList(f.partialTile) + " of warp " +
                  std::to_string(f.reach.warp) +
                  " reach it: the others never arrive (undefined behaviour: "
                  "a hang or garbage on Volta and newer)";
    out.notes.push_back(
        {-1, "make the condition the same for every thread of a tile (test "
             "the tile's index, tile.meta_group_rank(), or the warp index), "
             "or move the call out of the condition"});
    return out;
  }
  bool collective = (f.callee.size() > 5 &&
                     f.callee.compare(f.callee.size() - 5, 5, "_sync") == 0) ||
                    f.callee == "__syncwarp";
  if (!collective || !f.fullMask || !f.reach.evaluated || !f.reach.partialWarp)
    return std::nullopt;
  out.message = f.callee +
                " names all 32 lanes (mask 0xffffffff) but only lanes " +
                laneList(f.reach.active) + " of warp " +
                std::to_string(f.reach.warp) +
                " reach it: the others never arrive (undefined behaviour: a "
                "hang or garbage on Volta and newer)";
  out.notes.push_back(
      {-1, "compute the mask of the lanes that take this path before the "
           "branch, with __ballot_sync(0xffffffff, condition), and pass it "
           "here; or move the call out of the condition"});
  return out;
}

const RuleDef &fullMaskInDivergentCodeRule() {
  static const RuleDef rule(
      "full-mask-in-divergent-code",
      "Flags *_sync intrinsics and __syncwarp() that name all 32 lanes in "
      "code only some lanes of the warp reach.",
      checkFullMaskInDivergentCode);
  return rule;
}

} // namespace warplint
