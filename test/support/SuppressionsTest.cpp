// NOLINT comments as clang-tidy reads them.
#include "report/Suppressions.h"

#include <gtest/gtest.h>

namespace warplint {
namespace {

struct Row {
  const char *name;
  const char *text;
  unsigned line;
  const char *rule;
  bool suppressed;
};

TEST(Suppressions, Table) {
  const char *rule = "uncoalesced-global-access";
  const Row rows[] = {
      {"plain NOLINT", "a[i]; // NOLINT", 1, rule, true},
      {"named", "a[i]; // NOLINT(uncoalesced-global-access)", 1, rule, true},
      {"glob", "a[i]; // NOLINT(uncoalesced-*)", 1, rule, true},
      {"other rule", "a[i]; // NOLINT(smem-bank-conflict)", 1, rule, false},
      {"list", "a[i]; // NOLINT(foo, uncoalesced-global-access)", 1, rule, true},
      {"space before paren is plain", "a[i]; // NOLINT (foo)", 1, rule, true},
      {"next line", "// NOLINTNEXTLINE\na[i];", 2, rule, true},
      {"next line named other", "// NOLINTNEXTLINE(foo)\na[i];", 2, rule, false},
      {"NOLINTNEXTLINE is not NOLINT", "a[i]; // NOLINTNEXTLINE", 1, rule, false},
      {"two lines below", "// NOLINTNEXTLINE\n\na[i];", 3, rule, false},
      {"block", "// NOLINTBEGIN\na[i];\n// NOLINTEND\nb[i];", 2, rule, true},
      {"after block", "// NOLINTBEGIN\na[i];\n// NOLINTEND\nb[i];", 4, rule, false},
      {"block named", "// NOLINTBEGIN(uncoalesced-*)\na[i];", 2, rule, true},
      {"no comment", "a[i];", 1, rule, false},
      {"line past end", "a[i];", 9, rule, false},
  };
  for (const Row &r : rows)
    EXPECT_EQ(isSuppressed(r.text, r.line, r.rule), r.suppressed) << r.name;
}

// One index answers every question about its file: blocks nested and
// closed, per rule, on the lines before, inside and after them.
TEST(Suppressions, OneIndexManyQuestions) {
  const char *text = "a[0];\n"                               // 1
                     "// NOLINTBEGIN(smem-*)\n"              // 2
                     "s[1];\n"                               // 3
                     "// NOLINTBEGIN\n"                      // 4
                     "a[2];\n"                               // 5
                     "// NOLINTEND\n"                        // 6
                     "s[3]; a[3];\n"                         // 7
                     "// NOLINTEND(smem-*)\n"                // 8
                     "a[4]; // NOLINT(uncoalesced-*)\n"      // 9
                     "s[5];";                                // 10
  const std::string smem = "smem-bank-conflict",
                    unc = "uncoalesced-global-access";
  SuppressionIndex index(text);
  const struct {
    unsigned line;
    const std::string &rule;
    bool suppressed;
  } asks[] = {{1, unc, false},  {3, smem, true},  {3, unc, false},
              {5, unc, true},   {5, smem, true},  {7, smem, true},
              {7, unc, false},  {9, unc, true},   {9, smem, false},
              {10, smem, false}, {10, unc, false}, {1, smem, false}};
  for (const auto &q : asks)
    EXPECT_EQ(index.suppressed(q.line, q.rule), q.suppressed)
        << "line " << q.line << " " << q.rule;
}

TEST(Suppressions, Glob) {
  EXPECT_TRUE(globMatch("*", "anything"));
  EXPECT_TRUE(globMatch("smem-*", "smem-bank-conflict"));
  EXPECT_FALSE(globMatch("smem-*", "uncoalesced-global-access"));
  EXPECT_TRUE(globMatch("*-access", "uncoalesced-global-access"));
}

} // namespace
} // namespace warplint
