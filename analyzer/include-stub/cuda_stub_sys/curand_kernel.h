// warplint's bundled stand-in for <curand_kernel.h> (no CUDA toolkit): the
// device generators' states, laid out as the toolkit's (a state copied from
// or to memory is an access of its size), and their functions. Declarations
// only: a call reads its arguments; a state it takes by pointer is the
// library's to read and write, as with the toolkit.
#pragma once
#include "../warplint_cuda.h"

struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
struct curandStateMtgp32 {
  unsigned int s[1024];
  int offset;
  int pIdx;
  void *k;
};
struct curandStateSobol32 {
  unsigned int i, x, c;
  unsigned int direction_vectors[32];
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
typedef struct curandStateMtgp32 curandStateMtgp32_t;
typedef struct curandStateSobol32 curandStateSobol32_t;

#define WARPLINT_CURAND(S)                                                     \
  __device__ void curand_init(unsigned long long seed,                         \
                              unsigned long long subsequence,                  \
                              unsigned long long offset, S *state);            \
  __device__ unsigned int curand(S *state);                                    \
  __device__ float curand_uniform(S *state);                                   \
  __device__ double curand_uniform_double(S *state);                           \
  __device__ float curand_normal(S *state);                                    \
  __device__ double curand_normal_double(S *state);                            \
  __device__ float2 curand_normal2(S *state);                                  \
  __device__ double2 curand_normal2_double(S *state);                          \
  __device__ float curand_log_normal(S *state, float mean, float stddev);      \
  __device__ double curand_log_normal_double(S *state, double mean,            \
                                             double stddev);                   \
  __device__ float2 curand_log_normal2(S *state, float mean, float stddev);    \
  __device__ unsigned int curand_poisson(S *state, double lambda);             \
  __device__ void skipahead(unsigned long long n, S *state);                   \
  __device__ void skipahead_sequence(unsigned long long n, S *state);
WARPLINT_CURAND(curandStateXORWOW_t)
WARPLINT_CURAND(curandStatePhilox4_32_10_t)
WARPLINT_CURAND(curandStateMRG32k3a_t)
#undef WARPLINT_CURAND
__device__ uint4 curand4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_uniform4(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_normal4(curandStatePhilox4_32_10_t *state);
__device__ double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state);
__device__ float4 curand_log_normal4(curandStatePhilox4_32_10_t *state,
                                     float mean, float stddev);
__device__ uint4 curand_poisson4(curandStatePhilox4_32_10_t *state,
                                 double lambda);
__device__ unsigned int curand(curandStateMtgp32_t *state);
__device__ float curand_uniform(curandStateMtgp32_t *state);
__device__ float curand_normal(curandStateMtgp32_t *state);
__device__ unsigned int curand(curandStateSobol32_t *state);
__device__ float curand_uniform(curandStateSobol32_t *state);
__device__ float curand_normal(curandStateSobol32_t *state);
