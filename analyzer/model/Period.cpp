//===- Period.cpp - how an access repeats along a 1-D launch's warps ------===//
#include "model/Period.h"

#include <algorithm>
#include <array>
#include <limits>
#include <new>
#include <numeric>
#include <unordered_map>
#include <vector>

namespace warplint {
namespace {

// Periods past this are of no use: no run evaluates that many warps.
constexpr int64_t MaxPeriod = int64_t(1) << 24;

// What the rules know of one node, as a function of the global thread index
// T over the domain 0 .. tmax, under one environment.
struct Info {
  bool known = false;   // f(T + q) = f(T) + d for every T of the domain
  bool uniform = false; // one value, `value`, in every lane of every warp
  int64_t value = 0;
  int64_t q = 1, d = 0; // (wrapping, as the evaluator's arithmetic)
  bool bounded = false; // every value within lo .. hi, none wrapped
  int64_t lo = 0, hi = 0;
  /// No lane's evaluation can be undefined (a divisor of zero, a shift out
  /// of range): false where an operation divides or shifts by a value that
  /// varies.
  bool total = true;
};

Info uniformInfo(int64_t v) {
  Info i;
  i.known = i.uniform = i.bounded = true;
  i.value = i.lo = i.hi = v;
  return i;
}

Info periodic(int64_t q, int64_t d, bool total) {
  Info i;
  i.known = true;
  i.q = q;
  i.d = d;
  i.total = total;
  return i;
}

bool is(const LaneExpr &e, Op op) { return e && e->op == op && e->value == 0; }

bool blockBase(const LaneExpr &e) {
  return e && e->op == Op::Mul &&
         ((is(e->a, Op::BlockIdx) && is(e->b, Op::BlockDim)) ||
          (is(e->a, Op::BlockDim) && is(e->b, Op::BlockIdx)));
}

bool lcmWithin(int64_t a, int64_t b, int64_t &out) {
  int64_t r;
  if (__builtin_mul_overflow(a / std::gcd(a, b), b, &r) || r > MaxPeriod)
    return false;
  out = r;
  return true;
}

void bound(Info &i, int64_t lo, int64_t hi) {
  i.bounded = true;
  i.lo = lo;
  i.hi = hi;
}

class Rules {
public:
  Rules(const Context &ctx, const Shape &sh, const Env &env, int64_t tmax)
      : Ctx(ctx), Sh(sh), En(env), TMax(tmax) {}

  /// The node's Info, kept for the other nodes that read it. A reference
  /// into the memo, which never moves an entry: copying an Info (built of
  /// narrow fields) costs more than its rules.
  const Info &of(const LaneExpr &e) {
    // An address has a few dozen nodes: searched in order while there are
    // few (a hash node per entry cost more than the search), through the
    // map past that. The keys lie apart from their Infos, so that the
    // search reads a few cache lines, not one an entry.
    const Node *key = e.get();
    for (size_t k = 0; k < SmallCount; ++k)
      if (SmallKeys[k] == key)
        return SmallInfo[k].info;
    if (SmallCount == SmallMemo)
      if (auto it = Memo.find(key); it != Memo.end())
        return it->second;
    Info i = node(*e);
    if (SmallCount == SmallMemo)
      return Memo.emplace(key, i).first->second;
    SmallKeys[SmallCount] = key;
    Info *slot = new (&SmallInfo[SmallCount++].info) Info(i);
    return *slot;
  }

private:
  const Context &Ctx;
  const Shape &Sh;
  const Env &En;
  int64_t TMax;
  static constexpr size_t SmallMemo = 32;
  size_t SmallCount = 0;
  std::array<const Node *, SmallMemo> SmallKeys;
  // Left unset until filled: a Rules is built for each warp period an
  // access asks for, most of which read a few nodes.
  union Slot {
    Slot() {}
    Info info;
  };
  std::array<Slot, SmallMemo> SmallInfo;
  std::unordered_map<const Node *, Info> Memo;

  Info node(const Node &n) {
    switch (n.op) {
    case Op::Const:
      return uniformInfo(n.value);
    case Op::BlockDim:
      return uniformInfo(n.value == 0 ? Sh.x : n.value == 1 ? Sh.y : Sh.z);
    case Op::GridDim:
      return n.value >= 0 && n.value < 3 ? uniformInfo(En.gridDim[n.value])
                                         : Info();
    case Op::ThreadIdx:
      // y and z are 0 in a one-dimensional block; x only counts within T.
      return n.value == 0 ? Info() : uniformInfo(0);
    case Op::Unknown:
      if (size_t(n.value) < Ctx.atoms.size() &&
          Ctx.atoms[size_t(n.value)].kind != AtomKind::Data)
        return uniformInfo(En.unknowns[size_t(n.value)]);
      return Info();
    case Op::Assumed:
      return uniformInfo(1);
    case Op::Neg:
    case Op::Not:
    case Op::LNot:
    case Op::Bits:
      return unary(n);
    case Op::Select:
      return select(n);
    case Op::Add:
      if (isGlobalIndexX(n)) {
        Info t = periodic(1, 1, true);
        bound(t, 0, TMax);
        return t;
      }
      return binary(n);
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Rem:
    case Op::Shl:
    case Op::Shr:
    case Op::And:
    case Op::Or:
    case Op::Xor:
    case Op::Min:
    case Op::Max:
    case Op::Lt:
    case Op::Le:
    case Op::Gt:
    case Op::Ge:
    case Op::Eq:
    case Op::Ne:
    case Op::LAnd:
    case Op::LOr:
      return binary(n);
    default:
      // blockIdx, a lone threadIdx.x, loops, data, lane ranks, TooDeep.
      return Info();
    }
  }

  Info unary(const Node &n) {
    const Info &a = of(n.a);
    if (!a.known)
      return Info();
    if (a.uniform) {
      int64_t x = a.value;
      return uniformInfo(n.op == Op::Neg    ? wrapNeg(x)
                         : n.op == Op::Not  ? ~x
                         : n.op == Op::LNot ? int64_t(!x)
                                            : applyBits(BitFn(n.value), x));
    }
    if (n.op == Op::Neg || n.op == Op::Not) {
      // -(x + d) = -x - d and ~(x + d) = ~x - d.
      Info r = periodic(a.q, wrapNeg(a.d), a.total);
      if (a.bounded && a.lo != std::numeric_limits<int64_t>::min())
        n.op == Op::Neg ? bound(r, -a.hi, -a.lo) : bound(r, ~a.hi, ~a.lo);
      return r;
    }
    if (a.d != 0)
      return Info();
    Info r = periodic(a.q, 0, a.total);
    if (n.op == Op::LNot)
      bound(r, 0, 1);
    return r;
  }

  Info select(const Node &n) {
    const Info &c = of(n.a), &t = of(n.b), &f = of(n.c);
    if (!c.known || !t.known || !f.known)
      return Info();
    if (c.uniform && t.uniform && f.uniform)
      return uniformInfo(c.value ? t.value : f.value);
    int64_t q;
    if (!lcmWithin(c.q, t.q, q) || !lcmWithin(q, f.q, q))
      return Info();
    // Both sides are evaluated (their flags count); a uniform condition
    // takes one side's value.
    const bool total = c.total && t.total && f.total;
    if (c.uniform) {
      const Info &s = c.value ? t : f;
      Info r = periodic(q, wrapMul(s.d, q / s.q), total);
      if (s.bounded)
        bound(r, s.lo, s.hi);
      return r;
    }
    if (c.d != 0 || t.d != 0 || f.d != 0)
      return Info();
    Info r = periodic(q, 0, total);
    if (t.bounded && f.bounded)
      bound(r, std::min(t.lo, f.lo), std::max(t.hi, f.hi));
    return r;
  }

  // x * c for a uniform factor c.
  static Info scaled(const Info &x, int64_t c) {
    Info r = periodic(x.q, wrapMul(x.d, c), x.total);
    int64_t p, s;
    if (x.bounded && !__builtin_mul_overflow(x.lo, c, &p) &&
        !__builtin_mul_overflow(x.hi, c, &s))
      bound(r, std::min(p, s), std::max(p, s));
    return r;
  }

  // x / m (Div, or Shr with m a power of two) or x % m for a uniform m > 0
  // and values x >= 0 that do not wrap. Where x(T + q) = x(T) + d, k = m /
  // gcd(d, m) periods on x(T + kq) = x(T) + kd with kd a multiple of m: the
  // remainder repeats and the quotient moves by kd / m.
  static Info divided(const Info &x, int64_t m, bool rem) {
    if (x.d == 0) {
      Info r = periodic(x.q, 0, x.total);
      rem ? bound(r, 0, std::min(x.hi, m - 1)) : bound(r, x.lo / m, x.hi / m);
      return r;
    }
    uint64_t ad = x.d < 0 ? 0 - uint64_t(x.d) : uint64_t(x.d);
    int64_t k = m / int64_t(std::gcd(ad, uint64_t(m)));
    int64_t q, kd;
    if (__builtin_mul_overflow(x.q, k, &q) || q > MaxPeriod ||
        __builtin_mul_overflow(x.d, k, &kd))
      return Info();
    Info r = periodic(q, rem ? 0 : kd / m, x.total);
    rem ? bound(r, 0, std::min(x.hi, m - 1)) : bound(r, x.lo / m, x.hi / m);
    return r;
  }

  Info binary(const Node &n) {
    const Info &a = of(n.a), &b = of(n.b);
    if (!a.known || !b.known)
      return Info();
    if (a.uniform && b.uniform) {
      int64_t v;
      return foldBinary(n.op, a.value, b.value, v) ? uniformInfo(v) : Info();
    }
    int64_t q;
    if (!lcmWithin(a.q, b.q, q))
      return Info();
    const int64_t da = wrapMul(a.d, q / a.q), db = wrapMul(b.d, q / b.q);
    auto nonNegative = [](const Info &x) { return x.bounded && x.lo >= 0; };
    switch (n.op) {
    case Op::Add:
    case Op::Sub: {
      const bool add = n.op == Op::Add;
      Info r = periodic(q, add ? wrapAdd(da, db) : wrapSub(da, db),
                        a.total && b.total);
      int64_t lo, hi;
      if (a.bounded && b.bounded &&
          !(add ? __builtin_add_overflow(a.lo, b.lo, &lo)
                : __builtin_sub_overflow(a.lo, b.hi, &lo)) &&
          !(add ? __builtin_add_overflow(a.hi, b.hi, &hi)
                : __builtin_sub_overflow(a.hi, b.lo, &hi)))
        bound(r, lo, hi);
      return r;
    }
    case Op::Mul:
      if (b.uniform)
        return scaled(a, b.value);
      if (a.uniform)
        return scaled(b, a.value);
      break;
    case Op::Shl:
      if (b.uniform) {
        if (b.value < 0 || b.value > 62)
          return Info(); // undefined in the evaluator
        return scaled(a, int64_t(1) << b.value);
      }
      break;
    case Op::Div:
    case Op::Rem:
    case Op::Shr: {
      if (!b.uniform)
        break;
      int64_t m = b.value;
      if (n.op == Op::Shr) {
        if (m < 0 || m > 62)
          return Info();
        m = int64_t(1) << m; // x >> s is x / 2^s for x >= 0
      }
      if (m == 0)
        return Info();
      if (m > 0 && nonNegative(a))
        return divided(a, m, n.op == Op::Rem);
      if (a.d != 0)
        return Info();
      return periodic(a.q, 0, a.total);
    }
    case Op::And: {
      // x & (2^j - 1) is x % 2^j for x >= 0.
      const Info &x = b.uniform ? a : b, &m = b.uniform ? b : a;
      if (m.uniform && m.value >= 0 &&
          m.value < std::numeric_limits<int64_t>::max() &&
          (m.value & (m.value + 1)) == 0 && nonNegative(x))
        return divided(x, m.value + 1, true);
      break;
    }
    default:
      break;
    }
    // Any other operation of two values that repeat exactly.
    if (da != 0 || db != 0)
      return Info();
    Info r = periodic(q, 0,
                      a.total && b.total &&
                          !(n.op == Op::Div || n.op == Op::Rem ||
                            n.op == Op::Shl || n.op == Op::Shr));
    if (isComparison(n.op) || n.op == Op::LAnd || n.op == Op::LOr)
      bound(r, 0, 1);
    else if ((n.op == Op::Min || n.op == Op::Max) && a.bounded && b.bounded)
      n.op == Op::Min ? bound(r, std::min(a.lo, b.lo), std::min(a.hi, b.hi))
                      : bound(r, std::max(a.lo, b.lo), std::max(a.hi, b.hi));
    return r;
  }
};

} // namespace

bool isGlobalIndexX(const Node &n) {
  return n.op == Op::Add && ((blockBase(n.a) && is(n.b, Op::ThreadIdx)) ||
                             (is(n.a, Op::ThreadIdx) && blockBase(n.b)));
}

std::optional<WarpPeriod> warpPeriod(const LaneExpr &offset,
                                     const LaneExpr &mask, const Context &ctx,
                                     const Shape &shape, const Env &env,
                                     int64_t blocks) {
  int64_t threads;
  if (!offset || shape.y != 1 || shape.z != 1 || shape.x <= 0 ||
      shape.x % WarpSize != 0 || env.dataSeed != 0 || blocks <= 0 ||
      __builtin_mul_overflow(blocks, shape.x, &threads))
    return std::nullopt;
  Rules rules(ctx, shape, env, threads - 1);
  const Info o = rules.of(offset);
  const Info m = mask ? rules.of(mask) : uniformInfo(1);
  // The active lanes must repeat exactly; the addresses may move, but only
  // where none wraps (a cost counts the addresses as they are ordered).
  if (!o.known || !m.known || m.d != 0)
    return std::nullopt;
  int64_t q;
  if (!lcmWithin(o.q, m.q, q) || !lcmWithin(q, WarpSize, q))
    return std::nullopt;
  const int64_t shift = wrapMul(o.d, q / o.q);
  if (shift != 0 && !o.bounded)
    return std::nullopt;
  return WarpPeriod{q / WarpSize, shift, o.total && m.total};
}

} // namespace warplint
