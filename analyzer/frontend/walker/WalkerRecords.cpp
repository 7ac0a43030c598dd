// The walker: struct and class objects held in registers. A local object,
// a by-value struct parameter or the object a method runs on is a map from
// fields to values, so that `d_vars.f0[i]`, `int8 p = f(...); a[p.s0]` and
// CUB-style helpers (`BlockLoad(storage).Load(ptr, items)`, whose thread
// index lives in a member) keep their addresses.
#include "frontend/walker/Walker.h"

namespace warplint {
namespace detail {

bool Walker::recordVaries(const RecordVal &r) {
  if (r.varying)
    return true;
  for (const auto &[f, v] : r.fields)
    if (v.isRecord() ? v.rec && recordVaries(*v.rec) : varying(v))
      return true;
  return false;
}

Val Walker::opaqueRecord(bool varying) {
  auto r = std::make_shared<RecordVal>();
  r->varying = varying;
  return recordVal(r);
}

Val Walker::paramRecord(const ParmVarDecl *p) {
  // The record's own fields and its (non-virtual) bases' fields: a tensor
  // accessor keeps its data pointer in a base class. A field that is itself
  // a struct (`d_vars.u_star.u0`) is bound the same way, its names prefixed.
  std::function<void(RecordVal &, const RecordDecl *, const std::string &,
                     int)>
      bind = [&](RecordVal &r, const RecordDecl *rd, const std::string &prefix,
                 int depth) {
        if (!rd || !rd->getDefinition() || depth > 8)
          return;
        rd = rd->getDefinition();
        if (auto *cxx = dyn_cast<CXXRecordDecl>(rd))
          for (const CXXBaseSpecifier &b : cxx->bases())
            if (!b.isVirtual())
              bind(r, b.getType()->getAsRecordDecl(), prefix, depth + 1);
        for (const FieldDecl *f : rd->fields()) {
          QualType t = f->getType();
          std::string name = prefix + "." + f->getName().str();
          if (t->isPointerType()) {
            // Each pointer field is an allocation of its own.
            r.fields[f] = Val{Val::Ptr, cst(0), f, Space::Global};
          } else if (t->isIntegralOrEnumerationType()) {
            r.fields[f] =
                intVal(unknown(M.ctx.addAtom(name, AtomKind::Parameter)));
          } else if (t->isRecordType() && !t->getAsRecordDecl()->isUnion()) {
            auto inner = std::make_shared<RecordVal>();
            bind(*inner, t->getAsRecordDecl(), name, depth + 1);
            r.fields[f] = recordVal(inner);
          }
        }
      };
  auto r = std::make_shared<RecordVal>();
  bind(*r, p->getType()->getAsRecordDecl(), p->getName().str(), 0);
  Val v = recordVal(r);
  // Where the fields came from: a callee that takes the object by
  // reference reaches its arrays through it (localAddress()).
  v.base = p;
  return v;
}

Val Walker::fieldOf(const Val &obj, const FieldDecl *f, const Expr *e) {
  if (obj.isRecord()) {
    auto it = obj.rec->fields.find(f);
    if (it != obj.rec->fields.end())
      return it->second;
    if (f->getType()->isRecordType())
      return opaqueRecord(obj.rec->varying);
    return opaque(e, obj.rec->varying);
  }
  return opaque(e, true);
}

const VarDecl *Walker::heldPointer(const Expr *e) {
  auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
  auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!v || spaceOf(v) != Space::Local || !v->getType()->isPointerType())
    return nullptr;
  auto it = Env.find(v);
  return it != Env.end() && it->second.isRecord() ? v : nullptr;
}

const VarDecl *Walker::addressedObject(const Expr *arg) {
  arg = arg->IgnoreParenImpCasts();
  if (auto *u = dyn_cast<UnaryOperator>(arg)) {
    if (u->getOpcode() != UO_AddrOf)
      return nullptr;
    const VarDecl *v = localVar(u->getSubExpr());
    if (!v || !v->getType()->isRecordType() || spaceOf(v) != Space::Local)
      return nullptr;
    auto obj = objectOf(u->getSubExpr(), false);
    return obj && obj->isRecord() ? v : nullptr;
  }
  return heldPointer(arg);
}

std::optional<Val> Walker::objectOf(const Expr *base, bool arrow) {
  base = base->IgnoreParenImpCasts();
  if (auto *u = dyn_cast<UnaryOperator>(base);
      u && u->getOpcode() == UO_Deref && !arrow)
    if (const VarDecl *v = heldPointer(u->getSubExpr()))
      return Env[v];
  if (arrow) {
    if (isa<CXXThisExpr>(base) && This) {
      return recordVal(This);
    }
    // p->f with p bound to a local object of the caller's.
    if (const VarDecl *v = heldPointer(base))
      return Env[v];
    return std::nullopt;
  }
  // A vector a call gives whole (`block.group_index().x`).
  if (auto *c = dyn_cast<CallExpr>(base); c && !arrow)
    if (std::optional<Val> v = indexCall(c); v && v->isRecord())
      return v;
  if (auto *d = dyn_cast<DeclRefExpr>(base)) {
    auto *v = dyn_cast<VarDecl>(d->getDecl());
    if (!v || spaceOf(v) != Space::Local)
      return std::nullopt;
    auto it = Env.find(v);
    // A reference parameter bound to an object the caller holds.
    if (it != Env.end() && it->second.isRecord())
      return it->second;
    if (!v->getType()->isRecordType() || v->getType()->isReferenceType())
      return std::nullopt;
    if (it != Env.end())
      return it->second;
    if (auto *p = dyn_cast<ParmVarDecl>(v); p && Depth == 0)
      return Env[v] = paramRecord(p);
    return std::nullopt;
  }
  if (auto *m = dyn_cast<MemberExpr>(base)) {
    auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
    if (!f || !f->getType()->isRecordType())
      return std::nullopt;
    if (auto outer = objectOf(m->getBase(), m->isArrow()))
      return fieldOf(*outer, f, m);
  }
  return std::nullopt;
}

std::optional<Val> Walker::fieldRead(const Expr *e) {
  auto *m = dyn_cast<MemberExpr>(e->IgnoreParens());
  if (!m)
    return std::nullopt;
  auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
  if (!f || f->isBitField())
    return std::nullopt;
  auto obj = objectOf(m->getBase(), m->isArrow());
  if (!obj)
    return std::nullopt;
  return fieldOf(*obj, f, m);
}

bool Walker::fieldWrite(const Expr *lhs, const Val &value) {
  auto *m = dyn_cast<MemberExpr>(lhs->IgnoreParens());
  if (!m)
    return false;
  auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
  if (!f)
    return false;
  const Expr *base = m->getBase()->IgnoreParenImpCasts();
  auto update = [&](const std::shared_ptr<const RecordVal> &old) {
    auto r = old ? std::make_shared<RecordVal>(*old)
                 : std::make_shared<RecordVal>();
    r->fields[f] = value;
    return r;
  };
  if (m->isArrow()) {
    if (const VarDecl *v = heldPointer(base)) {
      Env[v] = recordVal(update(Env[v].rec));
      return true;
    }
    if (!isa<CXXThisExpr>(base) || !This)
      return false;
    This = update(This);
    return true;
  }
  if (auto *d = dyn_cast<DeclRefExpr>(base)) {
    auto *v = dyn_cast<VarDecl>(d->getDecl());
    if (!v || spaceOf(v) != Space::Local)
      return false;
    auto held = Env.find(v);
    bool heldRef = held != Env.end() && held->second.isRecord() &&
                   v->getType()->isReferenceType();
    if (!heldRef &&
        (!v->getType()->isRecordType() || v->getType()->isReferenceType()))
      return false;
    auto obj = objectOf(base, false);
    Val nv = recordVal(update(obj && obj->isRecord() ? obj->rec : nullptr));
    Env[v] = nv;
    return true;
  }
  // A field of a field: rebuild the outer object.
  if (auto *inner = dyn_cast<MemberExpr>(base)) {
    auto obj = objectOf(inner, false);
    if (!obj)
      return false;
    Val nv = recordVal(update(obj->isRecord() ? obj->rec : nullptr));
    return fieldWrite(inner, nv);
  }
  return false;
}

// `rec` with the field at the end of `path` (from `path[i]` on) set to `v`:
// the records of the unnamed fields on the way are copied, not shared, and
// one not yet bound starts as unknown as its holder's other fields.
static std::shared_ptr<const RecordVal>
withField(const std::shared_ptr<const RecordVal> &rec,
          const std::vector<const FieldDecl *> &path, size_t i, const Val &v) {
  auto r = rec ? std::make_shared<RecordVal>(*rec)
               : std::make_shared<RecordVal>();
  if (i + 1 == path.size()) {
    r->fields[path[i]] = v;
    return r;
  }
  std::shared_ptr<const RecordVal> inner;
  if (auto it = r->fields.find(path[i]);
      it != r->fields.end() && it->second.isRecord())
    inner = it->second.rec;
  if (!inner) {
    auto fresh = std::make_shared<RecordVal>();
    fresh->varying = r->varying;
    inner = fresh;
  }
  r->fields[path[i]] = recordVal(withField(inner, path, i + 1, v));
  return r;
}

Val Walker::construct(const CXXConstructExpr *c) {
  const CXXConstructorDecl *ctor = c->getConstructor();
  // A copy or move: the source object's value (a local), or a load of it
  // from memory (float4 v = p[i]) whose fields are then data.
  if (ctor && ctor->isCopyOrMoveConstructor() && c->getNumArgs() == 1) {
    const Expr *src = c->getArg(0);
    Val r = recordOf(src);
    if (r.isRecord())
      return r;
    return opaqueRecord(true);
  }
  const FunctionDecl *def = nullptr;
  // Library code in system headers is not walked, except a constructor that
  // only sets members from its parameters (the toolkit's
  // `dim3(unsigned vx = 1, ...) : x(vx), y(vy), z(vz) {}`), which is read
  // the same as the bundled header's.
  auto memberwise = [](const FunctionDecl *d) {
    auto *cd = llvm::dyn_cast<CXXConstructorDecl>(d);
    auto *body = cd ? llvm::dyn_cast_or_null<CompoundStmt>(cd->getBody())
                    : nullptr;
    if (!body || !body->body_empty())
      return false;
    for (const CXXCtorInitializer *init : cd->inits())
      if (!init->isMemberInitializer() ||
          init->getMember()->getType()->isReferenceType())
        return false;
    return true;
  };
  bool system = def && AC.getSourceManager().isInSystemHeader(def->getLocation());
  if (def && !system && Depth >= MaxInlineDepth)
    tooDeep(def);
  if (!ctor || !ctor->hasBody(def) || !def || Depth >= MaxInlineDepth ||
      (system && !memberwise(def))) {
    bool anyVarying = false;
    for (const Expr *arg : c->arguments())
      anyVarying |= varying(rvalue(arg));
    return opaqueRecord(anyVarying);
  }
  auto *cd = llvm::cast<CXXConstructorDecl>(def);
  // Bind the parameters as a call would, then run the member initializers
  // and the body with `this` the new object.
  VarEnv callee;
  unsigned n = std::min<unsigned>(c->getNumArgs(), cd->getNumParams());
  for (unsigned i = 0; i < n; ++i) {
    const ParmVarDecl *p = cd->getParamDecl(i);
    const Expr *arg = c->getArg(i);
    if (p->getType()->isReferenceType()) {
      if (auto a = lvalue(arg))
        callee[p] = a->ptr;
      else if (p->getType()->getPointeeType()->isRecordType())
        callee[p] = recordOf(arg);
      else // a local, or a temporary (`vec3i(x + kx, ...)` to `const T &`)
        callee[p] = rvalue(arg);
      continue;
    }
    callee[p] = p->getType()->isRecordType() ? recordOf(arg) : rvalue(arg);
  }
  VarEnv savedEnv = std::move(Env);
  auto savedThis = This;
  LaneExpr savedOuter = OuterMask, savedMask = Mask;
  bool savedTerm = Terminated;
  auto *savedReturns = Returns;
  std::vector<std::pair<LaneExpr, Val>> returns;
  Env = std::move(callee);
  This = std::make_shared<RecordVal>();
  OuterMask = fullMask();
  Mask = nullptr;
  Terminated = false;
  Returns = &returns;
  ++Depth;
  for (const CXXCtorInitializer *init : cd->inits()) {
    // A base class's constructor (`: Base(data, sizes)`, a tensor accessor
    // built on its base): the fields it sets are the new object's.
    if (init->isBaseInitializer() && !init->isBaseVirtual() &&
        init->getInit()) {
      Val b = recordOf(init->getInit());
      if (b.isRecord() && b.rec) {
        auto merged = std::make_shared<RecordVal>(*This);
        for (const auto &[f, v] : b.rec->fields)
          merged->fields[f] = v;
        merged->varying |= b.rec->varying && b.rec->fields.empty();
        This = merged;
      }
      continue;
    }
    // A member of an anonymous struct or union (`union { struct { int x,
    // y; }; ... }` set by `: x(a)`) is reached through the unnamed fields
    // that hold it: the chain's last field, bound inside the records of
    // the fields before it.
    std::vector<const FieldDecl *> path;
    if (const IndirectFieldDecl *ind = init->getIndirectMember()) {
      for (const NamedDecl *d : ind->chain()) {
        auto *fd = dyn_cast<FieldDecl>(d);
        if (!fd) {
          path.clear();
          break;
        }
        path.push_back(fd);
      }
    } else if (const FieldDecl *f = init->getMember()) {
      path.push_back(f);
    }
    if (path.empty() || !init->getInit())
      continue;
    const FieldDecl *f = path.back();
    const Expr *ie = init->getInit();
    Val v;
    if (f->getType()->isReferenceType()) {
      // A reference member is bound to memory (or to what a call returns).
      if (auto a = lvalue(ie))
        v = a->ptr;
      else
        v = rvalue(ie);
    } else {
      v = f->getType()->isRecordType() ? recordOf(ie) : rvalue(ie);
    }
    This = withField(This, path, 0, v);
  }
  stmt(cd->getBody());
  --Depth;
  Val out = recordVal(This);
  Env = std::move(savedEnv);
  This = savedThis;
  OuterMask = savedOuter;
  Mask = savedMask;
  Terminated = savedTerm;
  Returns = savedReturns;
  return out;
}

// A lambda's closure object: a field per captured variable, holding the
// variable's value where the lambda is written. Its call operator then
// reads them (lambdaCaptures()), wherever the closure is called from (a
// helper that takes the functor: `for_each_item(in, n, f)`).
Val Walker::closure(const LambdaExpr *le) {
  auto r = std::make_shared<RecordVal>();
  llvm::DenseMap<const ValueDecl *, FieldDecl *> fields;
  FieldDecl *thisField = nullptr;
  le->getLambdaClass()->getCaptureFields(fields, thisField);
  for (const LambdaCapture &cap : le->captures()) {
    if (!cap.capturesVariable())
      continue;
    auto *v = dyn_cast_or_null<VarDecl>(cap.getCapturedVar());
    auto f = v ? fields.find(v) : fields.end();
    if (f == fields.end())
      continue;
    if (auto it = Env.find(v); it != Env.end())
      r->fields[f->second] = it->second;
    else if (auto *p = dyn_cast<ParmVarDecl>(v))
      r->fields[f->second] = Env[v] = param(p);
  }
  return recordVal(r);
}

void Walker::lambdaCaptures(const CXXMethodDecl *op,
                            const std::shared_ptr<const RecordVal> &object,
                            const VarEnv &caller) {
  const CXXRecordDecl *cls = op ? op->getParent() : nullptr;
  if (!cls || !cls->isLambda())
    return;
  llvm::DenseMap<const ValueDecl *, FieldDecl *> fields;
  FieldDecl *thisField = nullptr;
  cls->getCaptureFields(fields, thisField);
  for (const LambdaCapture &cap : cls->captures()) {
    if (!cap.capturesVariable())
      continue;
    auto *v = dyn_cast_or_null<VarDecl>(cap.getCapturedVar());
    if (!v || Env.count(v))
      continue;
    // By reference, the variable as it is now, where the caller still
    // holds it (a `[&]` lambda called where it is written); otherwise, and
    // by copy, the value the closure took.
    if (cap.getCaptureKind() == LCK_ByRef)
      if (auto it = caller.find(v); it != caller.end()) {
        Env[v] = it->second;
        continue;
      }
    auto f = fields.find(v);
    if (!object || f == fields.end())
      continue;
    if (auto it = object->fields.find(f->second); it != object->fields.end())
      Env[v] = it->second;
  }
}

Val Walker::recordOf(const Expr *e) {
  e = e->IgnoreParens();
  if (auto *ce = dyn_cast<ImplicitCastExpr>(e))
    if (ce->getCastKind() == CK_NoOp || ce->getCastKind() == CK_LValueToRValue ||
        ce->getCastKind() == CK_UncheckedDerivedToBase ||
        ce->getCastKind() == CK_DerivedToBase)
      return recordOf(ce->getSubExpr());
  if (auto *w = dyn_cast<FullExpr>(e))
    return recordOf(w->getSubExpr());
  if (auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
    return recordOf(m->getSubExpr());
  if (auto *b = dyn_cast<CXXBindTemporaryExpr>(e))
    return recordOf(b->getSubExpr());
  if (auto *fc = dyn_cast<CXXFunctionalCastExpr>(e))
    return recordOf(fc->getSubExpr());
  if (auto *d = dyn_cast<DeclRefExpr>(e)) {
    if (auto obj = objectOf(d, false))
      return obj->isRecord() ? *obj : opaqueRecord(true);
  }
  if (auto *m = dyn_cast<MemberExpr>(e)) {
    if (auto v = fieldRead(m))
      return v->isRecord() ? *v : opaqueRecord(true);
  }
  if (auto *c = dyn_cast<CXXConstructExpr>(e))
    return construct(c);
  if (auto *le = dyn_cast<LambdaExpr>(e))
    return closure(le);
  // `c ? shared[i] : identity`: each arm's object, for the lanes that take
  // it, merged field by field.
  if (auto *co = dyn_cast<ConditionalOperator>(e))
    return eachArm(co, condition(co->getCond()),
                   [&](const Expr *x) { return recordOf(x); });
  if (auto *il = dyn_cast<InitListExpr>(e)) {
    const RecordDecl *rd = e->getType()->getAsRecordDecl();
    auto r = std::make_shared<RecordVal>();
    if (rd && rd->getDefinition() && !rd->isUnion()) {
      unsigned i = 0;
      for (const FieldDecl *f : rd->getDefinition()->fields()) {
        if (i >= il->getNumInits())
          break;
        const Expr *x = il->getInit(i++);
        r->fields[f] = f->getType()->isRecordType() ? recordOf(x) : rvalue(x);
      }
    }
    return recordVal(r);
  }
  if (e->isGLValue()) {
    // An object in memory (p[i], *q): reading it loads it whole. Lanes that
    // read one address in one instruction get one value, so an object read
    // at a warp-uniform address (`seqs[blockIdx.x]`) has uniform fields.
    if (auto a = lvalue(e)) {
      record(e, *a, false);
      return opaqueRecord(varying(a->ptr));
    }
  }
  Val v = rvalue(e);
  return v.isRecord() ? v : opaqueRecord(true);
}

} // namespace detail
} // namespace warplint
