//===- Fragments.h - wmma fragments' lane maps and SASS instructions ----===//
//
// wmma::load_matrix_sync and store_matrix_sync move a fragment between
// registers and memory with a lane layout the toolkit does not document.
// The layouts were measured on the GPU (bench-kernels/tensor-core,
// frag_cases.cu --layouts) and every one has the mma.sync form: lane l, in
// group g = l / 4 at thread t = l % 4, holds element e at
//
//   stored line  = lineG * g + lineT * t + offsets[e].line
//   line element = elemG * g + elemT * t + offsets[e].elem
//
// (a stored line is a row of row-major memory, a column of column-major).
// fragmentInstructions() turns a layout into the instructions nvcc makes of
// the call (measured per SASS instruction with Nsight Compute on the same
// kernels): ldmatrix, 32-bit accesses after a pair exchange, or plain
// accesses of adjacent elements.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "model/Expr.h"

#include <string>
#include <utility>
#include <vector>

namespace warplint {

struct FragmentLayout {
  const char *use;    // "matrix_a", "matrix_b", "accumulator"
  int m, n, k;
  const char *elem;   // "__half", "__nv_bfloat16", "signed char", "tf32", ...
  const char *layout; // "row_major"/"col_major"; accumulators: "mem_row_major"...
  int elements;       // fragment elements a lane holds (x[0..elements))
  int lineG, lineT, elemG, elemT;
  std::vector<std::pair<int, int>> offsets; // distinct elements: {line, element}
};

/// The measured layout of a fragment, or null where none was measured.
const FragmentLayout *findFragmentLayout(const std::string &use, int m, int n,
                                         int k, const std::string &elem,
                                         const std::string &layout);
/// Every measured layout (for tests).
const std::vector<FragmentLayout> &fragmentLayouts();

/// Bytes of one element as stored in memory (tf32 is stored as float); 0
/// for a type warplint does not know.
int fragmentElementBytes(const std::string &elem);

/// One SASS instruction nvcc makes of a fragment load or store: lane `lane`
/// touches `bytes` bytes from element `elem` of stored line `line` (so at
/// line * ldm + elem elements from the pointer), if `active` (null: every
/// lane) holds.
struct FragmentInstruction {
  int bytes;
  LaneExpr line, elem, active;
};

/// The instructions for a load or store of `f` in shared or global memory,
/// for the lane index `lane`. Empty where the measured rules do not cover
/// the layout.
std::vector<FragmentInstruction> fragmentInstructions(const FragmentLayout &f,
                                                      bool shared,
                                                      const LaneExpr &lane);

} // namespace warplint
