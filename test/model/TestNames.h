// A parameterized row's name as a test name: letters and digits, the rest
// '_' (GoogleTest accepts nothing else).
#ifndef WARPLINT_TEST_MODEL_TESTNAMES_H
#define WARPLINT_TEST_MODEL_TESTNAMES_H

#include <cctype>
#include <string>

namespace warplint {

inline const auto rowName = [](const auto &info) {
  std::string s;
  for (char c : std::string(info.param.name))
    s += isalnum((unsigned char)c) ? c : '_';
  return s;
};

} // namespace warplint

#endif
