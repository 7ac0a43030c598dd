#include "model/Expr.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace warplint {

bool isComparison(Op op) { return op >= Op::Lt && op <= Op::Ne; }
bool isLogical(Op op) { return op >= Op::LAnd && op <= Op::LNot; }

const char *opSpelling(Op op) {
  switch (op) {
  case Op::Add: return "+";
  case Op::Sub: return "-";
  case Op::Mul: return "*";
  case Op::Div: return "/";
  case Op::Rem: return "%";
  case Op::Shl: return "<<";
  case Op::Shr: return ">>";
  case Op::And: return "&";
  case Op::Or: return "|";
  case Op::Xor: return "^";
  case Op::Lt: return "<";
  case Op::Le: return "<=";
  case Op::Gt: return ">";
  case Op::Ge: return ">=";
  case Op::Eq: return "==";
  case Op::Ne: return "!=";
  case Op::LAnd: return "&&";
  case Op::LOr: return "||";
  case Op::LNot: return "!";
  case Op::Neg: return "-";
  case Op::Not: return "~";
  default: return "?";
  }
}

namespace {
struct Key {
  Op op;
  int64_t value;
  const Node *a, *b, *c;
  int origin;
  bool operator==(const Key &o) const {
    return op == o.op && value == o.value && a == o.a && b == o.b &&
           c == o.c && origin == o.origin;
  }
};
uint64_t keyHash(const Key &k) {
  uint64_t h = uint64_t(k.op) * 0x9e3779b97f4a7c15ull;
  for (uint64_t x :
       {uint64_t(k.value), uint64_t(uintptr_t(k.a)), uint64_t(uintptr_t(k.b)),
        uint64_t(uintptr_t(k.c)), uint64_t(uint32_t(k.origin))})
    h = (h ^ x) * 0x100000001b3ull + (h >> 29);
  // The table indexes by the low bits: mixed so that they depend on all.
  h = (h ^ (h >> 31)) * 0xbf58476d1ce4e5b9ull;
  return h ^ (h >> 29);
}
// Weak entries: a node lives as long as some expression uses it. Open
// addressing, 24 bytes a slot: the key's hash and the node, whose fields
// are the key (an unordered_map read its bucket, then a heap node per entry
// of the chain, and interning was a tenth of the time of a file of
// thousands of accesses). Entries are never removed one by one; a rehash
// drops the dead ones, so the table stays proportional to the live nodes.
struct Slot {
  uint64_t hash = 0; // 0: empty (a key's hash is never 0)
  std::weak_ptr<const Node> node;
};
struct InternTable {
  std::vector<Slot> slots; // a power of two of them
  size_t used = 0;         // slots holding an entry, live or dead
  static constexpr size_t MinSlots = 1 << 12;
  /// Makes room for one more entry at a load of at most 0.75, dropping the
  /// dead entries (and growing only for the live ones).
  void reserveOne() {
    if (!slots.empty() && (used + 1) * 4 <= slots.size() * 3)
      return;
    size_t live = 0;
    for (const Slot &s : slots)
      live += s.hash && !s.node.expired();
    size_t size = MinSlots;
    while (size < 2 * (live + 1))
      size *= 2;
    std::vector<Slot> old(size);
    old.swap(slots);
    used = 0;
    for (Slot &s : old)
      if (s.hash && !s.node.expired()) {
        size_t i = s.hash & (slots.size() - 1);
        while (slots[i].hash)
          i = (i + 1) & (slots.size() - 1);
        slots[i] = std::move(s);
        ++used;
      }
  }
};
thread_local InternTable Table;
} // namespace

size_t internedNodes() {
  size_t n = 0;
  for (const Slot &s : Table.slots)
    n += s.hash && !s.node.expired();
  return n;
}

size_t internedSlotsUsed() { return Table.used; }

static LaneExpr intern(Op op, int64_t v, LaneExpr a, LaneExpr b, LaneExpr c,
                       int origin) {
  uint32_t depth = 0;
  for (const LaneExpr *x : {&a, &b, &c})
    if (*x)
      depth = std::max(depth, (*x)->depth);
  if (depth + 1 > MaxDepth)
    return intern(Op::TooDeep, 0, nullptr, nullptr, nullptr, -1);
  const Key key{op, v, a.get(), b.get(), c.get(), origin};
  const uint64_t hash = keyHash(key) | 1;
  Table.reserveOne();
  const size_t mask = Table.slots.size() - 1;
  size_t i = hash & mask;
  // The first dead slot of this hash, reused for the new node: a value
  // built and freed again and again (a constant each access makes) would
  // otherwise leave a dead slot per build, all in one run that every
  // lookup of it walks, until the next rehash.
  Slot *reuse = nullptr;
  for (; Table.slots[i].hash; i = (i + 1) & mask) {
    Slot &s = Table.slots[i];
    if (s.hash != hash)
      continue;
    // A dead node's key is not known: its slot stays until the next rehash,
    // or a node of the same hash takes it.
    if (LaneExpr live = s.node.lock()) {
      if (key == Key{live->op, live->value, live->a.get(), live->b.get(),
                     live->c.get(), live->origin})
        return live;
    } else if (!reuse) {
      reuse = &s;
    }
  }
  Slot &slot = reuse ? *reuse : Table.slots[i];
  if (!reuse) {
    slot.hash = hash;
    ++Table.used;
  }
  auto n = std::make_shared<Node>();
  n->op = op;
  n->value = v;
  n->a = std::move(a);
  n->b = std::move(b);
  n->c = std::move(c);
  n->origin = origin;
  n->depth = depth + 1;
  n->originFree = origin == -1;
  n->loopBits = op == Op::LoopVar || op == Op::LoopActive ? loopBit(v)
                : op == Op::LoopFinal                     ? ~uint32_t(0)
                                                          : 0;
  for (const LaneExpr *x : {&n->a, &n->b, &n->c}) {
    n->originFree &= !*x || (*x)->originFree;
    n->loopBits |= *x ? (*x)->loopBits : 0;
  }
  if (!n->a) {
    n->constantLeaves = op == Op::Const || op == Op::LoopVar;
    n->uniform = op == Op::Const || op == Op::BlockIdx || op == Op::BlockDim ||
                 op == Op::GridDim || op == Op::Unknown || op == Op::Assumed;
  } else {
    n->uniform = op != Op::LaneRank && op != Op::LoopActive &&
                 op != Op::LoopFinal && op != Op::TooDeep;
    for (const LaneExpr *x : {&n->a, &n->b, &n->c})
      n->uniform &= !*x || (*x)->uniform;
    n->constantLeaves =
        op != Op::LoopActive && op != Op::Assumed && op != Op::TooDeep;
    for (const LaneExpr *x : {&n->a, &n->b, &n->c})
      n->constantLeaves &= !*x || (*x)->constantLeaves;
  }
  slot.node = n;
  return n;
}

static LaneExpr make(Op op, int64_t v, LaneExpr a = nullptr,
                     LaneExpr b = nullptr, LaneExpr c = nullptr) {
  return intern(op, v, std::move(a), std::move(b), std::move(c), -1);
}

LaneExpr cst(int64_t v) { return make(Op::Const, v); }
LaneExpr threadIdx(int d) { return make(Op::ThreadIdx, d); }
LaneExpr blockIdx(int d) { return make(Op::BlockIdx, d); }
LaneExpr blockDim(int d) { return make(Op::BlockDim, d); }
LaneExpr gridDim(int d) { return make(Op::GridDim, d); }
LaneExpr unknown(int atom) { return make(Op::Unknown, atom); }
LaneExpr data(int atom) { return make(Op::Data, atom); }
LaneExpr loopVar(int loop) { return make(Op::LoopVar, loop); }
LaneExpr loopActive(int loop) { return make(Op::LoopActive, loop); }
LaneExpr loopFinal(int loop) { return make(Op::LoopFinal, loop); }
LaneExpr assumed(Assumption why) { return make(Op::Assumed, why); }
LaneExpr laneRank(LaneExpr mask) {
  return make(Op::LaneRank, 0, std::move(mask));
}

bool constValue(const LaneExpr &e, int64_t &out) {
  if (!e || e->op != Op::Const)
    return false;
  out = e->value;
  return true;
}

bool foldBinary(Op op, int64_t x, int64_t y, int64_t &r) {
  switch (op) {
  case Op::Add: r = wrapAdd(x, y); return true;
  case Op::Sub: r = wrapSub(x, y); return true;
  case Op::Mul: r = wrapMul(x, y); return true;
  case Op::Div: if (y == 0) return false; r = wrapDiv(x, y); return true;
  case Op::Rem: if (y == 0) return false; r = wrapRem(x, y); return true;
  case Op::Shl: if (y < 0 || y > 62) return false; r = wrapShl(x, y); return true;
  case Op::Shr: if (y < 0 || y > 62) return false; r = x >> y; return true;
  case Op::And: r = x & y; return true;
  case Op::Or: r = x | y; return true;
  case Op::Xor: r = x ^ y; return true;
  case Op::Min: r = x < y ? x : y; return true;
  case Op::Max: r = x > y ? x : y; return true;
  case Op::Lt: r = x < y; return true;
  case Op::Le: r = x <= y; return true;
  case Op::Gt: r = x > y; return true;
  case Op::Ge: r = x >= y; return true;
  case Op::Eq: r = x == y; return true;
  case Op::Ne: r = x != y; return true;
  case Op::LAnd: r = x && y; return true;
  case Op::LOr: r = x || y; return true;
  default: return false;
  }
}

// Does `e` only take the values 0 and 1?
static bool isBoolean(const LaneExpr &e) {
  return isComparison(e->op) || isLogical(e->op) || e->op == Op::LoopActive ||
         e->op == Op::Assumed;
}

// `e != 0`: what `&&`, `||` and `!` make of an operand.
static LaneExpr truth(LaneExpr e) {
  return isBoolean(e) ? e : bin(Op::Ne, std::move(e), cst(0));
}

LaneExpr bin(Op op, LaneExpr a, LaneExpr b) {
  int64_t x = 0, y = 0, r = 0;
  bool ca = constValue(a, x), cb = constValue(b, y);
  if (ca && cb && foldBinary(op, x, y, r))
    return cst(r);
  switch (op) {
  case Op::Add:
    if (ca && x == 0) return b;
    if (cb && y == 0) return a;
    break;
  case Op::Sub:
  case Op::Shl:
  case Op::Shr:
    if (cb && y == 0) return a;
    break;
  case Op::Mul:
    if ((ca && x == 0) || (cb && y == 0)) return cst(0);
    if (ca && x == 1) return b;
    if (cb && y == 1) return a;
    break;
  case Op::Div:
    if (cb && y == 1) return a;
    break;
  case Op::LAnd:
    // `1 && x` is x != 0, not x: the result is a value too (`a[1 && t]`).
    if (ca) return x ? truth(b) : cst(0);
    if (cb) return y ? truth(a) : cst(0);
    break;
  default:
    break;
  }
  return make(op, 0, std::move(a), std::move(b));
}

static void collectAddends(const LaneExpr &e, bool negative,
                           std::vector<std::pair<LaneExpr, bool>> &out) {
  if (e->op == Op::Add || e->op == Op::Sub) {
    collectAddends(e->a, negative, out);
    collectAddends(e->b, e->op == Op::Sub ? !negative : negative, out);
    return;
  }
  out.push_back({e, negative});
}

std::vector<std::pair<LaneExpr, bool>> addends(const LaneExpr &e) {
  std::vector<std::pair<LaneExpr, bool>> out;
  if (e)
    collectAddends(e, false, out);
  return out;
}

LaneExpr un(Op op, LaneExpr a) {
  int64_t x = 0;
  if (constValue(a, x)) {
    if (op == Op::Neg) return cst(wrapNeg(x));
    if (op == Op::Not) return cst(~x);
    if (op == Op::LNot) return cst(!x);
  }
  // `!!x` is x != 0.
  if (op == Op::LNot && a && a->op == Op::LNot)
    return truth(a->a);
  return make(op, 0, std::move(a));
}

int64_t applyBits(BitFn f, int64_t x) {
  uint64_t u = uint64_t(x);
  uint32_t w = uint32_t(u);
  switch (f) {
  case BitFn::Brev32: {
    uint32_t r = 0;
    for (int i = 0; i < 32; ++i)
      r |= ((w >> i) & 1u) << (31 - i);
    return int64_t(r);
  }
  case BitFn::Brev64: {
    uint64_t r = 0;
    for (int i = 0; i < 64; ++i)
      r |= ((u >> i) & 1u) << (63 - i);
    return int64_t(r);
  }
  case BitFn::Popc32: return __builtin_popcount(w);
  case BitFn::Popc64: return __builtin_popcountll(u);
  case BitFn::Clz32: return w ? __builtin_clz(w) : 32;
  case BitFn::Clz64: return u ? __builtin_clzll(u) : 64;
  case BitFn::Ffs32: return w ? __builtin_ctz(w) + 1 : 0;
  case BitFn::Ffs64: return u ? __builtin_ctzll(u) + 1 : 0;
  }
  return 0;
}

const char *bitFnName(BitFn f) {
  switch (f) {
  case BitFn::Brev32: return "__brev";
  case BitFn::Brev64: return "__brevll";
  case BitFn::Popc32: return "__popc";
  case BitFn::Popc64: return "__popcll";
  case BitFn::Clz32: return "__clz";
  case BitFn::Clz64: return "__clzll";
  case BitFn::Ffs32: return "__ffs";
  case BitFn::Ffs64: return "__ffsll";
  }
  return "?";
}

LaneExpr bits(BitFn f, LaneExpr a) {
  int64_t x = 0;
  if (constValue(a, x))
    return cst(applyBits(f, x));
  return make(Op::Bits, int64_t(f), std::move(a));
}

LaneExpr select(LaneExpr c, LaneExpr t, LaneExpr f) {
  int64_t x = 0;
  if (constValue(c, x))
    return x ? t : f;
  if (t == f)
    return t;
  return make(Op::Select, 0, std::move(c), std::move(t), std::move(f));
}

LaneExpr withoutOrigins(const LaneExpr &e, OriginFreeMemo &memo) {
  if (!e || e->op == Op::TooDeep || e->originFree)
    return e;
  auto it = memo.find(e.get());
  if (it != memo.end())
    return it->second;
  // Operands are at most MaxDepth deep, so the recursion is bounded.
  LaneExpr r = intern(e->op, e->value, withoutOrigins(e->a, memo),
                      withoutOrigins(e->b, memo), withoutOrigins(e->c, memo),
                      -1);
  memo.emplace(e.get(), r);
  return r;
}

/// `e` with each leaf for which `leaf` returns a node replaced by it; the
/// unchanged sub-expressions are the same nodes.
template <typename Leaf>
static LaneExpr replaceLeaves(const LaneExpr &e, const Leaf &leaf,
                              OriginFreeMemo &memo) {
  if (!e || e->op == Op::TooDeep)
    return e;
  if (LaneExpr with = leaf(*e))
    return with;
  if (!e->a)
    return e;
  auto it = memo.find(e.get());
  if (it != memo.end())
    return it->second;
  // Operands are at most MaxDepth deep, so the recursion is bounded.
  LaneExpr a = replaceLeaves(e->a, leaf, memo);
  LaneExpr b = replaceLeaves(e->b, leaf, memo);
  LaneExpr c = replaceLeaves(e->c, leaf, memo);
  LaneExpr r = a == e->a && b == e->b && c == e->c
                   ? e
                   : intern(e->op, e->value, a, b, c, e->origin);
  memo.emplace(e.get(), r);
  return r;
}

LaneExpr replaceLoopVar(const LaneExpr &e, int loop, const LaneExpr &with,
                        OriginFreeMemo &memo) {
  return replaceLeaves(
      e,
      [&](const Node &n) {
        return n.op == Op::LoopVar && n.value == loop ? with : LaneExpr();
      },
      memo);
}

LaneExpr swapThreadXY(const LaneExpr &e, OriginFreeMemo &memo) {
  return replaceLeaves(
      e,
      [](const Node &n) {
        if (n.op == Op::ThreadIdx && n.value < 2)
          return threadIdx(1 - int(n.value));
        if (n.op == Op::BlockDim && n.value < 2)
          return blockDim(1 - int(n.value));
        return LaneExpr();
      },
      memo);
}

LaneExpr withOrigin(LaneExpr e, int origin) {
  if (!e || e->origin == origin || e->op == Op::TooDeep)
    return e;
  return intern(e->op, e->value, e->a, e->b, e->c, origin);
}

} // namespace warplint

namespace warplint {

namespace {
/// The nodes one walk has seen, past the few an array holds: an open-
/// addressing table of pointers, linear probing, doubled at half full. A
/// node-based hash set allocated per insertion, and a long kernel's walks
/// (each access's mask reaching back through thousands of conditional
/// updates) spent most of their time there.
class SeenNodes {
public:
  bool empty() const { return Count == 0; }
  bool insert(const Node *n) {
    if (2 * (Count + 1) > Slots.size())
      grow();
    size_t mask = Slots.size() - 1;
    for (size_t i = hash(n) & mask;; i = (i + 1) & mask) {
      if (Slots[i] == n)
        return false;
      if (!Slots[i]) {
        Slots[i] = n;
        ++Count;
        return true;
      }
    }
  }

private:
  static size_t hash(const Node *n) {
    uint64_t x = uint64_t(reinterpret_cast<uintptr_t>(n));
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return size_t(x);
  }
  void grow() {
    std::vector<const Node *> old(std::max<size_t>(128, 2 * Slots.size()));
    old.swap(Slots);
    Count = 0;
    for (const Node *n : old)
      if (n)
        insert(n);
  }
  std::vector<const Node *> Slots;
  size_t Count = 0;
};
} // namespace

void visitNodes(const LaneExpr &root,
                const std::function<bool(const Node &)> &fn) {
  if (!root)
    return;
  // Most expressions have a few dozen nodes: those seen are searched in a
  // small array, and a hash table takes over past that (a table per call
  // cost more than the walk on small kernels).
  constexpr size_t Inline = 32;
  const Node *few[Inline];
  size_t nFew = 0;
  SeenNodes many;
  auto firstVisit = [&](const Node *n) {
    if (!many.empty())
      return many.insert(n);
    for (size_t i = 0; i < nFew; ++i)
      if (few[i] == n)
        return false;
    if (nFew < Inline) {
      few[nFew++] = n;
      return true;
    }
    for (size_t i = 0; i < nFew; ++i)
      many.insert(few[i]);
    return many.insert(n);
  };
  std::vector<const Node *> stack;
  stack.reserve(16);
  stack.push_back(root.get());
  firstVisit(root.get());
  while (!stack.empty()) {
    const Node *n = stack.back();
    stack.pop_back();
    if (!fn(*n))
      continue;
    for (const LaneExpr *x : {&n->c, &n->b, &n->a})
      if (*x && firstVisit(x->get()))
        stack.push_back(x->get());
  }
}

} // namespace warplint
