// warplint's bundled stand-in for <cuComplex.h> (no CUDA toolkit): the
// complex types (float2, double2) and their functions. Declarations only: as
// library code, a call reads its arguments, which is all the model needs.
#pragma once
#include "../warplint_cuda.h"

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

#define WARPLINT_COMPLEX(C, R, S)                                              \
  __host__ __device__ R cuCreal##S(C x);                                       \
  __host__ __device__ R cuCimag##S(C x);                                       \
  __host__ __device__ C cuConj##S(C x);                                        \
  __host__ __device__ C cuCadd##S(C x, C y);                                   \
  __host__ __device__ C cuCsub##S(C x, C y);                                   \
  __host__ __device__ C cuCmul##S(C x, C y);                                   \
  __host__ __device__ C cuCdiv##S(C x, C y);                                   \
  __host__ __device__ R cuCabs##S(C x);                                        \
  __host__ __device__ C cuCfma##S(C x, C y, C d);
WARPLINT_COMPLEX(cuFloatComplex, float, f)
WARPLINT_COMPLEX(cuDoubleComplex, double, )
#undef WARPLINT_COMPLEX
__host__ __device__ cuFloatComplex make_cuFloatComplex(float r, float i);
__host__ __device__ cuDoubleComplex make_cuDoubleComplex(double r, double i);
__host__ __device__ cuComplex make_cuComplex(float x, float y);
__host__ __device__ cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c);
__host__ __device__ cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c);
