//===- LaunchShapes.h - where a kernel's block shape comes from -*- C++ -*-===//
#ifndef WARPLINT_FRONTEND_LAUNCHSHAPES_H
#define WARPLINT_FRONTEND_LAUNCHSHAPES_H

#include "model/Eval.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/AST/ExprCXX.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace warplint {

/// One call: the values of its arguments, by argument (the constants it may
/// pass, or none where an argument is not a known integer), the constant
/// arrays it passes, and where it is
/// ("main.cpp:12").
struct CallValues {
  std::vector<std::optional<std::vector<int64_t>>> args;
  /// By argument: the elements of a constant local array it passes
  /// (`launch(dims)` with `int dims[2] = {256, 256}`), in order.
  std::vector<std::optional<std::vector<int64_t>>> arrays;
  std::string where;
  /// By argument, what its values rest on: "the default of option -i
  /// (main.cu:63)" for a value the command line may change (see
  /// GridLaunch::assuming).
  std::vector<std::vector<std::string>> assuming;
};
/// A host integer expression as a sum of variables times constants plus a
/// constant (`ifirst + 2`, `2 * n - 1`), read at a launch.
struct HostLinear {
  std::map<const clang::ValueDecl *, int64_t> terms; // no zero coefficients
  int64_t constant = 0;
  /// Every variable in it keeps its value through its function (so the form
  /// still holds where a later launch reads a local initialised with it).
  bool stable = true;
};

/// Calls of functions, by function (canonical declaration).
using CallsByFunction =
    std::map<const clang::FunctionDecl *, std::vector<CallValues>>;

/// Constant block shapes of every `<<<grid, block>>>` launch (and
/// cudaLaunchKernel / cudaLaunchCooperativeKernel call) in the translation
/// unit, by kernel (canonical declaration; a template's
/// specialization for launches of an instantiation). Launches whose block
/// argument is not a constant are counted in `unknown`.
struct LaunchSites {
  std::map<const clang::FunctionDecl *, std::vector<Shape>> shapes;
  std::map<const clang::FunctionDecl *, int> unknown;
  /// Blocks with some dimensions constant and the others not (0).
  std::map<const clang::FunctionDecl *, std::vector<Shape>> partial;
  /// Every launch with a constant block, in source order: a `<<<...>>>`
  /// call or a cudaLaunchKernel-style call, and the kernel it launches.
  struct Launch {
    const clang::CallExpr *call;
    const clang::FunctionDecl *kernel;
    Shape shape;
  };
  std::vector<Launch> launches;
  /// Every launch with a constant block, by kernel: its grid where that is
  /// constant too (else a shape of zeros), and where the launch is.
  struct GridLaunch {
    Shape block, grid;
    std::string where;
    /// Its shape or grid rests on a value the command line may set, taken
    /// at the program's default (`where` says which: "main.cu:40 (with the
    /// default of option -i (main.cu:63))").
    bool onDefaults = false;
  };
  std::map<const clang::FunctionDecl *, std::vector<GridLaunch>> grids;
  /// Integer arguments by kernel and parameter index: the constants the
  /// launches pass, where, and whether every launch passes one.
  struct ArgValues {
    std::vector<int64_t> values; // distinct, in source order
    std::vector<std::string> where; // "main.cu:52", one per launch
    bool allConstant = true;
    /// Launches whose value for it the command line may set (`n =
    /// atoi(argv[2])`, an option of getopt's loop): not a constant, though
    /// the program gives it a default; "main.cu:73 (10 by default, when
    /// the command line gives none (main.cu:16))".
    std::vector<std::string> commandLine;
    /// Launches whose value for it was searched to the bound of host calls
    /// and expressions followed (HostEval::MaxSteps) and not found: where
    /// the launch is, and where the search stopped.
    std::vector<std::pair<std::string, std::string>> stopped;
  };
  std::map<const clang::FunctionDecl *, std::map<unsigned, ArgValues>> args;
  /// Every launch of a kernel, in source order: its integer arguments as
  /// linear forms of host variables, by argument (none where an argument is
  /// not one), or nothing at all for a launch whose arguments are not read
  /// (cudaLaunchKernel). launchRelations() reads them.
  std::map<const clang::FunctionDecl *,
           std::vector<std::vector<std::optional<HostLinear>>>>
      forms;
  /// Kernels whose launches are in other files (ProjectLaunches.h): the
  /// files, "main.cu" or "main.cu and 2 other files".
  std::map<const clang::FunctionDecl *, std::string> foreign;
  /// Calls of functions the translation unit declares but does not define
  /// (a launcher wrapper defined with its kernel in another file).
  CallsByFunction outgoing;
  /// Functions with parameters that launch a kernel and that nothing in the
  /// translation unit calls: their callers may be in other files.
  std::vector<const clang::FunctionDecl *> uncalledLaunchers;
};
/// Whether `d` was read from the precompiled preamble of the language
/// server's parse (the document's #includes, see lsp/Preamble.h): the walks
/// of the translation unit for kernels and launches pass over it, as walking
/// it would deserialize every declaration of the CUDA headers on each edit.
/// The editor shows the document's findings only, and a kernel or launch in a
/// header it includes has its place in that header.
inline bool fromPreamble(const clang::Decl *d) {
  return d && d->isFromASTFile() &&
         d->getASTContext().getSourceManager().getPreambleFileID().isValid();
}

/// `incoming`: calls of this translation unit's launcher functions made in
/// other files, which bind their parameters as local calls would.
LaunchSites collectLaunchSites(clang::ASTContext &ac,
                               const CallsByFunction *incoming = nullptr);

/// The parameters every launch of `kernel` in the translation unit passes a
/// constant for, by parameter index: values and "the launch at main.cu:52".
/// A parameter that a launch passes a value the command line may set has
/// no values, and its text says so and gives the program's default.
std::map<unsigned, std::pair<std::vector<int64_t>, std::string>>
launchBindings(const LaunchSites &sites, const clang::FunctionDecl *kernel);

/// A kernel parameter every launch passes as another parameter's value plus
/// one constant (`kernel<<<g, b>>>(first + 2, ..., first)`: parameter 0 is
/// parameter `base` + 2), and where those launches are.
struct ParamRelation {
  unsigned base = 0;
  int64_t offset = 0;
  std::string where;
};
/// The parameters launchBindings() does not fix that relate to another this
/// way at every launch of `kernel` in the translation unit (none when a
/// launch is in another file or its arguments are not read). Each relates to
/// the parameter of its group with the smallest offset, which relates to
/// nothing.
std::map<unsigned, ParamRelation> launchRelations(const LaunchSites &sites,
                                                  const clang::FunctionDecl *kernel);

/// The grid every launch of `kernel` with block `block` uses, and where the
/// first of them is; none when a launch's grid is not a constant or two
/// launches differ.
std::optional<std::pair<Shape, std::string>>
launchGrid(const LaunchSites &sites, const clang::FunctionDecl *kernel,
           const Shape &block);

/// The same per dimension: each dimension that every launch of `kernel`
/// with block `block` gives as one and the same constant (`dim3 grid((n +
/// 7) / 8, (m + 7) / 8, 2)`: z is 2), 0 for the others; none when no
/// dimension is known.
std::optional<std::pair<Shape, std::string>>
launchGridDims(const LaunchSites &sites, const clang::FunctionDecl *kernel,
               const Shape &block);

/// The block shapes a kernel is analyzed with: shapes[0] is used; with an
/// assumed shape, the others are alternatives every warning must hold for.
struct ShapeChoice {
  ShapeChoice(std::vector<Shape> s, std::string from, bool guess,
              std::string rest = "")
      : shapes(std::move(s)), source(std::move(from)), assumed(guess),
        assuming(std::move(rest)) {}
  std::vector<Shape> shapes;
  std::string source; // launch site, annotation, option, launch bounds, assumed
  bool assumed = false;
  /// A launch site's shape that rests on a command-line default: "the
  /// launch at main.cu:40 (with the default of option -t (main.cu:22))".
  std::string assuming;
};

/// Launch sites, then the annotation, then `option`, then __launch_bounds__,
/// then the documented candidates (`dims`: bit 1 if the kernel uses
/// threadIdx.y/blockDim.y, bit 2 for z). One choice per distinct launch.
std::vector<ShapeChoice> chooseShapes(clang::ASTContext &ac,
                                      const clang::FunctionDecl *kernel,
                                      const LaunchSites &sites,
                                      const std::optional<Shape> &option,
                                      int dims);
std::string shapeText(const Shape &s);

/// `__attribute__((annotate("warplint.block_dim", X, Y, Z)))` on the kernel.
std::optional<Shape> annotatedShape(clang::ASTContext &ac,
                                    const clang::FunctionDecl *kernel);

/// `__launch_bounds__(N)`: at most N threads per block.
std::optional<int64_t> launchBound(clang::ASTContext &ac,
                                   const clang::FunctionDecl *kernel);

} // namespace warplint

#endif
