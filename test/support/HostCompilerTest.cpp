// The host compiler nvcc would use: which one a command names, which of its
// include directories are its own, and which may be run at all.
#include "frontend/project/HostCompiler.h"

#include <gtest/gtest.h>

using namespace warplint;

TEST(HostCompiler, NamedByCcbin) {
  EXPECT_EQ(namedHostCompiler({"nvcc", "-ccbin", "g++-12", "-c", "k.cu"}),
            "g++-12");
  EXPECT_EQ(namedHostCompiler({"nvcc", "--compiler-bindir=/opt/gcc/bin/g++"}),
            "/opt/gcc/bin/g++");
  EXPECT_EQ(namedHostCompiler({"nvcc", "-ccbin=clang++", "k.cu"}), "clang++");
  // nvcc takes a directory too: its g++.
  EXPECT_EQ(namedHostCompiler({"nvcc", "-ccbin", "/usr/bin"}), "/usr/bin/g++");
  EXPECT_EQ(namedHostCompiler({"nvcc", "-c", "k.cu"}), "");
  // Inputs after "--" are no options.
  EXPECT_EQ(namedHostCompiler({"nvcc", "--", "-ccbin", "x"}), "");
}

TEST(HostCompiler, PrivateIncludeDirectories) {
  // `g++ -E -x c++ -v /dev/null` on Debian 12, and a clang++ whose list runs
  // through gcc's installation.
  const char *gcc = R"(ignoring nonexistent directory "/usr/local/include/x86_64-linux-gnu"
#include "..." search starts here:
#include <...> search starts here:
 /usr/include/c++/12
 /usr/include/x86_64-linux-gnu/c++/12
 /usr/include/c++/12/backward
 /usr/lib/gcc/x86_64-linux-gnu/12/include
 /usr/local/include
 /usr/include/x86_64-linux-gnu
 /usr/include
End of search list.
)";
  std::vector<std::string> list = parseSearchList(gcc);
  ASSERT_EQ(list.size(), 7u);
  EXPECT_EQ(privateIncludeDirs(list),
            std::vector<std::string>{"/usr/lib/gcc/x86_64-linux-gnu/12/include"});
  EXPECT_EQ(privateIncludeDirs(parseSearchList(
                "#include <...> search starts here:\n"
                " /usr/bin/../lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12\n"
                " /usr/lib/llvm-22/lib/clang/22/include\n"
                " /usr/include\n"
                "End of search list.\n")),
            std::vector<std::string>{});
  EXPECT_TRUE(parseSearchList("no list here").empty());
}

TEST(HostCompiler, WhatMayRun) {
  // By plain name: the user's own compiler, found on PATH.
  for (const char *ok : {"g++", "gcc", "c++", "cc", "g++-12",
                         "x86_64-linux-gnu-g++-12", "clang++", "clang++-22"})
    EXPECT_TRUE(mayQuery(ok, {})) << ok;
  // A path, or a name that is no compiler, only when the user allows it.
  for (const char *no : {"/tmp/evil/g++", "./g++", "sh", "make-file.sh",
                         "g++;touch"})
    EXPECT_FALSE(mayQuery(no, {})) << no;
  EXPECT_TRUE(mayQuery("/opt/gcc-11/bin/g++", {"/opt/gcc-*/bin/g++"}));
  EXPECT_FALSE(mayQuery("/opt/other/bin/g++", {"/opt/gcc-*/bin/g++"}));
}
