// NOLINT comments as clang-tidy reads them.
#include "frontend/Suppressions.h"

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

TEST(Suppressions, Glob) {
  EXPECT_TRUE(globMatch("*", "anything"));
  EXPECT_TRUE(globMatch("smem-*", "smem-bank-conflict"));
  EXPECT_FALSE(globMatch("smem-*", "uncoalesced-global-access"));
  EXPECT_TRUE(globMatch("*-access", "uncoalesced-global-access"));
}

} // namespace
} // namespace warplint
