//===- Expr.h - symbolic per-lane index expressions -------------*- C++ -*-===//
//
// A LaneExpr is a value as one thread of a warp sees it: a small tree over the
// CUDA builtins (threadIdx, blockIdx, blockDim, gridDim), constants, warp-
// uniform unknowns (kernel parameters, values every lane loads from one
// address), lane-varying unknowns (data loaded per lane) and loop induction
// variables. The model evaluates these trees for the 32 lanes of each warp of a
// block; it never needs Clang.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_MODEL_EXPR_H
#define WARPLINT_MODEL_EXPR_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace warplint {

enum class Op : uint8_t {
  Const,
  ThreadIdx, // value = dimension 0..2
  BlockIdx,
  BlockDim,
  GridDim,
  Unknown,  // warp-uniform value the model cannot know; value = atom id
  Data,     // lane-varying value the model cannot know; value = atom id
  LoopVar,  // induction variable; value = loop id
  LoopActive, // condition: the lane is still inside loop `value`
  // Arithmetic (C semantics on 64-bit signed integers).
  Add, Sub, Mul, Div, Rem, Shl, Shr, And, Or, Xor, Min, Max, Neg, Not,
  // Conditions (0 or 1).
  Lt, Le, Gt, Ge, Eq, Ne, LAnd, LOr, LNot,
  Select, // a ? b : c
  Assumed, // a condition the model assumes true, whatever its polarity
  LaneRank, // the lane's rank among the lanes for which `a` holds (a mask)
  TooDeep, // a lane-varying value whose expression exceeded MaxDepth
  LoopFinal, // loop `value`'s variable as each lane leaves the loop
  Bits, // a bit-counting intrinsic of `a`; value = the BitFn
};

/// The bit intrinsics the model evaluates (CUDA's __brev, __popc, __clz,
/// __ffs and their 64-bit forms): pure functions of their operand, as the
/// hardware computes them on its low 32 or 64 bits.
enum class BitFn : int64_t { Brev32, Brev64, Popc32, Popc64, Clz32, Clz64,
                             Ffs32, Ffs64 };
/// The intrinsic's value for one operand.
int64_t applyBits(BitFn f, int64_t x);
/// Its CUDA name ("__brev").
const char *bitFnName(BitFn f);

struct Node;
using LaneExpr = std::shared_ptr<const Node>;

/// Nodes are hash-consed: the builders below return the existing node for an
/// (op, value, operands, origin) tuple that is still alive, so equal
/// sub-expressions are one node, pointer equality is structural equality, and
/// the evaluator's per-node memo sees every repeated use. A chain of N
/// conditional updates `if (c_i) x = x + k_i;` is N select nodes whose
/// operands are shared, not a tree of 2^N paths.
struct Node {
  Op op;
  int64_t value = 0;
  LaneExpr a, b, c;
  /// Opaque handle the front end uses to find the source of a sub-expression.
  int origin = -1;
  /// Longest path to a leaf (a leaf is 1). Builders refuse to go past
  /// MaxDepth: the result is then an opaque TooDeep node (see below), so no
  /// recursive walk of an expression can exhaust the stack.
  uint32_t depth = 1;
  /// Every leaf is a constant or a loop variable, and no node is a loop's
  /// lanes, an assumed condition or TooDeep: with its loops unrolled, the
  /// value is known at compile time. Kept per node so that asking costs
  /// nothing where the answer is no (most values).
  bool constantLeaves = false;
  /// Neither this node nor any below it has an origin: withoutOrigins()
  /// has nothing to clear.
  bool originFree = false;
  /// Every lane of a warp has one value, in any environment: the leaves are
  /// constants, block indices and dimensions, grid dimensions, uniform
  /// unknowns and assumed conditions, and no node below reads a lane's
  /// thread index, data, a loop or a lane rank. The evaluator computes such
  /// a value once for the warp, not once per lane.
  bool uniform = false;
  /// The loops whose variable or lanes a node below reads, one bit per loop
  /// id (ids from 31 on share bit 31; a loop's final value sets every bit):
  /// with no data drawn, the value is the same whatever iteration the
  /// evaluator sets for a loop not among them.
  uint32_t loopBits = 0;
};

/// A loop id's bit in Node::loopBits.
inline uint32_t loopBit(int64_t loop) {
  return uint32_t(1) << (loop >= 0 && loop < 31 ? loop : 31);
}

/// Deepest expression the model builds; deeper ones become a TooDeep node,
/// reported as "not evaluated" with that reason.
constexpr uint32_t MaxDepth = 400;

/// Live nodes in this thread's hash-consing table (for tests).
size_t internedNodes();
/// Slots of that table holding an entry, live or dead (for tests).
size_t internedSlotsUsed();

bool isComparison(Op op);
bool isLogical(Op op);
const char *opSpelling(Op op);

// Builders. They fold constants and apply the identities that keep trees small
// (x+0, x*1, x*0), so that a constant index stays a Const node.
LaneExpr cst(int64_t v);
LaneExpr threadIdx(int dim);
LaneExpr blockIdx(int dim);
LaneExpr blockDim(int dim);
LaneExpr gridDim(int dim);
LaneExpr unknown(int atom);
LaneExpr data(int atom);
LaneExpr loopVar(int loop);
LaneExpr loopActive(int loop);
/// After loop `loop`: its variable's value in each lane when that lane left
/// (the loop's own condition, tested iteration by iteration; an induction
/// variable that counts with another loop leaves with that loop).
LaneExpr loopFinal(int loop);
/// What an Assumed node stands for (its value).
enum Assumption : int {
  /// A bounds guard that selects whole warps, or an equality.
  AssumedGuard = 0,
  /// A condition on data.
  AssumedData = 1,
  /// A bounds guard whose true side is past the bound (`i >= n`, the lanes
  /// of the tail).
  AssumedPastBound = 2,
  /// A bounds guard whose true side is within the bound (`i < n`).
  AssumedWithinBound = 3,
};
LaneExpr assumed(Assumption why);
/// How many of the lanes below this one satisfy `mask` (null: every lane of
/// the warp): what a warp-aggregated `atomicAdd(&count, 1)` returns, over
/// the counter's old value, to each lane that calls it.
LaneExpr laneRank(LaneExpr mask);
LaneExpr bin(Op op, LaneExpr a, LaneExpr b);
LaneExpr un(Op op, LaneExpr a);
/// `f(a)`, folded when `a` is a constant.
LaneExpr bits(BitFn f, LaneExpr a);
/// The terms of a sum or difference, each with its sign (true: subtracted):
/// `a - (b + c)` is {a, +}, {b, -}, {c, -}.
std::vector<std::pair<LaneExpr, bool>> addends(const LaneExpr &e);
LaneExpr select(LaneExpr c, LaneExpr t, LaneExpr f);
LaneExpr withOrigin(LaneExpr e, int origin);

/// The same value with every origin cleared, so that an expression written
/// twice in the source (each copy with its own origins) is one node. The memo
/// keeps the results (and the nodes it maps from) alive; share it across
/// calls.
using OriginFreeMemo = std::unordered_map<const Node *, LaneExpr>;
LaneExpr withoutOrigins(const LaneExpr &e, OriginFreeMemo &memo);

/// `e` with the variable of loop `loop` replaced by `with` (the loop's
/// activity, a LoopActive node, is kept). Unchanged sub-expressions are the
/// same nodes, so `e` that does not use the variable comes back as is.
LaneExpr replaceLoopVar(const LaneExpr &e, int loop, const LaneExpr &with,
                        OriginFreeMemo &memo);
/// `e` with threadIdx.x and threadIdx.y exchanged (what the index would be
/// were the block's two thread dimensions swapped); shared like
/// replaceLoopVar.
LaneExpr swapThreadXY(const LaneExpr &e, OriginFreeMemo &memo);

inline LaneExpr operator+(LaneExpr a, LaneExpr b) { return bin(Op::Add, a, b); }
inline LaneExpr operator-(LaneExpr a, LaneExpr b) { return bin(Op::Sub, a, b); }
inline LaneExpr operator*(LaneExpr a, LaneExpr b) { return bin(Op::Mul, a, b); }

/// Calls `fn` once for every distinct node reachable from `root` (operands
/// before nothing in particular: the order is depth-first, parents first),
/// without recursion; `fn` returns false to skip a node's operands. Linear in
/// the number of distinct nodes, however often they are shared.
void visitNodes(const LaneExpr &root,
                const std::function<bool(const Node &)> &fn);

/// Two's-complement arithmetic on int64 lanes, wrapping on overflow as the
/// GPU's integers do (and without the undefined behaviour of signed overflow
/// in C++: the evaluator meets sampled sizes multiplied together).
inline int64_t wrapAdd(int64_t x, int64_t y) { return int64_t(uint64_t(x) + uint64_t(y)); }
inline int64_t wrapSub(int64_t x, int64_t y) { return int64_t(uint64_t(x) - uint64_t(y)); }
inline int64_t wrapMul(int64_t x, int64_t y) { return int64_t(uint64_t(x) * uint64_t(y)); }
inline int64_t wrapNeg(int64_t x) { return int64_t(0 - uint64_t(x)); }
/// x << y for 0 <= y <= 62, on the bits.
inline int64_t wrapShl(int64_t x, int64_t y) { return int64_t(uint64_t(x) << y); }
/// x / y and x % y for y != 0 (INT64_MIN / -1 wraps).
inline int64_t wrapDiv(int64_t x, int64_t y) { return y == -1 ? wrapNeg(x) : x / y; }
inline int64_t wrapRem(int64_t x, int64_t y) { return y == -1 ? 0 : x % y; }

/// `x op y` for a binary `op`, as the evaluator computes it on each lane
/// (the wrapping arithmetic above, conditions 0 or 1); false where that is
/// undefined (a divisor of zero, a shift outside 0..62) or `op` is not a
/// binary operation.
bool foldBinary(Op op, int64_t x, int64_t y, int64_t &r);

/// Constant value if `e` is a Const node.
bool constValue(const LaneExpr &e, int64_t &out);

} // namespace warplint

#endif
