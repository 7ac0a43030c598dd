// Host helpers as plain-CUDA projects write them: nvcc (with gcc as the host
// compiler) takes all of this; Clang's CUDA mode on its own does not.
#pragma once
#include <cmath>
#include <cstdio>
#include <omp.h> // gcc's own header, found with -Xcompiler -fopenmp

// isfinite unqualified, on a float, in host code.
inline bool all_finite(const float *v, int n) {
  for (int i = 0; i < n; ++i)
    if (!isfinite(v[i]) || isnan(v[i]) || isinf(v[i]) || signbit(v[i]))
      return false;
  return true;
}

// clock() and CLOCKS_PER_SEC without <ctime>: nvcc's headers include it.
inline double seconds() { return (double)clock() / CLOCKS_PER_SEC; }

inline int host_threads() { return omp_get_max_threads(); }
