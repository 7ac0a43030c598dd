// The --explain drawings, on hand-made warp requests.
#include "report/Drawing.h"

#include <gtest/gtest.h>

namespace warplint {
namespace {

Lanes strided(int64_t bytes) {
  Lanes a;
  for (int l = 0; l < WarpSize; ++l)
    a[l] = l * bytes;
  return a;
}

int count(const std::string &s, const std::string &what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1))
    ++n;
  return n;
}

TEST(Drawing, SharedColumnIsOneLanePerWavefront) {
  std::string d = drawSharedRequest(strided(128), AllLanes, 4);
  EXPECT_EQ(count(d, "  wavefront "), 32);
  EXPECT_NE(d.find("  wavefront 32 31  ."), std::string::npos) << d;
}

TEST(Drawing, SharedConflictFreeIsOneRow) {
  std::string d = drawSharedRequest(strided(4), AllLanes, 4);
  EXPECT_EQ(count(d, "  wavefront "), 1);
  EXPECT_NE(d.find("  wavefront  1  0  1  2"), std::string::npos) << d;
}

TEST(Drawing, SharedBroadcastIsMarked) {
  Lanes a{};
  std::string d = drawSharedRequest(a, AllLanes, 4);
  EXPECT_NE(d.find(" 0+"), std::string::npos) << d;
}

TEST(Drawing, SharedDoubleHasTwoPhases) {
  std::string d = drawSharedRequest(strided(8), AllLanes, 8);
  EXPECT_EQ(count(d, "phase "), 2);
}

TEST(Drawing, GlobalShowsUsedBytesPerSector) {
  std::string d = drawGlobalRequest(strided(12), AllLanes, 4);
  EXPECT_EQ(count(d, "sector +"), 12);
  EXPECT_NE(d.find("[####........####........####....] lanes 0-2"),
            std::string::npos)
      << d;
}

TEST(Drawing, ConstantListsPasses) {
  Lanes a;
  for (int l = 0; l < WarpSize; ++l)
    a[l] = (l / 8) * 4;
  std::string d = drawConstantRequest(a, AllLanes);
  EXPECT_EQ(count(d, "pass "), 4);
  EXPECT_NE(d.find("lanes 0-7"), std::string::npos) << d;
}

} // namespace
} // namespace warplint
