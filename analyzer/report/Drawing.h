//===- Drawing.h - one warp's request, drawn for a terminal -----*- C++ -*-===//
//
// `warplint --explain FILE:LINE` draws, for the accesses on a line, what one
// warp does: for shared memory a grid of banks (columns) by wavefronts (rows)
// with the lane served in each cell; for global memory one row per 32-byte
// sector with the bytes the lanes use; for constant memory the distinct
// addresses. Plain text, no Clang.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_REPORT_DRAWING_H
#define WARPLINT_REPORT_DRAWING_H

#include "model/Eval.h"

#include <string>

namespace warplint {

std::string drawSharedRequest(const Lanes &addr, LaneMask active, int bytes);
std::string drawGlobalRequest(const Lanes &addr, LaneMask active, int bytes);
std::string drawConstantRequest(const Lanes &addr, LaneMask active);

} // namespace warplint

#endif
