// The walker: memory accesses (lvalues, loads, stores) and calls (intrinsics,
// barriers, inlined device functions).
#include "frontend/walker/Walker.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace warplint {
namespace detail {

Space Walker::spaceOf(const VarDecl *v) {
  if (v->hasAttr<CUDASharedAttr>())
    return Space::Shared;
  // Clang marks namespace-scope constexpr variables __constant__ by itself;
  // nvcc folds a constexpr scalar or object (cuda::std::integral_constant
  // tags, tile sizes) into the code. Only an array, indexed at run time, is
  // read from constant memory.
  if (v->isConstexpr() && !v->getType()->isArrayType())
    return Space::Local;
  // Clang also marks a `__device__ const` variable with a constant
  // initializer __constant__ by itself (an implicit attribute); nvcc keeps
  // it in global memory (measured: LDG.E.CONSTANT on a `static __device__
  // const float table[16]`). Only __constant__ as written, or a constexpr
  // array, is constant memory.
  if (const auto *a = v->getAttr<CUDAConstantAttr>();
      a && (!a->isImplicit() || v->isConstexpr()))
    return Space::Constant;
  if (v->hasGlobalStorage())
    return Space::Global;
  return Space::Local;
}

int64_t Walker::bytesOf(QualType t) {
  if (t.isNull() || t->isIncompleteType() || t->isDependentType())
    return 0;
  return AC.getTypeSizeInChars(t).getQuantity();
}

std::optional<Addr> Walker::lvalue(const Expr *e) {
  e = e->IgnoreParens();
  if (auto *ce = dyn_cast<ImplicitCastExpr>(e))
    if (ce->getCastKind() == CK_NoOp || ce->getCastKind() == CK_UncheckedDerivedToBase)
      return lvalue(ce->getSubExpr());
  // reinterpret_cast<T &>(x) and friends: the same memory, another type.
  if (auto *ce = dyn_cast<ExplicitCastExpr>(e); ce && e->isGLValue()) {
    auto a = lvalue(ce->getSubExpr());
    if (a)
      a->elementBytes = int(bytesOf(e->getType()));
    return a;
  }
  Addr a;
  a.elementBytes = int(bytesOf(e->getType()));
  if (auto *d = dyn_cast<DeclRefExpr>(e)) {
    auto *v = dyn_cast<VarDecl>(d->getDecl());
    if (!v)
      return std::nullopt;
    if (v->getType()->isReferenceType()) {
      auto it = Env.find(v);
      if (it == Env.end() || !it->second.isPtr())
        return std::nullopt;
      a.ptr = it->second;
      return a;
    }
    Space s = spaceOf(v);
    if (s == Space::Local)
      return std::nullopt;
    a.ptr = Val{Val::Ptr, cst(0), v, s};
    return a;
  }
  if (auto *s = dyn_cast<ArraySubscriptExpr>(e)) {
    Val base = rvalue(s->getBase());
    if (!base.isPtr()) {
      rvalue(s->getIdx());
      return unknownPointer(s->getBase(), e);
    }
    Val idx = rvalue(s->getIdx());
    if (idx.kind != Val::Int)
      return std::nullopt;
    a.ptr = base;
    a.ptr.v = bin(Op::Add, base.v,
                  bin(Op::Mul, idx.v, cst(a.elementBytes)));
    a.elementStride = a.elementBytes;
    return a;
  }
  // A call that returns a reference to memory (an accessor's `T &at(i)`,
  // a container's operator[]): the memory it refers to.
  if (auto *c = dyn_cast<CallExpr>(e);
      c && c->getCallReturnType(AC)->isReferenceType()) {
    Val r = rvalue(c);
    if (!r.isPtr())
      return std::nullopt;
    a.ptr = r;
    a.elementStride = a.elementBytes;
    return a;
  }
  if (auto *u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() != UO_Deref)
      return std::nullopt;
    Val p = rvalue(u->getSubExpr());
    if (!p.isPtr())
      return unknownPointer(u->getSubExpr(), e);
    a.ptr = p;
    a.elementStride = a.elementBytes;
    return a;
  }
  if (auto *m = dyn_cast<MemberExpr>(e)) {
    auto *field = dyn_cast<FieldDecl>(m->getMemberDecl());
    if (!field || field->isBitField())
      return std::nullopt;
    // A reference member of an object the walker holds (CUB's
    // `_TempStorage &temp_storage`): the memory it was bound to.
    if (field->getType()->isReferenceType()) {
      if (auto f = fieldRead(m); f && f->isPtr()) {
        a.ptr = *f;
        a.elementStride = a.elementBytes;
        return a;
      }
      return std::nullopt;
    }
    std::optional<Addr> outer;
    if (m->isArrow()) {
      Val p = rvalue(m->getBase());
      if (!p.isPtr())
        return std::nullopt;
      Addr o;
      o.ptr = p;
      o.elementStride = bytesOf(m->getBase()->getType()->getPointeeType());
      outer = o;
    } else {
      outer = lvalue(m->getBase());
      if (outer)
        outer->elementStride = bytesOf(m->getBase()->getType());
    }
    if (!outer)
      return std::nullopt;
    int64_t off = AC.getFieldOffset(field) / AC.getCharWidth();
    a.ptr = outer->ptr;
    a.ptr.v = bin(Op::Add, outer->ptr.v, cst(off));
    a.elementStride = outer->elementStride;
    if (off == 0) {
      QualType outerType = m->isArrow()
                               ? m->getBase()->getType()->getPointeeType()
                               : m->getBase()->getType();
      if (!outerType.isNull() && !outerType->isIncompleteType() &&
          !outerType->isDependentType())
        a.align = int(AC.getTypeAlignInChars(outerType).getQuantity());
    } else {
      a.align = outer->align;
    }
    a.structMember = a.elementStride > a.elementBytes;
    return a;
  }
  return std::nullopt;
}

std::optional<Val> Walker::localAddress(const Expr *e) {
  e = e->IgnoreParens();
  if (auto *ce = dyn_cast<CastExpr>(e);
      ce && (ce->getCastKind() == CK_NoOp ||
             ce->getCastKind() == CK_UncheckedDerivedToBase ||
             ce->getCastKind() == CK_DerivedToBase ||
             (isa<ExplicitCastExpr>(ce) && e->isGLValue())))
    return localAddress(ce->getSubExpr());
  if (auto *d = dyn_cast<DeclRefExpr>(e)) {
    auto *v = dyn_cast<VarDecl>(d->getDecl());
    if (!v || spaceOf(v) != Space::Local)
      return std::nullopt;
    if (v->getType()->isReferenceType()) {
      // A reference (or copy) a callee holds of the kernel's by-value
      // parameter, its fields as the kernel passed them: its arrays are
      // the parameter's.
      auto held = Env.find(v);
      auto *origin = held != Env.end() && held->second.isRecord()
                         ? dyn_cast_or_null<VarDecl>(held->second.base)
                         : nullptr;
      if (!kernelParamCopy(origin))
        return std::nullopt;
      return Val{Val::Ptr, cst(0), origin, Space::Local};
    }
    return Val{Val::Ptr, cst(0), v, Space::Local};
  }
  if (auto *m = dyn_cast<MemberExpr>(e)) {
    auto *f = dyn_cast<FieldDecl>(m->getMemberDecl());
    if (!f || f->isBitField() || f->getType()->isReferenceType())
      return std::nullopt;
    // `this->payload` in a method of an object held in registers.
    std::optional<Val> base =
        !m->isArrow() ? localAddress(m->getBase())
        : isa<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts()) ? ThisLocal
                                                                : std::nullopt;
    if (base)
      base->v = bin(Op::Add, base->v,
                    cst(int64_t(AC.getFieldOffset(f) / AC.getCharWidth())));
    return base;
  }
  return std::nullopt;
}

bool Walker::kernelParamCopy(const VarDecl *v) const {
  auto *p = dyn_cast_or_null<ParmVarDecl>(v);
  return p && Kernel && p->getDeclContext() == Kernel &&
         p->getType()->isRecordType() && !ParamsWritten.count(p);
}

std::optional<Val> Walker::parameterElement(const VarDecl *v, int64_t at,
                                            QualType t) {
  auto *p = dyn_cast<ParmVarDecl>(v);
  if (!kernelParamCopy(v) || !t->isIntegralOrEnumerationType() ||
      t->isDependentType())
    return std::nullopt;
  auto known = ParamElementAtoms.find({p, at});
  if (known != ParamElementAtoms.end())
    return intVal(unknown(known->second));
  // The path to the integer at `at`: fields (bases included) and elements
  // of constant-size arrays, down to one of t's size.
  const int64_t bytes = bytesOf(t);
  std::string name = p->getName().str();
  QualType cur = p->getType();
  int64_t off = at;
  // The last element of an array field named for strides (a tensor
  // accessor's `strides_[N - 1]`): the innermost stride, 1 for the
  // contiguous tensors such accessors are made from.
  bool innermostStride = false;
  std::string field;
  for (int depth = 0; depth < 16; ++depth) {
    if (cur->isIntegralOrEnumerationType()) {
      if (off != 0 || bytesOf(cur) != bytes)
        return std::nullopt;
      int atom = M.ctx.addAtom(name, AtomKind::Parameter);
      if (innermostStride) {
        M.ctx.atoms[size_t(atom)].known = {1};
        M.ctx.atoms[size_t(atom)].knownFrom =
            "assumed: the innermost stride of a contiguous tensor";
      }
      ParamElementAtoms[{p, at}] = atom;
      return intVal(unknown(atom));
    }
    if (auto *arr = AC.getAsConstantArrayType(cur)) {
      int64_t size = bytesOf(arr->getElementType());
      uint64_t count = arr->getSize().getZExtValue();
      if (size <= 0 || off < 0 || uint64_t(off / size) >= count)
        return std::nullopt;
      innermostStride = uint64_t(off / size) + 1 == count &&
                        StringRef(field).contains_insensitive("stride");
      name += "[" + std::to_string(off / size) + "]";
      off %= size;
      cur = arr->getElementType();
      continue;
    }
    auto *rd = cur->getAsRecordDecl();
    if (!rd || !rd->getDefinition() || rd->isUnion() || rd->isInvalidDecl())
      return std::nullopt;
    rd = rd->getDefinition();
    const ASTRecordLayout &layout = AC.getASTRecordLayout(rd);
    bool found = false;
    if (auto *cxx = dyn_cast<CXXRecordDecl>(rd))
      for (const CXXBaseSpecifier &b : cxx->bases()) {
        if (b.isVirtual())
          return std::nullopt;
        auto *base = b.getType()->getAsCXXRecordDecl();
        if (!base)
          return std::nullopt;
        int64_t start = layout.getBaseClassOffset(base).getQuantity();
        int64_t size = bytesOf(b.getType());
        if (off >= start && off < start + size && size > 0) {
          off -= start;
          cur = b.getType();
          found = true;
          break;
        }
      }
    if (found)
      continue;
    for (const FieldDecl *f : rd->fields()) {
      if (f->isBitField())
        return std::nullopt;
      int64_t start = int64_t(AC.getFieldOffset(f) / AC.getCharWidth());
      int64_t size = bytesOf(f->getType());
      if (off >= start && off < start + size && size > 0) {
        off -= start;
        cur = f->getType();
        field = f->getName().str();
        name += "." + field;
        found = true;
        break;
      }
    }
    if (!found)
      return std::nullopt;
  }
  return std::nullopt;
}

void Walker::record(const Expr *e, const Addr &a, bool store, bool atomic) {
  if (store || atomic)
    forgetLoads();
  // A store through a pointer into a thread's own object (`*reinterpret_cast
  // <int4 *>(&pl) = in[i]`): what the walker held of its value is gone.
  if ((store || atomic) && a.ptr.space == Space::Local)
    if (auto *v = dyn_cast_or_null<VarDecl>(a.ptr.base);
        v && !v->getType()->isArrayType() && Env.count(v))
      Env[v] = v->getType()->isRecordType() ? opaqueRecord(true)
                                            : opaque(e, true);
  if ((store || atomic) && a.ptr.space == Space::Local)
    if (auto *p = dyn_cast_or_null<ParmVarDecl>(a.ptr.base))
      ParamsWritten.insert(p);
  // A store into the registers of the object a method runs on
  // (`this->payload[k] = x`): the fields the walker held are gone.
  if ((store || atomic) && a.ptr.space == Space::Local && ThisLocal &&
      a.ptr.base == ThisLocal->base && This)
    This = opaqueRecord(true).rec;
  if (NoRecord || a.ptr.space == Space::Local || a.elementBytes <= 0)
    return;
  if (M.accesses.size() >= MaxAccesses) {
    ++M.accessesLeftOut;
    return;
  }
  AccessSite s;
  s.access = Access{a.ptr.v, fullMask(), a.elementBytes};
  s.base = a.ptr.base;
  if (a.ptr.space != Space::Global)
    s.array = arrayAccess(e);
  s.space = a.ptr.space;
  s.store = store;
  s.atomic = atomic;
  s.expr = e;
  if (auto it = CopyLines.find(e); it != CopyLines.end())
    s.reportAt = it->second;
  else if (store && StoreEndsAt.isValid())
    s.reportAt = StoreEndsAt;
  else if (auto *u = dyn_cast<UnaryOperator>(e->IgnoreParens());
           !store && u && u->getOpcode() == UO_Deref)
    s.reportAt = laterLine(u, u);
  else if (auto *as = dyn_cast<ArraySubscriptExpr>(e->IgnoreParens()))
    s.reportAt = subscriptLine(as);
  s.structMember = a.structMember;
  s.elementStride = a.elementStride;
  s.calls = Calls;
  s.seq = Seq++;
  s.epoch = Epoch;
  s.isVolatile = e->getType().isVolatileQualified();
  s.stmt = StmtId;
  s.align = a.align;
  if (!s.align && a.ptr.space != Space::Global)
    s.align = 16; // nvcc places shared and constant variables itself
  else if (!s.align)
    s.align = int(AC.getTypeAlignInChars(e->getType()).getQuantity());
  // An element that is not one power-of-two access of at most 16 bytes is
  // several instructions, each as wide as its alignment allows (a float3 is
  // three 4-byte loads 12 bytes apart per lane, a double4 two 16-byte
  // loads): each is a request of its own, as the GPU counts them. So is a
  // global element or member whose type is less aligned than it is wide (a
  // struct of four __half is four 2-byte loads; a struct of four ints
  // copied out of a larger element, four 4-byte loads): nvcc knows no more
  // of a global pointer than its type.
  int bytes = a.elementBytes;
  QualType t = e->getType();
  int align = t.isNull() || t->isIncompleteType() || t->isDependentType()
                  ? 1
                  : int(AC.getTypeAlignInChars(t).getQuantity());
  if (bytes > 16 || (bytes & (bytes - 1)) ||
      (a.ptr.space == Space::Global && align < bytes && t->isRecordType())) {
    int chunk = 16;
    while (chunk > 1 && (chunk > align || bytes % chunk != 0))
      chunk /= 2;
    if (chunk < bytes && bytes / chunk <= 16) {
      for (int k = 0; k < bytes / chunk; ++k) {
        AccessSite part = s;
        part.access.offset = bin(Op::Add, s.access.offset, cst(k * chunk));
        part.access.elementBytes = chunk;
        part.elementStride = std::max<int64_t>(s.elementStride, bytes);
        part.structMember = true;
        part.splitOf = bytes;
        part.seq = k ? Seq++ : s.seq;
        M.accesses.push_back(part);
      }
      return;
    }
  }
  M.accesses.push_back(std::move(s));
}

std::optional<ArrayAccess> Walker::arrayAccess(const Expr *e) {
  std::vector<const Expr *> idx;
  const Expr *cur = e->IgnoreParenImpCasts();
  while (auto *as = dyn_cast<ArraySubscriptExpr>(cur)) {
    idx.insert(idx.begin(), as->getIdx());
    cur = as->getBase()->IgnoreParenImpCasts();
  }
  auto *d = dyn_cast<DeclRefExpr>(cur);
  auto *v = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
  if (!v || idx.empty())
    return std::nullopt;
  for (const Expr *i : idx) {
    AssignedVars av;
    av.TraverseStmt(const_cast<Expr *>(i));
    if (!av.vars.empty())
      return std::nullopt; // evaluating it again would change the locals
  }
  ArrayAccess out;
  out.var = v;
  QualType t = v->getType();
  while (const auto *at = AC.getAsConstantArrayType(t)) {
    out.dims.push_back(int64_t(at->getSize().getZExtValue()));
    t = at->getElementType();
  }
  if (out.dims.size() != idx.size())
    return std::nullopt;
  bool saved = NoRecord;
  NoRecord = true;
  for (const Expr *i : idx) {
    Val x = rvalue(i);
    if (x.kind != Val::Int) {
      NoRecord = saved;
      return std::nullopt;
    }
    out.subscripts.push_back(x.v);
    out.subscriptExprs.push_back(i);
  }
  NoRecord = saved;
  return out;
}

Val Walker::load(const Expr *lv, const Expr *whole) {
  if (localVar(lv))
    return rvalue(lv);
  // The value of an assignment (`*c = p = 2 * *c`), a prefix ++/-- or a
  // comma expression is what it computes: walk it (its loads and stores
  // happen), no memory is read again.
  const Expr *inner = lv->IgnoreParens();
  if (auto *b = dyn_cast<BinaryOperator>(inner);
      b && (b->isAssignmentOp() || b->getOpcode() == BO_Comma))
    return rvalue(inner);
  if (auto *u = dyn_cast<UnaryOperator>(inner);
      u && u->isPrefix() && u->isIncrementDecrementOp())
    return rvalue(inner);
  if (auto f = fieldRead(inner))
    return *f;
  // `c ? s[i] : s[j]` as a value: each arm's element is read by the lanes
  // that take it.
  if (auto *co = dyn_cast<ConditionalOperator>(inner); co && co->isGLValue())
    return eachArm(co, condition(co->getCond()),
                   [&](const Expr *x) { return load(x, x); });
  if (lv->getType()->isRecordType())
    return recordOf(lv);
  if (auto a = lvalue(lv)) {
    record(lv, *a, false);
    if (a->ptr.space == Space::Local) {
      // An element of a read-only array at a constant index: its value.
      auto *v = dyn_cast_or_null<VarDecl>(a->ptr.base);
      auto known = v ? ReadOnlyArrays.find(v) : ReadOnlyArrays.end();
      int64_t at = 0, size = 0;
      if (known != ReadOnlyArrays.end() && constValue(a->ptr.v, at) &&
          (size = bytesOf(lv->getType())) > 0 && at % size == 0 &&
          at / size >= 0 && size_t(at / size) < known->second.size() &&
          known->second[size_t(at / size)].kind == Val::Int)
        return known->second[size_t(at / size)];
      if (v && constValue(a->ptr.v, at))
        if (auto p = parameterElement(v, at, lv->getType()))
          return *p;
      // An element of the kernel's by-value parameter at an index the
      // warp's lanes agree on (`t.arrayOf[blockIdx.x]`, then
      // `t.lengths[which]`): the launch's values, one for the warp, as a
      // load from one global address is; a pointer there is the start of
      // an allocation.
      if (kernelParamCopy(v) && !varying(a->ptr))
        return lv->getType()->isPointerType()
                   ? Val{Val::Ptr, cst(0), nullptr, Space::Global}
                   : opaque(whole, false);
      return opaque(whole, true); // each thread's own element
    }
    if (lv->getType()->isPointerType())
      return loadedPointer(lv, a->ptr);
    // A stable id of the allocation (the same from run to run, unlike the
    // declaration's address): its name, FNV-1a.
    uint64_t base = 0;
    if (a->ptr.base) {
      uint64_t h = 1469598103934665603ull;
      for (char ch : a->ptr.base->getQualifiedNameAsString())
        h = (h ^ uint64_t((unsigned char)ch)) * 1099511628211ull;
      base = h | 1;
    }
    std::optional<std::tuple<uint64_t, const Node *, const void *>> key;
    if (base && a->ptr.v && !lv->getType().isVolatileQualified()) {
      LoadedAddresses.push_back(a->ptr.v);
      key.emplace(base, withoutOrigins(a->ptr.v, LoadedMemo).get(),
                  whole->getType().getCanonicalType().getAsOpaquePtr());
    }
    if (key)
      if (auto seen = LoadedValues.find(*key); seen != LoadedValues.end())
        return seen->second;
    // Every lane loading from one address gets one value; where the address
    // varies in the source, the shapes may still make it one per warp
    // (markWarpUniformData()).
    Val v = opaque(whole, varying(a->ptr));
    // A flag the block shares that the kernel sets to literals only
    // (`__shared__ int found; ... found = 1;`): a condition on it is one
    // on data, not on a size.
    auto *var = dyn_cast_or_null<VarDecl>(a->ptr.base);
    if (v.v && v.v->op == Op::Unknown && var &&
        !var->getType()->isArrayType() &&
        whole->getType()->isIntegralOrEnumerationType() &&
        setOnlyToLiterals(var))
      M.ctx.atoms[v.v->value].fromData = true;
    if (auto counter = var ? SharedCounters.find(var) : SharedCounters.end();
        v.v && v.v->op == Op::Unknown && counter != SharedCounters.end())
      (counter->second ? M.ctx.atoms[v.v->value].lastArrival
                       : M.ctx.atoms[v.v->value].counter) = true;
    if (key)
      LoadedValues[*key] = v;
    if (v.v && v.v->op == Op::Data) {
      Atom &at = M.ctx.atoms[v.v->value];
      at.loadAddress = a->ptr.v;
      at.loadBase = base;
      QualType t = whole->getType();
      if (t->isIntegralOrEnumerationType() && !t->isDependentType()) {
        at.dataBits = t->isBooleanType() ? 1 : int(AC.getTypeSize(t));
        at.dataSigned = t->isSignedIntegerOrEnumerationType();
      }
    }
    return v;
  }
  auto *d = dyn_cast<DeclRefExpr>(lv->IgnoreParens());
  if (d)
    return declRef(d);
  if (LaneExpr b = builtin(lv->IgnoreParens()))
    return intVal(withOrigin(b, origin(lv)));
  return opaque(whole, true);
}

// Is every use of the local array `v` in its function a read of one element
// by subscript (`a[k]` as a value, never assigned, incremented, its address
// taken or the array passed on)?
bool Walker::onlyReadBySubscript(const VarDecl *v) {
  auto known = ReadOnlyChecked.find(v);
  if (known != ReadOnlyChecked.end())
    return known->second;
  auto *fd = dyn_cast_or_null<FunctionDecl>(v->getDeclContext());
  if (!fd || !fd->hasBody())
    return ReadOnlyChecked[v] = false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    int refs = 0, reads = 0;
    bool written = false;
    bool isElement(const Expr *e) const {
      auto *s = dyn_cast<ArraySubscriptExpr>(e->IgnoreParens());
      if (!s)
        return false;
      auto *d = dyn_cast<DeclRefExpr>(s->getBase()->IgnoreParenImpCasts());
      return d && d->getDecl() == V;
    }
    bool VisitDeclRefExpr(DeclRefExpr *d) {
      refs += d->getDecl() == V;
      return true;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr *c) {
      if (c->getCastKind() == CK_LValueToRValue && isElement(c->getSubExpr()))
        ++reads;
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *b) {
      written |= b->isAssignmentOp() && isElement(b->getLHS());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *u) {
      written |= (u->isIncrementDecrementOp() ||
                  u->getOpcode() == UO_AddrOf) &&
                 isElement(u->getSubExpr());
      return true;
    }
  } f;
  f.V = v;
  f.TraverseStmt(fd->getBody());
  // Every mention of the array is the base of an element read as a value.
  return ReadOnlyChecked[v] = !f.written && f.refs == f.reads;
}

// Does every assignment to a `__shared__` pointer variable point it at the
// start of a `__shared__` array (`s = mys;` after `__shared__ T *s;`)? The
// kernel's body is read once per variable.
bool Walker::setOnlyToLiterals(const VarDecl *v) {
  auto known = LiteralOnlyVars.find(v);
  if (known != LiteralOnlyVars.end())
    return known->second;
  auto *fd = dyn_cast_or_null<FunctionDecl>(v->getDeclContext());
  if (!fd || !fd->hasBody())
    return LiteralOnlyVars[v] = false;
  AssignedVars av;
  av.TraverseStmt(fd->getBody());
  // (Its address taken, it may be written through it: `atomicAdd(&sum,
  // m)` after `sum = 0` is an accumulator.)
  struct AddressTaken : RecursiveASTVisitor<AddressTaken> {
    const VarDecl *V;
    bool taken = false;
    bool VisitUnaryOperator(UnaryOperator *u) {
      if (u->getOpcode() == UO_AddrOf)
        if (auto *d = dyn_cast<DeclRefExpr>(u->getSubExpr()->IgnoreParens()))
          taken |= d->getDecl() == V;
      return !taken;
    }
  } at;
  at.V = v;
  at.TraverseStmt(fd->getBody());
  return LiteralOnlyVars[v] =
             av.vars.count(v) && !av.computed.count(v) && !at.taken;
}

bool Walker::pointsIntoSharedArrays(const VarDecl *v) {
  auto known = SharedPointerVars.find(v);
  if (known != SharedPointerVars.end())
    return known->second;
  auto *fd = dyn_cast_or_null<FunctionDecl>(v->getDeclContext());
  if (!fd || !fd->hasBody())
    return SharedPointerVars[v] = false;
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl *V;
    bool assigned = false, other = false;
    bool VisitUnaryOperator(UnaryOperator *u) {
      if (u->getOpcode() == UO_AddrOf || u->isIncrementDecrementOp())
        if (refersTo(u->getSubExpr()))
          other = true; // its address escapes, or it is moved
      return true;
    }
    bool VisitBinaryOperator(BinaryOperator *b) {
      if (!b->isAssignmentOp() || !refersTo(b->getLHS()))
        return true;
      const Expr *r = b->getRHS()->IgnoreParenImpCasts();
      auto *d = dyn_cast<DeclRefExpr>(r);
      auto *arr = d ? dyn_cast<VarDecl>(d->getDecl()) : nullptr;
      other |= b->getOpcode() != BO_Assign || !arr ||
               !arr->getType()->isArrayType() ||
               Walker::spaceOf(arr) != Space::Shared;
      assigned = true;
      return true;
    }
    bool refersTo(const Expr *e) const {
      auto *d = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
      return d && d->getDecl() == V;
    }
  } f;
  f.V = v;
  f.TraverseStmt(fd->getBody());
  return SharedPointerVars[v] = f.assigned && !f.other;
}

// A global pointer whose value is data, for the reason given.
Val Walker::dataPointer(const std::string &name, const std::string &why) {
  int atom = M.ctx.addAtom(name, AtomKind::Data, why);
  M.ctx.atoms[atom].pointer = true;
  return Val{Val::Ptr, data(atom), nullptr, Space::Global};
}

std::optional<Addr> Walker::unknownPointer(const Expr *ptr, const Expr *e) {
  // Only a pointer: a subscript of an integer (`2[p]`) or of a vector type
  // is not an access through one.
  if (!ptr->getType()->isPointerType())
    return std::nullopt;
  Addr a;
  a.elementBytes = int(bytesOf(e->getType()));
  a.elementStride = a.elementBytes;
  std::string name = text(ptr);
  a.ptr = dataPointer(name, "warplint cannot tell where '" + name + "' points");
  return a;
}

Val Walker::loadedPointer(const Expr *lv, const Val &at) {
  // A `__shared__` pointer the kernel sets to its shared arrays: it points
  // at the start of one of them (equally aligned), so offsets from it
  // decide banks as they would from the array itself.
  if (auto *d = dyn_cast<DeclRefExpr>(lv->IgnoreParenImpCasts()))
    if (auto *v = dyn_cast<VarDecl>(d->getDecl());
        v && spaceOf(v) == Space::Shared && !v->getType()->isArrayType() &&
        pointsIntoSharedArrays(v))
      return Val{Val::Ptr, cst(0), nullptr, Space::Shared};
  std::string name = text(lv);
  // One pointer for the whole warp (`rows[blockIdx.x]`): the start of an
  // allocation, aligned as allocations are.
  if (!varying(at))
    return Val{Val::Ptr, cst(0), nullptr, Space::Global};
  // A pointer per lane: where it points is data.
  return dataPointer(name,
                     "the address is a pointer loaded per lane ('" + name + "')");
}

void Walker::casLoop(StringRef name, QualType element, const Val &p) {
  // Shared memory has no native add for these types on sm_70 to sm_90:
  // nvcc emits a compare-and-swap loop (ATOMS.CAST.SPIN), one round per
  // lane at the most contended address. Its instructions per round, as
  // measured on an H200 (bench-kernels/atomic-costs): float 6, double 7,
  // a 64-bit integer 8. A 32-bit integer add is native (ATOMS.ADD), and
  // global atomics are native whatever the contention (RED, ATOMG).
  if (NoRecord || Terminated || p.space != Space::Shared ||
      !(name == "atomicAdd" || name == "atomicAdd_block"))
    return;
  element = element.getCanonicalType().getUnqualifiedType();
  int perRound = 0;
  if (element->isSpecificBuiltinType(BuiltinType::Float))
    perRound = 6;
  else if (element->isSpecificBuiltinType(BuiltinType::Double))
    perRound = 7;
  else if (element->isIntegerType() && AC.getTypeSize(element) == 64)
    perRound = 8;
  if (!perRound)
    return;
  WorkSite w;
  w.mask = reachMask();
  w.frame = IfFrameNow;
  w.contended = p.v;
  w.perRound = perRound;
  M.work.push_back(std::move(w));
}

const Expr *Walker::atomicRefTarget(const Expr *obj) {
  for (int depth = 0; obj && depth < 8; ++depth) {
    obj = obj->IgnoreParenImpCasts();
    if (auto *m = dyn_cast<MaterializeTemporaryExpr>(obj)) {
      obj = m->getSubExpr();
    } else if (auto *b = dyn_cast<CXXBindTemporaryExpr>(obj)) {
      obj = b->getSubExpr();
    } else if (auto *f = dyn_cast<CXXFunctionalCastExpr>(obj)) {
      obj = f->getSubExpr();
    } else if (auto *cc = dyn_cast<CXXConstructExpr>(obj)) {
      if (cc->getNumArgs() < 1)
        return nullptr;
      // A copy of another atomic_ref: follow it; else the referenced object.
      const Expr *a0 = cc->getArg(0);
      if (a0->getType()->getAsCXXRecordDecl() == cc->getType()->getAsCXXRecordDecl())
        obj = a0;
      else
        return a0;
    } else if (auto *d = dyn_cast<DeclRefExpr>(obj)) {
      auto *v = dyn_cast<VarDecl>(d->getDecl());
      if (!v || !v->getInit())
        return nullptr;
      obj = v->getInit();
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// The cooperative groups class named `name` that `t` (or what it refers
/// or points to) is; null for any other type.
static const CXXRecordDecl *groupClass(QualType t, StringRef name) {
  if (t.isNull())
    return nullptr;
  t = t.getNonReferenceType();
  if (t->isPointerType())
    t = t->getPointeeType();
  const CXXRecordDecl *rd = t->getAsCXXRecordDecl();
  if (!rd || rd->getName() != name ||
      rd->getQualifiedNameAsString().find("cooperative_groups") ==
          std::string::npos)
    return nullptr;
  return rd;
}

/// N of a cooperative_groups::thread_block_tile<N, ...> (through references
/// and pointers), else 0.
static int tileSizeOf(QualType t) {
  auto *sd = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      groupClass(t, "thread_block_tile"));
  if (!sd)
    return 0;
  const TemplateArgumentList &args = sd->getTemplateArgs();
  if (args.size() < 1 || args[0].getKind() != TemplateArgument::Integral)
    return 0;
  int64_t n = args[0].getAsIntegral().getExtValue();
  return n > 0 && n <= 32 ? int(n) : 0;
}

/// The object a member function is called on: `tile` in `tile.sync()`,
/// also when the member is static (CUDA 13's groups declare sync() so).
static const Expr *calledOn(const CallExpr *c) {
  if (auto *mc = dyn_cast<CXXMemberCallExpr>(c))
    return mc->getImplicitObjectArgument();
  if (auto *me = dyn_cast<MemberExpr>(c->getCallee()->IgnoreParenImpCasts()))
    return me->getBase();
  return nullptr;
}

/// Numbers only: an arithmetic or enum type, or a class of such fields (and
/// arrays of them) with no virtual function and a trivial destructor,
/// however it copies itself. Not a class that holds a pointer, a reference
/// or a handle (thrust's device_reference, whose value is another load).
static bool numbersOnly(QualType t, int depth = 0) {
  t = t.getCanonicalType();
  while (const auto *at = dyn_cast<ConstantArrayType>(t.getTypePtr()))
    t = at->getElementType().getCanonicalType();
  if (t->isArithmeticType() || t->isEnumeralType())
    return true;
  const CXXRecordDecl *rd = t->getAsCXXRecordDecl();
  if (!rd || !rd->hasDefinition() || depth > 4 || rd->isPolymorphic() ||
      !rd->hasTrivialDestructor() || rd->getNumVBases() > 0)
    return false;
  for (const CXXBaseSpecifier &b : rd->bases())
    if (!numbersOnly(b.getType(), depth + 1))
      return false;
  for (const FieldDecl *f : rd->fields())
    if (!numbersOnly(f->getType(), depth + 1))
      return false;
  return true;
}

/// An object one load can read (at most 16 bytes): an element of __half,
/// __nv_bfloat16, an fp8 type, a float, a short vector. Trivially copyable,
/// or numbers only however it copies itself (the toolkit's __half2 and
/// __nv_bfloat162 copy their 32 bits in a constructor of their own).
static bool smallCopyable(QualType t, const ASTContext &ac) {
  t = t.getNonReferenceType().getUnqualifiedType();
  if (t.isNull() || t->isDependentType() || t->isIncompleteType() ||
      !(t->isRecordType() || t->isArithmeticType()))
    return false;
  if (!t.isTriviallyCopyableType(ac) && !numbersOnly(t))
    return false;
  int64_t bytes = ac.getTypeSizeInChars(t).getQuantity();
  return bytes > 0 && bytes <= 16;
}

/// What a library function does with an element it takes as a parameter
/// of type `param` (`first`: the left operand of a compound assignment).
enum class LibraryUse { None, Read, ReadWrite };
static LibraryUse argumentUse(QualType param, bool first) {
  if (!param->isReferenceType())
    return LibraryUse::None; // a copy: the copy constructor's load
  if (first)
    return LibraryUse::ReadWrite;
  return param->getPointeeType().isConstQualified() ? LibraryUse::Read
                                                    : LibraryUse::None;
}

/// A collective of a tile of at most 32 threads: `tile.sync()`, its
/// shuffles and votes, `cg::sync(tile)`, `cg::reduce(tile, ...)`. The tile's
/// size, or 0.
static int tileCollective(const CallExpr *c, const FunctionDecl *fd,
                          StringRef name) {
  static const char *const methods[] = {
      "sync", "shfl",  "shfl_down", "shfl_up",   "shfl_xor",
      "any",  "all",   "ballot",    "match_any", "match_all"};
  if (const Expr *obj = calledOn(c)) {
    if (std::none_of(std::begin(methods), std::end(methods),
                     [&](const char *m) { return name == m; }))
      return 0;
    return tileSizeOf(obj->IgnoreParenImpCasts()->getType());
  }
  if (fd && (name == "sync" || name == "reduce") && c->getNumArgs() >= 1 &&
      fd->getQualifiedNameAsString().find("cooperative_groups") !=
          std::string::npos)
    return tileSizeOf(c->getArg(0)->IgnoreParenImpCasts()->getType());
  return 0;
}

/// A group of cooperative groups that `obj` is: 1 a thread block, 2 the
/// grid; 0 for anything else (tiles are tileSizeOf()'s).
static int cgGroupOf(const Expr *obj) {
  if (!obj)
    return 0;
  QualType t = obj->IgnoreParenImpCasts()->getType();
  return groupClass(t, "thread_block") ? 1
         : groupClass(t, "grid_group") ? 2
                                       : 0;
}

Val Walker::indexVector(QualType t, const std::function<LaneExpr(int)> &of,
                        const Expr *at) {
  const RecordDecl *rd = t->getAsRecordDecl();
  rd = rd ? rd->getDefinition() : nullptr;
  if (!rd)
    return opaqueRecord(true);
  auto r = std::make_shared<RecordVal>();
  for (const FieldDecl *f : rd->fields())
    if (int d = builtinDim(f->getName()); d >= 0)
      r->fields[f] = intVal(withOrigin(of(d), origin(at)));
  return recordVal(r);
}

std::optional<Val> Walker::indexCall(const CallExpr *c) {
  const FunctionDecl *fd = c->getDirectCallee();
  StringRef name = fd && fd->getIdentifier() ? fd->getName() : "";
  // A built-in index taken whole, as a dim3 or uint3 (`dim3 t = threadIdx;`,
  // a helper's dim3 parameter given blockIdx, as cooperative groups' own
  // helpers are): the vector of its components. (The conversion operator's
  // body reads them through `this`, which names no index.)
  auto *mc = dyn_cast<CXXMemberCallExpr>(c);
  if (mc && isa_and_nonnull<CXXConversionDecl>(fd) &&
      c->getType()->isRecordType())
    if (auto *dre = dyn_cast<DeclRefExpr>(
            mc->getImplicitObjectArgument()->IgnoreParenImpCasts())) {
      const CXXRecordDecl *rd = dre->getType()->getAsCXXRecordDecl();
      if (IndexFn of = builtinIndex(dre->getDecl()->getName());
          of && rd && rd->getName().starts_with("__cuda_builtin_"))
        return indexVector(c->getType(), of, c);
    }
  // A thread block's and the grid's members, as cooperative groups define
  // them: the thread's rank in the block (x fastest) or in the grid (the
  // block's rank, x fastest, times the block's size, plus that), the
  // sizes, and the index vectors.
  static const StringRef members[] = {
      "thread_rank",  "size",        "num_threads", "group_index",
      "thread_index", "group_dim",   "dim_threads", "block_rank",
      "num_blocks",   "block_index", "dim_blocks"};
  if (std::find(std::begin(members), std::end(members), name) ==
      std::end(members))
    return std::nullopt;
  if (int group = cgGroupOf(calledOn(c))) {
    auto product = [](IndexFn of) {
      return bin(Op::Mul, of(0), bin(Op::Mul, of(1), of(2)));
    };
    LaneExpr v;
    std::function<LaneExpr(int)> vec;
    if (group == 1) {
      if (name == "thread_rank")
        v = linearThreadIndex();
      else if (name == "size" || name == "num_threads")
        v = product(blockDim);
      else if (name == "group_index")
        vec = blockIdx;
      else if (name == "thread_index")
        vec = threadIdx;
      else if (name == "group_dim" || name == "dim_threads")
        vec = blockDim;
    } else {
      const LaneExpr blockRank =
          bin(Op::Add, blockIdx(0),
              bin(Op::Mul, gridDim(0),
                  bin(Op::Add, blockIdx(1),
                      bin(Op::Mul, gridDim(1), blockIdx(2)))));
      if (name == "thread_rank")
        v = bin(Op::Add, bin(Op::Mul, blockRank, product(blockDim)),
                linearThreadIndex());
      else if (name == "block_rank")
        v = blockRank;
      else if (name == "size" || name == "num_threads")
        v = bin(Op::Mul, product(gridDim), product(blockDim));
      else if (name == "num_blocks")
        v = product(gridDim);
      else if (name == "block_index")
        vec = blockIdx;
      else if (name == "dim_blocks")
        vec = gridDim;
      else if (name == "thread_index")
        vec = [](int d) {
          return bin(Op::Add, bin(Op::Mul, blockIdx(d), blockDim(d)),
                     threadIdx(d));
        };
      else if (name == "dim_threads")
        vec = [](int d) { return bin(Op::Mul, gridDim(d), blockDim(d)); };
    }
    if (v)
      return intVal(withOrigin(v, origin(c)));
    if (vec && c->getType()->isRecordType())
      return indexVector(c->getType(), vec, c);
  }
  return std::nullopt;
}

Val Walker::call(const CallExpr *c) {
  const FunctionDecl *fd = c->getDirectCallee();
  // A function warplint does not walk may write memory (a barrier makes
  // other threads' stores visible).
  if (!fd || !fd->hasBody())
    forgetLoads();
  StringRef name = fd && fd->getIdentifier() ? fd->getName() : "";
  if (std::optional<Val> v = indexCall(c))
    return *v;
  // A tile's rank: its thread's lane within the tile, and the tile's index
  // among the block's tiles (tiles are consecutive lanes of a warp); its
  // size, and the number of tiles in the block.
  if (name == "thread_rank" || name == "meta_group_rank" || name == "size" ||
      name == "num_threads" || name == "meta_group_size")
    if (const Expr *obj = calledOn(c))
      if (int tile = tileSizeOf(obj->IgnoreParenImpCasts()->getType())) {
        LaneExpr v =
            name == "thread_rank" ? bin(Op::Rem, linearThreadIndex(), cst(tile))
            : name == "meta_group_rank"
                ? bin(Op::Div, linearThreadIndex(), cst(tile))
            : name == "meta_group_size"
                ? bin(Op::Div,
                      bin(Op::Mul, blockDim(0),
                          bin(Op::Mul, blockDim(1), blockDim(2))),
                      cst(tile))
                : cst(tile);
        return intVal(withOrigin(v, origin(c)));
      }
  if (int tile = tileCollective(c, fd, name)) {
    // Every thread of the tile must arrive, as with a *_sync intrinsic
    // whose mask is the tile's lanes (all 32 for a warp-sized tile).
    if (!NoRecord) {
      SyncSite ss;
      ss.call = c;
      ss.callee = (calledOn(c)
                       ? "thread_block_tile<" + std::to_string(tile) + ">::"
                       : std::string("cooperative_groups::")) +
                  name.str();
      ss.mask = fullMask();
      ss.tileSize = tile;
      if (tile == 32)
        ss.maskArg = cst(int64_t(AllLanes));
      ss.calls = Calls;
      M.syncs.push_back(ss);
    }
    if (name == "sync")
      ++Epoch; // a __syncwarp for the tile's lanes
    for (const Expr *arg : c->arguments())
      rvalue(arg);
    return opaque(c, true);
  }
  // Cooperative groups: block.sync(), cg::sync(block) (a tile's sync is a
  // tile collective, above).
  // (CUDA 13 declares thread_block::sync() static, so look at the class
  // that declares the method, not at the call's form.)
  // The free function cg::sync(group) is the same barrier.
  bool cgSync = false;
  if (auto *md = dyn_cast_or_null<CXXMethodDecl>(fd)) {
    if (name == "sync")
      cgSync = md->getParent()->getName().contains("thread_block") ||
               md->getParent()->getName().contains("grid_group");
  } else if (fd && name == "sync") {
    cgSync = fd->getQualifiedNameAsString().find("cooperative_groups") !=
             std::string::npos;
  }
  if (isBarrier(name) || isWarpCollective(name) || cgSync) {
    if (!NoRecord) {
      SyncSite ss;
      ss.call = c;
      ss.callee = !cgSync ? name.str()
                  : isa<CXXMethodDecl>(fd) ? "thread_block::sync"
                                           : "cooperative_groups::sync";
      ss.mask = fullMask();
      ss.calls = Calls;
      if ((name.ends_with("_sync") || name == "__syncwarp") &&
          c->getNumArgs() >= 1) {
        bool saved = NoRecord;
        NoRecord = true;
        Val m = rvalue(c->getArg(0));
        NoRecord = saved;
        if (m.kind == Val::Int)
          ss.maskArg = m.v;
      }
      M.syncs.push_back(ss);
    }
    if (isBarrier(name) || cgSync)
      ++Epoch;
  }
  if (name == "__activemask" && c->getNumArgs() == 0)
    return intVal(unknown(M.ctx.addAtom("__activemask()", AtomKind::Uniform)));
  // A shuffle from one source lane for the whole warp (`idx =
  // __shfl_sync(~0u, idx, 0)`, a warp's work item broadcast from lane 0):
  // every lane gets the same value, so what it indexes is one address per
  // warp, and what the warp builds on it (`ptr[v] + lane`) keeps its shape.
  // A value the lanes already share comes back as it is; any other is one
  // unknown per warp that, like an atomic's old value, is data to a
  // condition. A varying source lane, or a width below 32, stays data.
  if ((name == "__shfl_sync" && (c->getNumArgs() == 3 || c->getNumArgs() == 4)) ||
      (name == "__shfl" && (c->getNumArgs() == 2 || c->getNumArgs() == 3))) {
    unsigned first = name == "__shfl_sync" ? 1 : 0;
    if (name == "__shfl_sync")
      rvalue(c->getArg(0));
    Val v = rvalue(c->getArg(first));
    Val src = rvalue(c->getArg(first + 1));
    std::optional<int64_t> width =
        c->getNumArgs() == first + 3 ? constant(c->getArg(first + 2))
                                     : std::optional<int64_t>(32);
    if (v.kind == Val::Int && src.kind == Val::Int && !varying(src) &&
        width && *width >= 32 && c->getType()->isIntegralOrEnumerationType()) {
      if (!varying(v))
        return v;
      int atom = M.ctx.addAtom(text(c), AtomKind::Uniform);
      M.ctx.atoms[atom].fromData = true;
      return intVal(withOrigin(unknown(atom), origin(c)));
    }
    return opaque(c, true);
  }
  if ((name == "min" || name == "max" || name == "umin" || name == "umax" ||
       name == "llmin" || name == "llmax") &&
      c->getNumArgs() == 2) {
    Val a = rvalue(c->getArg(0)), b = rvalue(c->getArg(1));
    if (a.kind == Val::Int && b.kind == Val::Int &&
        c->getType()->isIntegralOrEnumerationType())
      return intVal(withOrigin(
          bin(name.ends_with("min") ? Op::Min : Op::Max, a.v, b.v),
          origin(c)));
    return opaque(c, varying(a) || varying(b));
  }
  if ((name == "__mul24" || name == "__umul24") && c->getNumArgs() == 2) {
    Val a = rvalue(c->getArg(0)), b = rvalue(c->getArg(1));
    return intVal(withOrigin(bin(Op::Mul, a.v, b.v), origin(c)));
  }
  // Bit reversal, population count, leading zeros, first set bit: pure
  // functions of the lane's value (a bit-reversal permutation's `__brev(i) >>
  // (32 - bits)` is an address like any other).
  static const std::pair<const char *, BitFn> bitFns[] = {
      {"__brev", BitFn::Brev32}, {"__brevll", BitFn::Brev64},
      {"__popc", BitFn::Popc32}, {"__popcll", BitFn::Popc64},
      {"__clz", BitFn::Clz32},   {"__clzll", BitFn::Clz64},
      {"__ffs", BitFn::Ffs32},   {"__ffsll", BitFn::Ffs64}};
  if (c->getNumArgs() == 1 && fd &&
      AC.getSourceManager().isInSystemHeader(fd->getLocation()))
    for (const auto &[fnName, fn] : bitFns)
      if (name == fnName) {
        Val a = rvalue(c->getArg(0));
        if (a.kind != Val::Int)
          return opaque(c, varying(a));
        return intVal(withOrigin(bits(fn, a.v), origin(c)));
      }
  // cuda::atomic_ref<T>(x).fetch_add(v) and friends: an access to the
  // object the reference was built on (load/store, or an atomic).
  if (auto *mc = dyn_cast<CXXMemberCallExpr>(c)) {
    const Expr *obj = mc->getImplicitObjectArgument();
    const CXXRecordDecl *rd =
        obj ? obj->getType()->getAsCXXRecordDecl() : nullptr;
    if (rd && rd->getIdentifier() &&
        rd->getName().contains("atomic_ref")) {
      const Expr *target = atomicRefTarget(obj);
      for (const Expr *arg : c->arguments())
        rvalue(arg);
      if (target) {
        if (auto a = lvalue(target)) {
          bool isLoad = name == "load";
          bool isStore = name == "store";
          record(c, *a, !isLoad, !isLoad && !isStore);
        }
      }
      return opaque(c, true);
    }
  }
  // A function the program defines itself is walked into, even when its name
  // looks like an intrinsic (atomic_min, an atomicAdd(double *) fallback, a
  // __ldg wrapper): its body says what it touches.
  const FunctionDecl *def = definitionOf(fd);
  bool userDefined =
      def && !AC.getSourceManager().isInSystemHeader(def->getLocation());
  // atomicAdd(p, v), atomicCAS(p, c, v), atomicAdd_block(...), the
  // __nv_atomic_* forms: a read-modify-write of *p, except the atomic loads
  // and stores, which nvcc emits as plain (strong) loads and stores.
  if (!userDefined &&
      (name.starts_with("atomic") || name.starts_with("__nv_atomic")) &&
      c->getNumArgs() >= 1 && c->getArg(0)->getType()->isPointerType()) {
    Val p = rvalue(c->getArg(0));
    for (unsigned i = 1; i < c->getNumArgs(); ++i)
      rvalue(c->getArg(i));
    bool load = name.starts_with("__nv_atomic_load");
    bool store = name.starts_with("__nv_atomic_store");
    if (p.isPtr()) {
      Addr a{p, int(pointeeBytes(c->getArg(0)->getType()))};
      a.elementStride = a.elementBytes;
      record(c, a, !load, !load && !store);
      casLoop(name, c->getArg(0)->getType()->getPointeeType(), p);
    }
    // A counter every lane bumps by one constant (`pos = atomicAdd(&count,
    // 1); out[pos] = v;`, stream compaction): the warp's lanes get the old
    // value plus their rank among the lanes that call it, times the step,
    // so what they write next is contiguous, not data.
    if (p.isPtr() && !varying(p) && c->getNumArgs() == 2 &&
        c->getType()->isIntegerType() &&
        (name == "atomicAdd" || name == "atomicSub" ||
         name == "atomicAdd_block" || name == "atomicAdd_system"))
      if (auto step = constant(c->getArg(1)); step && *step != 0) {
        int64_t k = name == "atomicSub" ? -*step : *step;
        int atom = M.ctx.addAtom(text(c), AtomKind::Uniform);
        M.ctx.atoms[atom].fromData = true;
        M.ctx.atoms[atom].counter = true;
        return intVal(unknown(atom) + laneRank(fullMask()) * cst(k));
      }
    Val old = opaque(c, true);
    // An increment or decrement of one counter the warp shares
    // (`atomicInc(&arrived, gridDim.x - 1)`): each of its values goes to
    // one caller of the launch. (An add of a step that may be 0, such as
    // `atomicAdd(&flag, 0)`, a read, is no counter.)
    if (p.isPtr() && !varying(p) && old.kind == Val::Int && old.v &&
        old.v->op == Op::Data &&
        (name == "atomicInc" || name == "atomicDec" ||
         name == "atomicInc_system" || name == "atomicDec_system"))
      M.ctx.atoms[size_t(old.v->value)].counter = true;
    return old;
  }
  if (!userDefined && name.starts_with("__ld") && c->getNumArgs() == 1) {
    // __ldg(p) and the cache-hinted loads read *p.
    Val p = rvalue(c->getArg(0));
    if (p.isPtr()) {
      Addr a{p, int(pointeeBytes(c->getArg(0)->getType()))};
      a.elementStride = a.elementBytes;
      record(c, a, false);
    }
    return opaque(c, varying(p));
  }
  if (!userDefined && name.starts_with("__st") && c->getNumArgs() == 2) {
    Val p = rvalue(c->getArg(0));
    rvalue(c->getArg(1));
    if (p.isPtr()) {
      Addr a{p, int(pointeeBytes(c->getArg(0)->getType()))};
      a.elementStride = a.elementBytes;
      record(c, a, true);
    }
    return opaque(c, true);
  }
  Val intrinsic;
  if (!userDefined && intrinsicCall(c, name, intrinsic))
    return intrinsic;
  if (userDefined &&
      std::find(Inlining.begin(), Inlining.end(), def) == Inlining.end()) {
    if (Depth < MaxInlineDepth)
      return inlineCall(c, def);
    tooDeep(def);
  }
  // The program's own function, defined in another translation unit (a
  // separately compiled, -rdc, device function): what it touches is not
  // seen here, and the report says so.
  // (An operator or a conversion has no identifier; an intrinsic's name
  // starts with two underscores.)
  if (fd && !def && !fd->getBuiltinID() &&
      !AC.getSourceManager().isInSystemHeader(fd->getLocation()) &&
      !(fd->getIdentifier() &&
        fd->getIdentifier()->getName().starts_with("__")))
    definedElsewhere(fd);
  // Library code (a system header's function, which nvcc inlines) reads
  // what it is given: an element in memory it takes by const reference, or
  // whose const method it is (`(float)h[i]`, `float x = h[i]` and
  // `static_cast<float>(h[i])` on a __half or __nv_bfloat16 call its
  // conversion operator), is a load of the element at its address, and the
  // left operand of a compound assignment (`h[i] += v`) is read and
  // written; each on the line the user wrote it.
  bool library =
      fd && AC.getSourceManager().isInSystemHeader(fd->getLocation());
  const auto *md = dyn_cast_or_null<CXXMethodDecl>(fd);
  const auto *oc = dyn_cast<CXXOperatorCallExpr>(c);
  bool compound = oc && oc->isAssignmentOp() && oc->getOperator() != OO_Equal;
  // A member operator's object is its first argument.
  unsigned shift = oc && md && !md->isStatic() ? 1 : 0;
  bool anyVarying = false;
  for (unsigned i = 0; i < c->getNumArgs(); ++i) {
    const Expr *arg = c->getArg(i);
    LibraryUse use = LibraryUse::None;
    if (library && arg->isGLValue() && smallCopyable(arg->getType(), AC)) {
      bool first = i == 0 && compound;
      if (i < shift)
        use = first ? LibraryUse::ReadWrite
              : md->isConst() ? LibraryUse::Read
                              : LibraryUse::None;
      else if (i - shift < fd->getNumParams())
        use = argumentUse(fd->getParamDecl(i - shift)->getType(), first);
    }
    if (use == LibraryUse::None) {
      anyVarying |= varying(rvalue(arg));
      continue;
    }
    anyVarying |= varying(load(arg, arg));
    if (use == LibraryUse::ReadWrite)
      if (auto a = lvalue(arg))
        record(arg, *a, true);
  }
  if (auto *mc = dyn_cast<CXXMemberCallExpr>(c))
    if (const Expr *obj = mc->getImplicitObjectArgument()) {
      auto *callee = dyn_cast<MemberExpr>(mc->getCallee()->IgnoreParens());
      if (library && md && md->isConst() && !md->isStatic() &&
          obj->isGLValue() && !(callee && callee->isArrow()) &&
          smallCopyable(obj->getType(), AC)) {
        anyVarying |= varying(load(obj, obj));
      } else if (!anyVarying) {
        // A method of an object the lanes do not share (the conversion of
        // `ptr[i]`'s thrust::device_reference to its value) varies with
        // it: the object is no argument, so look at it too, without
        // recording accesses.
        bool saved = NoRecord;
        NoRecord = true;
        anyVarying |= varying(rvalue(obj));
        NoRecord = saved;
      }
    }
  return opaque(c, anyVarying || c->getType()->isVoidType());
}

SourceLocation Walker::laterLine(const Expr *part, const Expr *whole) const {
  const SourceManager &sm = AC.getSourceManager();
  SourceLocation b = part->getBeginLoc(), e = whole->getEndLoc();
  // Text the file shows as it is: a macro's expansion has no lines of its own.
  if (b.isInvalid() || e.isInvalid() || b.isMacroID() || e.isMacroID() ||
      sm.getFileID(b) != sm.getFileID(e))
    return {};
  if (sm.getSpellingLineNumber(e) <= sm.getSpellingLineNumber(b))
    return {};
  return e;
}

/// Could `e` fold to a constant? False where it reads a variable that is
/// neither const nor constexpr (an index's `t`), which the constant
/// evaluator would find only after setting itself up for each operand of
/// every index; true where only the evaluator can tell.
static bool mayFold(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (isa<IntegerLiteral>(e))
    return true;
  if (auto *d = dyn_cast<DeclRefExpr>(e)) {
    auto *v = dyn_cast<VarDecl>(d->getDecl());
    return !v || v->isConstexpr() ||
           v->getType().getNonReferenceType().isConstQualified();
  }
  if (auto *b = dyn_cast<BinaryOperator>(e))
    return mayFold(b->getLHS()) && mayFold(b->getRHS());
  if (auto *u = dyn_cast<UnaryOperator>(e))
    return mayFold(u->getSubExpr());
  return true;
}

SourceLocation Walker::subscriptLine(const ArraySubscriptExpr *a) const {
  const SourceManager &sm = AC.getSourceManager();
  SourceLocation begin = a->getBeginLoc();
  if (begin.isInvalid() || begin.isMacroID())
    return {};
  // `e` folds to `v`; a product with a factor 0 is 0 whatever the other
  // (`dims_ncell_z * (0)`).
  std::function<bool(const Expr *, int64_t)> is = [&](const Expr *e,
                                                       int64_t v) {
    e = e->IgnoreParenImpCasts();
    Expr::EvalResult r;
    if (!e->isValueDependent() && !e->containsErrors() && mayFold(e) &&
        e->EvaluateAsInt(r, AC))
      return r.Val.getInt() == v;
    auto *b = dyn_cast<BinaryOperator>(e);
    return v == 0 && b && b->getOpcode() == BO_Mul &&
           (is(b->getLHS(), 0) || is(b->getRHS(), 0));
  };
  // The last leaf in source order of what remains once terms that fold away
  // are dropped (`+ 0`, `* 1`, `NOCTANT * (0)`): a variable, a constant, a
  // member, a call (taken whole).
  SourceLocation last;
  std::function<void(const Expr *)> visit = [&](const Expr *e) {
    if (!e)
      return;
    e = e->IgnoreParenImpCasts();
    if (auto *b = dyn_cast<BinaryOperator>(e)) {
      bool additive = b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub;
      bool multiplicative = b->getOpcode() == BO_Mul;
      const Expr *l = b->getLHS(), *r = b->getRHS();
      if (!((additive && is(l, 0)) || (multiplicative && is(l, 1))))
        visit(l);
      if (!((additive && is(r, 0)) || (multiplicative && is(r, 1))))
        visit(r);
      return;
    }
    if (isa<MemberExpr, CallExpr, PseudoObjectExpr, DeclRefExpr>(e) ||
        e->children().empty()) {
      SourceLocation at = sm.getExpansionLoc(e->getEndLoc());
      if (at.isValid() &&
          (last.isInvalid() || sm.isBeforeInTranslationUnit(last, at)))
        last = at;
      return;
    }
    for (const Stmt *c : e->children())
      visit(dyn_cast_or_null<Expr>(c));
  };
  const Expr *idx = a->getIdx();
  if (!is(idx, 0))
    visit(idx);
  if (last.isInvalid() || sm.getFileID(last) != sm.getFileID(begin) ||
      sm.getSpellingLineNumber(last) <= sm.getSpellingLineNumber(begin))
    return {};
  return last;
}

SourceLocation Walker::implicitCopyLine(const FunctionDecl *fn) {
  auto *md = llvm::dyn_cast_or_null<CXXMethodDecl>(fn);
  if (!md || !md->isImplicit() || md->isTrivial())
    return {};
  return md->getParent()->getBeginLoc();
}

Val Walker::inlineCall(const CallExpr *c, const FunctionDecl *def) {
  VarEnv callee;
  // A method runs on an object: one the walker holds (a local, `this`, a
  // temporary it constructs) becomes `this` in the callee, and what the
  // method writes to its fields is written back afterwards. An operator call
  // on an object passes it as the first argument.
  unsigned skip = isa<CXXOperatorCallExpr>(c) && isa<CXXMethodDecl>(def) ? 1 : 0;
  const Expr *objExpr = nullptr;
  if (auto *mc = dyn_cast<CXXMemberCallExpr>(c))
    objExpr = mc->getImplicitObjectArgument();
  else if (skip)
    objExpr = c->getArg(0);
  std::shared_ptr<const RecordVal> object;
  const VarDecl *objectVar = nullptr;
  bool objectIsThis = false;
  std::optional<Val> objectPtr; // the object is in memory: `this` points there
  std::optional<Val> objectLocal; // the object is in registers
  auto *method = dyn_cast<CXXMethodDecl>(def);
  bool arrowCall = false;
  if (auto *mc = dyn_cast_or_null<CXXMemberCallExpr>(c))
    if (auto *me = dyn_cast<MemberExpr>(mc->getCallee()->IgnoreParens()))
      arrowCall = me->isArrow();
  if (objExpr && method && !method->isStatic()) {
    const Expr *o = objExpr->IgnoreParenImpCasts();
    if (arrowCall) {
      // p->f(): `this` is the pointer; this->f() in a method held in
      // registers runs on the same object.
      Val p = rvalue(objExpr);
      if (p.isPtr()) {
        objectPtr = p;
      } else if (isa<CXXThisExpr>(o)) {
        object = This;
        objectIsThis = true;
        objectLocal = ThisLocal;
      }
    } else if (auto a = lvalue(objExpr)) {
      objectPtr = a->ptr; // an object in memory
    } else {
      // An object in registers: a local (written back after the call) or a
      // temporary the walker constructs.
      if (auto *d = dyn_cast<DeclRefExpr>(o))
        objectVar = dyn_cast<VarDecl>(d->getDecl());
      if (objectVar && (spaceOf(objectVar) != Space::Local ||
                        objectVar->getType()->isReferenceType()))
        objectVar = nullptr;
      objectLocal = Val{Val::Ptr, cst(0), objectVar, Space::Local};
      Val ov = recordOf(objExpr);
      if (ov.isRecord())
        object = ov.rec;
    }
  } else if (objExpr) {
    rvalue(objExpr);
  }
  unsigned n = std::min<unsigned>(c->getNumArgs() - skip, def->getNumParams());
  // Objects passed by non-const reference from a local: what the callee
  // writes to their fields is written back (value semantics otherwise).
  std::vector<std::pair<const ParmVarDecl *, const VarDecl *>> writeBack;
  for (unsigned i = 0; i < n; ++i) {
    const ParmVarDecl *p = def->getParamDecl(i);
    const Expr *arg = c->getArg(i + skip);
    // A pointer to a local object (`more(&part)`, a C-style method): the
    // callee reads and writes the object through it, as through a reference.
    if (p->getType()->isPointerType() &&
        p->getType()->getPointeeType()->isRecordType())
      if (const VarDecl *held = addressedObject(arg)) {
        callee[p] = Env[held];
        if (!p->getType()->getPointeeType().isConstQualified())
          writeBack.push_back({p, held});
        continue;
      }
    if (p->getType()->isReferenceType()) {
      std::optional<Val> local;
      if (auto a = lvalue(arg))
        callee[p] = a->ptr;
      else if (p->getType()->getPointeeType()->isArrayType() &&
               (local = localAddress(arg)))
        // A thread's own array (`float vals[4]` to `T (&items)[N]`, a
        // block-load helper's): the callee's accesses through it are
        // registers, as the caller's are.
        callee[p] = *local;
      else if (p->getType()->getPointeeType()->isRecordType()) {
        callee[p] = recordOf(arg);
        if (const VarDecl *lv = localVar(arg);
            lv && !p->getType()->getPointeeType().isConstQualified())
          writeBack.push_back({p, lv});
      }
      else // a local, or a temporary (`get(in, i * 4)` to `const int &`)
        callee[p] = rvalue(arg);
      continue;
    }
    callee[p] = p->getType()->isRecordType() ? recordOf(arg) : rvalue(arg);
  }
  auto savedThis = This;
  auto savedThisPtr = ThisPtr;
  auto savedThisLocal = ThisLocal;
  This = object;
  ThisPtr = objectPtr;
  ThisLocal = objectLocal;
  VarEnv savedEnv = std::move(Env);
  LaneExpr savedOuter = OuterMask, savedMask = Mask;
  bool savedTerm = Terminated;
  auto *savedReturns = Returns;
  std::vector<std::pair<LaneExpr, Val>> returns;
  Env = std::move(callee);
  lambdaCaptures(method, object, savedEnv);
  OuterMask = fullMask();
  Mask = nullptr;
  Terminated = false;
  Returns = &returns;
  ++Depth;
  Calls.push_back(c);
  Inlining.push_back(def);
  // A callee that is one basic block once inlined (`scale(d[i].x);
  // scale(d[i].y);`, a helper reading `v.x` and `v.y` of a reference)
  // joins its caller's merge region: nvcc merges the accesses on both
  // sides of the call (measured: the two reads are one LDG.64).
  const int region = StmtId;
  const size_t firstAccess = M.accesses.size();
  const bool straight = straightLine(def->getBody(), AC, Depth);
  stmt(def->getBody());
  if (straight) {
    for (size_t i = firstAccess; i < M.accesses.size(); ++i)
      if (M.accesses[i].stmt > region)
        M.accesses[i].stmt = region;
    StmtId = region;
  }
  Inlining.pop_back();
  Calls.pop_back();
  --Depth;
  std::shared_ptr<const RecordVal> after = This;
  This = savedThis;
  ThisPtr = savedThisPtr;
  ThisLocal = savedThisLocal;
  std::vector<std::pair<const VarDecl *, Val>> written;
  for (const auto &[p, v] : writeBack) {
    auto it = Env.find(p);
    if (it != Env.end() && it->second.isRecord())
      written.push_back({v, it->second});
  }
  Env = std::move(savedEnv);
  for (const auto &[v, val] : written)
    Env[v] = val;
  if (after && after != object) {
    if (objectIsThis) {
      This = after;
    } else if (objectVar && objectVar->getType()->isRecordType()) {
      Val v = recordVal(after);
      Env[objectVar] = v;
    }
  }
  OuterMask = savedOuter;
  Mask = savedMask;
  Terminated = savedTerm;
  Returns = savedReturns;
  if (returns.empty())
    return opaque(c, true);
  // The last return is the fallback; earlier ones win where they were taken.
  Val result = returns.back().second;
  for (size_t i = returns.size() - 1; i-- > 0;)
    result = merge(returns[i].first ? returns[i].first : cst(1),
                   returns[i].second, result, c);
  return result;
}

} // namespace detail
} // namespace warplint
