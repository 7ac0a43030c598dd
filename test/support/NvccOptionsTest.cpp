// The nvcc option table against CUDA 13's `nvcc --help`, and every spelling
// of every option through deviceParseCommand.
#include "frontend/project/CommandLine.h"
#include "frontend/project/NvccOptions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace warplint {
namespace {

CudaSetup toolkit() { return {"", "/usr/local/cuda", "/res", "/stub"}; }

struct Listed {
  std::string longName, shortName;
  bool takesValue;
};

std::vector<Listed> listedOptions() {
  std::ifstream in(WARPLINT_SOURCE_DIR "/test/support/nvcc13-options.txt");
  std::vector<Listed> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream row(line);
    Listed l;
    int value = 0;
    row >> l.longName >> l.shortName >> value;
    l.takesValue = value != 0;
    out.push_back(l);
  }
  return out;
}

TEST(NvccOptions, EveryListedOptionHasARow) {
  std::vector<Listed> listed = listedOptions();
  ASSERT_EQ(listed.size(), 143u);
  for (const Listed &l : listed) {
    const NvccOption *byLong = findNvccOption(l.longName);
    ASSERT_NE(byLong, nullptr) << l.longName;
    EXPECT_EQ(findNvccOption(l.shortName), byLong) << l.shortName;
    EXPECT_EQ(byLong->takesValue, l.takesValue) << l.longName;
  }
}

// Every spelling of every option: nvcc's own spelling never reaches clang,
// and a value reaches it only as the clang option it stands for.
TEST(NvccOptions, NoSpellingLeaksIntoClang) {
  const std::string value = "VALUE123";
  for (const NvccOption &o : nvccOptions()) {
    std::vector<std::vector<std::string>> forms;
    for (const char *name : {o.longName, o.shortName}) {
      if (o.takesValue) {
        forms.push_back({name, value});
        forms.push_back({std::string(name) + "=" + value});
      } else {
        forms.push_back({name});
      }
    }
    for (const auto &form : forms) {
      std::vector<std::string> cmd{"/usr/local/cuda/bin/nvcc"};
      cmd.insert(cmd.end(), form.begin(), form.end());
      cmd.push_back("k.cu");
      std::vector<std::string> errors;
      auto out = deviceParseCommand(cmd, toolkit(), "/nowhere", &errors);
      std::string shown = form[0] + (form.size() > 1 ? " " + form[1] : "");
      EXPECT_NE(std::find(out.begin(), out.end(), "k.cu"), out.end()) << shown;
      for (size_t i = 0; i < out.size(); ++i) {
        const std::string &a = out[i];
        EXPECT_NE(a, o.longName) << shown;
        // (-include, -isystem and -x are clang's spellings too; warplint adds
        // its own -x cuda.)
        if (o.effect != NvccEffect::PreInclude &&
            o.effect != NvccEffect::SystemInclude &&
            o.effect != NvccEffect::Language) {
          EXPECT_NE(a, std::string(o.shortName)) << shown;
        }
        EXPECT_NE(a.rfind(std::string(o.longName) + "=", 0), 0u) << shown;
        if (a.find(value) == std::string::npos)
          continue;
        // The value is only ever part of the clang option it stands for.
        switch (o.effect) {
        case NvccEffect::Define:
          EXPECT_EQ(a, "-D" + value) << shown;
          break;
        case NvccEffect::Undefine:
          EXPECT_EQ(a, "-U" + value) << shown;
          break;
        case NvccEffect::Include:
          EXPECT_EQ(a, "-I" + value) << shown;
          break;
        case NvccEffect::SystemInclude:
        case NvccEffect::PreInclude:
          ASSERT_GT(i, 0u);
          EXPECT_EQ(out[i - 1],
                    o.effect == NvccEffect::PreInclude ? "-include" : "-isystem")
              << shown;
          break;
        case NvccEffect::Std:
          EXPECT_EQ(a, "-std=" + value) << shown;
          break;
        case NvccEffect::Optimize:
          EXPECT_EQ(a, "-O" + value) << shown;
          break;
        case NvccEffect::TemplateDepth:
          EXPECT_EQ(a, "-ftemplate-depth=" + value) << shown;
          break;
        case NvccEffect::HostOptions:
          EXPECT_EQ(a, value) << shown; // a host flag, passed on
          break;
        default:
          ADD_FAILURE() << shown << " leaks its value as '" << a << "'";
        }
      }
      if (o.effect == NvccEffect::OptionsFile)
        EXPECT_EQ(errors.size(), 1u) << shown; // /nowhere/VALUE123
      else
        EXPECT_TRUE(errors.empty()) << shown;
    }
  }
}

TEST(NvccOptions, ListsAndJoinedForms) {
  auto out = deviceParseCommand(
      {"nvcc", "-DA=1,B", "--include-path=/x,/y", "-O3", "-std=c++20",
       "--pre-include", "pre.h", "-lcublas", "-L/lib", "-Xcompiler", "-fPIC,-Wall",
       "--gpu-architecture", "sm_80", "-gencode=arch=compute_90,code=sm_90",
       "k.cu"},
      toolkit());
  for (const char *kept : {"-DA=1", "-DB", "-I/x", "-I/y", "-O3", "-std=c++20",
                           "pre.h", "-fPIC", "-Wall", "--cuda-gpu-arch=sm_90"})
    EXPECT_NE(std::find(out.begin(), out.end(), kept), out.end()) << kept;
  for (const char *dropped : {"-lcublas", "-L/lib", "sm_80", "--gpu-architecture"})
    EXPECT_EQ(std::find(out.begin(), out.end(), dropped), out.end()) << dropped;
}

TEST(NvccOptions, FastMathIsClangsApproximateFunctions) {
  for (const char *spelling : {"-use_fast_math", "--use_fast_math"}) {
    auto out = deviceParseCommand({"nvcc", spelling, "k.cu"}, toolkit());
    EXPECT_NE(std::find(out.begin(), out.end(), "-fgpu-approx-transcendentals"),
              out.end())
        << spelling;
  }
  auto plain = deviceParseCommand({"nvcc", "k.cu"}, toolkit());
  EXPECT_EQ(std::find(plain.begin(), plain.end(), "-fgpu-approx-transcendentals"),
            plain.end());
}

TEST(NvccOptions, OptionsFilesAreReadInPlace) {
  std::string dir = ::testing::TempDir();
  {
    std::ofstream f(dir + "/includes_CUDA.rsp");
    f << "-I\"/with space/inc\" -DFROM_FILE=1 --options-file nested.rsp\n";
    std::ofstream g(dir + "/nested.rsp");
    g << "-DNESTED\n";
  }
  std::vector<std::string> errors;
  auto out = deviceParseCommand(
      {"nvcc", "--options-file", "includes_CUDA.rsp", "k.cu"}, toolkit(), dir,
      &errors);
  EXPECT_TRUE(errors.empty());
  for (const char *kept : {"-I/with space/inc", "-DFROM_FILE=1", "-DNESTED"})
    EXPECT_NE(std::find(out.begin(), out.end(), kept), out.end()) << kept;
  deviceParseCommand({"nvcc", "-optf", "absent.rsp", "k.cu"}, toolkit(), dir,
                     &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("cannot read options file"), std::string::npos);
}

// Found by fuzzing: an options file that names itself twice was read again
// at each of 8 levels, 2^8 copies (seconds of work for a few bytes); a file
// that names itself, directly or through another, is an error now.
TEST(NvccOptions, OptionsFilesThatIncludeThemselvesAreErrors) {
  std::string dir = ::testing::TempDir();
  {
    std::ofstream f(dir + "/self.rsp");
    f << "-DSELF --options-file self.rsp -optf ./self.rsp\n";
    std::ofstream a(dir + "/a.rsp");
    a << "-DA --options-file b.rsp\n";
    std::ofstream b(dir + "/b.rsp");
    b << "-DB --options-file a.rsp\n";
  }
  for (const char *file : {"self.rsp", "a.rsp"}) {
    std::vector<std::string> errors;
    auto out = deviceParseCommand({"nvcc", "--options-file", file, "k.cu"},
                                  toolkit(), dir, &errors);
    ASSERT_FALSE(errors.empty()) << file;
    EXPECT_NE(errors[0].find("includes itself"), std::string::npos)
        << errors[0];
    EXPECT_LE(errors.size(), 2u) << file;
  }
}

// Found by fuzzing: a command naming a program as its options file
// (`--options-file /usr/local/cuda/bin/nvcc`) made 30 MB of binary into
// thousands of arguments, each a compiler error: minutes for one file.
TEST(NvccOptions, BinaryOptionsFilesAreErrors) {
  std::string dir = ::testing::TempDir();
  {
    std::ofstream f(dir + "/prog.bin", std::ios::binary);
    f << std::string("\x7f" "ELF\0\x01-I/x\0--junk -DX", 18);
  }
  std::vector<std::string> errors;
  auto out = deviceParseCommand({"nvcc", "--options-file", "prog.bin", "k.cu"},
                                toolkit(), dir, &errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("is not a text file"), std::string::npos)
      << errors[0];
  EXPECT_EQ(std::find(out.begin(), out.end(), "--junk"), out.end());
  EXPECT_EQ(std::find(out.begin(), out.end(), "-DX"), out.end());
}

TEST(NvccOptions, OwnFlagsGoBeforeDoubleDash) {
  // Clang's interpolation for a file missing from the database ends its
  // command with "-- <file>".
  auto out = deviceParseCommand({"clang++", "-I/inc", "--", "h.cuh"}, toolkit());
  auto dd = std::find(out.begin(), out.end(), "--");
  ASSERT_NE(dd, out.end());
  EXPECT_EQ(std::vector<std::string>(dd, out.end()),
            (std::vector<std::string>{"--", "h.cuh"}));
  EXPECT_LT(std::find(out.begin(), out.end(), "--cuda-device-only"), dd);
}

TEST(NvccOptions, OnlyNvccCommandsUseTheTable) {
  EXPECT_TRUE(isNvcc("/usr/local/cuda/bin/nvcc"));
  EXPECT_TRUE(isNvcc("nvcc"));
  EXPECT_FALSE(isNvcc("clang++"));
  // clang's -x cuda and -include stay as they are.
  auto out = deviceParseCommand({"clang++", "-include", "pre.h", "k.cu"}, toolkit());
  EXPECT_NE(std::find(out.begin(), out.end(), "pre.h"), out.end());
}

} // namespace
} // namespace warplint
