// The values of host expressions at launches (HostCode.h, HostEval).
#include "frontend/launches/HostCode.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cstdlib>
#include <functional>

namespace warplint {
namespace host {

const HostFacts NoFacts;

HostEval HostEval::unbound() const {
  HostEval h{ac, facts};
  h.defaults = defaults;
  h.openLoops = openLoops;
  h.stoppedAt = stoppedAt;
  h.following = following;
  return h;
}

bool HostEval::pastBound(const Expr *e, int depth) const {
  if (depth <= MaxSteps)
    return false;
  if (e && stoppedAt->empty())
    stoppedAt->push_back(whereIs(ac, e));
  return true;
}

const Expr *HostEval::boundArgument(const ParmVarDecl *p) const {
  auto *fd = dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
  if (!bound || !fd || fd->getCanonicalDecl() != boundFn)
    return nullptr;
  unsigned index = p->getFunctionScopeIndex();
  return index < bound->getNumArgs() ? bound->getArg(index) : nullptr;
}

/// `x op y` as the host computes it, for the operators the evaluation
/// follows; none where it is undefined or out of the range it keeps
/// (a division by zero, a shift past 40 bits or of a negative value).
static std::optional<int64_t> arithmetic(BinaryOperatorKind op, int64_t x,
                                         int64_t y) {
  switch (op) {
  case BO_Add:
    return x + y;
  case BO_Sub:
    return x - y;
  case BO_Mul:
    return x * y;
  case BO_Div:
    if (!y)
      return std::nullopt;
    return x / y;
  case BO_Rem:
    if (!y)
      return std::nullopt;
    return x % y;
  case BO_Shl:
    if (y < 0 || y >= 40 || x < 0)
      return std::nullopt;
    return x << y;
  case BO_Shr:
    if (y < 0 || y >= 63)
      return std::nullopt;
    return x >> y;
  case BO_And:
    return x & y;
  case BO_Or:
    return x | y;
  default:
    return std::nullopt;
  }
}

std::optional<std::vector<int64_t>>
HostEval::variable(const DeclRefExpr *d, const VarDecl *v, int depth) const {
  // The loop that declares `v`, or one that starts it and holds this use.
  auto declared = facts.loops.find(v);
  if (const ForStmt *f = declared != facts.loops.end()
                             ? declared->second
                             : assignedLoopAround(v, d)) {
    auto values = loopValues(v, f, depth);
    if (values)
      keepGuarded(*values, v, f, d, depth);
    if (values && values->empty())
      return std::nullopt;
    return values;
  }
  if (reassigned(v))
    return assignedValues(v, depth);
  if (auto *p = dyn_cast<ParmVarDecl>(v))
    return parameter(p, depth);
  if (const Expr *range = rangeOf(v))
    return elements(range, depth);
  if (v->getInit() && v->isLocalVarDecl())
    return ints(v->getInit(), depth + 1);
  return std::nullopt;
}

std::optional<std::vector<int64_t>> HostEval::ints(const Expr *e,
                                                   int depth) const {
  if (!e || e->isValueDependent() || pastBound(e, depth))
    return std::nullopt;
  Expr::EvalResult r;
  if (e->EvaluateAsInt(r, ac))
    return std::vector<int64_t>{r.Val.getInt().getExtValue()};
  const Expr *s = e->IgnoreParenImpCasts();
  if (auto *d = dyn_cast<DeclRefExpr>(s)) {
    auto *v = dyn_cast<VarDecl>(d->getDecl());
    if (!v)
      return std::nullopt;
    return once(v, [&] { return variable(d, v, depth); });
  }
  if (auto *c = dyn_cast<ExplicitCastExpr>(s);
      c && c->getType()->isIntegralOrEnumerationType() &&
      c->getSubExpr()->getType()->isIntegralOrEnumerationType()) {
    // `(unsigned)w`: each value, converted as C converts it.
    auto vs = ints(c->getSubExpr(), depth + 1);
    if (!vs)
      return std::nullopt;
    QualType t = c->getType();
    unsigned bits = unsigned(ac.getIntWidth(t));
    for (int64_t &v : *vs)
      if (t->isBooleanType()) {
        v = v != 0;
      } else if (bits < 64) {
        uint64_t low = uint64_t(v) & ((uint64_t(1) << bits) - 1);
        bool negative =
            t->isSignedIntegerOrEnumerationType() && ((low >> (bits - 1)) & 1);
        v = negative ? int64_t(low | ~((uint64_t(1) << bits) - 1))
                     : int64_t(low);
      }
    return vs;
  }
  if (auto *m = dyn_cast<MemberExpr>(s)) {
    // `range.tpb` of a local object built by a constructor (fieldValue()).
    FieldValue v = fieldValue(m);
    if (v.value)
      return ints(v.value, depth + 1);
    return bodyFieldValues(m, depth);
  }
  if (auto *a = dyn_cast<ArraySubscriptExpr>(s)) {
    // `dims[0]`: an element of a constant local array, or of one a
    // pointer parameter is bound to; with an index of several values
    // (`experts[e]` in a host loop over the array), each element it
    // selects.
    auto indices = ints(a->getIdx(), depth + 1);
    auto vs = indices ? arrayValues(a->getBase(), depth + 1) : std::nullopt;
    if (!vs)
      return std::nullopt;
    std::vector<int64_t> out;
    for (int64_t index : *indices)
      for (const std::vector<int64_t> &elems : *vs)
        if (index < 0 || size_t(index) >= elems.size() ||
            !add(out, elems[index]))
          return std::nullopt;
    return out;
  }
  if (auto *call = dyn_cast<CallExpr>(s)) {
    // `std::max(n, 32)`, `std::min(n, 1024)`: each pair of values.
    auto *fn = call->getDirectCallee();
    if (!fn || call->getNumArgs() != 2 || !fn->isInStdNamespace() ||
        !fn->getIdentifier() ||
        (fn->getName() != "max" && fn->getName() != "min"))
      return std::nullopt;
    bool isMax = fn->getName() == "max";
    return pairwise(call->getArg(0), call->getArg(1), depth,
                    [&](int64_t x, int64_t y) -> std::optional<int64_t> {
                      return isMax ? std::max(x, y) : std::min(x, y);
                    });
  }
  if (auto *c = dyn_cast<ConditionalOperator>(s)) {
    // `n < 1024 ? 128 : 256`: either.
    std::vector<int64_t> out;
    if (!unite(out, c->getTrueExpr(), depth) ||
        !unite(out, c->getFalseExpr(), depth))
      return std::nullopt;
    return out;
  }
  if (auto *b = dyn_cast<BinaryOperator>(s)) {
    BinaryOperatorKind op = b->getOpcode();
    return pairwise(b->getLHS(), b->getRHS(), depth,
                    [&](int64_t x, int64_t y) { return arithmetic(op, x, y); });
  }
  return std::nullopt;
}

template <class F>
std::optional<std::vector<int64_t>>
HostEval::pairwise(const Expr *a, const Expr *b, int depth, F f) const {
  auto l = ints(a, depth + 1);
  auto r = l ? ints(b, depth + 1) : std::nullopt;
  if (!l || !r)
    return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t x : *l)
    for (int64_t y : *r) {
      std::optional<int64_t> v = f(x, y);
      if (!v || !add(out, *v))
        return std::nullopt;
    }
  return out;
}

std::optional<std::vector<int64_t>> HostEval::assignedValues(const VarDecl *v,
                                                             int depth) const {
  if (!v->isLocalVarDecl() || isa<ParmVarDecl>(v))
    return std::nullopt;
  Changes c = changesOf(v);
  if (c.other || c.plain.empty())
    return std::nullopt;
  if (v->getInit()) {
    c.plain.insert(c.plain.begin(), v->getInit());
    c.cases.insert(c.cases.begin(), nullptr);
  }
  return withDefaults(c, depth);
}

std::optional<std::vector<int64_t>>
HostEval::withDefaults(const Changes &values, int depth) const {
  std::vector<int64_t> out;
  std::vector<std::string> options;
  const Expr *firstDefault = nullptr;
  for (size_t i = 0; i < values.plain.size(); ++i) {
    const Expr *e = values.plain[i];
    if (fromCommandLine(e)) {
      addUnique(options, optionOf(ac, values.cases[i]));
      continue;
    }
    if (!unite(out, e, depth))
      return std::nullopt;
    if (!firstDefault)
      firstDefault = e;
  }
  if (out.empty())
    return std::nullopt;
  for (const std::string &o : options)
    addUnique(*defaults, (o.empty() ? std::string("the default when the "
                                                  "command line gives none")
                                    : "the default of " + o) +
                             " (" + whereIs(ac, firstDefault) + ")");
  return out;
}

std::optional<std::vector<int64_t>>
HostEval::bodyFieldValues(const MemberExpr *m, int depth) const {
  const FieldDecl *field = nullptr;
  const CXXConstructExpr *ce = localConstruction(m, field);
  if (!ce)
    return std::nullopt;
  const CXXConstructorDecl *ctor = ce->getConstructor();
  const FunctionDecl *def = nullptr;
  if (!ctor->hasBody(def))
    return std::nullopt;
  auto assigned =
      constructorAssignments(dyn_cast<CXXConstructorDecl>(def), field);
  if (!assigned || assigned->plain.empty())
    return std::nullopt;
  // A member initializer or default member initializer comes first.
  Changes values = std::move(*assigned);
  for (const CXXCtorInitializer *init :
       dyn_cast<CXXConstructorDecl>(def)->inits())
    if (init->getMember() == field && init->getInit() &&
        (init->isWritten() || isa<CXXDefaultInitExpr>(init->getInit()))) {
      values.plain.insert(values.plain.begin(), init->getInit());
      values.cases.insert(values.cases.begin(), nullptr);
    }
  return withDefaults(values, depth);
}

const ForStmt *HostEval::assignedLoopAround(const VarDecl *v,
                                            const Expr *use) const {
  auto it = facts.assignedLoops.find(v);
  if (it == facts.assignedLoops.end())
    return nullptr;
  const SourceManager &sm = ac.getSourceManager();
  const SourceLocation at = sm.getExpansionLoc(use->getBeginLoc());
  const ForStmt *inner = nullptr;
  for (const ForStmt *f : it->second) {
    const Stmt *body = f->getBody();
    if (!body)
      continue;
    SourceLocation b = sm.getExpansionLoc(body->getBeginLoc()),
                   e = sm.getExpansionLoc(body->getEndLoc());
    if (sm.isBeforeInTranslationUnit(at, b) ||
        sm.isBeforeInTranslationUnit(e, at))
      continue;
    // Nested loops: the later start is the inner one.
    if (!inner ||
        sm.isBeforeInTranslationUnit(inner->getBeginLoc(), f->getBeginLoc()))
      inner = f;
  }
  return inner;
}

std::optional<std::vector<int64_t>>
HostEval::loopValues(const VarDecl *v, const ForStmt *f, int depth) const {
  // The start may take several values: an inner loop of a network whose
  // start is the outer loop's variable (`for (k = 2; k <= n; k <<= 1) for
  // (j = k >> 1; j > 0; j >>= 1)`, a bitonic sort's steps) runs from each,
  // and its values are those of every run, in the order the launches make
  // them first.
  // `for (int x = 4; ...)`, or `for (x = 4; ...)` with x declared before.
  const Expr *start = v->getInit();
  if (auto *a = dyn_cast_or_null<BinaryOperator>(f->getInit());
      a && a->getOpcode() == BO_Assign && isVar(a->getLHS(), v))
    start = a->getRHS();
  auto starts = start ? ints(start, depth + 1) : std::nullopt;
  auto *cond = dyn_cast_or_null<BinaryOperator>(
      f->getCond() ? f->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!starts || starts->empty() || !cond || !isVar(cond->getLHS(), v) ||
      changesIn(v, f->getBody()).any())
    return std::nullopt;
  auto bound = one(cond->getRHS(), depth + 1);
  // The step: x' = step(x), or none.
  const Expr *inc = f->getInc() ? f->getInc()->IgnoreParenImpCasts() : nullptr;
  BinaryOperatorKind stepOp;
  int64_t by = 1;
  if (auto *u = dyn_cast_or_null<UnaryOperator>(inc);
      u && u->isIncrementDecrementOp() && isVar(u->getSubExpr(), v)) {
    stepOp = u->isIncrementOp() ? BO_Add : BO_Sub;
  } else if (auto *c = dyn_cast_or_null<CompoundAssignOperator>(inc);
             c && isVar(c->getLHS(), v)) {
    auto amount = one(c->getRHS(), depth + 1);
    if (!amount)
      return std::nullopt;
    by = *amount;
    stepOp = BinaryOperator::getOpForCompoundAssignment(c->getOpcode());
  } else if (auto *a = dyn_cast_or_null<BinaryOperator>(inc);
             a && a->getOpcode() == BO_Assign && isVar(a->getLHS(), v)) {
    // `j = j >> 1`, `x = x * 2`: the variable on the left of the operator.
    auto *op = dyn_cast<BinaryOperator>(a->getRHS()->IgnoreParenImpCasts());
    auto amount = op && isVar(op->getLHS(), v) ? one(op->getRHS(), depth + 1)
                                               : std::nullopt;
    if (!amount)
      return std::nullopt;
    by = *amount;
    stepOp = op->getOpcode();
  } else {
    return std::nullopt;
  }
  if (stepOp != BO_Add && stepOp != BO_Sub && stepOp != BO_Mul &&
      stepOp != BO_Div && stepOp != BO_Shl && stepOp != BO_Shr)
    return std::nullopt;
  // A bound it cannot evaluate (a parameter, `max`): a variable that grows
  // geometrically toward it from a positive start takes its first values
  // whatever the bound, as far as the bound lets the loop run; those are
  // taken (at most MaxInts), and the launch's text says so.
  const bool growing =
      (stepOp == BO_Mul && by >= 2) || (stepOp == BO_Shl && by >= 1);
  const bool open = !bound;
  if (open && !(growing && starts->size() == 1 && starts->front() > 0 &&
                (cond->getOpcode() == BO_LT || cond->getOpcode() == BO_LE)))
    return std::nullopt;
  auto holds = [&](int64_t x) {
    if (open)
      return true;
    switch (cond->getOpcode()) {
    case BO_LT:
      return x < *bound;
    case BO_LE:
      return x <= *bound;
    case BO_GT:
      return x > *bound;
    case BO_GE:
      return x >= *bound;
    case BO_NE:
      return x != *bound;
    default:
      return false;
    }
  };
  std::vector<int64_t> out;
  for (const int64_t start : *starts) {
    int64_t x = start;
    while (holds(x)) {
      if (open && out.size() == MaxInts) {
        const SourceManager &sm = ac.getSourceManager();
        const std::string limit =
            Lexer::getSourceText(CharSourceRange::getTokenRange(
                                     cond->getRHS()->getSourceRange()),
                                 sm, ac.getLangOpts())
                .str();
        openLoops->push_back("in a loop of '" + v->getName().str() + "' from " +
                             std::to_string(start) + " while " +
                             (cond->getOpcode() == BO_LT ? "< " : "<= ") +
                             limit + " at " + whereIs(ac, cond) +
                             ": its first " + std::to_string(MaxInts) +
                             " values");
        break;
      }
      if (!add(out, x))
        return std::nullopt; // too many to be one launch each
      const std::optional<int64_t> step = arithmetic(stepOp, x, by);
      if (!step)
        return std::nullopt;
      const int64_t next = *step;
      if (next == x || std::abs(next) > (int64_t(1) << 40))
        return std::nullopt; // no progress, or runaway
      x = next;
    }
  }
  if (out.empty())
    return std::nullopt;
  return out;
}

/// An `if` without else whose body only leaves (`if (stride < 512)
/// continue;`): what follows it in its block runs where it did not hold.
static bool exitsOnly(const IfStmt *i) {
  if (i->getElse() || i->getInit() || i->getConditionVariable())
    return false;
  const Stmt *t = i->getThen();
  if (auto *c = dyn_cast<CompoundStmt>(t))
    t = c->size() == 1 ? c->body_front() : nullptr;
  return t && (isa<ContinueStmt>(t) || isa<BreakStmt>(t) || isa<ReturnStmt>(t));
}

/// The `if`s on the way from `s` down to `target`, each with the branch
/// taken (true: then), and those of an earlier statement of a block on the
/// way that leaves unless its condition fails (false); false when `target`
/// is not under `s`.
static bool ifsOnPath(const Stmt *s, const Stmt *target,
                      std::vector<std::pair<const IfStmt *, bool>> &ifs) {
  if (!s)
    return false;
  if (s == target)
    return true;
  if (auto *i = dyn_cast<IfStmt>(s)) {
    for (bool then : {true, false}) {
      ifs.emplace_back(i, then);
      if (ifsOnPath(then ? i->getThen() : i->getElse(), target, ifs))
        return true;
      ifs.pop_back();
    }
    return ifsOnPath(i->getCond(), target, ifs);
  }
  const size_t before = ifs.size();
  for (const Stmt *c : s->children()) {
    if (ifsOnPath(c, target, ifs))
      return true;
    if (auto *i = dyn_cast_or_null<IfStmt>(c);
        i && isa<CompoundStmt>(s) && exitsOnly(i))
      ifs.emplace_back(i, false);
  }
  ifs.resize(before);
  return false;
}

void HostEval::keepGuarded(std::vector<int64_t> &values, const VarDecl *v,
                           const ForStmt *f, const Expr *use, int depth) const {
  std::vector<std::pair<const IfStmt *, bool>> ifs;
  if (!ifsOnPath(f->getBody(), use, ifs))
    return;
  // Each comparison of the variable with a value the host shows, in a
  // condition that must hold (the then-branch of `a && b`, or the else of
  // `a || b`, which holds its negations).
  std::vector<std::pair<const BinaryOperator *, bool>> tests;
  std::function<void(const Expr *, bool)> collect = [&](const Expr *c,
                                                        bool holds) {
    c = c->IgnoreParenImpCasts();
    if (auto *u = dyn_cast<UnaryOperator>(c); u && u->getOpcode() == UO_LNot)
      return collect(u->getSubExpr(), !holds);
    auto *b = dyn_cast<BinaryOperator>(c);
    if (!b)
      return;
    if ((b->getOpcode() == BO_LAnd && holds) ||
        (b->getOpcode() == BO_LOr && !holds)) {
      collect(b->getLHS(), holds);
      collect(b->getRHS(), holds);
    } else if (b->isComparisonOp()) {
      tests.emplace_back(b, holds);
    }
  };
  for (const auto &[i, then] : ifs)
    if (!i->getInit() && !i->getConditionVariable())
      collect(i->getCond(), then);
  for (const auto &[b, holds] : tests) {
    const bool left = isVar(b->getLHS(), v);
    if (!left && !isVar(b->getRHS(), v))
      continue;
    auto other = one(left ? b->getRHS() : b->getLHS(), depth + 1);
    if (!other) {
      // Compared with a value the host does not show: which of the loop's
      // values reach the launch is not known, and none is taken.
      values.clear();
      return;
    }
    auto test = [&, op = b->getOpcode()](int64_t x) {
      int64_t l = left ? x : *other, r = left ? *other : x;
      switch (op) {
      case BO_LT:
        return l < r;
      case BO_LE:
        return l <= r;
      case BO_GT:
        return l > r;
      case BO_GE:
        return l >= r;
      case BO_EQ:
        return l == r;
      case BO_NE:
        return l != r;
      default:
        return true;
      }
    };
    values.erase(std::remove_if(values.begin(), values.end(),
                                [&](int64_t x) { return test(x) != holds; }),
                 values.end());
  }
}

bool HostEval::isVar(const Expr *e, const VarDecl *v) {
  auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  return d && d->getDecl() == v;
}

bool HostEval::unite(std::vector<int64_t> &out, const Expr *e,
                     int depth) const {
  auto v = ints(e, depth + 1);
  if (!v)
    return false;
  for (int64_t x : *v)
    if (!add(out, x))
      return false;
  return true;
}

const Expr *HostEval::rangeOf(const VarDecl *v) const {
  auto it = facts.ranges.find(v);
  return it == facts.ranges.end() ? nullptr : it->second;
}

std::optional<std::vector<int64_t>> HostEval::elements(const Expr *range,
                                                       int depth) const {
  range = range->IgnoreParenImpCasts();
  if (auto *m = dyn_cast<MaterializeTemporaryExpr>(range))
    range = m->getSubExpr()->IgnoreParenImpCasts();
  if (auto *il = dyn_cast<CXXStdInitializerListExpr>(range))
    range = il->getSubExpr()->IgnoreParenImpCasts();
  if (auto *m = dyn_cast<MaterializeTemporaryExpr>(range))
    range = m->getSubExpr()->IgnoreParenImpCasts();
  const InitListExpr *list = dyn_cast<InitListExpr>(range);
  if (!list)
    if (auto *d = dyn_cast<DeclRefExpr>(range))
      if (auto *arr = dyn_cast<VarDecl>(d->getDecl());
          arr && arr->isLocalVarDecl() && arr->getType()->isArrayType() &&
          !reassigned(arr) && arr->getInit())
        list = dyn_cast<InitListExpr>(arr->getInit()->IgnoreParenImpCasts());
  if (!list || list->getNumInits() == 0)
    return std::nullopt;
  std::vector<int64_t> out;
  for (const Expr *x : list->inits())
    if (!unite(out, x, depth))
      return std::nullopt;
  return out;
}

std::optional<std::vector<int64_t>> HostEval::constantArray(const Expr *e,
                                                            int depth) const {
  auto *d = e ? dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()) : nullptr;
  auto *arr = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!arr || !arr->getType()->isArrayType() || !arr->getInit())
    return std::nullopt;
  // A local the function does not change, or a table at namespace scope
  // whose elements are const (`static const int kSizes[] = {...}`).
  const ArrayType *at = arr->getASTContext().getAsArrayType(arr->getType());
  const bool constTable = !arr->isLocalVarDecl() && arr->hasGlobalStorage() &&
                          at && at->getElementType().isConstQualified();
  if (!arr->isLocalVarDecl() && !constTable)
    return std::nullopt;
  auto *list = dyn_cast<InitListExpr>(arr->getInit()->IgnoreParenImpCasts());
  if (!list || list->getNumInits() == 0 || list->getNumInits() > 16 ||
      (!constTable && !arrayUnchanged(arr)))
    return std::nullopt;
  std::vector<int64_t> out;
  for (const Expr *x : list->inits()) {
    auto v = one(x, depth + 1);
    if (!v)
      return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<std::vector<std::vector<int64_t>>>
HostEval::arrayValues(const Expr *base, int depth) const {
  if (pastBound(base, depth))
    return std::nullopt;
  if (auto a = constantArray(base, depth))
    return std::vector<std::vector<int64_t>>{*a};
  auto *d = dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts());
  auto *p = d ? dyn_cast<ParmVarDecl>(d->getDecl()) : nullptr;
  auto *fd = p ? dyn_cast_or_null<FunctionDecl>(p->getDeclContext()) : nullptr;
  if (!fd || !p->getType()->isPointerType() || reassigned(p))
    return std::nullopt;
  return once(p, [&]() -> std::optional<std::vector<std::vector<int64_t>>> {
    unsigned index = p->getFunctionScopeIndex();
    if (const Expr *arg = boundArgument(p))
      return unbound().arrayValues(arg, depth + 1);
    if (boundForeign && fd->getCanonicalDecl() == boundFn) {
      if (index < boundForeign->arrays.size() && boundForeign->arrays[index])
        return std::vector<std::vector<int64_t>>{*boundForeign->arrays[index]};
      return std::nullopt;
    }
    auto it = facts.calls.find(fd->getCanonicalDecl());
    if (it == facts.calls.end() || it->second.empty() ||
        it->second.size() > MaxValues)
      return std::nullopt;
    std::vector<std::vector<int64_t>> out;
    for (const CallExpr *c : it->second) {
      auto a = index < c->getNumArgs()
                   ? arrayValues(c->getArg(index), depth + 1)
                   : std::nullopt;
      if (!a)
        return std::nullopt;
      out.insert(out.end(), a->begin(), a->end());
    }
    return out;
  });
}

std::optional<std::vector<int64_t>> HostEval::parameter(const ParmVarDecl *p,
                                                        int depth) const {
  if (const Expr *arg = boundArgument(p))
    return unbound().ints(arg, depth + 1);
  if (auto *fd = dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
      boundForeign && fd && fd->getCanonicalDecl() == boundFn) {
    unsigned index = p->getFunctionScopeIndex();
    if (index < boundForeign->assuming.size())
      for (const std::string &d : boundForeign->assuming[index])
        addUnique(*defaults, d);
    if (index < boundForeign->args.size())
      return boundForeign->args[index];
    return std::nullopt;
  }
  auto *fd = dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
  if (!fd)
    return std::nullopt;
  auto it = facts.calls.find(fd->getCanonicalDecl());
  if (it == facts.calls.end() || it->second.empty())
    return std::nullopt;
  unsigned index = p->getFunctionScopeIndex();
  std::vector<int64_t> out;
  for (const CallExpr *c : it->second)
    if (!unite(out, index < c->getNumArgs() ? c->getArg(index) : nullptr,
               depth))
      return std::nullopt;
  return out;
}

bool HostEval::add(std::vector<int64_t> &out, int64_t v) {
  if (std::find(out.begin(), out.end(), v) == out.end())
    out.push_back(v);
  return out.size() <= MaxInts;
}

std::optional<int64_t> HostEval::one(const Expr *e, int depth) const {
  auto v = ints(e, depth);
  if (v && v->size() == 1)
    return (*v)[0];
  return std::nullopt;
}

std::optional<std::vector<Shape>> HostEval::dims(const Expr *e,
                                                 int depth) const {
  // A template's pattern has initializers with no type yet (`dim3
  // b(param.n / 4)` as a ParenListExpr): nothing to read there.
  if (!e || e->getType().isNull() || e->isTypeDependent() ||
      e->isValueDependent() || pastBound(e, depth))
    return std::nullopt;
  e = e->IgnoreParenImpCasts();
  if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
    return dims(m->getSubExpr(), depth + 1);
  if (auto *f = dyn_cast<FullExpr>(e))
    return dims(f->getSubExpr(), depth + 1);
  if (auto *b = dyn_cast<CXXBindTemporaryExpr>(e))
    return dims(b->getSubExpr(), depth + 1);
  if (auto *c = dyn_cast<CXXFunctionalCastExpr>(e))
    return dims(c->getSubExpr(), depth + 1);
  auto members =
      [&](std::vector<const Expr *> args) -> std::optional<std::vector<Shape>> {
    std::vector<Shape> out{Shape{1, 1, 1}};
    for (size_t i = 0; i < args.size() && i < 3; ++i) {
      auto v = ints(args[i], depth + 1);
      // A member whose value the host code does not show is unknown (0);
      // the members given and the 1s of those left out still hold.
      if (!v)
        v = std::vector<int64_t>{0};
      // A block dimension is positive: a variable's placeholder (`int
      // threads = 0;` then set on every path) is not one of its shapes.
      if (std::any_of(v->begin(), v->end(), [](int64_t x) { return x > 0; }))
        v->erase(std::remove_if(v->begin(), v->end(),
                                [](int64_t x) { return x <= 0; }),
                 v->end());
      std::vector<Shape> next;
      for (const Shape &sh : out)
        for (int64_t x : *v) {
          Shape t = sh;
          (i == 0 ? t.x : i == 1 ? t.y : t.z) = x;
          if (std::find(next.begin(), next.end(), t) == next.end())
            next.push_back(t);
        }
      if (next.size() > MaxValues)
        return std::nullopt;
      out = std::move(next);
    }
    return out;
  };
  if (auto *c = dyn_cast<CXXConstructExpr>(e)) {
    if (c->getNumArgs() == 1 &&
        c->getArg(0)->getType()->isRecordType()) // copy/move or uint3
      return dims(c->getArg(0), depth + 1);
    return members({c->getArgs(), c->getArgs() + c->getNumArgs()});
  }
  if (auto *il = dyn_cast<InitListExpr>(e))
    return members({il->getInits(), il->getInits() + il->getNumInits()});
  if (auto *d = dyn_cast<DeclRefExpr>(e))
    if (auto *v = dyn_cast<VarDecl>(d->getDecl())) {
      if (auto *p = dyn_cast<ParmVarDecl>(v)) {
        if (!p->getType()->isRecordType() || reassigned(p))
          return std::nullopt;
        return once(p, [&] { return dimParameter(p, depth); });
      }
      if (v->getInit()) {
        // `dim3 b, t;` declared once and assigned before each launch: the
        // last assignment before this one is its value.
        SourceLocation assigned;
        const Expr *whole = lastWholeAssignmentBefore(v, d, &assigned);
        auto s = dims(whole ? whole : v->getInit(), depth + 1);
        // `dim3 b; b.x = 1; b.y = n;`: the members assigned later win; a
        // member set to a value that is not constant is unknown (0).
        for (const auto &[dim, value] : memberAssignments(v, d, assigned)) {
          if (!s)
            break;
          auto x = one(value, depth + 1);
          int64_t c = x && *x > 0 ? *x : 0;
          for (Shape &sh : *s)
            (dim == 0 ? sh.x : dim == 1 ? sh.y : sh.z) = c;
        }
        return s;
      }
    }
  // An integer is x alone: y and z are 1 even when x is not known.
  if (e->getType()->isIntegralOrEnumerationType()) {
    std::vector<Shape> out;
    if (auto v = ints(e, depth + 1))
      for (int64_t x : *v)
        out.push_back(Shape{x, 1, 1});
    else
      out.push_back(Shape{0, 1, 1});
    return out;
  }
  return std::nullopt;
}

std::optional<std::vector<Shape>> HostEval::dimParameter(const ParmVarDecl *p,
                                                         int depth) const {
  if (const Expr *arg = boundArgument(p))
    return unbound().dims(arg, depth + 1);
  auto *fd = dyn_cast_or_null<FunctionDecl>(p->getDeclContext());
  auto it = fd ? facts.calls.find(fd->getCanonicalDecl()) : facts.calls.end();
  if (it == facts.calls.end() || it->second.empty())
    return std::nullopt;
  unsigned index = p->getFunctionScopeIndex();
  std::vector<Shape> out;
  for (const CallExpr *c : it->second) {
    auto v = index < c->getNumArgs() ? dims(c->getArg(index), depth + 1)
                                     : std::nullopt;
    if (!v)
      return std::nullopt;
    for (const Shape &sh : *v)
      if (std::find(out.begin(), out.end(), sh) == out.end())
        out.push_back(sh);
  }
  if (out.size() > MaxValues)
    return std::nullopt;
  return out;
}

} // namespace host
} // namespace warplint
