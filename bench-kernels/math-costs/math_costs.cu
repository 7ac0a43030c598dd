// One kernel per CUDA math function: each of 32 lanes calls it R times
// on arguments in [0.5, 1.3] (the functions' common paths); a call
// issues (k_<f> - k_base_<type>) / R warp instructions, counted by
// Nsight Compute (measure.sh). Written by gen.py; do not edit.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void k_base_float(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += a;
  }
  out[threadIdx.x] = acc;
}
__global__ void k_base_double(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += a;
  }
  out[threadIdx.x] = acc;
}
__global__ void k_division_float(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += x / a;
  }
  out[threadIdx.x] = acc;
}
__global__ void k_division_double(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += x / a;
  }
  out[threadIdx.x] = acc;
}
__global__ void k_expf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += expf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_exp2f(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += exp2f(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_exp10f(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += exp10f(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_expm1f(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += expm1f(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_logf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += logf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_log2f(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += log2f(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_log10f(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += log10f(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_log1pf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += log1pf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_sinf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += sinf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_cosf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += cosf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_tanf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += tanf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_asinf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += asinf(a * 0.5f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_acosf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += acosf(a * 0.5f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_atanf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += atanf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_sinhf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += sinhf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_coshf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += coshf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_tanhf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += tanhf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_asinhf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += asinhf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_acoshf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += acoshf(a + 1.0f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_atanhf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += atanhf(a * 0.5f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_sqrtf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += sqrtf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_rsqrtf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += rsqrtf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_cbrtf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += cbrtf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_erff(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += erff(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_erfcf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += erfcf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_lgammaf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += lgammaf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_tgammaf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += tgammaf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_floorf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += floorf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_ceilf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += ceilf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_roundf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += roundf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_truncf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += truncf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_rintf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += rintf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_fabsf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += fabsf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_sinpif(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += sinpif(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_cospif(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += cospif(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_normcdff(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += normcdff(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_erfinvf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += erfinvf(a * 0.5f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___expf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __expf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___logf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __logf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___sinf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __sinf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___cosf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __cosf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___tanf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __tanf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___exp10f(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __exp10f(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___log2f(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __log2f(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___log10f(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __log10f(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___fsqrt_rn(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __fsqrt_rn(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___frsqrt_rn(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __frsqrt_rn(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___saturatef(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __saturatef(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_exp(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += exp(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_exp2(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += exp2(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_exp10(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += exp10(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_expm1(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += expm1(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_log(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += log(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_log2(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += log2(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_log10(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += log10(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_log1p(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += log1p(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_sin(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += sin(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_cos(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += cos(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_tan(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += tan(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_asin(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += asin(a * 0.5);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_acos(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += acos(a * 0.5);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_atan(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += atan(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_sinh(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += sinh(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_cosh(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += cosh(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_tanh(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += tanh(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_asinh(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += asinh(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_acosh(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += acosh(a + 1.0);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_atanh(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += atanh(a * 0.5);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_sqrt(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += sqrt(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_rsqrt(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += rsqrt(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_cbrt(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += cbrt(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_erf(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += erf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_erfc(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += erfc(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_lgamma(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += lgamma(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_tgamma(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += tgamma(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_floor(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += floor(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_ceil(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += ceil(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_round(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += round(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_trunc(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += trunc(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_rint(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += rint(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_fabs(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += fabs(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_sinpi(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += sinpi(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_cospi(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += cospi(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_normcdf(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += normcdf(a);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_erfinv(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += erfinv(a * 0.5);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_powf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += powf(a, x + 0.25f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_atan2f(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += atan2f(a, x + 0.25f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_fmodf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += fmodf(a, x + 0.25f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_hypotf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += hypotf(a, x + 0.25f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_fminf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += fminf(a, x + 0.25f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_fmaxf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += fmaxf(a, x + 0.25f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___powf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __powf(a, x + 0.25f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k___fdividef(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += __fdividef(a, x + 0.25f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_fdimf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += fdimf(a, x + 0.25f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_remainderf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += remainderf(a, x + 0.25f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_copysignf(const float *in, float *out, int R) {
  float x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    float a = x + r * (float)1e-3;
    acc += copysignf(a, x + 0.25f);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_pow(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += pow(a, x + 0.25);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_atan2(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += atan2(a, x + 0.25);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_fmod(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += fmod(a, x + 0.25);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_hypot(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += hypot(a, x + 0.25);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_fmin(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += fmin(a, x + 0.25);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_fmax(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += fmax(a, x + 0.25);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_fdim(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += fdim(a, x + 0.25);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_remainder(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += remainder(a, x + 0.25);
  }
  out[threadIdx.x] = acc;
}
__global__ void k_copysign(const double *in, double *out, int R) {
  double x = in[threadIdx.x], acc = 0;
#pragma unroll 1
  for (int r = 0; r < R; ++r) {
    double a = x + r * (double)1e-3;
    acc += copysign(a, x + 0.25);
  }
  out[threadIdx.x] = acc;
}

template <typename T>
static void launch(void (*kern)(const T *, T *, int), const char *name, int R) {
  T h[32];
  for (int i = 0; i < 32; ++i) h[i] = T(0.5) + T(i) / T(64);
  T *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  kern<<<1, 32>>>(in, out, R);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) fprintf(stderr, "%s: %s\n", name, cudaGetErrorString(e));
  cudaFree(in);
  cudaFree(out);
}

int main() {
  const int R = 256;
  launch<float>(k_base_float, "base_float", R);
  launch<double>(k_base_double, "base_double", R);
  launch<float>(k_division_float, "division_float", R);
  launch<double>(k_division_double, "division_double", R);
  launch<float>(k_expf, "expf", R);
  launch<float>(k_exp2f, "exp2f", R);
  launch<float>(k_exp10f, "exp10f", R);
  launch<float>(k_expm1f, "expm1f", R);
  launch<float>(k_logf, "logf", R);
  launch<float>(k_log2f, "log2f", R);
  launch<float>(k_log10f, "log10f", R);
  launch<float>(k_log1pf, "log1pf", R);
  launch<float>(k_sinf, "sinf", R);
  launch<float>(k_cosf, "cosf", R);
  launch<float>(k_tanf, "tanf", R);
  launch<float>(k_asinf, "asinf", R);
  launch<float>(k_acosf, "acosf", R);
  launch<float>(k_atanf, "atanf", R);
  launch<float>(k_sinhf, "sinhf", R);
  launch<float>(k_coshf, "coshf", R);
  launch<float>(k_tanhf, "tanhf", R);
  launch<float>(k_asinhf, "asinhf", R);
  launch<float>(k_acoshf, "acoshf", R);
  launch<float>(k_atanhf, "atanhf", R);
  launch<float>(k_sqrtf, "sqrtf", R);
  launch<float>(k_rsqrtf, "rsqrtf", R);
  launch<float>(k_cbrtf, "cbrtf", R);
  launch<float>(k_erff, "erff", R);
  launch<float>(k_erfcf, "erfcf", R);
  launch<float>(k_lgammaf, "lgammaf", R);
  launch<float>(k_tgammaf, "tgammaf", R);
  launch<float>(k_floorf, "floorf", R);
  launch<float>(k_ceilf, "ceilf", R);
  launch<float>(k_roundf, "roundf", R);
  launch<float>(k_truncf, "truncf", R);
  launch<float>(k_rintf, "rintf", R);
  launch<float>(k_fabsf, "fabsf", R);
  launch<float>(k_sinpif, "sinpif", R);
  launch<float>(k_cospif, "cospif", R);
  launch<float>(k_normcdff, "normcdff", R);
  launch<float>(k_erfinvf, "erfinvf", R);
  launch<float>(k___expf, "__expf", R);
  launch<float>(k___logf, "__logf", R);
  launch<float>(k___sinf, "__sinf", R);
  launch<float>(k___cosf, "__cosf", R);
  launch<float>(k___tanf, "__tanf", R);
  launch<float>(k___exp10f, "__exp10f", R);
  launch<float>(k___log2f, "__log2f", R);
  launch<float>(k___log10f, "__log10f", R);
  launch<float>(k___fsqrt_rn, "__fsqrt_rn", R);
  launch<float>(k___frsqrt_rn, "__frsqrt_rn", R);
  launch<float>(k___saturatef, "__saturatef", R);
  launch<double>(k_exp, "exp", R);
  launch<double>(k_exp2, "exp2", R);
  launch<double>(k_exp10, "exp10", R);
  launch<double>(k_expm1, "expm1", R);
  launch<double>(k_log, "log", R);
  launch<double>(k_log2, "log2", R);
  launch<double>(k_log10, "log10", R);
  launch<double>(k_log1p, "log1p", R);
  launch<double>(k_sin, "sin", R);
  launch<double>(k_cos, "cos", R);
  launch<double>(k_tan, "tan", R);
  launch<double>(k_asin, "asin", R);
  launch<double>(k_acos, "acos", R);
  launch<double>(k_atan, "atan", R);
  launch<double>(k_sinh, "sinh", R);
  launch<double>(k_cosh, "cosh", R);
  launch<double>(k_tanh, "tanh", R);
  launch<double>(k_asinh, "asinh", R);
  launch<double>(k_acosh, "acosh", R);
  launch<double>(k_atanh, "atanh", R);
  launch<double>(k_sqrt, "sqrt", R);
  launch<double>(k_rsqrt, "rsqrt", R);
  launch<double>(k_cbrt, "cbrt", R);
  launch<double>(k_erf, "erf", R);
  launch<double>(k_erfc, "erfc", R);
  launch<double>(k_lgamma, "lgamma", R);
  launch<double>(k_tgamma, "tgamma", R);
  launch<double>(k_floor, "floor", R);
  launch<double>(k_ceil, "ceil", R);
  launch<double>(k_round, "round", R);
  launch<double>(k_trunc, "trunc", R);
  launch<double>(k_rint, "rint", R);
  launch<double>(k_fabs, "fabs", R);
  launch<double>(k_sinpi, "sinpi", R);
  launch<double>(k_cospi, "cospi", R);
  launch<double>(k_normcdf, "normcdf", R);
  launch<double>(k_erfinv, "erfinv", R);
  launch<float>(k_powf, "powf", R);
  launch<float>(k_atan2f, "atan2f", R);
  launch<float>(k_fmodf, "fmodf", R);
  launch<float>(k_hypotf, "hypotf", R);
  launch<float>(k_fminf, "fminf", R);
  launch<float>(k_fmaxf, "fmaxf", R);
  launch<float>(k___powf, "__powf", R);
  launch<float>(k___fdividef, "__fdividef", R);
  launch<float>(k_fdimf, "fdimf", R);
  launch<float>(k_remainderf, "remainderf", R);
  launch<float>(k_copysignf, "copysignf", R);
  launch<double>(k_pow, "pow", R);
  launch<double>(k_atan2, "atan2", R);
  launch<double>(k_fmod, "fmod", R);
  launch<double>(k_hypot, "hypot", R);
  launch<double>(k_fmin, "fmin", R);
  launch<double>(k_fmax, "fmax", R);
  launch<double>(k_fdim, "fdim", R);
  launch<double>(k_remainder, "remainder", R);
  launch<double>(k_copysign, "copysign", R);
  return 0;
}
