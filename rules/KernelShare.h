//===- KernelShare.h - what a finding costs its kernel ----------*- C++ -*-===//
//
// A finding is worth acting on where what it names costs a real share of its
// kernel. A divergent body: its idle lanes' share of the kernel's issue
// slots (a loop body run for one lane of each warp matters, a lane-0
// epilogue that writes the block's result once after a long loop does not).
// A memory access: its extra sectors' (wavefronts') share of the kernel's
// traffic in that space, where it also runs far less often than the
// kernel's busiest access (a final write once per block after a loop); an
// access that runs as often as the busiest ones is a warning whatever its
// share, since a kernel of many such lines is slow by all of them together.
// What the rules share: the options that set the shares, and the words that
// give them.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_RULES_KERNELSHARE_H
#define WARPLINT_RULES_KERNELSHARE_H

#include "rules/RuleSet.h"

namespace warplint {

/// The share of the kernel's estimated warp instructions, in percent, below
/// which a divergent body's finding is a remark, not a warning.
extern const RuleOption MinKernelShare;

/// Gives the body's cost in `out`'s message where it is estimated
/// (BranchFacts::wasteShare), and makes `out` a remark where that is under
/// the rule's MinKernelShare.
void weighBody(const BranchFacts &f, const RuleContext &opts, Finding &out);

/// The share of the kernel's estimated traffic in the access's space, in
/// percent, below which an access's finding is a remark, not a warning,
/// where the access also runs less than RareRuns as often as the kernel's
/// busiest access of that space.
extern const RuleOption MinTrafficShare;

/// How often, against the kernel's busiest access of its space, an access
/// may run and still have its finding weighed by MinTrafficShare.
inline constexpr double RareRuns = 1.0 / 8;

/// Gives the weight `w` of an access in `space` in a note of `out`: its
/// extra `unit` ("sectors", "wavefronts") as a share of the kernel's; and
/// makes `out` a remark where that is under the rule's MinTrafficShare on
/// an access that runs rarely (RareRuns).
void weighAccess(const AccessWeight &w, Space space, const RuleContext &opts,
                 const char *unit, Finding &out);

} // namespace warplint

#endif
