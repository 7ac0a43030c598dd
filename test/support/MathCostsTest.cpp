// What a math library call costs the work estimate: the table measured on
// the GPU (scripts/math-costs.py --check keeps it equal to the recording),
// looked up by the names a call reaches the walker with.
#include "frontend/walker/MathCosts.h"

#include <gtest/gtest.h>

using namespace warplint;

TEST(MathCosts, CallsCostWhatTheGpuIssues) {
  // A double exp() is tens of instructions, a double pow() well over 100,
  // a float sinf() about 27; none is the 2 of an intrinsic.
  EXPECT_GT(mathCallCost("exp", false, false).value_or(0), 40);
  EXPECT_GT(mathCallCost("pow", false, false).value_or(0), 100);
  EXPECT_GT(mathCallCost("sinf", false, false).value_or(0), 20);
  EXPECT_LE(mathCallCost("floorf", false, false).value_or(99), 1);
  EXPECT_FALSE(mathCallCost("myHelper", false, false));
  EXPECT_FALSE(mathCallCost("", true, false));
}

TEST(MathCosts, OverloadsAndLibdeviceNamesFindTheirFunction) {
  // exp(float) and std::exp(float) are expf; libdevice's __nv_ names are
  // the functions they implement.
  EXPECT_EQ(mathCallCost("exp", true, false), mathCallCost("expf", true, false));
  EXPECT_EQ(mathCallCost("expf", true, false), mathCallCost("expf", false, false));
  EXPECT_EQ(mathCallCost("__nv_exp", false, false),
            mathCallCost("exp", false, false));
  EXPECT_EQ(mathCallCost("__nv_sinf", true, false),
            mathCallCost("sinf", true, false));
  // The approximate forms clang's headers call under -use_fast_math.
  EXPECT_EQ(mathCallCost("__nv_fast_sinf", true, false),
            mathCallCost("sinf", true, true));
  // An intrinsic has no double form to find.
  EXPECT_EQ(mathCallCost("__expf", true, false),
            mathCallCost("__expf", false, false));
}

TEST(MathCosts, FastMathIsCheaperForFloatsOnly) {
  EXPECT_LT(mathCallCost("sinf", true, true), mathCallCost("sinf", true, false));
  EXPECT_LT(mathCallCost("logf", true, true), mathCallCost("logf", true, false));
  EXPECT_EQ(mathCallCost("log", false, true), mathCallCost("log", false, false));
  EXPECT_LT(divisionCost(false, true), divisionCost(false, false));
  EXPECT_EQ(divisionCost(true, true), divisionCost(true, false));
  EXPECT_GT(divisionCost(true, false), divisionCost(false, false));
}
