// Which files of a project a kernel's launches and a launcher's callers are
// looked for in (frontend/project/Mentions.h): parsing another file costs a
// whole parse, so a name must appear in a launching file, or as a call or a
// definition.
#include "frontend/project/Mentions.h"

#include <gtest/gtest.h>

namespace warplint {
namespace {

TEST(Mentions, CallsAndDefinitionsNotWords) {
  EXPECT_TRUE(mentions("void run(float *, int);", "run", Mention::Call));
  EXPECT_TRUE(mentions("int main() { run (p, 4); }", "run", Mention::Call));
  EXPECT_TRUE(mentions("x = ns::run<float>(p);", "run", Mention::Call));
  EXPECT_TRUE(mentions("// run here\nrun(1);", "run", Mention::Call));
  // Words, members, comments, strings without a call, longer names.
  EXPECT_FALSE(mentions("// run the tests, then run(them) again\n",
                        "run", Mention::Call));
  EXPECT_FALSE(mentions("tool.run(&f); tool->run(1); tool . run (2);",
                        "run", Mention::Call));
  EXPECT_FALSE(mentions("const char *s = \"run\"; int running(1);", "run",
                        Mention::Call));
  EXPECT_FALSE(mentions("rerun(1); run_all(2);", "run", Mention::Call));
}

TEST(Mentions, LaunchesNeedALaunchingText) {
  EXPECT_TRUE(mentions("void go() { auto k = &scale; k<<<1, 32>>>(); }",
                       "scale", Mention::Launch));
  EXPECT_FALSE(mentions("__global__ void scale();", "scale", Mention::Launch));
  EXPECT_FALSE(mentions("k<<<1, 32>>>(); rescale();", "scale",
                        Mention::Launch));
}

} // namespace
} // namespace warplint
