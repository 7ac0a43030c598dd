// Every registered rule has a doc page, a positive fixture and a negative
// one; and the figures its messages print read as users expect.
#include "rules/RuleSet.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fstream>
#include <sstream>

namespace warplint {
namespace {

std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(RuleRegistry, EveryRuleHasDocsAndFixtures) {
  ASSERT_FALSE(allRules().empty());
  for (const RuleDef *rule : allRules()) {
    const std::string id = rule->id(), summary = rule->summary();
    std::string doc =
        slurp(std::string(WARPLINT_SOURCE_DIR) + "/docs/rules/" + id + ".md");
    EXPECT_FALSE(doc.empty()) << "docs/rules/" << id << ".md is missing";
    EXPECT_NE(doc.find(summary), std::string::npos)
        << "the doc page of " << id << " must start from the rule's summary";
    std::string dir = std::string(WARPLINT_SOURCE_DIR) + "/test/fixtures/" + id;
    DIR *d = opendir(dir.c_str());
    ASSERT_NE(d, nullptr) << dir << " is missing";
    bool positive = false, negative = false;
    while (dirent *e = readdir(d)) {
      std::string name = e->d_name;
      if (name.size() < 3 || name.substr(name.size() - 3) != ".cu")
        continue;
      std::string text = slurp(dir + "/" + name);
      positive |= text.find("expected-warning") != std::string::npos;
      negative |= text.find("expected-no-diagnostics") != std::string::npos;
    }
    closedir(d);
    EXPECT_TRUE(positive) << id << " has no fixture with expected warnings";
    EXPECT_TRUE(negative) << id << " has no fixture that must stay silent";
  }
}

// The rule lists users read first (README.md, the user guide's table) are
// written by hand: each names every rule.
TEST(RuleRegistry, EveryRuleIsListedForUsers) {
  const std::string readme =
      slurp(std::string(WARPLINT_SOURCE_DIR) + "/README.md");
  const std::string guide =
      slurp(std::string(WARPLINT_SOURCE_DIR) + "/docs/user-guide.md");
  ASSERT_FALSE(readme.empty());
  ASSERT_FALSE(guide.empty());
  for (const RuleDef *rule : allRules()) {
    const std::string id = rule->id();
    EXPECT_NE(readme.find("(docs/rules/" + id + ".md)"), std::string::npos)
        << "README.md's list of rules does not name " << id;
    EXPECT_NE(guide.find("(rules/" + id + ".md)"), std::string::npos)
        << "docs/user-guide.md's table of rules does not name " << id;
  }
}

// Figures as messages print them; a range whose ends are within 1% is one
// figure ("16", not "16 to 16.01").
TEST(RuleMessages, FiguresAndRanges) {
  EXPECT_EQ(formatFigure(31.998), "32");
  EXPECT_EQ(formatFigure(4.875), "4.88");
  EXPECT_EQ(formatRange(4, 8), "4 to 8");
  EXPECT_EQ(formatRange(1.1, 5.69), "1.1 to 5.69");
  EXPECT_EQ(formatRange(16, 16.004), "16");
  EXPECT_EQ(formatRange(16, 16.01), "16");
  EXPECT_EQ(formatRange(4.75, 4.88), "4.75 to 4.88");
  EXPECT_EQ(formatRange(2.5, 2.5), "2.5");
}

} // namespace
} // namespace warplint
