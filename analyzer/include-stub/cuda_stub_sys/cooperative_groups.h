// warplint's bundled stand-in for <cooperative_groups.h> (no CUDA toolkit):
// the groups and members kernels use, declared so that code parses with the
// same AST shape. warplint never generates code from it.
#pragma once
#include "../warplint_cuda.h"

namespace cooperative_groups {

class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
};

class thread_block : public thread_group {
public:
  __device__ void sync() const;
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};

class grid_group : public thread_group {
public:
  __device__ void sync() const;
  __device__ bool is_valid() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_blocks() const;
  __device__ dim3 block_index() const;
};

class coalesced_group : public thread_group {
public:
  template <class T> __device__ T shfl(T var, unsigned src) const;
  __device__ unsigned ballot(int pred) const;
};

template <unsigned Size, class Parent = void>
class thread_block_tile : public thread_group {
public:
  __device__ thread_block_tile() = default;
  // A tile of a known parent converts to the parent-less tile type, as
  // `thread_block_tile<32> t = tiled_partition<32>(block);` needs.
  template <class P>
  __device__ thread_block_tile(const thread_block_tile<Size, P> &) {}
  __device__ void sync() const;
  __device__ unsigned long long meta_group_rank() const;
  __device__ unsigned long long meta_group_size() const;
  template <class T> __device__ T shfl(T var, int src) const;
  template <class T> __device__ T shfl_down(T var, unsigned delta) const;
  template <class T> __device__ T shfl_up(T var, unsigned delta) const;
  template <class T> __device__ T shfl_xor(T var, unsigned mask) const;
  __device__ int any(int pred) const;
  __device__ int all(int pred) const;
  __device__ unsigned ballot(int pred) const;
};

__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
template <unsigned Size, class Parent>
__device__ thread_block_tile<Size, Parent> tiled_partition(const Parent &p);
__device__ thread_group tiled_partition(const thread_group &p, unsigned size);
template <class Group> __device__ void sync(const Group &g);

template <class T> struct plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};
template <class T> struct greater {
  __device__ T operator()(T a, T b) const { return a > b ? a : b; }
};
template <class Group, class T, class Op>
__device__ T reduce(const Group &g, T value, Op op);

} // namespace cooperative_groups
