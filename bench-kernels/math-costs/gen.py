#!/usr/bin/env python3
"""Writes math_costs.cu: one kernel per CUDA math function (float and double)
and per floating-point division, each calling it R times per lane, and a
k_base_* kernel without the call. measure.sh profiles them."""
import os

F1 = ['expf', 'exp2f', 'exp10f', 'expm1f', 'logf', 'log2f', 'log10f', 'log1pf',
      'sinf', 'cosf', 'tanf', 'asinf', 'acosf', 'atanf', 'sinhf', 'coshf',
      'tanhf', 'asinhf', 'acoshf', 'atanhf', 'sqrtf', 'rsqrtf', 'cbrtf', 'erff',
      'erfcf', 'lgammaf', 'tgammaf', 'floorf', 'ceilf', 'roundf', 'truncf',
      'rintf', 'fabsf', 'sinpif', 'cospif', 'normcdff', 'erfinvf', '__expf',
      '__logf', '__sinf', '__cosf', '__tanf', '__exp10f', '__log2f', '__log10f',
      '__fsqrt_rn', '__frsqrt_rn', '__saturatef']
F2 = ['powf', 'atan2f', 'fmodf', 'hypotf', 'fminf', 'fmaxf', '__powf',
      '__fdividef', 'fdimf', 'remainderf', 'copysignf']
D1 = [f[:-1] for f in F1 if not f.startswith('__') and f.endswith('f')]
D2 = [f[:-1] for f in F2 if not f.startswith('__') and f.endswith('f')]
# Arguments kept where each function is defined and on its common path.
HALF = ('asin', 'acos', 'atanh', 'erfinv')


def main():
    out = ['// One kernel per CUDA math function: each of 32 lanes calls it R times',
           "// on arguments in [0.5, 1.3] (the functions' common paths); a call",
           '// issues (k_<f> - k_base_<type>) / R warp instructions, counted by',
           '// Nsight Compute (measure.sh). Written by gen.py; do not edit.',
           '#include <cstdio>', '#include <cuda_runtime.h>', '']
    names = []

    def kernel(name, t, expr):
        out.extend([
            '__global__ void k_%s(const %s *in, %s *out, int R) {' % (name, t, t),
            '  %s x = in[threadIdx.x], acc = 0;' % t,
            '#pragma unroll 1',
            '  for (int r = 0; r < R; ++r) {',
            '    %s a = x + r * (%s)1e-3;' % (t, t),
            '    acc += %s;' % expr,
            '  }',
            '  out[threadIdx.x] = acc;',
            '}'])
        names.append((name, t))

    kernel('base_float', 'float', 'a')
    kernel('base_double', 'double', 'a')
    kernel('division_float', 'float', 'x / a')
    kernel('division_double', 'double', 'x / a')
    for fs, t, suffix in ((F1, 'float', 'f'), (D1, 'double', '')):
        for f in fs:
            stem = f[:-1] if t == 'float' and f.endswith('f') else f
            arg = ('a * 0.5' + suffix if stem in HALF else
                   'a + 1.0' + suffix if stem == 'acosh' else 'a')
            kernel(f, t, '%s(%s)' % (f, arg))
    for fs, t, suffix in ((F2, 'float', 'f'), (D2, 'double', '')):
        for f in fs:
            kernel(f, t, '%s(a, x + 0.25%s)' % (f, suffix))
    out += ['',
            'template <typename T>',
            'static void launch(void (*kern)(const T *, T *, int), const char *name, int R) {',
            '  T h[32];',
            '  for (int i = 0; i < 32; ++i) h[i] = T(0.5) + T(i) / T(64);',
            '  T *in, *out;',
            '  cudaMalloc(&in, sizeof h);',
            '  cudaMalloc(&out, sizeof h);',
            '  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);',
            '  kern<<<1, 32>>>(in, out, R);',
            '  cudaError_t e = cudaDeviceSynchronize();',
            '  if (e != cudaSuccess) fprintf(stderr, "%s: %s\\n", name, cudaGetErrorString(e));',
            '  cudaFree(in);',
            '  cudaFree(out);',
            '}',
            '',
            'int main() {',
            '  const int R = 256;']
    out += ['  launch<%s>(k_%s, "%s", R);' % (t, n, n) for n, t in names]
    out += ['  return 0;', '}']
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, 'math_costs.cu'), 'w') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
