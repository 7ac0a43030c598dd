// warplint's bundled stand-in for <mma.h> (no CUDA toolkit): the nvcuda::wmma
// declarations a kernel names. Enough to parse and to model the fragment
// loads and stores (analyzer/frontend/walker/WalkerIntrinsics.cpp); nothing runs.
#pragma once
#include "../warplint_cuda.h"
#include "cuda_fp16.h"

namespace nvcuda {
namespace wmma {
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
namespace precision {
struct tf32;
struct u4;
struct s4;
struct b1;
} // namespace precision
namespace experimental {
namespace precision {
struct u4;
struct s4;
struct b1;
} // namespace precision
} // namespace experimental
enum layout_t { mem_row_major, mem_col_major };

template <typename T> struct __storage { typedef T type; };
template <> struct __storage<precision::tf32> { typedef float type; };
template <> struct __storage<experimental::precision::u4> { typedef unsigned type; };
template <> struct __storage<experimental::precision::s4> { typedef int type; };
template <> struct __storage<experimental::precision::b1> { typedef unsigned type; };

template <typename T, int size> struct __frag_base {
  typename __storage<T>::type x[size];
  enum { num_elements = size };
  typedef typename __storage<T>::type element_type;
};

template <typename Use, int m, int n, int k, typename T, typename Layout = void>
class fragment : public __frag_base<T, 16> {};

template <typename Use, int m, int n, int k, typename T, typename L, typename V>
__device__ void fill_fragment(fragment<Use, m, n, k, T, L> &a, const V &v);
template <typename Use, int m, int n, int k, typename T, typename L, typename P>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, L> &a, const P *p,
                                 unsigned ldm);
template <typename Use, int m, int n, int k, typename T, typename L, typename P>
__device__ void load_matrix_sync(fragment<Use, m, n, k, T, L> &a, const P *p,
                                 unsigned ldm, layout_t layout);
template <typename P, int m, int n, int k, typename T>
__device__ void store_matrix_sync(P *p,
                                  const fragment<accumulator, m, n, k, T> &a,
                                  unsigned ldm, layout_t layout);
template <int m, int n, int k, typename Ta, typename La, typename Tb,
          typename Lb, typename Tc, typename Td>
__device__ void mma_sync(fragment<accumulator, m, n, k, Td> &d,
                         const fragment<matrix_a, m, n, k, Ta, La> &a,
                         const fragment<matrix_b, m, n, k, Tb, Lb> &b,
                         const fragment<accumulator, m, n, k, Tc> &c,
                         bool satf = false);
template <typename T> __device__ T __float_to_tf32(T v);
} // namespace wmma
} // namespace nvcuda
