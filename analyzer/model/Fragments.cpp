//===- Fragments.cpp - wmma fragments' lane maps and SASS instructions --===//
#include "model/Fragments.h"

namespace warplint {

const std::vector<FragmentLayout> &fragmentLayouts() {
  static const std::vector<FragmentLayout> table = {
#include "model/FragmentTable.inc"
  };
  return table;
}

const FragmentLayout *findFragmentLayout(const std::string &use, int m, int n,
                                         int k, const std::string &elem,
                                         const std::string &layout) {
  for (const FragmentLayout &f : fragmentLayouts())
    if (use == f.use && m == f.m && n == f.n && k == f.k && elem == f.elem &&
        layout == f.layout)
      return &f;
  return nullptr;
}

int fragmentElementBytes(const std::string &elem) {
  if (elem == "__half" || elem == "__nv_bfloat16")
    return 2;
  if (elem == "signed char" || elem == "unsigned char")
    return 1;
  if (elem == "tf32" || elem == "float" || elem == "int")
    return 4;
  if (elem == "double")
    return 8;
  return 0;
}

std::vector<FragmentInstruction> fragmentInstructions(const FragmentLayout &f,
                                                      bool shared,
                                                      const LaneExpr &lane) {
  std::vector<FragmentInstruction> out;
  int bytes = fragmentElementBytes(f.elem);
  const auto &o = f.offsets;
  if (!bytes || o.empty())
    return out;
  LaneExpr g = bin(Op::Div, lane, cst(4)), t = bin(Op::Rem, lane, cst(4));
  auto affine = [&](int onG, int onT, int plus) {
    return bin(Op::Add, bin(Op::Add, bin(Op::Mul, g, cst(onG)),
                            bin(Op::Mul, t, cst(onT))),
               cst(plus));
  };
  auto adjacent = [&](size_t a, size_t b) {
    return b < o.size() && o[b].first == o[a].first &&
           o[b].second == o[a].second + 1;
  };
  bool operand = std::string(f.use) != "accumulator";
  // A 32-bit register's elements: two 16-bit, four 8-bit.
  size_t perRegister = bytes < 4 ? size_t(4 / bytes) : 1;
  bool registersAdjacent = perRegister > 1 && o.size() % perRegister == 0;
  for (size_t r = 0; registersAdjacent && r < o.size(); r += perRegister)
    for (size_t i = r; i + 1 < r + perRegister; ++i)
      registersAdjacent = registersAdjacent && adjacent(i, i + 1);
  // A register whose lanes' elements run down a line in 16 bytes (the
  // mma.sync A/B form) or, for 16-bit elements, across 8 lines two at a
  // time (the transposed form): an 8x8 ldmatrix matrix either way.
  bool rowsOfLanes = f.lineG == 1 && f.lineT == 0 && f.elemG == 0 &&
                     f.elemT * bytes == 4 && registersAdjacent;
  bool transposed = bytes == 2 && f.lineG == 0 && f.lineT == 2 &&
                    f.elemG == 1 && f.elemT == 0;
  // Operands of 16-bit halves in shared memory: ldmatrix (.trans for the
  // transposed form), four matrices an instruction; 8-bit operands whose
  // registers are four adjacent bytes: ldmatrix, two matrices an
  // instruction (measured: bf16 operands never use it, 8-bit ones whose
  // bytes are a line apart do not).
  if (shared && operand &&
      ((std::string(f.elem) == "__half" && (rowsOfLanes || transposed)) ||
       (bytes == 1 && rowsOfLanes))) {
    std::vector<std::pair<int, int>> regs;
    for (size_t r = 0; r < o.size(); r += perRegister)
      regs.push_back(o[r]);
    size_t perInstruction = bytes == 2 ? 4 : 2;
    LaneExpr matrix = bin(Op::Div, lane, cst(8));
    LaneExpr row = bin(Op::Rem, lane, cst(8));
    for (size_t s = 0; s < regs.size(); s += perInstruction) {
      size_t count = std::min(perInstruction, regs.size() - s);
      // Matrix i's row r: lane 8i + r supplies its 16-byte line.
      LaneExpr line = cst(regs[s + count - 1].first);
      LaneExpr elem = cst(regs[s + count - 1].second);
      for (size_t i = count - 1; i-- > 0;) {
        LaneExpr here = bin(Op::Eq, matrix, cst(int64_t(i)));
        line = select(here, cst(regs[s + i].first), line);
        elem = select(here, cst(regs[s + i].second), elem);
      }
      out.push_back({16, bin(Op::Add, line, row), elem,
                     count * 8 < 32
                         ? bin(Op::Lt, lane, cst(int64_t(count * 8)))
                         : nullptr});
    }
    return out;
  }
  // 16-bit elements a line apart in a register (transposed operands, and
  // accumulators stored across lines): nvcc exchanges them between lane
  // pairs and moves 32 bits a lane, two adjacent elements of line
  // 2t + g % 2, from element g - g % 2.
  if (bytes == 2 && !registersAdjacent) {
    if (!transposed || o.size() % 2)
      return {};
    for (size_t i = 0; i < o.size(); i += 2) {
      if (o[i + 1].first != o[i].first + 1 || o[i + 1].second != o[i].second)
        return {};
      LaneExpr odd = bin(Op::Rem, g, cst(2));
      out.push_back({4,
                     bin(Op::Add, bin(Op::Add, bin(Op::Mul, t, cst(2)), odd),
                         cst(o[i].first)),
                     bin(Op::Add, bin(Op::Sub, g, odd), cst(o[i].second)),
                     nullptr});
    }
    return out;
  }
  // Otherwise each run of elements adjacent in memory, up to 16 bytes, is
  // one access a lane.
  for (size_t i = 0; i < o.size();) {
    size_t run = 1;
    while (adjacent(i + run - 1, i + run) && (run + 1) * bytes <= 16)
      ++run;
    while (run & (run - 1)) // 1, 2, 4... elements: an access's width
      --run;
    out.push_back({int(run) * bytes, affine(f.lineG, f.lineT, o[i].first),
                   affine(f.elemG, f.elemT, o[i].second), nullptr});
    i += run;
  }
  return out;
}

} // namespace warplint
