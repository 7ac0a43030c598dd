//===- WalkerIntrinsics.cpp - accesses made by intrinsics and inline PTX --===//
//
// Tensor-core and asynchronous-copy code moves memory through intrinsics
// rather than lvalues: ldmatrix and stmatrix (each lane supplies one 16-byte
// row address), cp.async (a global read and a shared write per lane),
// wmma::load_matrix_sync / store_matrix_sync (nvcc emits ldmatrix and 64-bit
// shared stores with a fixed lane layout), and plain ld/st in inline PTX.
// Each becomes an AccessSite the memory model evaluates like any other. The
// lane layouts of the wmma functions are not documented; the ones here were
// measured (bench-kernels/tensor-core, docs/model.md "Intrinsics"), and what
// was not measured is recorded as "unknown: <intrinsic>: <why>" rather than
// left out.
//
//===----------------------------------------------------------------------===//
#include "frontend/walker/Walker.h"

#include "model/Fragments.h"

#include "clang/AST/DeclTemplate.h"
#include "llvm/Support/Regex.h"

namespace warplint {
namespace detail {

LaneExpr Walker::linearThreadIndex() {
  return bin(Op::Add, threadIdx(0),
             bin(Op::Mul, blockDim(0),
                 bin(Op::Add, threadIdx(1),
                     bin(Op::Mul, blockDim(1), threadIdx(2)))));
}

LaneExpr Walker::laneIndex() {
  return bin(Op::Rem, linearThreadIndex(), cst(WarpSize));
}

void Walker::recordIntrinsic(const Expr *at, const Val &ptr, int bytes,
                             bool store, LaneExpr lanes,
                             const std::string &intrinsic) {
  auto alternatives = std::move(NextAlternatives);
  NextAlternatives.clear();
  if (store)
    forgetLoads();
  if (NoRecord)
    return;
  if (!ptr.isPtr()) {
    recordUnknown(at, ptr.space, store, intrinsic,
                  "its address is not a pointer warplint can follow");
    return;
  }
  if (ptr.space == Space::Local)
    return;
  if (AccessSite *s = intrinsicSite(at, ptr.space, store, intrinsic)) {
    s->access = Access{ptr.v, lanes ? land(fullMask(), lanes) : fullMask(),
                       bytes};
    s->base = ptr.base;
    s->align = bytes;
    s->elementStride = bytes;
    s->alternatives = std::move(alternatives);
  }
}

void Walker::recordCopy(const Expr *srcAt, const Expr *dstAt, const Val &src,
                        const Val &dst, int bytes, bool bypass, LaneExpr lanes,
                        const std::string &intrinsic) {
  size_t before = M.accesses.size();
  recordIntrinsic(srcAt, src, bytes, false, lanes, intrinsic);
  size_t global = M.accesses.size();
  recordIntrinsic(dstAt, dst, bytes, true, lanes, intrinsic);
  if (bypass && bytes == 16 && global == before + 1 &&
      M.accesses.size() == global + 1 && M.accesses[before].unknown.empty() &&
      M.accesses[global].unknown.empty())
    M.accesses[before].splitByPeer = int(global);
}

void Walker::recordUnknown(const Expr *at, Space space, bool store,
                           const std::string &intrinsic,
                           const std::string &why) {
  if (store)
    forgetLoads();
  if (NoRecord || space == Space::Local)
    return;
  if (AccessSite *s = intrinsicSite(at, space, store, intrinsic)) {
    // A lane-varying unknown address: every analysis that looks at the
    // accesses treats it as data-dependent, which it is as far as warplint
    // knows.
    s->access = Access{data(M.ctx.addAtom(intrinsic, AtomKind::Data, why)),
                       fullMask(), 4};
    s->unknown = "unknown: " + intrinsic + ": " + why;
  }
}

AccessSite *Walker::intrinsicSite(const Expr *at, Space space, bool store,
                                  const std::string &intrinsic) {
  if (M.accesses.size() >= MaxAccesses) {
    ++M.accessesLeftOut;
    return nullptr;
  }
  AccessSite &s = M.accesses.emplace_back();
  s.space = space;
  s.store = store;
  s.expr = at;
  s.calls = Calls;
  s.seq = Seq++;
  s.epoch = Epoch;
  s.stmt = StmtId;
  s.intrinsic = intrinsic;
  s.reportAt = AsmAt;
  return &s;
}

/// A compile-time integer: the argument itself, or the value a
/// cuda::aligned_size_t<N>(x) (or another one-argument wrapper) is built on.
static std::optional<int64_t> constantSize(const Expr *e, ASTContext &ac) {
  e = e->IgnoreImplicit();
  if (auto *fc = dyn_cast<CXXFunctionalCastExpr>(e))
    e = fc->getSubExpr()->IgnoreImplicit();
  if (auto *bt = dyn_cast<CXXBindTemporaryExpr>(e))
    e = bt->getSubExpr()->IgnoreImplicit();
  if (auto *ce = dyn_cast<CXXConstructExpr>(e)) {
    if (ce->getNumArgs() < 1)
      return std::nullopt;
    e = ce->getArg(0)->IgnoreImplicit();
  }
  if (e->isValueDependent() || !e->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult r;
  if (!e->EvaluateAsInt(r, ac))
    return std::nullopt;
  return r.Val.getInt().getExtValue();
}

/// A wmma::fragment's template arguments.
struct Fragment {
  std::string use, elem, layout; // "matrix_a", "__half", "row_major"
  int64_t m = 0, n = 0, k = 0;
};

static std::optional<Fragment> fragmentOf(QualType t) {
  const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      t.getNonReferenceType()->getAsCXXRecordDecl());
  if (!spec || spec->getName() != "fragment")
    return std::nullopt;
  const TemplateArgumentList &args = spec->getTemplateArgs();
  if (args.size() < 5)
    return std::nullopt;
  auto typeName = [](const TemplateArgument &a) -> std::string {
    if (a.getKind() != TemplateArgument::Type)
      return "";
    QualType q = a.getAsType();
    if (const auto *rd = q->getAsRecordDecl())
      return rd->getNameAsString();
    return q.getUnqualifiedType().getAsString();
  };
  auto integer = [](const TemplateArgument &a) -> int64_t {
    return a.getKind() == TemplateArgument::Integral
               ? a.getAsIntegral().getExtValue()
               : 0;
  };
  Fragment f;
  f.use = typeName(args[0]);
  f.m = integer(args[1]);
  f.n = integer(args[2]);
  f.k = integer(args[3]);
  f.elem = typeName(args[4]);
  if (args.size() > 5)
    f.layout = typeName(args[5]);
  return f;
}

static Val offsetBy(const Val &p, LaneExpr bytes) {
  Val v = p;
  v.v = bin(Op::Add, p.v, std::move(bytes));
  return v;
}

/// The TempStorage a cub collective object was built on
/// (`BlockReduce(temp).Sum(x)`, or `BlockReduce br(temp); br.Sum(x)`).
static const Expr *cubStorage(const Expr *obj) {
  for (int i = 0; obj && i < 8; ++i) {
    obj = obj->IgnoreImplicit()->IgnoreParens();
    if (auto *fc = dyn_cast<CXXFunctionalCastExpr>(obj)) {
      obj = fc->getSubExpr();
      continue;
    }
    if (auto *d = dyn_cast<DeclRefExpr>(obj)) {
      auto *v = dyn_cast<VarDecl>(d->getDecl());
      obj = v && v->isLocalVarDecl() ? v->getInit() : nullptr;
      continue;
    }
    if (auto *ce = dyn_cast<CXXConstructExpr>(obj))
      return ce->getNumArgs() >= 1 ? ce->getArg(0) : nullptr;
    return nullptr;
  }
  return nullptr;
}

/// The name of the enumerator a template argument holds
/// (`BLOCK_LOAD_WARP_TRANSPOSE`), or "".
static std::string enumeratorName(const TemplateArgument &arg) {
  if (arg.getKind() != TemplateArgument::Integral)
    return "";
  if (auto *ed =
          dyn_cast_or_null<EnumDecl>(arg.getIntegralType()->getAsTagDecl()))
    for (const EnumConstantDecl *en : ed->enumerators())
      if (llvm::APSInt::isSameValue(en->getInitVal(), arg.getAsIntegral()))
        return en->getName().str();
  return "";
}

bool Walker::cubBlockIO(const CallExpr *c,
                        const ClassTemplateSpecializationDecl *spec,
                        StringRef cname, StringRef name,
                        const std::optional<Addr> &storage,
                        const std::vector<Val> &args, const std::string &what) {
  // BlockLoad<T, BLOCK_DIM_X, ITEMS_PER_THREAD, ALGORITHM, BLOCK_DIM_Y,
  // BLOCK_DIM_Z> (BlockStore alike), as cub/block/block_load.cuh,
  // block_store.cuh and block_exchange.cuh write them: item i of thread t
  // (linear, x fastest) at
  //   blocked       t * ITEMS + i                      (DIRECT)
  //   striped       t + i * BLOCK_THREADS              (STRIPED, TRANSPOSE)
  //   warp-striped  warp * W * ITEMS + lane + i * W    (WARP_TRANSPOSE;
  //                 W = min(BLOCK_THREADS, 32))
  // of the pointer passed (global or shared memory), guarded by `index <
  // block_items_end` where that is passed; the TRANSPOSE forms exchange the
  // items through the shared TempStorage, written in one arrangement and read
  // in the other, each index padded by index >> 5 where ITEMS is a power of two
  // above 4. BlockExchange<T, BLOCK_DIM_X, ITEMS_PER_THREAD,
  // WARP_TIME_SLICING, BLOCK_DIM_Y, BLOCK_DIM_Z>'s StripedToBlocked and the
  // other three are that exchange alone.
  const TemplateArgumentList &ta = spec->getTemplateArgs();
  const bool exchangeOnly = cname == "BlockExchange",
             store = cname == "BlockStore";
  if (ta.size() < 6 || ta[0].getKind() != TemplateArgument::Type ||
      args.size() < (exchangeOnly ? 1 : 2))
    return false;
  auto integral = [&](unsigned i) -> int64_t {
    return ta[i].getKind() == TemplateArgument::Integral
               ? ta[i].getAsIntegral().getExtValue()
               : 0;
  };
  const int64_t bytes = bytesOf(ta[0].getAsType()), items = integral(2),
                threads = integral(1) * integral(4) * integral(5);
  if (bytes <= 0 || bytes > 16 || items <= 0 || items > 64 || threads <= 0)
    return false;
  enum class Arrangement { Blocked, Striped, WarpStriped };
  // Where the items are in memory (the exchange's other side), whether
  // they are exchanged through shared memory, and which way.
  Arrangement global = Arrangement::Blocked;
  bool exchange = false, sliced = false, toBlocked = !store;
  const std::string alg = exchangeOnly ? "" : enumeratorName(ta[3]);
  const std::string prefix = store ? "BLOCK_STORE_" : "BLOCK_LOAD_";
  const std::string kind =
      alg.rfind(prefix, 0) == 0 ? alg.substr(prefix.size()) : "";
  const Val p = exchangeOnly ? Val{} : args[0];
  if (exchangeOnly) {
    exchange = true;
    sliced = integral(3) != 0;
    toBlocked = name.ends_with("ToBlocked");
    if (!toBlocked && !name.starts_with("BlockedTo"))
      return false;
    StringRef other = toBlocked ? name.drop_back(strlen("ToBlocked"))
                                : name.drop_front(strlen("BlockedTo"));
    if (other == "Striped")
      global = Arrangement::Striped;
    else if (other == "WarpStriped")
      global = Arrangement::WarpStriped;
    else
      return false;
  } else if (!p.isPtr() ||
             (p.space != Space::Global && p.space != Space::Shared)) {
    return false;
  } else if (kind == "DIRECT") {
    global = Arrangement::Blocked;
  } else if (kind == "STRIPED" || kind == "TRANSPOSE") {
    global = Arrangement::Striped;
    exchange = kind == "TRANSPOSE";
  } else if (kind == "WARP_TRANSPOSE" || kind == "WARP_TRANSPOSE_TIMESLICED") {
    global = Arrangement::WarpStriped;
    exchange = true;
    sliced = kind == "WARP_TRANSPOSE_TIMESLICED";
    if (threads % WarpSize != 0)
      return false;
  } else {
    // VECTORIZE: cub takes its vector path only where the pointer is
    // aligned to the vector at run time.
    return false;
  }
  const LaneExpr linear = linearThreadIndex(), lane = laneIndex();
  auto index = [&](Arrangement a, int64_t i) -> LaneExpr {
    switch (a) {
    case Arrangement::Blocked:
      return bin(Op::Add, bin(Op::Mul, linear, cst(items)), cst(i));
    case Arrangement::Striped:
      return bin(Op::Add, linear, cst(i * threads));
    case Arrangement::WarpStriped: {
      const int64_t w = std::min<int64_t>(threads, WarpSize);
      return bin(
          Op::Add,
          bin(Op::Mul, bin(Op::Div, linear, cst(WarpSize)), cst(w * items)),
          bin(Op::Add, lane, cst(i * w)));
    }
    }
    return nullptr;
  };
  const LaneExpr valid =
      !exchangeOnly && args.size() >= 3 && args[2].kind == Val::Int ? args[2].v
                                                                    : nullptr;
  auto globalSide = [&] {
    if (exchangeOnly)
      return;
    for (int64_t i = 0; i < items; ++i) {
      LaneExpr at = index(global, i);
      recordIntrinsic(c, offsetBy(p, bin(Op::Mul, at, cst(bytes))), int(bytes),
                      store, valid ? bin(Op::Lt, at, valid) : nullptr, what);
    }
  };
  auto exchangeSide = [&] {
    if (!exchange)
      return;
    if (sliced || !storage || !storage->ptr.isPtr() ||
        storage->ptr.space != Space::Shared) {
      recordUnknown(c, Space::Shared, store, what,
                    sliced ? "its time-sliced exchange through shared "
                             "memory is not modelled"
                           : "its exchange is modelled only on __shared__ "
                             "TempStorage");
      return;
    }
    const bool padded = items > 4 && (items & (items - 1)) == 0;
    auto slot = [&](Arrangement a, int64_t i) {
      LaneExpr at = index(a, i);
      if (padded)
        at = bin(Op::Add, at, bin(Op::Shr, at, cst(5)));
      return offsetBy(storage->ptr, bin(Op::Mul, at, cst(bytes)));
    };
    // A thread's own items side by side (the blocked side, unpadded) are
    // one wide access per lane where their run's width allows: nvcc merges
    // them as it merges an unrolled loop's adjacent accesses (measured: 4
    // ints one LDS.128, 2 one LDS.64, no conflict; TempStorage's start
    // taken as 16-byte aligned).
    int64_t width = bytes;
    while (!padded && width < 16 && (items * bytes) % (2 * width) == 0)
      width *= 2;
    auto side = [&](Arrangement a, bool write) {
      if (a == Arrangement::Blocked && width > bytes) {
        for (int64_t j = 0; j < items * bytes / width; ++j)
          recordIntrinsic(
              c,
              offsetBy(storage->ptr,
                       bin(Op::Add, bin(Op::Mul, linear, cst(items * bytes)),
                           cst(j * width))),
              int(width), write, nullptr, what);
        return;
      }
      for (int64_t i = 0; i < items; ++i)
        recordIntrinsic(c, slot(a, i), int(bytes), write, nullptr, what);
    };
    side(toBlocked ? global : Arrangement::Blocked, true);
    ++Epoch; // the barrier between the writes and the reads
    side(toBlocked ? Arrangement::Blocked : global, false);
  };
  if (store) {
    exchangeSide();
    globalSide();
  } else {
    globalSide();
    exchangeSide();
  }
  return true;
}

bool Walker::cubCollective(const CallExpr *c, StringRef name, Val &out) {
  auto *mc = dyn_cast<CXXMemberCallExpr>(c);
  const CXXMethodDecl *md = mc ? mc->getMethodDecl() : nullptr;
  if (!md || !md->getParent()->getIdentifier())
    return false;
  const CXXRecordDecl *cls = md->getParent();
  StringRef cname = cls->getName();
  if (cls->getQualifiedNameAsString().rfind("cub::", 0) != 0 ||
      !cname.starts_with("Block"))
    return false;
  std::vector<Val> args;
  for (const Expr *arg : c->arguments())
    args.push_back(rvalue(arg));
  out = opaque(c, true);
  std::string what = "cub::" + cname.str() + "::" + name.str();
  // BlockReduce with its default algorithm, BLOCK_REDUCE_WARP_REDUCTIONS
  // (measured on real programs: one STS by lane 0 of each warp, its
  // partial, and thread 0's loads of the others, LDS to LDS.128, all on
  // the call's line; the warps reduce their own lanes by shuffles).
  auto *spec = dyn_cast<ClassTemplateSpecializationDecl>(cls);
  bool warpReductions = false;
  int64_t threads = 1, bytes = 0;
  if (spec && cname == "BlockReduce" && (name == "Sum" || name == "Reduce")) {
    const TemplateArgumentList &args = spec->getTemplateArgs();
    if (args.size() >= 5 && args[0].getKind() == TemplateArgument::Type) {
      bytes = bytesOf(args[0].getAsType());
      warpReductions =
          enumeratorName(args[2]) == "BLOCK_REDUCE_WARP_REDUCTIONS";
      for (unsigned i : {1u, 3u, 4u})
        threads *= args[i].getKind() == TemplateArgument::Integral
                       ? args[i].getAsIntegral().getExtValue()
                       : 0;
    }
  }
  const Expr *storageE = cubStorage(mc->getImplicitObjectArgument());
  std::optional<Addr> storage = storageE ? lvalue(storageE) : std::nullopt;
  if (warpReductions && bytes > 0 && bytes <= 16 && threads > 0 && storage &&
      storage->ptr.isPtr() && storage->ptr.space == Space::Shared) {
    Val slot = offsetBy(storage->ptr,
                        bin(Op::Mul, bin(Op::Div, linearThreadIndex(),
                                         cst(WarpSize)),
                            cst(bytes)));
    recordIntrinsic(c, slot, int(bytes), true,
                    bin(Op::Eq, laneIndex(), cst(0)), what);
    if (threads > WarpSize)
      recordIntrinsic(c, offsetBy(storage->ptr, cst(bytes)), int(bytes), false,
                      bin(Op::Eq, linearThreadIndex(), cst(0)), what);
    ++Epoch; // its barrier between the stores and the loads
    return true;
  }
  if (spec &&
      ((cname == "BlockLoad" && name == "Load") ||
       (cname == "BlockStore" && name == "Store") ||
       cname == "BlockExchange") &&
      cubBlockIO(c, spec, cname, name, storage, args, what))
    return true;
  if (cname == "BlockLoad" || cname == "BlockStore") {
    recordUnknown(c, Space::Global, cname == "BlockStore", what,
                  "only its DIRECT, STRIPED and TRANSPOSE algorithms on a "
                  "pointer are modelled (a vectorized one takes its vector "
                  "path where the pointer is aligned at run time)");
    return true;
  }
  recordUnknown(c, Space::Shared, false, what,
                cname == "BlockReduce"
                    ? "only BlockReduce's default algorithm "
                      "(BLOCK_REDUCE_WARP_REDUCTIONS) on __shared__ "
                      "TempStorage is modelled"
                    : "cub's block collectives other than BlockReduce, "
                      "BlockLoad, BlockStore and BlockExchange's "
                      "arrangement changes are not modelled");
  return true;
}

/// cuda::aligned_size_t<N>'s N, or nullopt for another type.
static std::optional<int64_t> alignmentHint(QualType t) {
  const auto *spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      t.getNonReferenceType()->getAsCXXRecordDecl());
  if (!spec || spec->getName() != "aligned_size_t" ||
      spec->getTemplateArgs().size() < 1 ||
      spec->getTemplateArgs()[0].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return spec->getTemplateArgs()[0].getAsIntegral().getExtValue();
}

void Walker::groupCopy(const CallExpr *c, const std::string &what) {
  // cooperative_groups::memcpy_async(group, dst, src, bytes): the library
  // (cooperative_groups/details/async.h) has the thread of rank r copy
  // pieces r, r + size, r + 2 size... of the copy's width with
  // __pipeline_memcpy_async; the first piece is each lane's request, the
  // later ones repeat it further on (measured: LDGSTS of that width, the
  // whole block's or a tile's).
  Val dst = rvalue(c->getArg(1)), src = rvalue(c->getArg(2));
  rvalue(c->getArg(3));
  auto unknown = [&](const std::string &why) {
    recordUnknown(c, Space::Global, false, what, why);
    recordUnknown(c, Space::Shared, true, what, why);
  };
  const CXXRecordDecl *group =
      c->getArg(0)->getType().getNonReferenceType()->getAsCXXRecordDecl();
  LaneExpr rank;
  if (group && group->getName() == "thread_block") {
    rank = linearThreadIndex();
  } else if (const auto *tile =
                 dyn_cast_or_null<ClassTemplateSpecializationDecl>(group);
             tile && tile->getName() == "thread_block_tile" &&
             tile->getTemplateArgs().size() >= 1 &&
             tile->getTemplateArgs()[0].getKind() == TemplateArgument::Integral) {
    rank = bin(Op::Rem, linearThreadIndex(),
               cst(tile->getTemplateArgs()[0].getAsIntegral().getExtValue()));
  } else {
    unknown("only a thread_block's or a thread_block_tile's copy is modelled "
            "(the ranks of other groups' threads are not known)");
    return;
  }
  std::optional<int64_t> hint = alignmentHint(c->getArg(3)->getType());
  if (!hint) {
    unknown("the width of each thread's copy is chosen at run time from the "
            "pointers' alignment (4, 8 or 16 bytes); cuda::aligned_size_t<16>"
            "(bytes) makes it 16");
    return;
  }
  int width = *hint >= 16 ? 16 : int(*hint);
  if (width != 4 && width != 8 && width != 16) {
    unknown("copies aligned to " + std::to_string(*hint) +
            " bytes move a byte or two a thread, which warplint does not model");
    return;
  }
  LaneExpr piece = bin(Op::Mul, rank, cst(width));
  LaneExpr lanes;
  if (std::optional<int64_t> bytes = constantSize(c->getArg(3), AC))
    lanes = bin(Op::Lt, piece, cst(*bytes));
  recordCopy(c, c, offsetBy(src, piece), offsetBy(dst, piece), width, true,
             lanes, what);
}

bool Walker::mathTable(const CallExpr *c, StringRef name, Val &out) {
  const FunctionDecl *fd = c->getDirectCallee();
  if (!fd || (name != "sin" && name != "cos") || c->getNumArgs() != 1 ||
      fd->getNumParams() != 1 ||
      !fd->getParamDecl(0)->getType()->isSpecificBuiltinType(
          BuiltinType::Double))
    return false;
  // nvcc's sin and cos of a double evaluate a polynomial whose coefficients
  // come from a 128-byte table in global memory (__cudart_sin_cos_coeffs):
  // three 16-byte loads per call (LDG.E.128.CONSTANT, measured on the
  // H200: 3 per call on the call's line, 1.00x to 1.02x), at offsets the
  // argument's quadrant moves by half the table. The lanes are taken to
  // agree on that half, as they mostly do: one sector per request. sinf
  // and cosf read no table on their fast path.
  Val arg = rvalue(c->getArg(0));
  Val table;
  table.kind = Val::Ptr;
  table.space = Space::Global;
  for (int k = 0; k < 3; ++k) {
    table.v = cst(16 * k);
    recordIntrinsic(c, table, 16, false, nullptr,
                    name.str() + " coefficient table");
  }
  out = opaque(c, varying(arg));
  return true;
}

bool Walker::intrinsicCall(const CallExpr *c, StringRef name, Val &out) {
  const FunctionDecl *fd = c->getDirectCallee();
  if (!fd)
    return false;
  if (cubCollective(c, name, out))
    return true;
  if (mathTable(c, name, out))
    return true;
  std::string qualified = fd->getQualifiedNameAsString();
  auto rest = [&](unsigned from) {
    for (unsigned i = from; i < c->getNumArgs(); ++i)
      rvalue(c->getArg(i));
  };
  // The shared address of a generic pointer: the same location.
  if ((name == "__cvta_generic_to_shared" || name == "__cvta_generic_to_global") &&
      c->getNumArgs() == 1) {
    out = rvalue(c->getArg(0));
    if (out.kind != Val::Ptr)
      out = opaque(c, varying(out));
    return true;
  }
  // One lane's asynchronous copy: a global read and a shared write of
  // `size` bytes (nvcc: one LDGSTS, 4, 8 or 16 bytes wide).
  auto laneCopy = [&](const Expr *dstE, const Expr *srcE, const Expr *sizeE,
                      const std::string &what) {
    Val dst = rvalue(dstE), src = rvalue(srcE);
    std::optional<int64_t> size = constantSize(sizeE, AC);
    if (!size || (*size != 4 && *size != 8 && *size != 16)) {
      std::string why = size ? "a copy of " + std::to_string(*size) +
                                   " bytes a lane is several instructions "
                                   "warplint does not model"
                             : "its size is not a compile-time constant";
      recordUnknown(c, Space::Global, false, what, why);
      recordUnknown(c, Space::Shared, true, what, why);
      return;
    }
    // The wrappers copy 16 bytes with cp.async.cg (LDGSTS.BYPASS.128).
    recordCopy(c, c, src, dst, int(*size), true, nullptr, what);
  };
  if (name == "__pipeline_memcpy_async" && c->getNumArgs() >= 3) {
    laneCopy(c->getArg(0), c->getArg(1), c->getArg(2), "__pipeline_memcpy_async");
    rest(3);
    out = opaque(c, true);
    return true;
  }
  if (name == "memcpy_async" &&
      (qualified.rfind("cuda::", 0) == 0 ||
       qualified.find("cooperative_groups") != std::string::npos)) {
    std::string what = qualified.find("cooperative_groups") != std::string::npos
                           ? "cooperative_groups::memcpy_async"
                           : "cuda::memcpy_async";
    unsigned n = c->getNumArgs();
    if (what == "cooperative_groups::memcpy_async" && n == 4) {
      groupCopy(c, what);
      out = opaque(c, true);
      return true;
    }
    bool perThread = n == 4 && c->getArg(0)->getType()->isPointerType();
    std::string sync = n ? c->getArg(n - 1)->getType().getAsString() : "";
    if (perThread && sync.find("thread_scope_thread") != std::string::npos &&
        sync.find("pipeline") != std::string::npos) {
      laneCopy(c->getArg(0), c->getArg(1), c->getArg(2), what);
      rest(3);
    } else {
      rest(0);
      std::string why =
          perThread ? "a copy synchronized by '" + sync +
                          "' is issued in a way not measured (a thread-scope "
                          "cuda::pipeline is)"
                    : "a group's copy is spread over its threads in a layout "
                      "the toolkit does not document";
      recordUnknown(c, Space::Global, false, what, why);
      recordUnknown(c, Space::Shared, true, what, why);
    }
    out = opaque(c, true);
    return true;
  }
  if (name.starts_with("cp_async_bulk")) {
    rest(0);
    recordUnknown(c, Space::Shared, true, name.str(),
                  "the tensor memory accelerator moves a bulk copy, not the "
                  "warp's lanes: it has no per-lane sectors or wavefronts");
    out = opaque(c, true);
    return true;
  }
  if (qualified.find("wmma::") == std::string::npos ||
      (name != "load_matrix_sync" && name != "store_matrix_sync"))
    return false;
  bool store = name == "store_matrix_sync";
  std::string what = "wmma::" + name.str();
  if (c->getNumArgs() < 3)
    return false; // not the toolkit's function: the caller walks it
  const Expr *fragE = c->getArg(store ? 1 : 0);
  Val ptr = rvalue(c->getArg(store ? 0 : 1));
  Val ldm = rvalue(c->getArg(2));
  std::optional<int64_t> layout;
  if (c->getNumArgs() > 3)
    layout = constantSize(c->getArg(3), AC);
  out = opaque(c, true);
  std::optional<Fragment> f = fragmentOf(fragE->getType());
  if (!f) {
    recordUnknown(c, ptr.space, store, what, "its fragment type is not known");
    return true;
  }
  std::string shape = "m" + std::to_string(f->m) + "n" + std::to_string(f->n) +
                      "k" + std::to_string(f->k) + " " + f->use + " " + f->elem;
  if (!f->layout.empty() && f->layout != "void")
    shape += " " + f->layout;
  if (!ptr.isPtr() || ldm.kind != Val::Int || !ldm.v ||
      (ptr.space != Space::Shared && ptr.space != Space::Global)) {
    recordUnknown(c, ptr.space, store, what,
                  "its address is not a pointer warplint can follow");
    return true;
  }
  bool shared = ptr.space == Space::Shared;
  std::string memLayout = f->layout;
  if (f->use == "accumulator") {
    // An accumulator's memory layout is the call's argument.
    if (!layout || (*layout != 0 && *layout != 1)) {
      recordUnknown(c, ptr.space, store, what,
                    "its memory layout is not a compile-time constant");
      return true;
    }
    memLayout = *layout ? "mem_col_major" : "mem_row_major";
  }
  const FragmentLayout *map =
      findFragmentLayout(f->use, int(f->m), int(f->n), int(f->k), f->elem,
                         memLayout);
  std::vector<FragmentInstruction> ins;
  if (map)
    ins = fragmentInstructions(*map, shared, laneIndex());
  if (ins.empty()) {
    recordUnknown(c, ptr.space, store, what,
                  "the lane layout of " + shape +
                      (f->use == "accumulator" ? " (" + memLayout + ")" : "") +
                      " fragments is not measured");
    return true;
  }
  // Each instruction nvcc makes of the call (the layouts and instructions
  // were measured: bench-kernels/tensor-core/frag_cases.cu, docs/model.md
  // "Intrinsics"). In shared memory a tile's leading dimension is the
  // program's choice: the same access with 16 or 32 more bytes a row (the
  // skew wmma allows), for the rule to verify.
  int elemBytes = fragmentElementBytes(map->elem);
  int64_t now = 0;
  bool known = constValue(ldm.v, now);
  std::string e = map->elem;
  const char *unit = elemBytes == 1        ? "bytes"
                     : e == "__half"        ? "halves"
                     : e == "__nv_bfloat16" ? "bf16 elements"
                     : e == "int"           ? "ints"
                     : e == "double"        ? "doubles"
                                            : "floats";
  for (const FragmentInstruction &i : ins) {
    auto at = [&](const LaneExpr &ld) {
      return bin(Op::Mul, bin(Op::Add, bin(Op::Mul, i.line, ld), i.elem),
                 cst(elemBytes));
    };
    if (shared)
      for (int extra : {16 / elemBytes, 32 / elemBytes}) {
        std::string change =
            known ? "a leading dimension of " + std::to_string(now + extra) +
                        " instead of " + std::to_string(now) + " (" +
                        std::to_string(extra) + " " + unit +
                        " of skew a row; the tile grows to match)"
                  : "a leading dimension " + std::to_string(extra) + " " +
                        unit + " longer (skew; the tile grows to match)";
        NextAlternatives.push_back(
            {bin(Op::Add, ptr.v, at(bin(Op::Add, ldm.v, cst(extra)))), change});
      }
    recordIntrinsic(c, offsetBy(ptr, at(ldm.v)), i.bytes, store, i.active,
                    what);
  }
  return true;
}

namespace {
/// One PTX operand reference: %N or %[name], and a byte offset (`[%1+16]`).
struct OperandRef {
  int index = -1;
  int64_t offset = 0;
};

OperandRef operandRef(const GCCAsmStmt *a, StringRef text) {
  OperandRef r;
  text = text.trim();
  llvm::SmallVector<StringRef, 4> m;
  static const llvm::Regex ref(
      "^%(\\[([A-Za-z_][A-Za-z0-9_]*)\\]|([0-9]+))[ \t]*(\\+[ \t]*([0-9]+))?$");
  if (!ref.match(text, &m))
    return r;
  if (!m[2].empty())
    r.index = a->getNamedOperand(m[2]);
  else
    m[3].getAsInteger(10, r.index);
  if (!m[5].empty())
    m[5].getAsInteger(10, r.offset);
  return r;
}

/// Bytes a PTX ld/st moves per lane from its modifiers (".v4.f32": 16), or
/// 0 when the type is not a plain one.
int ptxBytes(StringRef mods) {
  int vec = 1;
  if (mods.contains(".v2"))
    vec = 2;
  else if (mods.contains(".v4"))
    vec = 4;
  else if (mods.contains(".v8"))
    vec = 8;
  llvm::SmallVector<StringRef, 3> m;
  static const llvm::Regex type("\\.(b|u|s|f)(8|16|32|64|128)(\\.|$)");
  // The last type modifier is the element type.
  int bits = 0;
  StringRef rest = mods;
  while (type.match(rest, &m)) {
    m[2].getAsInteger(10, bits);
    rest = rest.substr(rest.find(m[0]) + m[0].size() - (m[3].empty() ? 0 : 1));
  }
  return bits ? vec * bits / 8 : 0;
}
} // namespace

LaneExpr Walker::specialRegister(StringRef name, StringRef dim) {
  if (name == "laneid")
    return laneIndex();
  if (name.consume_front("lanemask_")) {
    // The lanes at, below, at or below, above, at or above the lane, as
    // 32-bit masks.
    // (k << lane) - 1: the lanes below the lane (k = 1), or at or below it
    // (k = 2).
    auto below = [&](int64_t k) {
      return bin(Op::Sub, bin(Op::Shl, cst(k), laneIndex()), cst(1));
    };
    auto others = [](LaneExpr m) { return bin(Op::Xor, m, cst(0xffffffffll)); };
    return name == "eq"   ? bin(Op::Shl, cst(1), laneIndex())
           : name == "lt" ? below(1)
           : name == "le" ? below(2)
           : name == "gt" ? others(below(2))
                          : others(below(1));
  }
  const int d = builtinDim(dim);
  if (d < 0)
    return nullptr;
  return name == "tid"     ? threadIdx(d)
         : name == "ntid"  ? blockDim(d)
         : name == "ctaid" ? blockIdx(d)
                           : gridDim(d);
}

void Walker::asmStmt(const GCCAsmStmt *a) {
  struct Restore {
    SourceLocation &at, saved;
    ~Restore() { at = saved; }
  } restore{AsmAt, AsmAt};
  unsigned outs = a->getNumOutputs();
  std::vector<Val> operands(outs + a->getNumInputs());
  // Read-write outputs are read first, then the inputs.
  for (unsigned i = 0; i < outs; ++i)
    if (a->isOutputPlusConstraint(i))
      operands[i] = rvalue(a->getOutputExpr(i));
  for (unsigned i = 0; i < a->getNumInputs(); ++i)
    operands[outs + i] = rvalue(a->getInputExpr(i));
  auto exprOf = [&](int i) -> const Expr * {
    if (i < 0 || unsigned(i) >= operands.size())
      return nullptr;
    return unsigned(i) < outs ? a->getOutputExpr(i) : a->getInputExpr(i - outs);
  };
  auto address = [&](StringRef text, const Expr *&at) -> std::optional<Val> {
    OperandRef r = operandRef(a, text);
    at = exprOf(r.index);
    if (!at)
      return std::nullopt;
    Val p = operands[r.index];
    if (p.isPtr() && r.offset)
      p = offsetBy(p, cst(r.offset));
    return p;
  };
  std::string body = a->getAsmString();
  // nvcc's line table puts an asm statement's instructions on the line
  // where the statement ends (measured: a statement over two or six lines).
  AsmAt = a->getRParenLoc();
  llvm::SmallVector<StringRef, 8> insts;
  StringRef(body).split(insts, ';');
  // What the outputs hold after the statement, when the PTX says.
  std::map<int, Val> outputs;
  static const llvm::Regex ldmatrix(
      "(ldmatrix|stmatrix)\\.sync\\.aligned\\.m8n8\\.x(1|2|4)(\\.trans)?"
      "(\\.shared(::cta)?)?\\.b16[ \t\n]*(\\{[^}]*\\}[ \t\n]*,[ \t\n]*)?"
      "\\[([^]]+)\\]");
  static const llvm::Regex cpAsync(
      "cp\\.async\\.(ca|cg)\\.shared(::cta)?\\.global([.A-Za-z0-9_:]*)[ \t\n]*"
      "\\[([^]]+)\\][ \t\n]*,[ \t\n]*\\[([^]]+)\\][ \t\n]*,[ \t\n]*([^,; \t\n]+)");
  static const llvm::Regex ldSt(
      "(^|[ \t\n{}])(ld|st)((\\.(global|shared|const))(::cta)?)?"
      "((\\.[A-Za-z0-9_:]+)*)[ \t\n]+([^;]*)");
  // A special register read into an operand: `mov.u32 %0, %%laneid;` (the
  // template spells a register's `%` as `%%`).
  static const llvm::Regex sreg(
      "mov\\.[bsu]32[ \t\n]+(%[0-9]+|%\\[[A-Za-z_][A-Za-z0-9_]*\\])[ \t\n]*,"
      "[ \t\n]*%%?(laneid|tid|ntid|ctaid|nctaid|lanemask_(eq|lt|le|gt|ge))"
      "(\\.([xyz]))?[ \t\n]*$");
  static const llvm::Regex cvta(
      "cvta\\.to\\.shared(::cta)?\\.u(32|64)[ \t\n]+(%[0-9]+)[ \t\n]*,"
      "[ \t\n]*(%[0-9]+)");
  for (StringRef inst : insts) {
    inst = inst.trim();
    llvm::SmallVector<StringRef, 10> m;
    const Expr *at = nullptr;
    if (inst.contains("cp.async.bulk") || inst.contains("cp.reduce.async.bulk")) {
      const Expr *first = exprOf(int(outs));
      if (!first)
        first = exprOf(0);
      if (first)
        recordUnknown(first, Space::Shared, true, "cp.async.bulk",
                    "the tensor memory accelerator moves a bulk copy, not "
                    "the warp's lanes: it has no per-lane sectors or "
                    "wavefronts");
      continue;
    }
    if (ldmatrix.match(inst, &m)) {
      int x = 1;
      m[2].getAsInteger(10, x);
      bool store = m[1] == "stmatrix";
      std::string what = m[1].str() + ".x" + m[2].str() + m[3].str();
      if (auto p = address(m[7], at))
        // Lanes 8i..8i+7 supply the rows of matrix i; 16 bytes a row.
        recordIntrinsic(at, *p, 16, store,
                        bin(Op::Lt, laneIndex(), cst(8 * x)), what);
      continue;
    }
    if (cpAsync.match(inst, &m)) {
      const Expr *dstAt = nullptr, *srcAt = nullptr;
      auto dst = address(m[4], dstAt), src = address(m[5], srcAt);
      std::optional<int64_t> size;
      int64_t lit = 0;
      if (!m[6].getAsInteger(10, lit))
        size = lit;
      else if (const Expr *e = exprOf(operandRef(a, m[6]).index))
        size = constantSize(e, AC);
      std::string what = "cp.async." + m[1].str();
      if (!dst || !src)
        continue;
      if (!size || (*size != 4 && *size != 8 && *size != 16)) {
        recordUnknown(srcAt, Space::Global, false, what,
                      "its size is not 4, 8 or 16 bytes known at compile time");
        continue;
      }
      recordCopy(srcAt, dstAt, *src, *dst, int(*size), m[1] == "cg", nullptr,
                 what);
      continue;
    }
    if (sreg.match(inst, &m)) {
      if (LaneExpr v = specialRegister(m[2], m[5]))
        outputs[operandRef(a, m[1]).index] = intVal(v);
      continue;
    }
    if (cvta.match(inst, &m)) {
      int in = operandRef(a, m[4]).index;
      if (in >= 0 && unsigned(in) < operands.size())
        outputs[operandRef(a, m[3]).index] = operands[in];
      continue;
    }
    if (ldSt.match(inst, &m)) {
      bool store = m[2] == "st";
      StringRef ops = m[9];
      size_t open = ops.find('['), close = ops.find(']');
      if (open == StringRef::npos || close == StringRef::npos || close < open)
        continue;
      std::string what = (m[2] + m[3] + m[7]).str();
      StringRef space = m[5];
      if (space.empty() && m[7].contains(".param"))
        continue;
      if (m[7].contains(".local") || m[7].contains(".param"))
        continue;
      auto p = address(ops.slice(open + 1, close), at);
      if (!p)
        continue;
      int bytes = ptxBytes(m[7]);
      if (bytes <= 0 || bytes > 16 || (bytes & (bytes - 1))) {
        recordUnknown(at, p->space, store, what,
                      "its width is not one that warplint models");
        continue;
      }
      recordIntrinsic(at, *p, bytes, store, nullptr, what);
      continue;
    }
  }
  // The outputs: locals take what the PTX put there (unknown per lane
  // unless it said); memory operands are stores after the statement.
  for (unsigned i = 0; i < outs; ++i) {
    const Expr *e = a->getOutputExpr(i);
    auto it = outputs.find(int(i));
    Val v = it != outputs.end() ? it->second : opaque(e, true);
    if (const VarDecl *var = localVar(e)) {
      Env[var] = v;
      continue;
    }
    if (!fieldWrite(e, v))
      if (auto addr = lvalue(e))
        record(e, *addr, true);
  }
}

} // namespace detail
} // namespace warplint
