//===- StandaloneMain.cpp - replay fuzz inputs without libFuzzer ----------===//
//
// The normal (g++) build links each fuzz target with this main instead of
// libFuzzer: it runs LLVMFuzzerTestOneInput once on every file named on the
// command line, and on every file under each directory named (recursively,
// in sorted order), so CTest replays every input a fuzzer ever crashed on.
// A crash or a failed check in the target ends the process, as under
// libFuzzer; the run fails too when it was given no input at all.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int *argc,
                                                           char ***argv);

namespace fs = std::filesystem;

int main(int argc, char **argv) {
  if (LLVMFuzzerInitialize)
    LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (fs::is_directory(argv[i], ec)) {
      for (const auto &e : fs::recursive_directory_iterator(argv[i]))
        if (e.is_regular_file())
          files.push_back(e.path().string());
    } else if (fs::is_regular_file(argv[i], ec)) {
      files.push_back(argv[i]);
    } else {
      std::fprintf(stderr, "%s: no such file or directory: %s\n", argv[0],
                   argv[i]);
      return 2;
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "%s: no input to replay\n", argv[0]);
    return 2;
  }
  for (const std::string &f : files) {
    std::ifstream in(f, std::ios::binary);
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", f.c_str(), bytes.size());
    // A copy of exactly the input's size, so that ASan sees a read past it.
    std::vector<uint8_t> exact(bytes);
    LLVMFuzzerTestOneInput(exact.empty() ? nullptr : exact.data(),
                           exact.size());
  }
  std::fprintf(stderr, "%s: %zu inputs replayed\n", argv[0], files.size());
  return 0;
}
