// warplint's bundled stand-in for CUB (<cub/cub.cuh>, no CUDA toolkit): the
// block- and warp-level collectives with the toolkit's template parameters,
// the device-wide algorithms, iterators, functors and type traits code
// names. Declarations only: warplint never walks CUB's own code (with the
// toolkit it lives in system headers); it models the block collectives by
// class, method and template arguments (Walker::cubCollective), which are
// the same here. Thrust and libcu++ are not bundled.
#pragma once
#include "../../warplint_cuda.h"
// (Standard headers the toolkit's CUB includes and code leans on.)
#include <cassert>
#include <chrono>

#define CubDebug(e) (e)
#define CubDebugExit(e) (e)
#define CUB_MAX(a, b) (((b) > (a)) ? (b) : (a))
#define CUB_MIN(a, b) (((b) < (a)) ? (b) : (a))
#define CUB_QUOTIENT_FLOOR(x, y) ((x) / (y))
#define CUB_QUOTIENT_CEILING(x, y) (((x) + (y) - 1) / (y))
#define CUB_ROUND_UP_NEAREST(x, y) ((((x) + (y) - 1) / (y)) * (y))
#define CUB_ROUND_DOWN_NEAREST(x, y) (((x) / (y)) * (y))
#define CUB_PTX_WARP_THREADS 32
#define CUB_RUNTIME_FUNCTION __host__ __device__

namespace cub {

struct NullType {};

// Functors.
struct Sum {
  template <typename T, typename U>
  __host__ __device__ auto operator()(const T &a, const U &b) const
      -> decltype(a + b);
};
struct Max {
  template <typename T, typename U>
  __host__ __device__ T operator()(const T &a, const U &b) const;
};
struct Min {
  template <typename T, typename U>
  __host__ __device__ T operator()(const T &a, const U &b) const;
};
struct Equality {
  template <typename T, typename U>
  __host__ __device__ bool operator()(const T &a, const U &b) const;
};
struct Inequality {
  template <typename T, typename U>
  __host__ __device__ bool operator()(const T &a, const U &b) const;
};
struct CastOp;
template <typename K, typename V> struct KeyValuePair {
  typedef K Key;
  typedef V Value;
  K key;
  V value;
  KeyValuePair() = default;
  __host__ __device__ KeyValuePair(const K &k, const V &v) : key(k), value(v) {}
};
struct ArgMax {
  template <typename T, typename O>
  __host__ __device__ KeyValuePair<O, T>
  operator()(const KeyValuePair<O, T> &a, const KeyValuePair<O, T> &b) const;
};
struct ArgMin {
  template <typename T, typename O>
  __host__ __device__ KeyValuePair<O, T>
  operator()(const KeyValuePair<O, T> &a, const KeyValuePair<O, T> &b) const;
};

// Type traits: the unsigned integer of a type's bits, and the radix
// sort's order-preserving twiddles.
template <int BYTES> struct WarplintUnsigned;
template <> struct WarplintUnsigned<1> { typedef unsigned char Type; };
template <> struct WarplintUnsigned<2> { typedef unsigned short Type; };
template <> struct WarplintUnsigned<4> { typedef unsigned int Type; };
template <> struct WarplintUnsigned<8> { typedef unsigned long long Type; };
template <typename T> struct Traits {
  typedef typename WarplintUnsigned<sizeof(T)>::Type UnsignedBits;
  static __host__ __device__ UnsignedBits TwiddleIn(UnsignedBits key);
  static __host__ __device__ UnsignedBits TwiddleOut(UnsignedBits key);
  static __host__ __device__ T Max();
  static __host__ __device__ T Lowest();
};

// Block-level collectives (their methods take what the toolkit's take).
enum BlockReduceAlgorithm {
  BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
  BLOCK_REDUCE_RAKING,
  BLOCK_REDUCE_WARP_REDUCTIONS,
};
enum BlockScanAlgorithm {
  BLOCK_SCAN_RAKING,
  BLOCK_SCAN_RAKING_MEMOIZE,
  BLOCK_SCAN_WARP_SCANS,
};
enum BlockLoadAlgorithm {
  BLOCK_LOAD_DIRECT,
  BLOCK_LOAD_STRIPED,
  BLOCK_LOAD_VECTORIZE,
  BLOCK_LOAD_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE,
  BLOCK_LOAD_WARP_TRANSPOSE_TIMESLICED,
};
enum BlockStoreAlgorithm {
  BLOCK_STORE_DIRECT,
  BLOCK_STORE_STRIPED,
  BLOCK_STORE_VECTORIZE,
  BLOCK_STORE_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE,
  BLOCK_STORE_WARP_TRANSPOSE_TIMESLICED,
};
enum BlockHistogramAlgorithm { BLOCK_HISTO_SORT, BLOCK_HISTO_ATOMIC };
enum RadixRankAlgorithm {
  RADIX_RANK_BASIC,
  RADIX_RANK_MEMOIZE,
  RADIX_RANK_MATCH,
  RADIX_RANK_MATCH_EARLY_COUNTS_ANY,
  RADIX_RANK_MATCH_EARLY_COUNTS_ATOMIC_OR,
};
enum BlockHistogramMemoryPreference { GMEM, SMEM, BLEND };
enum CacheLoadModifier {
  LOAD_DEFAULT, LOAD_CA, LOAD_CG, LOAD_CS, LOAD_CV, LOAD_LDG, LOAD_VOLATILE,
};

// A collective's shared TempStorage (its size as the toolkit's, roughly:
// warplint places shared variables by their sizes) and its methods, any
// arguments.
#define WARPLINT_CUB_METHOD(NAME)                                              \
  template <typename... A> __device__ auto NAME(A &&...)
// A method whose first parameter is the thread's input, by value (a load
// where it is an element in memory), or its items (registers); the rest as
// the toolkit's take them (outputs by reference, operators, counts).
#define WARPLINT_CUB_INPUT_METHOD(NAME, R)                                     \
  template <typename... A> __device__ R NAME(T input, A &&...);                \
  template <int N, typename... A>                                              \
  __device__ R NAME(T (&inputs)[N], A &&...);
#define WARPLINT_CUB_STORAGE(ELEMENTS)                                         \
  struct TempStorage {                                                         \
    T storage[(ELEMENTS) > 0 ? (ELEMENTS) : 1];                                \
  };
// A block collective: its TempStorage, and built on its own storage or on
// the one given.
#define WARPLINT_CUB_BLOCK(CLASS, ELEMENTS)                                    \
  WARPLINT_CUB_STORAGE(ELEMENTS)                                               \
  __device__ CLASS();                                                          \
  __device__ CLASS(TempStorage &temp);
#define WARPLINT_CUB_THREADS (BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z)

template <typename T, int BLOCK_DIM_X,
          BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockReduce {
public:
  WARPLINT_CUB_BLOCK(BlockReduce, (WARPLINT_CUB_THREADS + 31) / 32 + 1)
  __device__ T Sum(T input);
  __device__ T Sum(T input, int num_valid);
  template <int N> __device__ T Sum(T (&inputs)[N]);
  template <typename Op> __device__ T Reduce(T input, Op op);
  template <typename Op> __device__ T Reduce(T input, Op op, int num_valid);
  template <int N, typename Op> __device__ T Reduce(T (&inputs)[N], Op op);
};

template <typename T, int BLOCK_DIM_X,
          BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockScan {
public:
  WARPLINT_CUB_BLOCK(BlockScan, WARPLINT_CUB_THREADS / 8 + 32)
  WARPLINT_CUB_INPUT_METHOD(ExclusiveSum, void)
  WARPLINT_CUB_INPUT_METHOD(InclusiveSum, void)
  WARPLINT_CUB_INPUT_METHOD(ExclusiveScan, void)
  WARPLINT_CUB_INPUT_METHOD(InclusiveScan, void)
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockLoadAlgorithm ALGORITHM = BLOCK_LOAD_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockLoad {
public:
  WARPLINT_CUB_BLOCK(BlockLoad, WARPLINT_CUB_THREADS * ITEMS_PER_THREAD + 64)
  template <typename It>
  __device__ void Load(It in, T (&items)[ITEMS_PER_THREAD]);
  template <typename It>
  __device__ void Load(It in, T (&items)[ITEMS_PER_THREAD], int valid);
  template <typename It, typename D>
  __device__ void Load(It in, T (&items)[ITEMS_PER_THREAD], int valid,
                       D oob_default);
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          BlockStoreAlgorithm ALGORITHM = BLOCK_STORE_DIRECT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockStore {
public:
  WARPLINT_CUB_BLOCK(BlockStore,
                     WARPLINT_CUB_THREADS * ITEMS_PER_THREAD + 64)
  template <typename It>
  __device__ void Store(It out, T (&items)[ITEMS_PER_THREAD]);
  template <typename It>
  __device__ void Store(It out, T (&items)[ITEMS_PER_THREAD], int valid);
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          bool WARP_TIME_SLICING = false, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockExchange {
public:
  WARPLINT_CUB_BLOCK(BlockExchange,
                     WARPLINT_CUB_THREADS * ITEMS_PER_THREAD + 64)
  __device__ void StripedToBlocked(T (&items)[ITEMS_PER_THREAD]);
  __device__ void BlockedToStriped(T (&items)[ITEMS_PER_THREAD]);
  __device__ void WarpStripedToBlocked(T (&items)[ITEMS_PER_THREAD]);
  __device__ void BlockedToWarpStriped(T (&items)[ITEMS_PER_THREAD]);
  WARPLINT_CUB_METHOD(ScatterToBlocked) -> void;
  WARPLINT_CUB_METHOD(ScatterToStriped) -> void;
};

template <typename T, int BLOCK_DIM_X, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockAdjacentDifference {
public:
  WARPLINT_CUB_BLOCK(BlockAdjacentDifference, WARPLINT_CUB_THREADS + 1)
  WARPLINT_CUB_METHOD(SubtractLeft) -> void;
  WARPLINT_CUB_METHOD(SubtractRight) -> void;
  WARPLINT_CUB_METHOD(SubtractLeftPartialTile) -> void;
  WARPLINT_CUB_METHOD(SubtractRightPartialTile) -> void;
  WARPLINT_CUB_METHOD(FlagHeads) -> void;
  WARPLINT_CUB_METHOD(FlagTails) -> void;
  WARPLINT_CUB_METHOD(FlagHeadsAndTails) -> void;
};

template <typename T, int BLOCK_DIM_X, int ITEMS_PER_THREAD, int BINS,
          BlockHistogramAlgorithm ALGORITHM = BLOCK_HISTO_SORT,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockHistogram {
public:
  WARPLINT_CUB_BLOCK(BlockHistogram, BINS)
  WARPLINT_CUB_METHOD(InitHistogram) -> void;
  WARPLINT_CUB_METHOD(Histogram) -> void;
  WARPLINT_CUB_METHOD(Composite) -> void;
};

template <typename KeyT, int BLOCK_DIM_X, int ITEMS_PER_THREAD,
          typename ValueT = NullType, int RADIX_BITS = 4,
          bool MEMOIZE_OUTER_SCAN = true,
          BlockScanAlgorithm INNER_SCAN_ALGORITHM = BLOCK_SCAN_WARP_SCANS,
          cudaSharedMemConfig SMEM_CONFIG = cudaSharedMemBankSizeFourByte,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int LEGACY_PTX_ARCH = 0>
class BlockRadixSort {
public:
  typedef KeyT T;
  WARPLINT_CUB_BLOCK(BlockRadixSort, WARPLINT_CUB_THREADS * ITEMS_PER_THREAD)
  WARPLINT_CUB_METHOD(Sort) -> void;
  WARPLINT_CUB_METHOD(SortDescending) -> void;
  WARPLINT_CUB_METHOD(SortBlockedToStriped) -> void;
  WARPLINT_CUB_METHOD(SortDescendingBlockedToStriped) -> void;
};

// Warp-level collectives.
template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpReduce {
public:
  WARPLINT_CUB_STORAGE(LOGICAL_WARP_THREADS)
  __device__ WarpReduce(TempStorage &temp);
  __device__ T Sum(T input);
  __device__ T Sum(T input, int valid_items);
  template <typename Op> __device__ T Reduce(T input, Op op);
  template <typename Op> __device__ T Reduce(T input, Op op, int valid_items);
  WARPLINT_CUB_INPUT_METHOD(HeadSegmentedSum, T)
  WARPLINT_CUB_INPUT_METHOD(TailSegmentedSum, T)
  WARPLINT_CUB_INPUT_METHOD(HeadSegmentedReduce, T)
  WARPLINT_CUB_INPUT_METHOD(TailSegmentedReduce, T)
};
template <typename T, int LOGICAL_WARP_THREADS = 32, int LEGACY_PTX_ARCH = 0>
class WarpScan {
public:
  WARPLINT_CUB_STORAGE(LOGICAL_WARP_THREADS)
  __device__ WarpScan(TempStorage &temp);
  WARPLINT_CUB_INPUT_METHOD(ExclusiveSum, void)
  WARPLINT_CUB_INPUT_METHOD(InclusiveSum, void)
  WARPLINT_CUB_INPUT_METHOD(ExclusiveScan, void)
  WARPLINT_CUB_INPUT_METHOD(InclusiveScan, void)
  WARPLINT_CUB_INPUT_METHOD(Broadcast, T)
};
#undef WARPLINT_CUB_STORAGE
#undef WARPLINT_CUB_BLOCK
#undef WARPLINT_CUB_THREADS

// Device-wide algorithms, called from the host (their kernels are CUB's):
// each takes what the toolkit's takes and returns a cudaError_t.
#define WARPLINT_CUB_DEVICE(NAME)                                              \
  template <typename... A>                                                     \
  static CUB_RUNTIME_FUNCTION cudaError_t NAME(A &&...);
struct DeviceReduce {
  WARPLINT_CUB_DEVICE(Sum)
  WARPLINT_CUB_DEVICE(Max)
  WARPLINT_CUB_DEVICE(Min)
  WARPLINT_CUB_DEVICE(ArgMax)
  WARPLINT_CUB_DEVICE(ArgMin)
  WARPLINT_CUB_DEVICE(Reduce)
  WARPLINT_CUB_DEVICE(ReduceByKey)
  WARPLINT_CUB_DEVICE(TransformReduce)
};
struct DeviceSegmentedReduce {
  WARPLINT_CUB_DEVICE(Sum)
  WARPLINT_CUB_DEVICE(Max)
  WARPLINT_CUB_DEVICE(Min)
  WARPLINT_CUB_DEVICE(ArgMax)
  WARPLINT_CUB_DEVICE(ArgMin)
  WARPLINT_CUB_DEVICE(Reduce)
};
struct DeviceScan {
  WARPLINT_CUB_DEVICE(ExclusiveSum)
  WARPLINT_CUB_DEVICE(InclusiveSum)
  WARPLINT_CUB_DEVICE(ExclusiveScan)
  WARPLINT_CUB_DEVICE(InclusiveScan)
  WARPLINT_CUB_DEVICE(ExclusiveSumByKey)
  WARPLINT_CUB_DEVICE(InclusiveSumByKey)
  WARPLINT_CUB_DEVICE(ExclusiveScanByKey)
  WARPLINT_CUB_DEVICE(InclusiveScanByKey)
};
struct DeviceSelect {
  WARPLINT_CUB_DEVICE(Flagged)
  WARPLINT_CUB_DEVICE(If)
  WARPLINT_CUB_DEVICE(Unique)
  WARPLINT_CUB_DEVICE(UniqueByKey)
};
struct DevicePartition {
  WARPLINT_CUB_DEVICE(Flagged)
  WARPLINT_CUB_DEVICE(If)
};
struct DeviceRadixSort {
  WARPLINT_CUB_DEVICE(SortPairs)
  WARPLINT_CUB_DEVICE(SortKeys)
  WARPLINT_CUB_DEVICE(SortPairsDescending)
  WARPLINT_CUB_DEVICE(SortKeysDescending)
};
struct DeviceSegmentedRadixSort {
  WARPLINT_CUB_DEVICE(SortPairs)
  WARPLINT_CUB_DEVICE(SortKeys)
  WARPLINT_CUB_DEVICE(SortPairsDescending)
  WARPLINT_CUB_DEVICE(SortKeysDescending)
};
struct DeviceSegmentedSort {
  WARPLINT_CUB_DEVICE(SortPairs)
  WARPLINT_CUB_DEVICE(SortKeys)
  WARPLINT_CUB_DEVICE(SortPairsDescending)
  WARPLINT_CUB_DEVICE(SortKeysDescending)
};
struct DeviceMergeSort {
  WARPLINT_CUB_DEVICE(SortPairs)
  WARPLINT_CUB_DEVICE(SortKeys)
  WARPLINT_CUB_DEVICE(StableSortPairs)
  WARPLINT_CUB_DEVICE(StableSortKeys)
};
struct DeviceHistogram {
  WARPLINT_CUB_DEVICE(HistogramEven)
  WARPLINT_CUB_DEVICE(HistogramRange)
  WARPLINT_CUB_DEVICE(MultiHistogramEven)
  WARPLINT_CUB_DEVICE(MultiHistogramRange)
};
struct DeviceRunLengthEncode {
  WARPLINT_CUB_DEVICE(Encode)
  WARPLINT_CUB_DEVICE(NonTrivialRuns)
};
struct DeviceSpmv {
  WARPLINT_CUB_DEVICE(CsrMV)
};
struct DeviceFor {
  WARPLINT_CUB_DEVICE(ForEach)
  WARPLINT_CUB_DEVICE(ForEachN)
  WARPLINT_CUB_DEVICE(Bulk)
};
#undef WARPLINT_CUB_DEVICE
#undef WARPLINT_CUB_METHOD
#undef WARPLINT_CUB_INPUT_METHOD

// Iterators.
template <typename T, typename OffsetT = ptrdiff_t>
class CountingInputIterator {
public:
  typedef T value_type;
  typedef OffsetT difference_type;
  __host__ __device__ CountingInputIterator(const T &v);
  __host__ __device__ T operator*() const;
  __host__ __device__ T operator[](OffsetT n) const;
  __host__ __device__ CountingInputIterator operator+(OffsetT n) const;
  __host__ __device__ CountingInputIterator &operator++();
};
template <typename T, typename OffsetT = ptrdiff_t>
class ConstantInputIterator {
public:
  typedef T value_type;
  typedef OffsetT difference_type;
  __host__ __device__ ConstantInputIterator(const T &v, OffsetT offset = 0);
  __host__ __device__ T operator*() const;
  __host__ __device__ T operator[](OffsetT n) const;
  __host__ __device__ ConstantInputIterator operator+(OffsetT n) const;
};
template <typename ValueType, typename ConversionOp, typename InputIteratorT,
          typename OffsetT = ptrdiff_t>
class TransformInputIterator {
public:
  typedef ValueType value_type;
  typedef OffsetT difference_type;
  __host__ __device__ TransformInputIterator(InputIteratorT input,
                                             ConversionOp op);
  __host__ __device__ ValueType operator*() const;
  __host__ __device__ ValueType operator[](OffsetT n) const;
  __host__ __device__ TransformInputIterator operator+(OffsetT n) const;
};
template <typename InputIteratorT, typename OffsetT = ptrdiff_t,
          typename OutputValueT = int>
class ArgIndexInputIterator {
public:
  typedef KeyValuePair<OffsetT, OutputValueT> value_type;
  __host__ __device__ ArgIndexInputIterator(InputIteratorT input,
                                            OffsetT offset = 0);
  __host__ __device__ value_type operator*() const;
  __host__ __device__ value_type operator[](OffsetT n) const;
};

// Allocators and temporary storage the host code sizes.
struct CachingDeviceAllocator {
  CachingDeviceAllocator(bool skip_cleanup = false, bool debug = false);
  cudaError_t DeviceAllocate(void **d_ptr, size_t bytes,
                             cudaStream_t stream = 0);
  cudaError_t DeviceFree(void *d_ptr);
};

} // namespace cub
