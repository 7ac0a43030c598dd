// The walker's loops: a for, while or do loop as a recurrence of its
// induction variables (SCEV-style `{start, +, step}`), the values its body
// leaves, and when nvcc unrolls it.
#include "frontend/walker/Walker.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/ScopeExit.h"

namespace warplint {
namespace detail {

static bool ownJump(const Stmt *s, bool continues, bool nested = false) {
  if (!s)
    return false;
  if (continues ? isa<ContinueStmt>(s) : isa<BreakStmt>(s))
    return !nested;
  if (!continues &&
      (isa<ReturnStmt>(s) || isa<GotoStmt>(s) || isa<IndirectGotoStmt>(s)))
    return true;
  bool inner = nested || isa<ForStmt>(s) || isa<WhileStmt>(s) ||
               isa<DoStmt>(s) || isa<CXXForRangeStmt>(s) ||
               (!continues && isa<SwitchStmt>(s));
  for (const Stmt *c : s->children())
    if (ownJump(c, continues, inner))
      return true;
  return false;
}

// Can the loop's body leave it other than by its condition?
static bool leavesEarly(const Stmt *s) { return ownJump(s, false); }

// `next` as `var + step` with a step that does not use the variable.
static LaneExpr linearStep(const LaneExpr &next, int loop, const Context &ctx) {
  if (!next)
    return nullptr;
  auto isVar = [&](const LaneExpr &e) {
    return e && e->op == Op::LoopVar && e->value == loop;
  };
  auto free = [&](const LaneExpr &e) {
    if (!e)
      return false;
    Props p = props(e, ctx);
    return std::find(p.loops.begin(), p.loops.end(), loop) == p.loops.end();
  };
  if (next->op == Op::Add && isVar(next->a) && free(next->b))
    return next->b;
  if (next->op == Op::Add && isVar(next->b) && free(next->a))
    return next->a;
  if (next->op == Op::Sub && isVar(next->a) && free(next->b))
    return un(Op::Neg, next->b);
  return nullptr;
}

// A for loop whose trip count its header gives (`for (int k = a; k < b;
// k += c)`, c a positive constant, k changed nowhere else, and no jump out
// of the body): its counter's start, bound and step.
static bool countedFor(const ForStmt *f, const ASTContext &ac,
                       NestedSteps &out) {
  const VarDecl *k = nullptr;
  if (auto *ds = dyn_cast_or_null<DeclStmt>(f->getInit());
      ds && ds->isSingleDecl())
    if (auto *v = dyn_cast<VarDecl>(ds->getSingleDecl()); v && v->getInit()) {
      k = v;
      out.from = v->getInit();
    }
  if (auto *b = dyn_cast_or_null<BinaryOperator>(f->getInit());
      b && b->getOpcode() == BO_Assign)
    if (auto *d = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts())) {
      k = dyn_cast<VarDecl>(d->getDecl());
      out.from = b->getRHS();
    }
  if (!k || !k->getType()->isIntegerType())
    return false;
  auto isK = [&](const Expr *e) {
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d && d->getDecl() == k;
  };
  auto *c = dyn_cast_or_null<BinaryOperator>(f->getCond());
  if (!c || !isK(c->getLHS()) ||
      (c->getOpcode() != BO_LT && c->getOpcode() != BO_LE &&
       c->getOpcode() != BO_NE))
    return false;
  out.test = c->getOpcode();
  out.bound = c->getRHS();
  const Expr *inc = f->getInc() ? f->getInc()->IgnoreParenImpCasts() : nullptr;
  if (auto *u = dyn_cast_or_null<UnaryOperator>(inc);
      u && u->isIncrementOp() && isK(u->getSubExpr())) {
    out.stride = 1;
  } else if (auto *b = dyn_cast_or_null<BinaryOperator>(inc);
             b && b->getOpcode() == BO_AddAssign && isK(b->getLHS())) {
    Expr::EvalResult r;
    if (b->getRHS()->isValueDependent() ||
        !b->getRHS()->EvaluateAsInt(r, ac) || r.Val.getInt().getSExtValue() <= 0)
      return false;
    out.stride = r.Val.getInt().getSExtValue();
  } else {
    return false;
  }
  if (out.test == BO_NE && out.stride != 1)
    return false;
  AssignedVars inBody;
  inBody.TraverseStmt(const_cast<Stmt *>(f->getBody()));
  if (inBody.vars.count(k))
    return false;
  struct Jumps : RecursiveASTVisitor<Jumps> {
    bool found = false;
    bool VisitStmt(Stmt *x) {
      found |= isa<BreakStmt, ReturnStmt, GotoStmt>(x);
      return !found;
    }
  } jumps;
  jumps.TraverseStmt(const_cast<Stmt *>(f->getBody()));
  out.loop = f;
  return !jumps.found;
}


std::set<const VarDecl *>
Walker::restoredVars(const Stmt *body, const std::set<const VarDecl *> &inBody,
                     const std::set<const VarDecl *> &inInc) {
  std::set<const VarDecl *> out;
  auto *cs = dyn_cast_or_null<CompoundStmt>(body);
  if (!cs || ownJump(body, true))
    return out;
  std::vector<const Stmt *> stmts(cs->body_begin(), cs->body_end());
  // Plain arithmetic on variables neither the body nor the increment
  // assigns: no call, no memory read, so its value before the loop is its
  // value at the end of every iteration.
  std::function<bool(const Stmt *)> invariant = [&](const Stmt *x) {
    if (auto *d = dyn_cast<DeclRefExpr>(x)) {
      auto *v = dyn_cast<VarDecl>(d->getDecl());
      return !v || (!inBody.count(v) && !inInc.count(v) &&
                    !v->getType()->isArrayType());
    }
    if (!isa<IntegerLiteral, BinaryOperator, UnaryOperator, ImplicitCastExpr,
             CStyleCastExpr, ParenExpr>(x))
      return false;
    if (auto *b = dyn_cast<BinaryOperator>(x); b && b->isAssignmentOp())
      return false;
    if (auto *u = dyn_cast<UnaryOperator>(x);
        u && (u->isIncrementDecrementOp() || u->getOpcode() == UO_Deref ||
              u->getOpcode() == UO_AddrOf))
      return false;
    for (const Stmt *c : x->children())
      if (!c || !invariant(c))
        return false;
    return true;
  };
  std::set<const VarDecl *> later;
  for (auto it = stmts.rbegin(); it != stmts.rend(); ++it) {
    const Stmt *st = *it;
    if (auto *e = dyn_cast<Expr>(st))
      st = e->IgnoreImplicit();
    auto *b = dyn_cast<BinaryOperator>(st);
    auto *d = b && b->getOpcode() == BO_Assign
                  ? dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts())
                  : nullptr;
    auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
    if (v && !later.count(v) && !inInc.count(v) &&
        v->getType()->isScalarType() && invariant(b->getRHS())) {
      // (A parameter the body assigns is in Env: loop() reads it in.)
      auto held = Env.find(v);
      bool saved = NoRecord;
      NoRecord = true;
      Val back = rvalue(b->getRHS());
      NoRecord = saved;
      if (held != Env.end() && !held->second.isRecord() && held->second.v &&
          back.v == held->second.v && back.base == held->second.base &&
          back.kind == held->second.kind)
        out.insert(v);
    }
    AssignedVars here;
    here.TraverseStmt(const_cast<Stmt *>(*it));
    later.insert(here.vars.begin(), here.vars.end());
  }
  return out;
}

std::set<const VarDecl *>
Walker::clampedSteps(const Expr *cond, const Expr *inc, const Stmt *body,
                     const std::set<const VarDecl *> &inBody) {
  std::set<const VarDecl *> out;
  auto *cs = dyn_cast_or_null<CompoundStmt>(body);
  auto *c = cond ? dyn_cast<BinaryOperator>(cond->IgnoreParenImpCasts())
                 : nullptr;
  auto *step = inc ? dyn_cast<BinaryOperator>(inc->IgnoreParenImpCasts())
                   : nullptr;
  if (!cs || !c || c->getOpcode() != BO_LT || !step ||
      step->getOpcode() != BO_AddAssign)
    return out;
  auto var = [](const Expr *e) -> const VarDecl * {
    auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    return d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  };
  const VarDecl *j = var(c->getLHS()), *len = var(step->getRHS());
  const Expr *n = c->getRHS()->IgnoreParenImpCasts();
  if (!j || !len || j == len || var(step->getLHS()) != j ||
      !len->getType()->isIntegerType())
    return out;
  if (inBody.count(j))
    return out;
  // n reads nothing the body changes.
  struct Refs : RecursiveASTVisitor<Refs> {
    std::set<const VarDecl *> vars;
    bool other = false;
    bool VisitDeclRefExpr(DeclRefExpr *d) {
      if (auto *v = dyn_cast<VarDecl>(d->getDecl()))
        vars.insert(v);
      return true;
    }
    bool VisitCallExpr(CallExpr *) { return other = true, true; }
  } refs;
  refs.TraverseStmt(const_cast<Expr *>(n));
  if (refs.other || refs.vars.count(j))
    return out;
  for (const VarDecl *v : refs.vars)
    if (inBody.count(v))
      return out;
  auto same = [](const Expr *a, const Expr *b) {
    return Expr::isSameComparisonOperand(a->IgnoreParenImpCasts(),
                                         b->IgnoreParenImpCasts());
  };
  // `j + len` or `len + j`.
  auto sum = [&](const Expr *e) {
    auto *b = dyn_cast<BinaryOperator>(e->IgnoreParenImpCasts());
    if (!b || b->getOpcode() != BO_Add)
      return false;
    const VarDecl *x = var(b->getLHS()), *y = var(b->getRHS());
    return (x == j && y == len) || (x == len && y == j);
  };
  for (const Stmt *st : cs->body()) {
    auto *is = dyn_cast<IfStmt>(st);
    if (!is || is->getElse() || is->getInit() || is->getConditionVariable())
      continue;
    const Stmt *then = is->getThen();
    if (auto *block = dyn_cast<CompoundStmt>(then); block && block->size() == 1)
      then = block->body_front();
    auto *set = dyn_cast<BinaryOperator>(then);
    auto *rest = set && set->getOpcode() == BO_Assign && var(set->getLHS()) == len
                     ? dyn_cast<BinaryOperator>(set->getRHS()->IgnoreParenImpCasts())
                     : nullptr;
    if (!rest || rest->getOpcode() != BO_Sub || !same(rest->getLHS(), n) ||
        var(rest->getRHS()) != j)
      continue;
    auto *g = dyn_cast<BinaryOperator>(is->getCond()->IgnoreParenImpCasts());
    bool clamp = g && (((g->getOpcode() == BO_GT || g->getOpcode() == BO_GE) &&
                        sum(g->getLHS()) && same(g->getRHS(), n)) ||
                       ((g->getOpcode() == BO_LT || g->getOpcode() == BO_LE) &&
                        same(g->getLHS(), n) && sum(g->getRHS())));
    if (!clamp)
      continue;
    // The clamp is the body's only assignment of len.
    AssignedVars others;
    for (const Stmt *o : cs->body())
      if (o != st)
        others.TraverseStmt(const_cast<Stmt *>(o));
    if (!others.vars.count(len))
      out.insert(len);
  }
  return out;
}

std::map<const VarDecl *, std::vector<const Expr *>>
Walker::bodyInductions(const Stmt *body,
                       std::map<const VarDecl *, const Expr *> &guards,
                       std::map<const VarDecl *, NestedSteps> *nested) {
  std::map<const VarDecl *, std::vector<const Expr *>> out;
  if (!body)
    return out;
  // The body's statements: a block's, or the one statement a body without
  // braces is (`for (...) s += *p++;`).
  std::vector<const Stmt *> stmts;
  if (auto *cs = dyn_cast<CompoundStmt>(body))
    stmts.assign(cs->body_begin(), cs->body_end());
  else
    stmts.push_back(body);
  AssignedVars all;
  all.TraverseStmt(const_cast<Stmt *>(body));
  // What the body changes: the variables it assigns and those it declares
  // (a fresh value each iteration).
  std::set<const VarDecl *> changing = all.vars;
  struct Decls : RecursiveASTVisitor<Decls> {
    std::set<const VarDecl *> *out;
    bool VisitVarDecl(VarDecl *v) {
      out->insert(v);
      return true;
    }
  } decls;
  decls.out = &changing;
  decls.TraverseStmt(const_cast<Stmt *>(body));
  // Does `x` read a variable the body changes?
  auto readsAssigned = [&](const Stmt *x) {
    bool reads = false;
    struct Refs : RecursiveASTVisitor<Refs> {
      const std::set<const VarDecl *> *assigned;
      bool *hit;
      bool VisitDeclRefExpr(DeclRefExpr *d) {
        if (auto *v = dyn_cast<VarDecl>(d->getDecl()); v && assigned->count(v))
          *hit = true;
        return !*hit;
      }
    } refs;
    refs.assigned = &changing;
    refs.hit = &reads;
    refs.TraverseStmt(const_cast<Stmt *>(x));
    return reads;
  };
  std::set<const Stmt *> updateStmts;
  // Updates at the top of the body, and in a top-level `if (c) { ... }`
  // whose condition the body does not change (`if (active) { indg +=
  // plane; ... }`): each lane steps by the update where c holds and by 0
  // elsewhere, the same every iteration.
  std::map<const VarDecl *, const Expr *> guardOf;
  std::map<const VarDecl *, int> guardCount;
  // Steps written inside a statement's expression (`s += *p++`, `out[j] =
  // in[k++]`): each runs once per iteration, as a step statement does,
  // unless it sits where evaluation is conditional (an arm of `?:`, the
  // right operand of `&&` or `||`), deferred (a lambda) or absent
  // (`sizeof`). The rest of the statement is then no update of the
  // variable (AssignedVars::skip).
  std::set<const Expr *> embeddedSteps;
  auto addUpdate = [&](const VarDecl *v, const Expr *x, const Expr *guard) {
    out[v].push_back(x);
    // Updates under two different guards are no one guarded step.
    if (guard && guardCount[v] && guardOf[v] != guard)
      guardCount[v] = -1;
    else if (guard && guardCount[v] >= 0)
      ++guardCount[v];
    guardOf[v] = guard;
  };
  auto embedded = [&](const Stmt *x, const Expr *guard, auto &&self) -> void {
    // (Nor in an operand that is never evaluated: `sizeof(k++)`.)
    if (!x || isa<LambdaExpr, StmtExpr, BlockExpr, UnaryExprOrTypeTraitExpr,
                  CXXNoexceptExpr, CXXTypeidExpr>(x))
      return;
    if (auto *c = dyn_cast<AbstractConditionalOperator>(x)) {
      self(c->getCond(), guard, self);
      return;
    }
    if (auto *b = dyn_cast<BinaryOperator>(x); b && b->isLogicalOp()) {
      self(b->getLHS(), guard, self);
      return;
    }
    if (auto *u = dyn_cast<UnaryOperator>(x); u && u->isIncrementDecrementOp())
      if (const VarDecl *v = localVar(u->getSubExpr())) {
        addUpdate(v, u, guard);
        embeddedSteps.insert(u);
        return;
      }
    for (const Stmt *c : x->children())
      self(c, guard, self);
  };
  auto scan = [&](const Stmt *st, const Expr *guard) {
    // A declaration's initializers (`uint32_t idx = cs ^ *data++;`).
    if (auto *ds = dyn_cast<DeclStmt>(st)) {
      for (const Decl *d : ds->decls())
        if (auto *v = dyn_cast<VarDecl>(d); v && v->getInit())
          embedded(v->getInit(), guard, embedded);
      return;
    }
    auto *e = dyn_cast<Expr>(st);
    if (!e)
      return;
    const Expr *x = e->IgnoreParenImpCasts(), *target = nullptr;
    if (auto *b = dyn_cast<BinaryOperator>(x); b && b->isAssignmentOp())
      target = b->getLHS();
    else if (auto *u = dyn_cast<UnaryOperator>(x);
             u && u->isIncrementDecrementOp())
      target = u->getSubExpr();
    if (const VarDecl *v = target ? localVar(target) : nullptr) {
      addUpdate(v, x, guard);
      updateStmts.insert(st);
    }
    for (const Stmt *c : x->children())
      embedded(c, guard, embedded);
  };
  // Steps inside an inner loop of counted iterations (`++weightOffset` at
  // the top of `for (kW = 0; kW < KW; ++kW)`): candidates, kept below when
  // nothing else changes the variable.
  std::map<const VarDecl *, NestedSteps> inner;
  std::set<const Stmt *> countedLoops;
  auto invariantUpdate = [&](const Stmt *st) -> const VarDecl * {
    auto *e = dyn_cast<Expr>(st);
    if (!e)
      return nullptr;
    const Expr *x = e->IgnoreParenImpCasts();
    if (auto *u = dyn_cast<UnaryOperator>(x); u && u->isIncrementDecrementOp())
      return localVar(u->getSubExpr());
    if (auto *b = dyn_cast<BinaryOperator>(x);
        b && (b->getOpcode() == BO_AddAssign ||
              b->getOpcode() == BO_SubAssign) &&
        !readsAssigned(b->getRHS()))
      return localVar(b->getLHS());
    return nullptr;
  };
  if (nested)
    for (const Stmt *st : stmts) {
      // (`#pragma unroll` wraps the loop in an attributed statement.)
      if (auto *as = dyn_cast<AttributedStmt>(st))
        st = as->getSubStmt();
      auto *f = dyn_cast<ForStmt>(st);
      auto *fb = f ? dyn_cast_or_null<CompoundStmt>(f->getBody()) : nullptr;
      NestedSteps n;
      if (!fb || !countedFor(f, AC, n) || readsAssigned(n.from) ||
          readsAssigned(n.bound))
        continue;
      std::map<const VarDecl *, std::vector<const Expr *>> here;
      for (const Stmt *x : fb->body())
        if (const VarDecl *v = invariantUpdate(x))
          here[v].push_back(llvm::cast<Expr>(x)->IgnoreParenImpCasts());
      if (here.empty())
        continue;
      countedLoops.insert(st);
      for (auto &[v, ups] : here) {
        if (inner.count(v)) {
          inner[v].loop = nullptr; // stepped in two inner loops: not one step
          continue;
        }
        NestedSteps one = n;
        one.updates = ups;
        inner[v] = one;
        for (const Expr *u : ups)
          updateStmts.insert(u);
      }
    }
  for (const Stmt *st : stmts) {
    auto *is = dyn_cast<IfStmt>(st);
    if (is && !is->getElse() && !is->getInit() &&
        !is->getConditionVariable() && !is->isConstexpr() &&
        !readsAssigned(is->getCond())) {
      if (auto *inner = dyn_cast<CompoundStmt>(is->getThen()))
        for (const Stmt *x : inner->body())
          scan(x, is->getCond());
      continue;
    }
    scan(st, nullptr);
  }
  AssignedVars elsewhere;
  elsewhere.skip = &embeddedSteps;
  auto skipUpdates = [&](const Stmt *st, auto &&self) -> void {
    if (updateStmts.count(st))
      return;
    if (auto *e = dyn_cast<Expr>(st); e && updateStmts.count(e->IgnoreParenImpCasts()))
      return;
    if (auto *as = dyn_cast<AttributedStmt>(st);
        as && countedLoops.count(as->getSubStmt()))
      st = as->getSubStmt();
    if (countedLoops.count(st)) {
      auto *f = llvm::cast<ForStmt>(st);
      for (const Stmt *part : {f->getInit(), static_cast<const Stmt *>(f->getCond()),
                               static_cast<const Stmt *>(f->getInc())})
        if (part)
          elsewhere.TraverseStmt(const_cast<Stmt *>(part));
      for (const Stmt *x : llvm::cast<CompoundStmt>(f->getBody())->body())
        self(x, self);
      return;
    }
    auto *is = dyn_cast<IfStmt>(st);
    auto *inner = is ? dyn_cast<CompoundStmt>(is->getThen()) : nullptr;
    if (inner && !is->getElse()) {
      elsewhere.TraverseStmt(const_cast<Expr *>(is->getCond()));
      for (const Stmt *x : inner->body())
        self(x, self);
      return;
    }
    elsewhere.TraverseStmt(const_cast<Stmt *>(st));
  };
  for (const Stmt *st : stmts)
    skipUpdates(st, skipUpdates);
  // Several updates of one variable (`i += width;` after each part of an
  // unrolled body) are one induction when each adds or subtracts a value
  // the body does not change: the body's walk sees each step in turn.
  auto invariantStep = [&](const Expr *x) {
    if (auto *u = dyn_cast<UnaryOperator>(x))
      return u->isIncrementDecrementOp();
    auto *b = dyn_cast<BinaryOperator>(x);
    if (!b || (b->getOpcode() != BO_AddAssign && b->getOpcode() != BO_SubAssign))
      return false;
    return !readsAssigned(b->getRHS());
  };
  for (auto it = out.begin(); it != out.end();) {
    bool ok = !elsewhere.vars.count(it->first) && Env.count(it->first);
    if (ok && it->second.size() > 1)
      for (const Expr *x : it->second)
        ok = ok && invariantStep(x);
    // A guarded update: every update of the variable under that one guard.
    int guarded = guardCount[it->first];
    if (ok && guarded)
      ok = guarded == int(it->second.size()); // -1: two guards
    if (!ok) {
      it = out.erase(it);
    } else {
      if (guarded)
        guards[it->first] = guardOf[it->first];
      ++it;
    }
  }
  for (auto &[v, n] : inner)
    if (n.loop && !out.count(v) && !elsewhere.vars.count(v) && Env.count(v) &&
        !guardCount.count(v))
      (*nested)[v] = n;
  return out;
}

/// Straight-line code: no branch, loop, call or jump (Loop::straight). An
/// `if` on a constant (`if (INSERT_PADDING)`, `if constexpr`) is its taken
/// arm: nvcc drops the other. A call is straight-line when its callee is (a
/// few levels deep: nvcc inlines small device functions such as `__expf`,
/// and their closing `return` is no jump), and so is an `asm` statement of
/// arithmetic alone (`fma.rn.f16x2`): one without memory operations,
/// barriers, branches or a memory clobber.
bool straightLine(const Stmt *s, const ASTContext &ac, int depth) {
  if (!s)
    return true;
  struct Finder : RecursiveASTVisitor<Finder> {
    const ASTContext &AC;
    int Depth;
    Finder(const ASTContext &ac, int depth) : AC(ac), Depth(depth) {}
    bool straight = true;
    bool TraverseIfStmt(IfStmt *x) {
      bool taken;
      const Expr *c = x->getCond();
      if (!x->getInit() && !x->getConditionVariable() && c &&
          !c->isValueDependent() && c->EvaluateAsBooleanCondition(taken, AC)) {
        straight &= straightLine(taken ? x->getThen() : x->getElse(), AC, Depth);
        return straight;
      }
      straight = false;
      return false;
    }
    bool VisitStmt(Stmt *x) {
      if (auto *a = dyn_cast<GCCAsmStmt>(x)) {
        std::string t = a->getAsmString();
        for (const char *op : {"ld.", "st.", "bar", "fence", "cp.", "red.",
                               "atom", "bra", "call", "ret", "exit", "shfl",
                               "vote", "match", "redux", "wmma", "mma.",
                               "ldmatrix", "stmatrix", "prefetch"})
          if (t.find(op) != std::string::npos)
            straight = false;
        for (unsigned i = 0; i < a->getNumClobbers(); ++i)
          if (a->getClobber(i) == "memory")
            straight = false;
        return straight;
      }
      if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt,
              BreakStmt, ContinueStmt, GotoStmt, AsmStmt>(x))
        straight = false;
      // `valid ? p[i] : 0.f` and `kEven || l < n`: operands without side
      // effects are predicated and selected, not branched over (measured:
      // ssm's unrolled tile stores behind such a choice merge into one
      // 16-byte store).
      if (auto *c = dyn_cast<AbstractConditionalOperator>(x))
        if (c->getTrueExpr()->HasSideEffects(AC) ||
            c->getFalseExpr()->HasSideEffects(AC))
          straight = false;
      // The kernel's own `return` ends it; an inlined callee's is no jump.
      if (isa<ReturnStmt>(x) && Depth == 0)
        straight = false;
      // A call: a builtin without a body (threadIdx.x reads, math) is
      // straight-line, and so is a callee that is; barriers, warp
      // collectives and atomics order the accesses around them.
      if (auto *c = dyn_cast<CallExpr>(x)) {
        const FunctionDecl *f = c->getDirectCallee();
        StringRef n = f && f->getIdentifier() ? f->getName() : "";
        // (threadIdx.x and its kin read a special register through an
        // inline accessor: straight-line.)
        if (n.starts_with("__fetch_builtin_"))
          return straight;
        if (!f || n.contains("sync") || n.contains("atomic") ||
            n.contains("fence") || n.starts_with("__shfl") ||
            n.starts_with("__nv_atomic"))
          straight = false;
        else if (const FunctionDecl *def = definitionOf(f);
                 def && (Depth >= 3 ||
                         !straightLine(def->getBody(), AC, Depth + 1)))
          straight = false;
      }
      if (auto *b = dyn_cast<BinaryOperator>(x);
          b && b->isLogicalOp() && b->getRHS()->HasSideEffects(AC))
        straight = false;
      return straight;
    }
  } f(ac, depth);
  f.TraverseStmt(const_cast<Stmt *>(s));
  return f.straight;
}

void Walker::loop(const Expr *cond, const Expr *inc, const Stmt *body,
          bool testAfterBody) {
  // A later iteration may read what this one stores.
  forgetLoads();
  llvm::scope_exit clearAfter([&] { forgetLoads(); });
  const int before = LoopBefore;
  bool unrollable = !NoUnrollNext;
  NoUnrollNext = false;
  AssignedVars incVars;
  if (inc)
    incVars.TraverseStmt(const_cast<Expr *>(inc));
  // A kernel parameter the loop steps (`++index` on an `int index`
  // argument) is read into the environment before the loop, as a local
  // would have been declared there: it is then an induction variable, or a
  // uniform unknown after the loop, like one.
  AssignedVars bodyVars;
  bodyVars.TraverseStmt(const_cast<Stmt *>(body));
  for (const auto *vars : {&bodyVars.vars, &incVars.vars})
    for (const VarDecl *v : *vars)
      if (auto *p = dyn_cast<ParmVarDecl>(v); p && !Env.count(v))
        Env[v] = param(p);
  // A variable one value for the warp before the loop that the body sets
  // per lane (a value of its own, or under a condition of its own) holds
  // each lane's own from the second iteration on: known from an earlier
  // walk of the kernel (Walker::KnownVarying), else found once the body
  // has been walked. Mapped to its value before the loop (a counter each
  // lane steps counts from it).
  std::map<const VarDecl *, LaneExpr> perLane;
  if (KnownVarying)
    for (auto it = KnownVarying->lower_bound({body, nullptr});
         it != KnownVarying->end() && it->first == body; ++it) {
      auto e = Env.find(it->second);
      perLane[it->second] = e != Env.end() && e->second.kind == Val::Int &&
                                    e->second.v && !varying(e->second)
                                ? e->second.v
                                : nullptr;
    }
  std::vector<const VarDecl *> ivs;
  std::map<const VarDecl *, std::vector<const Expr *>> updates;
  for (const VarDecl *v : incVars.vars)
    if (Env.count(v) && Env[v].v) {
      ivs.push_back(v);
      updates[v] = {inc};
    }
  std::map<const VarDecl *, const Expr *> guards;
  std::map<const VarDecl *, NestedSteps> nested;
  for (auto &[v, e] : bodyInductions(body, guards, &nested)) {
    // (A step under a condition on each lane's data, a count of its own;
    // a value each lane computes from its data, `node = 2 * node + (z <
    // v)`: known from an earlier walk to vary by lane.)
    if (perLane.count(v))
      continue;
    if (!updates.count(v) && Env[v].v) {
      ivs.push_back(v);
      updates[v] = e;
    } else if (updates.count(v) && !guards.count(v) && !nested.count(v)) {
      // Stepped at the top of the body and again by the increment
      // (`for (d = 0; d < n; d <<= 1) { d += 1; ... }`): both, in order.
      std::vector<const Expr *> both = e;
      both.insert(both.end(), updates[v].begin(), updates[v].end());
      updates[v] = both;
    }
  }
  for (auto it = nested.begin(); it != nested.end();)
    if (!updates.count(it->first) && Env[it->first].v &&
        !Env[it->first].isRecord()) {
      ivs.push_back(it->first);
      ++it;
    } else {
      it = nested.erase(it);
    }
  // The primary variable (whose iterations the others follow) is one the
  // condition tests, so that the lanes still inside are evaluated on the
  // variable that steps (`for (t = 0; t < n; ++t, off += w)`); otherwise
  // the first in source order. The set above is ordered by address.
  std::set<const VarDecl *> tested;
  {
    struct Refs : RecursiveASTVisitor<Refs> {
      std::set<const VarDecl *> *out;
      bool VisitDeclRefExpr(DeclRefExpr *d) {
        if (auto *v = dyn_cast<VarDecl>(d->getDecl()))
          out->insert(v);
        return true;
      }
    } refs;
    refs.out = &tested;
    if (cond)
      refs.TraverseStmt(const_cast<Expr *>(cond));
    const SourceManager &sm = AC.getSourceManager();
    std::stable_sort(ivs.begin(), ivs.end(),
                     [&](const VarDecl *a, const VarDecl *b) {
                       bool ta = tested.count(a), tb = tested.count(b);
                       if (ta != tb)
                         return ta;
                       return sm.isBeforeInTranslationUnit(a->getLocation(),
                                                           b->getLocation());
                     });
  }
  LaneExpr savedMask = Mask;
  std::set<const VarDecl *> keep(ivs.begin(), ivs.end());
  std::map<const VarDecl *, Val> vars;
  int primary = -1;
  for (const VarDecl *v : ivs) {
    Val init = Env[v];
    int L = M.ctx.addLoop({v->getName().str(), init.v, nullptr, nullptr});
    if (primary < 0)
      primary = L;
    else
      M.ctx.loops[L].iterOf = primary;
    Val var = init;
    var.v = loopVar(L);
    vars[v] = var;
  }
  const std::set<const VarDecl *> restored =
      restoredVars(body, bodyVars.vars, incVars.vars);
  keep.insert(restored.begin(), restored.end());
  for (const VarDecl *v : clampedSteps(cond, inc, body, bodyVars.vars))
    keep.insert(v);
  std::set<const VarDecl *> uniformInLoop =
      forgetAssigned(body, keep, false, perLane);
  if (inc)
    uniformInLoop.merge(forgetAssigned(inc, keep, false, perLane));
  for (auto &[v, var] : vars)
    Env[v] = var;
  bool savedNo = NoRecord;
  NoRecord = true;
  for (auto &[v, var] : vars) {
    if (auto n = nested.find(v); n != nested.end()) {
      // Per outer iteration: the inner loop's trip count times what its
      // body adds (the steps walked from zero).
      const NestedSteps &ns = n->second;
      LaneExpr from = rvalue(ns.from).v, bound = rvalue(ns.bound).v;
      Val zero = var;
      zero.v = cst(0);
      Env[v] = zero;
      for (const Expr *update : ns.updates)
        rvalue(update);
      LaneExpr delta = Env[v].v;
      LaneExpr trips = nullptr;
      if (from && bound && delta) {
        LaneExpr span = bound - from;
        if (ns.test == BO_NE)
          trips = span;
        else
          trips = bin(Op::Max, cst(0),
                      bin(Op::Div,
                          span + cst(ns.test == BO_LE ? ns.stride
                                                      : ns.stride - 1),
                          cst(ns.stride)));
      }
      M.ctx.loops[var.v->value].next =
          trips ? var.v + trips * delta : nullptr;
      for (auto &[w, wv] : vars)
        Env[w] = wv;
      continue;
    }
    for (const Expr *update : updates[v])
      rvalue(update);
    LaneExpr next = Env[v].v;
    if (auto g = guards.find(v); g != guards.end())
      next = select(condition(g->second), next, var.v);
    // One value for the warp at first, then stepped (or stepped only) where
    // each lane's data says (`if (d < r) cnt++`, `node = z < v ? ... : ...`),
    // and not the variable the loop's condition tests: each lane's own from
    // the second iteration on, as data, in a walk again (walkKernel()).
    const LaneExpr &start = M.ctx.loops[var.v->value].init;
    if (next && start && !tested.count(v)) {
      Props pn = props(next, M.ctx);
      if (pn.hasData && pn.laneVarying && !props(start, M.ctx).laneVarying)
        FoundVarying.insert({body, v});
    }
    M.ctx.loops[var.v->value].next = next;
    for (auto &[w, wv] : vars)
      Env[w] = wv;
  }
  LaneExpr c = cond ? condition(cond) : nullptr;
  NoRecord = savedNo;
  std::optional<size_t> recorded;
  if (primary >= 0 && c && !NoRecord) {
    recorded = M.branches.size();
    recordBranch(BranchSite::Loop, body, cond, nullptr, weight(body)).loop =
        primary;
  }
  if (primary >= 0) {
    M.ctx.loops[primary].cond = c;
    M.ctx.loops[primary].testAfterBody = testAfterBody;
    M.ctx.loops[primary].straight =
        unrollable && straightLine(body, AC) && straightLine(inc, AC);
    Mask = land(Mask, loopActive(primary));
  } else if (!NoRecord) {
    ++M.loopsNotFollowed;
  }
  // A loop's body is never predicated away: the if-bodies around it do not
  // decide which warps issue it.
  int savedFrame = IfFrameNow;
  IfFrameNow = -1;
  // A loop whose bounds are constants, not marked `#pragma unroll 1`: nvcc
  // unrolls it, so it has no test or update of its own, and arithmetic on
  // its variable is folded in each copy of the body.
  // (The bounds as written, too: a value the walker was given for a
  // parameter, --param, is not one nvcc knows.)
  std::function<bool(const Stmt *)> writtenConstant = [&](const Stmt *x) {
    if (!x)
      return true;
    if (auto *d = dyn_cast<DeclRefExpr>(x)) {
      auto *v = dyn_cast<VarDecl>(d->getDecl());
      if (!v)
        return isa<EnumConstantDecl>(d->getDecl());
      if (std::find(ivs.begin(), ivs.end(), v) != ivs.end())
        return true;
      const Expr *init = v->getInit();
      return v->getType().isConstQualified() && init &&
             !init->isValueDependent() && init->isIntegerConstantExpr(AC);
    }
    if (isa<CallExpr>(x) || isa<PseudoObjectExpr>(x) || isa<MemberExpr>(x))
      return false;
    for (const Stmt *c : x->children())
      if (!writtenConstant(c))
        return false;
    return true;
  };
  bool unrolled = false;
  if (primary >= 0 && unrollable && writtenConstant(cond) &&
      writtenConstant(inc)) {
    const Loop &l = M.ctx.loops[primary];
    UnrolledLoops.insert(primary);
    unrolled = l.cond && unrolledConstant(l.init) &&
               unrolledConstant(l.next) && unrolledConstant(l.cond);
    if (!unrolled)
      UnrolledLoops.erase(primary);
    M.ctx.loops[primary].unrolled = unrolled;
  }
  // Per iteration: the test, the update and the branch back.
  const size_t bodyBegin = workMark();
  if (!unrolled)
    work((cond ? instructions(cond) : 0) +
         (inc ? instructions(inc) : 0) + 1);
  // The condition's own accesses (while (a[i] > x), a compare-and-swap in a
  // do-while test): recorded once per iteration under the body's mask, which
  // is exact for a test after the body and leaves out only the final, failing
  // test of one before it.
  auto conditionAccesses = [&] {
    if (!cond || NoRecord)
      return;
    ++StmtId;
    condition(cond);
    ++StmtId;
  };
  if (!testAfterBody)
    conditionAccesses();
  BreakScopes.push_back({Mask, false});
  const int bodyFirst = StmtId;
  stmt(body);
  bool breakVaries = BreakScopes.back().second;
  BreakScopes.pop_back();
  Terminated = false;
  if (testAfterBody)
    conditionAccesses();
  if (inc)
    rvalue(inc); // accesses in the increment, once per iteration
  for (const VarDecl *v : uniformInLoop)
    if (auto it = Env.find(v);
        it != Env.end() && !it->second.isRecord() && varying(it->second))
      FoundVarying.insert({body, v});
  closeBody(recorded, bodyBegin);
  if (primary < 0 && !NoRecord && M.work.size() > bodyBegin)
    M.countedOnce.push_back({body, bodyBegin, M.work.size()});
  // The code after the loop is another basic block: a region of its own.
  if (!NoRecord)
    M.loopRegions.push_back({before, bodyFirst, StmtId});
  ++StmtId;
  Terminated = false;
  Mask = savedMask;
  IfFrameNow = savedFrame;
  if (unrolled)
    UnrolledLoops.erase(primary);
  // After the loop the variables hold whatever the last iteration left.
  // When every lane leaves at the same iteration (a uniform condition, no
  // lane-varying break), an induction variable with a uniform step is its
  // start plus that step times the (unknown, uniform) trip count: a pointer
  // walked along a row keeps its lanes' pattern. Otherwise each lane's
  // value is its own.
  bool exitVaries =
      breakVaries || (c && c->op != Op::Assumed && props(c, M.ctx).laneVarying);
  std::map<const VarDecl *, Val> closed;
  // Where the loop's own condition decides when each lane leaves (no break
  // or return, nothing unknown or loaded in the condition), every induction
  // variable is what it was at the test each lane failed: `offset` after
  // `for (l = n >> 1; l > 0; l >>= 1) offset <<= 1;`, a lane's own `i` after
  // a lane-varying bound. The model evaluates that per lane (Op::LoopFinal).
  bool perLaneExit = primary >= 0 && c && c->op != Op::Assumed &&
                     !leavesEarly(body) && !leavesEarly(inc);
  if (perLaneExit) {
    Props pc = props(c, M.ctx);
    perLaneExit = !pc.hasUnknown && !pc.hasData;
  }
  if (perLaneExit) {
    for (auto &[v, var] : vars) {
      Val after = var;
      after.v = loopFinal(int(var.v->value));
      closed[v] = after;
    }
  } else if (primary >= 0) {
    // Where each lane leaves at an iteration of its own (a condition on its
    // data, a lane-varying break), the trip count is a value each lane has
    // for itself, drawn as data (Atom::tripCount): a pointer each thread
    // walks along a record of its own (`while (length > 12) { ... k++; }`)
    // keeps the lanes' pattern where they run the loop equally often.
    int trips = -1;
    const std::string &name = M.ctx.loops[primary].var;
    for (auto &[v, var] : vars) {
      const Loop &l = M.ctx.loops[var.v->value];
      LaneExpr step = linearStep(l.next, int(var.v->value), M.ctx);
      if (!step || !l.init || props(step, M.ctx).laneVarying)
        continue;
      if (trips < 0 && !exitVaries) {
        trips = M.ctx.addAtom(name + "-loop trips", AtomKind::Uniform);
      } else if (trips < 0) {
        trips = M.ctx.addAtom(
            name + "-loop trips", AtomKind::Data,
            "the address depends on how many times each lane ran the loop "
            "on '" +
                name + "' (each lane leaves it at an iteration of its own)");
        M.ctx.atoms[size_t(trips)].tripCount = true;
      }
      Val after = var;
      after.v = l.init + step * (exitVaries ? data(trips) : unknown(trips));
      closed[v] = after;
    }
  }
  // A restored variable holds its entry value after the loop too, unless
  // a `break` (or `goto`) can leave the body before it is put back.
  const std::set<const VarDecl *> none,
      &after = leavesEarly(body) ? none : restored;
  forgetAssigned(body, after, exitVaries, perLane);
  if (inc)
    forgetAssigned(inc, after, exitVaries, perLane);
  for (auto &[v, after] : closed)
    Env[v] = after;
}

void Walker::forStmt(const ForStmt *s) {
  if (s->getInit())
    stmt(s->getInit());
  loop(s->getCond(), s->getInc(), s->getBody());
}

} // namespace detail
} // namespace warplint
