// The walker: statements in program order (declarations, branches,
// switches; loops are in WalkerLoops.cpp) and the work estimates of branch
// bodies.
#include "frontend/walker/Walker.h"

#include "frontend/walker/MathCosts.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/ScopeExit.h"

#include <unordered_map>

namespace warplint {
namespace detail {

const FunctionDecl *programDefinition(const FunctionDecl *f) {
  const FunctionDecl *def = definitionOf(f);
  return def && !def->getASTContext().getSourceManager().isInSystemHeader(
                    def->getLocation())
             ? def
             : nullptr;
}

int Walker::weight(const Stmt *s) {
  if (!s)
    return 0;
  // Memoized per statement: a block's suffix weights, loops and branches ask
  // for the same statements again, and a quadratic count showed on
  // 6,000-statement kernels.
  std::unordered_map<const Stmt *, int> &memo = weightMemo();
  if (WeightDepth == 0) {
    auto it = memo.find(s);
    if (it != memo.end())
      return it->second;
    int w = weightUncached(s);
    memo[s] = w;
    return w;
  }
  return weightUncached(s);
}

int Walker::weightUncached(const Stmt *s) {
  if (auto *cs = dyn_cast<CompoundStmt>(s)) {
    int w = 0;
    for (const Stmt *c : cs->body())
      w += weight(c);
    return w;
  }
  if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s)) {
    int w = 0;
    for (const Stmt *c : s->children())
      w += weight(c);
    return 8 + 4 * w;
  }
  if (auto *is = dyn_cast<IfStmt>(s))
    return 1 + weight(is->getThen()) + weight(is->getElse());
  if (isa<NullStmt>(s))
    return 0;
  int calls = 0;
  std::function<void(const Stmt *)> count = [&](const Stmt *x) {
    if (!x)
      return;
    if (isa<PseudoObjectExpr>(x))
      return; // threadIdx.x and friends: a register read
    if (auto *c = dyn_cast<CallExpr>(x)) {
      calls += 2;
      // A call costs what the function it calls does (a few levels deep);
      // an intrinsic from a system header costs its two.
      const FunctionDecl *def = programDefinition(c->getDirectCallee());
      if (def && WeightDepth < 3) {
        ++WeightDepth;
        calls += weight(def->getBody());
        --WeightDepth;
      }
    }
    for (const Stmt *c : x->children())
      count(c);
  };
  count(s);
  return 1 + calls;
}

int Walker::instructions(const Stmt *s) const {
  int n = 0;
  // nvcc -use_fast_math (clang's -fgpu-approx-transcendentals): the float
  // functions' approximate versions, and divisions without refinement.
  const bool fastMath = AC.getLangOpts().GPUDeviceApproxTranscendentals;
  auto isConstPow2 = [&](const Expr *e, bool &constant) {
    Expr::EvalResult r;
    constant = !e->isValueDependent() && e->EvaluateAsInt(r, AC);
    if (!constant)
      return false;
    llvm::APSInt v = r.Val.getInt();
    return v.isStrictlyPositive() && v.isPowerOf2();
  };
  // Values nvcc computes at compile time: constants, and arithmetic on the
  // variables of loops it unrolls (their values are constants in each copy
  // of the body), directly or through a local set from them.
  // Both are asked of every node and answered from their operands', once
  // per node: asked afresh, a long expression (a big-integer step in one
  // statement) cost its depth squared, and each constant test walks the
  // subtree again.
  llvm::DenseMap<const Expr *, bool> iceMemo, foldedMemo;
  // Expr::isIntegerConstantExpr, skipped where an integer operand already
  // is not one (then the operation is not one either; `&&`, `||`, `?:` and
  // `,` may skip an operand, and are always asked).
  std::function<bool(const Expr *)> ice = [&](const Expr *e) {
    // (An expression Sema rejected may lack parts: never a constant.)
    if (e->isValueDependent() || e->containsErrors() || e->getType().isNull())
      return false;
    auto [it, fresh] = iceMemo.try_emplace(e, false);
    if (!fresh)
      return it->second;
    auto integral = [](const Expr *x) {
      return x->getType()->isIntegralOrUnscopedEnumerationType();
    };
    bool known = false, value = false;
    if (readsPlainVariable(e)) {
      known = true;
    } else if (auto *p = dyn_cast<ParenExpr>(e)) {
      known = true;
      value = ice(p->getSubExpr());
    } else if (auto *c = dyn_cast<ImplicitCastExpr>(e);
               c && (c->getCastKind() == CK_IntegralCast ||
                     c->getCastKind() == CK_NoOp) &&
               integral(c) && integral(c->getSubExpr())) {
      known = true;
      value = ice(c->getSubExpr());
    } else if (auto *b = dyn_cast<BinaryOperator>(e);
               b && !b->isAssignmentOp() && !b->isLogicalOp() &&
               b->getOpcode() != BO_Comma && integral(b->getLHS()) &&
               integral(b->getRHS())) {
      known = !ice(b->getLHS()) || !ice(b->getRHS());
    } else if (auto *u = dyn_cast<UnaryOperator>(e);
               u && (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Not ||
                     u->getOpcode() == UO_LNot || u->getOpcode() == UO_Plus) &&
               integral(u->getSubExpr())) {
      known = !ice(u->getSubExpr());
    }
    if (!known)
      value = e->isIntegerConstantExpr(AC);
    iceMemo[e] = value;
    return value;
  };
  std::function<bool(const Expr *)> folded = [&](const Expr *e) {
    e = e->IgnoreParenImpCasts();
    auto [it, fresh] = foldedMemo.try_emplace(e, false);
    if (!fresh)
      return it->second;
    bool value = false;
    if (ice(e)) {
      value = true;
    } else if (auto *d = dyn_cast<DeclRefExpr>(e)) {
      auto *v = dyn_cast<VarDecl>(d->getDecl());
      auto found = v ? Env.find(v) : Env.end();
      value = found != Env.end() && found->second.kind == Val::Int &&
              unrolledConstant(found->second.v);
    } else if (auto *b = dyn_cast<BinaryOperator>(e)) {
      value = !b->isAssignmentOp() && folded(b->getLHS()) &&
              folded(b->getRHS());
    } else if (auto *u = dyn_cast<UnaryOperator>(e)) {
      value = !u->isIncrementDecrementOp() && u->getOpcode() != UO_Deref &&
              folded(u->getSubExpr());
    }
    foldedMemo[e] = value;
    return value;
  };
  std::function<void(const Stmt *)> count = [&](const Stmt *x) {
    if (!x || isa<PseudoObjectExpr>(x)) // threadIdx.x: a register
      return;
    if (auto *e = dyn_cast<Expr>(x); e && folded(e))
      return;
    if (auto *b = dyn_cast<BinaryOperator>(x)) {
      BinaryOperatorKind op = b->getOpcode();
      if (op == BO_Div || op == BO_Rem || op == BO_DivAssign ||
          op == BO_RemAssign) {
        bool constant = false;
        bool pow2 = isConstPow2(b->getRHS(), constant);
        if (!b->getType()->isIntegerType())
          n += divisionCost(b->getType()->isSpecificBuiltinType(
                                BuiltinType::Double),
                            fastMath); // reciprocal and refinement
        else
          n += pow2 ? 1 : constant ? 3 : 20; // by a variable: a subroutine
      } else if (op != BO_Assign && op != BO_Comma) {
        n += 1;
      }
    } else if (auto *u = dyn_cast<UnaryOperator>(x)) {
      if (u->getOpcode() != UO_AddrOf && u->getOpcode() != UO_Deref &&
          u->getOpcode() != UO_Plus && u->getOpcode() != UO_Extension)
        n += 1;
      else if (u->getOpcode() == UO_Deref)
        n += 1; // the load or store
    } else if (auto *a = dyn_cast<ArraySubscriptExpr>(x)) {
      // An element of a local array lives in a register once nvcc unrolls
      // the loops that index it; others cost the address and the access.
      const Expr *base = a->getBase()->IgnoreParenImpCasts();
      while (auto *inner = dyn_cast<ArraySubscriptExpr>(base))
        base = inner->getBase()->IgnoreParenImpCasts();
      auto *d = dyn_cast<DeclRefExpr>(base);
      auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      // (Also through a pointer the walker knows points into one: an
      // inlined helper's array parameter.)
      auto it = v ? Env.find(v) : Env.end();
      bool registers =
          v && ((v->getType()->isConstantArrayType() &&
                 spaceOf(v) == Space::Local) ||
                (it != Env.end() && it->second.isPtr() &&
                 it->second.space == Space::Local));
      n += registers ? 0 : 2;
    } else if (auto *m = dyn_cast<MemberExpr>(x); m && m->isArrow()) {
      n += 1;
    } else if (auto *c = dyn_cast<CallExpr>(x)) {
      // A math library function costs what the GPU measured of it
      // (MathCosts.h); another intrinsic two. (The bodies the walker
      // inlines count apart.)
      const FunctionDecl *fd = c->getDirectCallee();
      std::optional<int> cost;
      if (fd && fd->getIdentifier())
        cost = mathCallCost(fd->getName(),
                            fd->getReturnType()->isSpecificBuiltinType(
                                BuiltinType::Float),
                            fastMath);
      // (A function of the program's own by that name is walked into.)
      n += cost && !programDefinition(fd) ? *cost : 2;
    } else if (isa<AbstractConditionalOperator>(x)) {
      n += 1;
    } else if (auto *c = dyn_cast<CastExpr>(x)) {
      CastKind k = c->getCastKind();
      if (k == CK_IntegralToFloating || k == CK_FloatingToIntegral ||
          k == CK_FloatingCast)
        n += 1;
    }
    for (const Stmt *c : x->children())
      count(c);
  };
  count(s);
  return std::max(n, 1);
}

bool Walker::unrolledConstant(const LaneExpr &e) const {
  // (Only loop variables are left to check: every other leaf is constant.)
  if (!e || !e->constantLeaves)
    return false;
  bool ok = true;
  visitNodes(e, [&](const Node &n) {
    if (n.op == Op::LoopVar)
      ok &= UnrolledLoops.count(int(n.value)) > 0;
    return ok;
  });
  return ok;
}

void Walker::work(int weight) {
  if (NoRecord || Terminated || weight <= 0)
    return;
  LaneExpr mask = reachMask();
  if (M.work.size() > WorkFloor && M.work.back().mask == mask &&
      M.work.back().frame == IfFrameNow && !M.work.back().contended) {
    M.work.back().weight += weight;
    return;
  }
  M.work.push_back({std::move(mask), weight, IfFrameNow, nullptr, 0});
}

BranchSite &Walker::recordBranch(BranchSite::Kind kind, const Stmt *s,
                         const Expr *condExpr, LaneExpr cond, int weight) {
  BranchSite b;
  b.kind = kind;
  b.stmt = s;
  b.condExpr = condExpr;
  b.cond = std::move(cond);
  b.mask = fullMask();
  b.weight = weight;
  b.calls = Calls;
  M.branches.push_back(std::move(b));
  return M.branches.back();
}

bool Walker::isBarrier(StringRef name) {
  return name == "__syncthreads" || name == "__syncthreads_count" ||
         name == "__syncthreads_and" || name == "__syncthreads_or" ||
         name == "__syncwarp" || name == "__barrier_sync";
}

bool Walker::isWarpCollective(StringRef name) {
  return name.ends_with("_sync") || name == "__syncwarp" ||
         name == "__shfl" || name == "__shfl_up" || name == "__shfl_down" ||
         name == "__shfl_xor" || name == "__any" || name == "__all" ||
         name == "__ballot" || name == "__activemask";
}

void Walker::declare(const VarDecl *v) {
  if (spaceOf(v) != Space::Local)
    return;
  const Expr *init = v->getInit();
  if (!init) {
    Env.erase(v);
    return;
  }
  if (v->getType()->isReferenceType()) {
    if (auto a = lvalue(init))
      Env[v] = a->ptr;
    else
      Env[v] = rvalue(init);
    return;
  }
  if (v->getType()->isRecordType()) {
    Env[v] = recordOf(init);
    return;
  }
  if (v->getType()->isArrayType()) {
    auto *list = dyn_cast<InitListExpr>(init->IgnoreParenImpCasts());
    auto *arr = AC.getAsConstantArrayType(v->getType());
    if (list && arr && arr->getElementType()->isIntegralOrEnumerationType() &&
        list->getNumInits() <= arr->getSize().getZExtValue() &&
        arr->getSize().getZExtValue() <= 64 && onlyReadBySubscript(v)) {
      std::vector<Val> elems;
      for (const Expr *e : list->inits())
        elems.push_back(rvalue(e));
      // Elements the list leaves out are zero.
      elems.resize(arr->getSize().getZExtValue(), intVal(cst(0)));
      ReadOnlyArrays[v] = std::move(elems);
      return;
    }
    ReadOnlyArrays.erase(v);
    rvalue(init);
    return;
  }
  Env[v] = rvalue(init);
}

VarEnv Walker::mergeEnvs(const LaneExpr &c, const VarEnv &t, const VarEnv &f) {
  VarEnv out;
  // A variable with a value on one path only was declared inside that
  // branch (out of scope after it) or declared before it without a value
  // and set on that path alone (`uint *p; if (lane == 0) { p = ...; }`):
  // reading it on the other path is undefined, so the one value stands.
  for (const auto &[v, fv] : f)
    if (!t.count(v))
      out[v] = fv;
  for (const auto &[v, tv] : t) {
    auto it = f.find(v);
    if (it == f.end()) {
      out[v] = tv;
      continue;
    }
    const Val &fv = it->second;
    if (tv.isRecord() || fv.isRecord())
      out[v] = merge(c, tv, fv, nullptr);
    else if (tv.v == fv.v && tv.base == fv.base)
      out[v] = tv;
    else if (tv.kind == fv.kind && tv.base == fv.base)
      out[v] = Val{tv.kind, select(c, tv.v, fv.v), tv.base, tv.space};
    else if (tv.isPtr() && fv.isPtr() && tv.space == fv.space)
      out[v] = merge(c, tv, fv, nullptr); // one of two allocations
    else
      out[v] = Val{Val::Int, data(M.ctx.addAtom(v->getName().str(),
                                                AtomKind::Data))};
  }
  return out;
}

// Inside a branch on `c`, a value an earlier branch on the same condition
// left as `c ? x : y` is the arm that branch took: after `if (active) {
// j = i; }`, `if (active) out[j]` reads x, not a mix of x and what the
// other lanes hold.
VarEnv Walker::armOf(const VarEnv &env, const LaneExpr &c, bool taken) {
  VarEnv out = env;
  if (!c)
    return out;
  for (auto &[v, val] : out)
    if (!val.isRecord() && val.v && val.v->op == Op::Select &&
        val.v->a == c)
      val.v = taken ? val.v->b : val.v->c;
  return out;
}

void Walker::ifStmt(const IfStmt *s) {
  if (s->getInit())
    stmt(s->getInit());
  if (s->getConditionVariable())
    declare(s->getConditionVariable());
  if (s->isConstexpr() || s->isConsteval()) {
    // Only the instantiated branch matters; the other may not even type-check.
    if (auto c = constant(s->getCond()))
      stmt(*c ? s->getThen() : s->getElse());
    return;
  }
  LaneExpr c = condition(s->getCond());
  // The branch recorded here (none while NoRecord), and whether it is an
  // early exit.
  std::optional<size_t> recorded;
  bool exits = false;
  if (!NoRecord) {
    // An early exit (`if (c) return;`) makes the other lanes run the rest.
    const Stmt *then = s->getThen();
    if (auto *cs = dyn_cast<CompoundStmt>(then); cs && cs->size() == 1)
      then = cs->body_back();
    exits = (isa<ReturnStmt>(then) || isa<ContinueStmt>(then) ||
             isa<BreakStmt>(then)) &&
            !s->getElse();
    recorded = M.branches.size();
    if (exits)
      recordBranch(BranchSite::Exit, s, s->getCond(), c, RestWeight);
    else
      recordBranch(BranchSite::If, s, s->getCond(), c,
                   weight(s->getThen()) + weight(s->getElse()));
  }
  LaneExpr m0 = Mask;
  VarEnv before = Env;
  work(instructions(s->getCond()) + 1); // the test and the branch
  int savedFrame = IfFrameNow;
  if (!NoRecord) {
    M.ifFrames.push_back({reachMask(),
                          weight(s->getThen()) + weight(s->getElse()),
                          savedFrame});
    IfFrameNow = int(M.ifFrames.size()) - 1;
  }
  Mask = land(m0, c);
  Env = armOf(before, c, true);
  // A split warp runs both arms: the body's work is both.
  const size_t bodyBegin = workMark();
  stmt(s->getThen());
  VarEnv thenEnv = std::move(Env);
  bool thenTerm = Terminated;
  Env = armOf(before, c, false);
  Terminated = false;
  Mask = land(m0, un(Op::LNot, c));
  stmt(s->getElse());
  IfFrameNow = savedFrame;
  if (!exits)
    closeBody(recorded, bodyBegin);
  bool elseTerm = Terminated;
  Terminated = false;
  if (thenTerm && elseTerm) {
    Terminated = true;
    Mask = m0;
  } else if (thenTerm) {
    Mask = land(m0, un(Op::LNot, c)); // Env is the else branch's
  } else if (elseTerm) {
    Mask = land(m0, c);
    Env = std::move(thenEnv);
  } else {
    Mask = m0;
    Env = mergeEnvs(c, thenEnv, Env);
  }
  // After an early exit the rest of the block runs without the lanes that
  // left: its work, to the block's end, is the branch's body.
  if (recorded && exits && !OpenExits.empty() &&
      OpenExits.back().child == s) {
    M.branches[*recorded].workBegin = workMark();
    OpenExits.back().exits.push_back(*recorded);
  }
}

// Lanes in `a` or in `b`, where a null mask is every lane.
static LaneExpr lorMask(const LaneExpr &a, const LaneExpr &b) {
  if (!a || !b)
    return nullptr;
  return bin(Op::LOr, a, b);
}

// The `break`s of a switch in `s`: not those of a loop or a switch inside.
static int switchBreaks(const Stmt *s) {
  if (!s ||
      isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt, LambdaExpr>(
          s))
    return 0;
  if (isa<BreakStmt>(s))
    return 1;
  int n = 0;
  for (const Stmt *c : s->children())
    n += switchBreaks(c);
  return n;
}

bool Walker::switchCases(const SwitchStmt *sw, const LaneExpr &value) {
  auto *body = dyn_cast_or_null<CompoundStmt>(sw->getBody());
  if (!body)
    return false;
  // The body's statements, each with the labels in front of it, and
  // whether it ends in the switch's `break` (`break;`, or `{ ...; break; }`).
  struct Item {
    std::vector<LaneExpr> picks; // one per label; null for `default`
    const Stmt *s;
    bool endsInBreak;
  };
  std::vector<Item> items;
  size_t labels = 0;
  int topBreaks = 0;
  bool hasDefault = false;
  LaneExpr noneMatched; // no case value matches: `default`'s lanes
  for (const Stmt *c : body->body()) {
    Item it{{}, c, false};
    while (auto *sc = dyn_cast<SwitchCase>(it.s)) {
      ++labels;
      if (auto *cs = dyn_cast<CaseStmt>(sc)) {
        std::optional<int64_t> lo = constant(cs->getLHS());
        if (!lo)
          return false;
        LaneExpr pick = bin(Op::Eq, value, cst(*lo));
        if (cs->caseStmtIsGNURange()) {
          std::optional<int64_t> hi = constant(cs->getRHS());
          if (!hi)
            return false;
          pick =
              land(bin(Op::Ge, value, cst(*lo)), bin(Op::Le, value, cst(*hi)));
        }
        noneMatched = land(noneMatched, un(Op::LNot, pick));
        it.picks.push_back(pick);
      } else {
        hasDefault = true;
        it.picks.push_back(nullptr);
      }
      it.s = sc->getSubStmt();
    }
    const Stmt *last = it.s;
    if (auto *cs = dyn_cast_or_null<CompoundStmt>(last);
        cs && !cs->body_empty())
      last = cs->body_back();
    it.endsInBreak = isa_and_nonnull<BreakStmt>(last);
    topBreaks += it.endsInBreak;
    items.push_back(it);
  }
  size_t allLabels = 0;
  for (const SwitchCase *sc = sw->getSwitchCaseList(); sc;
       sc = sc->getNextSwitchCase())
    ++allLabels;
  if (labels != allLabels)
    return false;
  // A `break` inside a statement of a case (`if (c) break;`) lets lanes
  // leave that the walk below does not follow to the switch's end.
  const bool nestedBreaks = switchBreaks(body) > topBreaks;

  const LaneExpr m0 = Mask;
  const VarEnv entry = Env;
  // The lanes running at the current statement (within m0), and the ones
  // that have reached the switch's end, with what they hold.
  bool running = false, reached = false, lost = false;
  LaneExpr run, out;
  VarEnv outEnv;
  auto arrive = [&](const LaneExpr &lanes, const VarEnv &env) {
    outEnv = reached && lanes ? mergeEnvs(lanes, env, outEnv) : env;
    out = reached ? lorMask(lanes, out) : lanes;
    reached = true;
  };
  BreakScopes.push_back({Mask, false});
  for (const Item &it : items) {
    if (!it.picks.empty()) {
      // The lanes whose value picks one of these labels jump here, with
      // the values they held at the switch; the running ones fall through.
      LaneExpr pick = it.picks[0] ? it.picks[0] : noneMatched;
      for (size_t k = 1; k < it.picks.size(); ++k)
        pick = lorMask(pick, it.picks[k] ? it.picks[k] : noneMatched);
      LaneExpr in = land(m0, pick);
      if (running && pick) {
        Env = mergeEnvs(pick, entry, Env);
        run = lorMask(run, in);
      } else {
        Env = entry;
        run = in;
      }
      running = true;
    }
    if (!running)
      continue; // after a break, before the next label: never run
    Mask = run;
    Terminated = false;
    stmt(it.s);
    if (Terminated) {
      if (it.endsInBreak)
        arrive(run, Env);
      else
        lost = true; // a return or a continue: gone past the switch
      running = false;
    } else {
      if (Mask != run)
        lost = true; // lanes an exit inside the statement took
      run = Mask;
    }
  }
  BreakScopes.pop_back();
  Terminated = false;
  if (running)
    arrive(run, Env);
  if (!hasDefault)
    arrive(land(m0, noneMatched), entry);
  if (!reached) {
    // Every lane returned (or continued) inside the switch.
    Terminated = true;
    Mask = m0;
    Env = entry;
    return true;
  }
  Env = std::move(outEnv);
  // Where no lane left other than to the switch's end, the lanes after it
  // are the ones before it.
  Mask = lost && !nestedBreaks ? out : m0;
  return true;
}

std::set<const VarDecl *>
Walker::forgetAssigned(const Stmt *body, const std::set<const VarDecl *> &keep,
                       bool varies,
                       const std::map<const VarDecl *, LaneExpr> &vary) {
  std::set<const VarDecl *> uniform;
  AssignedVars av;
  av.TraverseStmt(const_cast<Stmt *>(body));
  if (av.thisAssigned && This)
    This = opaqueRecord(true).rec;
  for (const VarDecl *v : av.vars) {
    if (keep.count(v))
      continue;
    auto it = Env.find(v);
    const bool object = it != Env.end() && it->second.isRecord();
    if (v->getType()->isRecordType() ||
        (v->getType()->isPointerType() && object)) {
      // An object one value for the warp before the loop stays so (a
      // partitioner's counters): its fields become uniform unknowns.
      Env[v] = opaqueRecord(varies || vary.count(v) || !object ||
                            recordVaries(*it->second.rec));
      continue;
    }
    bool perLane =
        varies || vary.count(v) || it == Env.end() || varying(it->second);
    if (!perLane)
      uniform.insert(v);
    std::string name = v->getName().str();
    // (A variable one value for the warp before the loop that the body
    // makes each lane's own says so: the loop's first iteration is the
    // warp's, the others are not.)
    const bool split =
        vary.count(v) && !varies && it != Env.end() && !varying(it->second);
    // A counter each lane steps on a condition of its own (a list per
    // thread, `list[i * max + cnt++]`): its start plus the step times the
    // lane's own count, so lanes that counted alike keep the pattern the
    // start gives.
    const auto stepped = av.steps.find(v);
    const std::optional<int64_t> step =
        stepped != av.steps.end() ? stepped->second : std::nullopt;
    if (auto from = vary.find(v); from != vary.end() && from->second && step &&
                                  *step != 0 && v->getType()->isIntegerType()) {
      int a = M.ctx.addAtom(name + "-loop steps", AtomKind::Data,
                            "the address depends on how many times each "
                            "lane stepped '" +
                                name +
                                "' in a loop (each on a condition of its "
                                "own)");
      M.ctx.atoms[size_t(a)].tripCount = true;
      M.ctx.atoms[size_t(a)].stepCount = true;
      Env[v] = Val{Val::Int, from->second + cst(*step) * data(a)};
      continue;
    }
    LaneExpr value =
        perLane ? data(M.ctx.addAtom(
                      name, AtomKind::Data,
                      split ? "the address depends on '" + name +
                                  "', which each lane of a warp sets to a "
                                  "value of its own in a loop (one value for "
                                  "the warp before it)"
                            : "the address depends on '" + name +
                                  "', which a loop changes in a way warplint "
                                  "does not model"))
                : unknown(M.ctx.addAtom(name, AtomKind::Uniform));
    // A flag or state the loop sets (`found = true`, `done = 1`) is no size
    // to take a representative value of: a condition on it is one on data.
    if (!perLane && (v->getType()->isBooleanType() || !av.computed.count(v)))
      M.ctx.atoms[size_t(value->value)].fromData = true;
    // A pointer the loop moves still points into the same memory: its
    // accesses are then reported (as depending on the loop), not dropped.
    if (it != Env.end() && it->second.isPtr()) {
      Val p = it->second;
      p.v = perLane ? value : p.v + value;
      Env[v] = p;
      continue;
    }
    Env[v] = Val{Val::Int, value};
  }
  return uniform;
}

// A jump of the loop's own in its body (not one of a nested loop's): with
// `continues`, a `continue` (a switch's body continues the loop around
// it); otherwise one that leaves the loop other than by its condition, a
// `break` (a switch's is the switch's own), a `return` or a `goto`.

void Walker::stmt(const Stmt *s) {
  if (!s || Terminated)
    return;
  // A straight-line run of expression and declaration statements is one
  // merge region (nvcc vectorizes within a basic block); any other
  // statement, and the start and end of a block, begins a new one.
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(s))
    LoopBefore = StmtId;
  if (!isa<Expr>(s) && !isa<DeclStmt>(s))
    ++StmtId;
  if (auto *cs = dyn_cast<CompoundStmt>(s)) {
    int saved = RestWeight;
    std::vector<const Stmt *> body(cs->body_begin(), cs->body_end());
    // Weight of the statements after each one: suffix sums, computed once.
    std::vector<int> rest(body.size() + 1, 0);
    for (size_t j = body.size(); j-- > 0;)
      rest[j] = rest[j + 1] + weight(body[j]);
    OpenExits.emplace_back();
    for (size_t i = 0; i < body.size(); ++i) {
      if (Terminated)
        break;
      RestWeight = rest[i + 1];
      OpenExits.back().child = body[i];
      stmt(body[i]);
    }
    if (!OpenExits.back().exits.empty()) {
      size_t end = workMark();
      for (size_t b : OpenExits.back().exits)
        M.branches[b].workEnd = end;
    }
    OpenExits.pop_back();
    RestWeight = saved;
    ++StmtId;
    return;
  }
  if (auto *ds = dyn_cast<DeclStmt>(s)) {
    for (const Decl *d : ds->decls())
      if (auto *v = dyn_cast<VarDecl>(d)) {
        if (v->getInit() && spaceOf(v) == Space::Local)
          work(instructions(v->getInit()));
        declare(v);
      }
    return;
  }
  if (auto *is = dyn_cast<IfStmt>(s))
    return ifStmt(is);
  if (auto *fs = dyn_cast<ForStmt>(s))
    return forStmt(fs);
  if (auto *ws = dyn_cast<WhileStmt>(s))
    return loop(ws->getCond(), nullptr, ws->getBody());
  if (auto *ds = dyn_cast<DoStmt>(s))
    return loop(ds->getCond(), nullptr, ds->getBody(), true);
  if (auto *rf = dyn_cast<CXXForRangeStmt>(s))
    return loop(nullptr, nullptr, rf->getBody());
  if (auto *rs = dyn_cast<ReturnStmt>(s)) {
    Val v;
    const Expr *rv = rs->getRetValue();
    bool byRef = !Inlining.empty() &&
                 Inlining.back()->getReturnType()->isReferenceType();
    if (rv && byRef) {
      // A reference to memory: its address, loaded by the caller if used.
      if (auto a = lvalue(rv))
        v = a->ptr;
      else
        v = rvalue(rv);
    } else if (rv) {
      v = rv->getType()->isRecordType() ? recordOf(rv) : rvalue(rv);
    }
    // What computes the value is work, as an expression statement's is (an
    // inlined helper's `return exp(x) * sin(x);`).
    if (rv)
      work(instructions(rv));
    if (Returns && rs->getRetValue())
      Returns->push_back({Mask, v});
    Terminated = true;
    return;
  }
  if (isa<BreakStmt>(s) || isa<ContinueStmt>(s)) {
    if (isa<BreakStmt>(s) && !BreakScopes.empty() &&
        Mask != BreakScopes.back().first && varying(intVal(Mask)))
      BreakScopes.back().second = true;
    Terminated = true;
    return;
  }
  if (auto *sw = dyn_cast<SwitchStmt>(s)) {
    if (sw->getInit())
      stmt(sw->getInit());
    LaneExpr value = condition(sw->getCond());
    std::optional<size_t> recorded;
    if (!NoRecord) {
      recorded = M.branches.size();
      BranchSite &b = recordBranch(BranchSite::Switch, sw, sw->getCond(),
                                   value, weight(sw->getBody()));
      for (const SwitchCase *sc = sw->getSwitchCaseList(); sc;
           sc = sc->getNextSwitchCase())
        if (auto *cs = dyn_cast<CaseStmt>(sc))
          if (auto v = constant(cs->getLHS()))
            b.caseValues.push_back(*v);
    }
    const size_t bodyBegin = workMark();
    if (!switchCases(sw, value)) {
      // A case label inside a nested statement (Duff's device) or a case
      // value that is no constant: every case is walked under the switch's
      // own condition, and a `break` in them leaves the switch, not a loop
      // around it.
      BreakScopes.push_back({Mask, false});
      if (auto *body = dyn_cast_or_null<CompoundStmt>(sw->getBody())) {
        for (const Stmt *c : body->body()) {
          stmt(c);
          Terminated = false;
        }
      } else {
        stmt(sw->getBody());
        Terminated = false;
      }
      BreakScopes.pop_back();
    }
    closeBody(recorded, bodyBegin);
    return;
  }
  if (auto *cs = dyn_cast<SwitchCase>(s))
    return stmt(cs->getSubStmt());
  if (auto *ls = dyn_cast<LabelStmt>(s))
    return stmt(ls->getSubStmt());
  if (auto *as = dyn_cast<AttributedStmt>(s)) {
    for (const Attr *a : as->getAttrs())
      if (auto *h = dyn_cast<LoopHintAttr>(a)) {
        std::optional<llvm::APSInt> n;
        if (h->getValue())
          n = h->getValue()->getIntegerConstantExpr(AC);
        if ((h->getOption() == LoopHintAttr::Unroll &&
             h->getState() == LoopHintAttr::Disable) ||
            (h->getOption() == LoopHintAttr::UnrollCount && n && *n == 1))
          NoUnrollNext = true;
      }
    return stmt(as->getSubStmt());
  }
  if (auto *e = dyn_cast<Expr>(s)) {
    work(instructions(e));
    rvalue(e);
    return;
  }
  if (auto *a = dyn_cast<GCCAsmStmt>(s))
    return asmStmt(a);
  for (const Stmt *c : s->children())
    stmt(c);
}

} // namespace detail
} // namespace warplint
