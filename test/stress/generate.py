#!/usr/bin/env python3
"""Adversarial inputs of a chosen size, one shape per file.

  generate.py <folder> [--scale K] [--shapes sum,nest,...]

writes <folder>/<shape>-<n>.cu for each shape, with n = the shape's base
size times K. The shapes (each grows along one dimension of the input):

  sum      one statement summing n loads (`in[t] + in[t + 1] + ...`): an
           expression far past the model's depth limit
  nest     n loops and conditions nested in one another, an access at the
           bottom that reads every loop's variable
  chain    a loop-carried value through n loads in one loop, each at an
           address built from the value before (`x = a[x + k]`)
  line     n statements on one line
  many     n distinct accesses in one kernel, each its own stride and offset
  selfref  n kernels that chase pointers through the data they load
           (`x = a[x]`, linked lists, values carried through two loops)
  kernels  n small kernels, each a guarded element-wise copy (a file of
           generated kernels: the per-kernel cost)
  launches one host function that sets up and makes n launches, each with
           its own size, block width (`block.x = ...`) and grid (`grid =
           dim3(...)`): the launch sites' search for the values they read
  calls    n host functions, each passing its size on to the next, the
           last making the launch: the search of the callers for the
           values a launch's parameters hold
  devcalls n device functions, each calling the next with an offset, the
           last making the store: the calls a kernel's accesses are
           followed through

test/stress/bench.py measures them at n, 2n and 4n against clang's parse;
the ctest stress/generated runs the small sizes for crashes.
"""
import argparse
import os
import sys

BASE = {'sum': 200, 'nest': 8, 'chain': 100, 'line': 500, 'many': 1000,
        'selfref': 50, 'kernels': 500, 'launches': 200, 'calls': 500,
        'devcalls': 500}

HEAD = '#include <cuda_runtime.h>\n'


def shape_sum(n):
    terms = ' + '.join('in[t + %d]' % k for k in range(n))
    return (HEAD + '__global__ void sum(const float *in, float *out) {\n'
            '  int t = blockIdx.x * blockDim.x + threadIdx.x;\n'
            '  out[t] = %s;\n}\n' % terms)


def shape_nest(n):
    lines = []
    for d in range(n):
        pad = '  ' * (d + 1)
        if d % 2 == 0:
            lines.append('%sfor (int i%d = 0; i%d < m; ++i%d)' % (pad, d, d, d))
        else:
            lines.append('%sif (i%d != t)' % (pad, d - 1))
    idx = ' + '.join('i%d' % d for d in range(0, n, 2)) or '0'
    lines.append('%s  out[t * 32 + %s] += in[t];' % ('  ' * n, idx))
    return (HEAD + '__global__ void nest(const float *in, float *out, int m) {\n'
            '  int t = blockIdx.x * blockDim.x + threadIdx.x;\n' +
            '\n'.join(lines) + '\n}\n')


def shape_chain(n):
    body = '\n'.join('    x = a[x + %d];' % (k + 1) for k in range(n))
    return (HEAD + '__global__ void chain(const int *a, int *out, int m) {\n'
            '  int t = blockIdx.x * blockDim.x + threadIdx.x;\n'
            '  int x = a[t];\n'
            '  for (int i = 0; i < m; ++i) {\n' + body + '\n  }\n'
            '  out[t] = x;\n  out[t * 32] = x;\n}\n')


def shape_line(n):
    stmts = ' '.join('out[t * %d + %d] = in[t + %d];' % (k % 7 + 1, k, k)
                     for k in range(n))
    return (HEAD + '__global__ void line(const float *in, float *out) {\n'
            '  int t = blockIdx.x * blockDim.x + threadIdx.x;\n'
            '  ' + stmts + '\n}\n')


def shape_many(n):
    body = '\n'.join('  out[t * %d + %d] = in[t + %d * s];' %
                     (k % 33 + 1, k, k) for k in range(n))
    return (HEAD + '__global__ void many(const float *in, float *out, int s) {\n'
            '  int t = blockIdx.x * blockDim.x + threadIdx.x;\n' + body +
            '\n}\n')


def shape_selfref(n):
    out = [HEAD, 'struct Node { int next; float value; };\n']
    for k in range(n):
        v = k % 3
        if v == 0:
            out.append(
                '__global__ void chase%d(const int *a, int *out) {\n'
                '  int x = a[threadIdx.x + %d];\n'
                '  while (x != 0) x = a[x];\n'
                '  out[threadIdx.x * 32] = x;\n}\n' % (k, k))
        elif v == 1:
            out.append(
                '__global__ void walk%d(const int *head, const Node *nodes,'
                ' float *out) {\n'
                '  float s = 0;\n'
                '  for (int i = head[threadIdx.x]; i >= 0; i = nodes[i].next)\n'
                '    s += nodes[i].value + %d;\n'
                '  out[threadIdx.x] = s;\n}\n' % (k, k))
        else:
            out.append(
                '__global__ void twice%d(const int *a, int *out, int n) {\n'
                '  int x = a[threadIdx.x];\n'
                '  for (int i = 0; i < n; ++i)\n'
                '    for (int j = 0; j < n; ++j)\n'
                '      x = a[x + j + %d];\n'
                '  out[threadIdx.x] = x;\n}\n' % (k, k))
    return ''.join(out)


def shape_kernels(n):
    return HEAD + ''.join(
        '__global__ void k%d(const float *in, float *out, int n) {\n'
        '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
        '  if (i < n)\n    out[i] = in[i] * %d.f;\n}\n' % (k, k)
        for k in range(n))


def shape_launches(n):
    body = ''.join(
        '  int n%d = %d;\n'
        '  block.x = %d;\n'
        '  grid = dim3((n%d + block.x - 1) / block.x);\n'
        '  copy<<<grid, block>>>(in, out, n%d, %d);\n' %
        (k, 1024 * (k % 5 + 1), 32 * (k % 8 + 1), k, k, k % 3 + 1)
        for k in range(n))
    return (HEAD + '__global__ void copy(const float *in, float *out, int n,'
            ' int stride) {\n'
            '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
            '  if (i < n)\n    out[i] = in[i * stride];\n}\n'
            'void run(const float *in, float *out) {\n'
            '  dim3 grid, block;\n' + body + '}\n')


def shape_calls(n):
    funcs = ''.join(
        'void f%d(float *out, int n, int stride) {\n'
        '  f%d(out, n + %d, stride);\n}\n' % (k, k - 1, k % 3)
        for k in range(1, n))
    return (HEAD + '__global__ void store(float *out, int n, int stride) {\n'
            '  int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
            '  if (i < n)\n    out[i * stride] = 1.f;\n}\n'
            'void f0(float *out, int n, int stride) {\n'
            '  store<<<(n + 255) / 256, 256>>>(out, n, stride);\n}\n' +
            funcs + 'void run(float *out) { f%d(out, 1024, 2); }\n' % (n - 1))


def shape_devcalls(n):
    funcs = ''.join(
        '__device__ void d%d(float *out, int i) { d%d(out, i + %d); }\n' %
        (k, k - 1, k % 2) for k in range(1, n))
    return (HEAD + '__device__ void d0(float *out, int i) { out[i * 2] = 1.f; }\n'
            + funcs + '__global__ void calls(float *out) {\n'
            '  d%d(out, blockIdx.x * blockDim.x + threadIdx.x);\n}\n' % (n - 1))


SHAPES = {'sum': shape_sum, 'nest': shape_nest, 'chain': shape_chain,
          'line': shape_line, 'many': shape_many, 'selfref': shape_selfref,
          'kernels': shape_kernels, 'launches': shape_launches,
          'calls': shape_calls, 'devcalls': shape_devcalls}


def write(folder, shape, n):
    path = os.path.join(folder, '%s-%d.cu' % (shape, n))
    with open(path, 'w') as f:
        f.write(SHAPES[shape](n))
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('folder')
    ap.add_argument('--scale', type=float, default=1)
    ap.add_argument('--shapes', default=','.join(SHAPES))
    args = ap.parse_args()
    os.makedirs(args.folder, exist_ok=True)
    for s in args.shapes.split(','):
        print(write(args.folder, s, max(1, int(BASE[s] * args.scale))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
