// The host side every reference-kernel suite shares: error checks, the case
// table, timing, and the --profile mode that launches each case once for
// Nsight Compute. A suite defines its kernels, a launcher per case and a
// CASE(...) table (compare.py reads the table), then calls runSuite().
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(e));                                          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

struct Case {
  const char *name, *op, *sweep;
  double expect; // warplint's prediction; -1: none (measured only)
  void (*launch)();
};
// CASE(kernel signature, op, sweep, prediction, launcher)
#define CASE(sig, op, sweep, expect, fn) Case{sig, op, sweep, expect, fn}

/// Median of 7 runs of 10 launches after 3 warm-ups, in ms per launch.
inline float medianTimeMs(void (*launch)()) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i)
    launch();
  std::vector<float> t;
  for (int rep = 0; rep < 7; ++rep) {
    CHECK(cudaEventRecord(a));
    for (int i = 0; i < 10; ++i)
      launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms / 10);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// --profile: launch each case once (ncu replays it). Otherwise print the
/// timing CSV. `check`, if given, runs before timing a case and returns false
/// on a wrong result.
template <size_t N>
inline int runSuite(int argc, char **argv, const Case (&cases)[N],
                    bool (*check)(const Case &) = nullptr) {
  if (argc > 1 && !strcmp(argv[1], "--profile")) {
    for (const Case &c : cases)
      c.launch();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    return 0;
  }
  printf("case,op,sweep,expect,time_ms\n");
  for (const Case &c : cases) {
    if (check && !check(c))
      return 1;
    printf("%s,%s,%s,%g,%.5f\n", c.name, c.op, c.sweep, c.expect,
           medianTimeMs(c.launch));
  }
  return 0;
}
