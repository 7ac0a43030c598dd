// Values that depend on themselves (a pointer chased through the data it
// loads, loops defined through one another) and values too deep to follow:
// the evaluator stops, says why, and never recurses without bound.
#include "model/Eval.h"
#include "model/Memory.h"
#include "model/Site.h"

#include <gtest/gtest.h>

#include <pthread.h>

#include <functional>

namespace warplint {
namespace {

// Blocks that outlive every evaluator: a WarpEval keeps a reference to its
// shape.
const Shape Block32{32, 1, 1}, Block64{64, 1, 1};

LaneExpr tid() { return threadIdx(0); }

// `int x = a[threadIdx.x]; while (x != 0) x = a[x];`: the load in the loop
// reads at an address built from the value it loads.
struct Chase {
  Context ctx;
  int loop = 0, first = 0, next = 0;
  Chase() {
    first = ctx.addAtom("a[threadIdx.x]", AtomKind::Data);
    next = ctx.addAtom("a[x]", AtomKind::Data);
    loop = ctx.addLoop({"x", data(first), data(next),
                        bin(Op::Ne, loopVar(0), cst(0))});
    for (int a : {first, next}) {
      ctx.atoms[a].loadBase = 1;
      ctx.atoms[a].dataBits = 32;
      ctx.atoms[a].dataSigned = true;
    }
    ctx.atoms[first].loadAddress = tid() * cst(4);
    ctx.atoms[next].loadAddress = loopVar(loop) * cst(4);
  }
};

TEST(Cycles, PointerChaseStopsWithTheReason) {
  Chase c;
  Env env;
  env.dataSeed = 1;
  env.loopIter = {3};
  WarpEval ev(c.ctx, Block64, env, 0);
  ev.value(loopVar(c.loop) * cst(4));
  EXPECT_TRUE(ev.undefined);
  EXPECT_EQ(ev.stopped, EvalStop::DataCycle);
  EXPECT_NE(evalStopReason(ev.stopped).find("built from itself"),
            std::string::npos);
  // Stopped once, every later value returns at once.
  ev.value(data(c.next));
  EXPECT_EQ(ev.stopped, EvalStop::DataCycle);
}

TEST(Cycles, PointerChaseWithoutDrawsHasAValue) {
  // No data drawn (the model's view of data as one unknown per warp): the
  // loads are not followed, and nothing depends on itself.
  Chase c;
  Env env;
  env.loopIter = {3};
  WarpEval ev(c.ctx, Block64, env, 0);
  ev.value(loopVar(c.loop) * cst(4));
  EXPECT_EQ(ev.stopped, EvalStop::None);
}

TEST(Cycles, PointerChaseAccessIsNotEvaluatedWithTheReason) {
  Chase c;
  Access acc{loopVar(c.loop) * cst(4), loopActive(c.loop), 4};
  SiteInput site(acc);
  SiteResult r = analyzeSite(site, c.ctx, {Shape{256, 1, 1}});
  EXPECT_FALSE(r.result.evaluated);
  EXPECT_NE(r.result.unknownReason.find("built from itself"), std::string::npos)
      << r.result.unknownReason;
  // The first load, at the lane's own element, keeps its figure.
  Access own{tid() * cst(4), nullptr, 4};
  SiteResult o = analyzeSite(SiteInput(own), c.ctx, {Shape{256, 1, 1}});
  EXPECT_TRUE(o.result.evaluated);
  EXPECT_DOUBLE_EQ(o.result.actual, 4);
}

TEST(Cycles, LinkedListWalkStops) {
  // `for (n = head[t]; n >= 0; n = next[n]) sum += val[n];`: the walk's
  // link and the value beside it, both at addresses built from the link.
  Context ctx;
  int head = ctx.addAtom("head[t]", AtomKind::Data);
  int link = ctx.addAtom("next[n]", AtomKind::Data);
  int loop = ctx.addLoop({"n", data(head), data(link),
                          bin(Op::Ge, loopVar(0), cst(0))});
  int val = ctx.addAtom("val[n]", AtomKind::Data);
  for (int a : {head, link, val}) {
    ctx.atoms[a].loadBase = uint64_t(a) + 1;
    ctx.atoms[a].dataBits = 32;
  }
  ctx.atoms[head].loadAddress = tid() * cst(4);
  ctx.atoms[link].loadAddress = loopVar(loop) * cst(4);
  ctx.atoms[val].loadAddress = loopVar(loop) * cst(4);
  Access acc{data(val) * cst(4), loopActive(loop), 4};
  SiteResult r = analyzeSite(SiteInput(acc), ctx, {Shape{128, 1, 1}});
  EXPECT_FALSE(r.result.evaluated);
  EXPECT_FALSE(r.result.unknownReason.empty());
}

TEST(Cycles, LoopsDefinedThroughEachOther) {
  // Two loops, each starting from the other's variable: no order in which
  // to compute them.
  Context ctx;
  ctx.addLoop({"i", loopVar(1) + cst(1), loopVar(0) + cst(1), nullptr});
  ctx.addLoop({"j", loopVar(0) + cst(1), loopVar(1) + cst(1), nullptr});
  Env env;
  WarpEval ev(ctx, Block32, env, 0);
  ev.value(loopVar(0));
  EXPECT_TRUE(ev.undefined);
  EXPECT_EQ(ev.stopped, EvalStop::LoopCycle);
  EXPECT_NE(evalStopReason(ev.stopped).find("depend on the value itself"),
            std::string::npos);
}

TEST(Cycles, LoopWhoseConditionReadsItsOwnExit) {
  // A condition on the loop's own final value, and an activity asked in
  // its own start: both stop, neither recurses.
  Context ctx;
  ctx.addLoop({"i", cst(0), loopVar(0) + cst(1),
               bin(Op::Lt, loopVar(0), loopFinal(0))});
  ctx.addLoop({"k", loopActive(1), loopVar(1) + cst(1),
               bin(Op::Lt, loopVar(1), cst(8))});
  Env env;
  env.loopIter = {2, 2};
  WarpEval a(ctx, Block32, env, 0);
  a.value(loopFinal(0));
  EXPECT_EQ(a.stopped, EvalStop::LoopCycle);
  WarpEval b(ctx, Block32, env, 0);
  b.mask(loopActive(1));
  EXPECT_EQ(b.stopped, EvalStop::LoopCycle);
}

// Runs `fn` on a thread with a stack of `bytes` (a sanitizer's frames are
// larger than a release build's).
void onStack(size_t bytes, const std::function<void()> &fn) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, bytes);
  pthread_t t;
  auto run = [](void *p) -> void * {
    (*static_cast<const std::function<void()> *>(p))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&t, &attr, run, const_cast<void *>(
                                                static_cast<const void *>(&fn))),
            0);
  pthread_join(t, nullptr);
  pthread_attr_destroy(&attr);
}

TEST(Cycles, DepthLimitStopsALongChainOfLoops) {
  // Each loop starts from the previous one's variable: a value 20,000 loops
  // deep is not followed; one 300 deep is.
  Context ctx;
  ctx.addLoop({"l0", cst(0), loopVar(0) + cst(1), nullptr});
  for (int i = 1; i < 20000; ++i)
    ctx.addLoop({"l" + std::to_string(i), loopVar(i - 1) + cst(1),
                 loopVar(i) + cst(1), nullptr});
  EvalStop deep = EvalStop::None, shallow = EvalStop::None;
  int64_t shallowValue = -1;
  onStack(size_t(256) << 20, [&] {
    Env env;
    WarpEval a(ctx, Block32, env, 0);
    a.value(loopVar(19999));
    deep = a.stopped;
    WarpEval b(ctx, Block32, env, 0);
    shallowValue = b.value(loopVar(300))[0];
    shallow = b.stopped;
  });
  EXPECT_EQ(deep, EvalStop::Depth);
  EXPECT_NE(evalStopReason(deep).find("depth limit"), std::string::npos);
  EXPECT_EQ(shallow, EvalStop::None);
  EXPECT_EQ(shallowValue, 300);
}

TEST(Cycles, DepthLimitHoldsOnAnOrdinaryStack) {
  // The limit itself fits the 8 MiB of a main thread (a release build's
  // frames): a value at the limit returns rather than overflows.
  Context ctx;
  ctx.addLoop({"l0", cst(0), loopVar(0) + cst(1), nullptr});
  for (int i = 1; i < 5000; ++i)
    ctx.addLoop({"l" + std::to_string(i), loopVar(i - 1) + cst(1),
                 loopVar(i) + cst(1), nullptr});
  EvalStop stopped = EvalStop::None;
  onStack(size_t(8) << 20, [&] {
#if defined(__SANITIZE_ADDRESS__)
    stopped = EvalStop::Depth; // a sanitizer's frames are several times larger
#else
    Env env;
    WarpEval a(ctx, Block32, env, 0);
    a.value(loopVar(4999));
    stopped = a.stopped;
#endif
  });
  EXPECT_EQ(stopped, EvalStop::Depth);
}

TEST(Cycles, LoopWhoseUpdateReadsItsOwnActivity) {
  // Whether a lane is still inside at iteration 3 needs the updates before
  // it, and the update asks whether the lane is still inside: it stops.
  Context ctx;
  ctx.addLoop({"i", cst(1),
               bin(Op::Add, bin(Op::Add, loopActive(0), loopVar(0)), cst(1)),
               bin(Op::Lt, loopVar(0), cst(10))});
  Env env;
  env.loopIter = {3};
  WarpEval ev(ctx, Block32, env, 0);
  ev.value(loopVar(0));
  EXPECT_EQ(ev.stopped, EvalStop::LoopCycle);
  WarpEval fin(ctx, Block32, env, 0);
  fin.value(loopFinal(0));
  EXPECT_EQ(fin.stopped, EvalStop::LoopCycle);
}

} // namespace
} // namespace warplint
