//===- HostCode.h - what host code does to the values it launches with -*- C++
//-*-===//
//
// The launch sites' side of the translation unit, read for the values a
// launch passes: how host code changes a variable after its initialiser,
// fields a constructor sets, values read from the command line, linear
// forms of host variables, and the evaluator of host expressions at a
// launch (HostEval). Internal to frontend/launches.
//
//===----------------------------------------------------------------------===//
#ifndef WARPLINT_FRONTEND_LAUNCHES_HOSTCODE_H
#define WARPLINT_FRONTEND_LAUNCHES_HOSTCODE_H

#include "frontend/launches/LaunchShapes.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace warplint {
namespace host {
using namespace clang;

template <class T> void addUnique(std::vector<T> &to, const T &v) {
  if (std::find(to.begin(), to.end(), v) == to.end())
    to.push_back(v);
}

/// `v.x = E`, `v.y = E`, `v.z = E` in the function that declares `v`, by
/// member (0, 1, 2), the last in source order before `use` (a launch's
/// `threadsPerBlock`, whose members the function sets again for a later
/// launch: ddbp's `.x = 256` before its first launch, `.x = 8; .y = 4; .z =
/// 8` before another), or the last of all without one.
std::map<int, const Expr *> memberAssignments(const VarDecl *v,
                                              const Expr *use = nullptr,
                                              SourceLocation after = {});

/// The last assignment of the whole of `v` (`threads = dim3(256);`, `n =
/// 4;`) in source order before `use`, in the function that declares `v`:
/// the value the launch reads where the code sets up one launch after
/// another (`dim3 blocks, threads;` declared once, assigned before each).
/// Null when there is none.
const Expr *lastWholeAssignmentBefore(const VarDecl *v, const Expr *use,
                                      SourceLocation *at = nullptr);

/// How `root` (by default the function that declares `v`) changes `v` after
/// its initialisation: the right-hand sides of its plain assignments `v = E`,
/// and whether it is also changed another way (op=, ++, --, an element written,
/// its address taken).
struct Changes {
  std::vector<const Expr *> plain;
  /// By plain assignment: the `case` label of a switch it falls under
  /// (getopt's `case 'i': n = atoi(optarg); break;`), or null.
  std::vector<const CaseStmt *> cases;
  bool other = false;
  bool any() const { return other || !plain.empty(); }
};

/// A RecursiveASTVisitor that knows, in the body of a switch, under which
/// `case` label the statement it walks falls (`currentCase`; null outside a
/// switch and after `default:`).
template <class Derived> struct CaseTracking : RecursiveASTVisitor<Derived> {
  const CaseStmt *currentCase = nullptr;
  bool TraverseSwitchStmt(SwitchStmt *s) {
    const CaseStmt *saved = currentCase;
    currentCase = nullptr;
    for (Stmt *c : s->children())
      if (c && c != s->getBody() && !this->TraverseStmt(c))
        return false;
    // A label starts the statements that follow it in the body, up to the
    // next label.
    auto walk = [&](Stmt *c) {
      if (auto *cs = dyn_cast_or_null<CaseStmt>(c))
        currentCase = cs;
      else if (isa_and_nonnull<DefaultStmt>(c))
        currentCase = nullptr;
      return this->TraverseStmt(c);
    };
    bool ok = true;
    if (auto *body = dyn_cast_or_null<CompoundStmt>(s->getBody())) {
      for (Stmt *c : body->body())
        if (!(ok = walk(c)))
          break;
    } else {
      ok = walk(s->getBody());
    }
    currentCase = saved;
    return ok;
  }
};

/// While one lives (on this thread), the questions about a variable's
/// writes (changesIn, changesOf, lastWholeAssignmentBefore,
/// memberAssignments) share one gathering of each function body's writes;
/// outside one, each question gathers its body's writes for itself.
/// Statements are keyed by address: a scope must end before its AST does.
class HostIndexScope {
public:
  HostIndexScope();
  ~HostIndexScope();
  HostIndexScope(const HostIndexScope &) = delete;
  HostIndexScope &operator=(const HostIndexScope &) = delete;

private:
  void *Saved;
};

Changes changesIn(const VarDecl *v, const Stmt *root);

Changes changesOf(const VarDecl *v);

/// A variable changed after its initialisation: its initialiser is not its
/// value at a launch.
inline bool reassigned(const VarDecl *v) { return changesOf(v).any(); }

/// A local object nothing changes after its construction: no field of it is
/// assigned, incremented or has its address taken, no non-const method runs
/// on it, and it is passed on only by value or by reference to const.
bool objectUnchanged(const VarDecl *obj);

/// The value a field of a local object has wherever it is read, when a
/// constructor sets it in its member initializers and nothing changes the
/// object after its construction (`Range<16> I(a, b);` with
/// `Range(int s, int e) : start(s), tpb(N) {}`): the argument passed for the
/// constructor parameter the initializer names (`argument`), or the
/// initializer itself; none otherwise.
struct FieldValue {
  const Expr *value = nullptr;
  bool argument = false;
};

/// For `obj.field` where `obj` is a local object a constructor builds and
/// nothing changes after (objectUnchanged()): the construction, and the
/// field; null otherwise.
const CXXConstructExpr *localConstruction(const MemberExpr *m,
                                          const FieldDecl *&field);

FieldValue fieldValue(const MemberExpr *m);

/// "main.cu:52": where an expression is.
std::string whereIs(ASTContext &ac, const Expr *e);

/// A value read from the command line: it reads getopt's `optarg` or a
/// `char **` parameter (`atoi(optarg)`, `atoi(argv[2])`).
bool fromCommandLine(const Expr *e);

/// "option -i" for an assignment under `case 'i':` (getopt's loop), else
/// "".
std::string optionOf(ASTContext &ac, const CaseStmt *cs);

/// The plain assignments a constructor's body makes to `field` of the
/// object it builds (`n_gpu_threads = 256;`, and `n_gpu_threads =
/// atoi(optarg)` in its getopt loop), in source order; none where it
/// changes the field another way.
std::optional<Changes> constructorAssignments(const CXXConstructorDecl *ctor,
                                              const FieldDecl *field);

/// `e` as a linear form of host variables (HostLinear), or none. A local
/// initialised once and never changed stands for its initialiser, a field of
/// a local object for the constructor argument its member initializer takes
/// (`Range<16> I(first + 2, last)` with `Range(int s, int e) : start(s)`), so
/// that two arguments of one launch compare through what they were built from.
/// Coefficients and constants of a linear form stay within 2^40, so that
/// sums and products by a constant of at most 2^20 cannot overflow.
bool withinLimit(int64_t v);

std::optional<HostLinear> linearOf(ASTContext &ac, const Expr *e, int depth);

/// `const T *`: what it points to is only read through it.
bool pointsToConst(QualType t);

/// A local array nothing changes after its initialiser: no element is
/// assigned, incremented or has its address taken, and the array is passed
/// on only as a pointer to const (`int dims[2] = {256, 256};
/// launch(dims);` with `void launch(const int *dims)`).
bool arrayUnchanged(const VarDecl *arr);

/// What the launch visitor saw in the translation unit: calls of each host
/// function (by canonical decl), and the range of each range-for loop
/// variable.
struct HostFacts {
  std::map<const FunctionDecl *, std::vector<const CallExpr *>> calls;
  std::map<const VarDecl *, const Expr *> ranges;
  /// The counted loop each loop variable is declared by
  /// (`for (int x = 1; x <= 8; x *= 2)`).
  std::map<const VarDecl *, const ForStmt *> loops;
  /// Counted loops that start a local declared before them (`int size;
  /// for (size = 4; size <= 64; size *= 2)`), by that variable: inside
  /// such a loop's body the variable takes the loop's values.
  std::map<const VarDecl *, std::vector<const ForStmt *>> assignedLoops;
  /// Calls made in other files of this file's functions.
  const CallsByFunction *incoming = nullptr;
};
extern const HostFacts NoFacts;

/// Values of host expressions at launches: constants, locals initialised
/// with them (and not changed after), simple arithmetic, and a parameter of
/// the launching function when every call of that function in the
/// translation unit passes constants (a launcher wrapper called with fixed
/// sizes). Several values are kept (at most MaxInts), one per call; at
/// most MaxValues block shapes or calls of a launcher.
struct HostEval {
  static constexpr size_t MaxValues = 8;
  /// A host loop over a table of sizes (`for (i = 0; i < 11; i++)
  /// launch(w[i], h[i])`): each is a launch, the first the one a profiler
  /// shows first.
  static constexpr size_t MaxInts = 16;
  ASTContext &ac;
  const HostFacts &facts;
  /// One call of the launching function whose arguments its parameters
  /// take (so that `launch(32, 4); launch(16, 8);` are two shapes, not four).
  const FunctionDecl *boundFn = nullptr;
  const CallExpr *bound = nullptr;
  /// Or the argument values of a call made in another file.
  const CallValues *boundForeign = nullptr;
  /// What the values rest on, shared with the evaluations this one starts:
  /// "the default of option -i (main.cu:63)" where a variable the command
  /// line may set is taken at the value the program gives it otherwise.
  std::shared_ptr<std::vector<std::string>> defaults =
      std::make_shared<std::vector<std::string>>();
  /// Host loops whose bound it cannot evaluate but whose variable grows
  /// geometrically from a constant (`for (size = 4; size <= max; size <<=
  /// 1)`): their first MaxInts values are taken, and this says so ("in a
  /// loop of 'size' from 4 while <= max at main.cu:12: its first 16
  /// values").
  std::shared_ptr<std::vector<std::string>> openLoops =
      std::make_shared<std::vector<std::string>>();
  /// Where the search for a value reached its bound (MaxSteps steps of
  /// host calls and expressions) and stopped: "main.cu:54". A value left
  /// unknown for that says so, not only what it is assumed to be.
  std::shared_ptr<std::vector<std::string>> stoppedAt =
      std::make_shared<std::vector<std::string>>();
  static constexpr int MaxSteps = 16;
  /// The variables whose values are being searched for, outermost first.
  std::shared_ptr<std::vector<const VarDecl *>> following =
      std::make_shared<std::vector<const VarDecl *>>();

  /// An evaluation with nothing bound, whose assumptions are this one's.
  HostEval unbound() const;

  /// Whether `depth` is past MaxSteps; if so, notes where `e` is in
  /// `stoppedAt` (the first place only).
  bool pastBound(const Expr *e, int depth) const;

  /// The argument `p` takes from the bound call, if its function is bound.
  const Expr *boundArgument(const ParmVarDecl *p) const;

  std::optional<std::vector<int64_t>> ints(const Expr *e, int depth) const;

  /// `search()`, unless `v` is already being searched for: a variable
  /// whose value is asked for while it is being searched for depends on
  /// itself (`t = t * 2` in a host loop, a parameter of a recursive
  /// launcher), so it has no value to find there, and that is not the
  /// search's bound (no note in `stoppedAt`).
  template <class F> auto once(const VarDecl *v, F search) const {
    std::vector<const VarDecl *> &open = *following;
    if (std::find(open.begin(), open.end(), v) != open.end())
      return decltype(search())();
    open.push_back(v);
    auto found = search();
    open.pop_back();
    return found;
  }

  /// The values of variable `v`, named by `d` (ints()).
  std::optional<std::vector<int64_t>>
  variable(const DeclRefExpr *d, const VarDecl *v, int depth) const;

  /// `f` over each pair of values of `a` and `b` (an operator, `std::max`):
  /// none where either has none, `f` gives none, or there are too many.
  template <class F>
  std::optional<std::vector<int64_t>> pairwise(const Expr *a, const Expr *b,
                                               int depth, F f) const;

  /// A local set by plain assignments to constants only (`int threads =
  /// 256; if (n < 4096) threads = 64;`, or a switch on a size): each value it
  /// may hold, its initialiser's included. Anything else changing it: none.
  std::optional<std::vector<int64_t>> assignedValues(const VarDecl *v,
                                                     int depth) const;

  /// The values of `values` (a variable's initialiser and assignments),
  /// leaving out those read from the command line (`bs = atoi(optarg)`)
  /// when the others give it a default: the value is then taken at its
  /// default, and `defaults` says so.
  std::optional<std::vector<int64_t>> withDefaults(const Changes &values,
                                                   int depth) const;

  /// A field of a local object nothing changes after its construction, set
  /// by plain assignments in the constructor's body (`Params(int argc, char
  /// **argv) { n_gpu_threads = 256; ...getopt... }`): each value it may
  /// hold, command-line values left out where it has a default.
  std::optional<std::vector<int64_t>> bodyFieldValues(const MemberExpr *m,
                                                      int depth) const;

  /// The values a counted host loop's variable takes, when they are few:
  /// a constant start, a comparison with a constant, a constant step
  /// (`++`, `--`, `+=`, `-=`, `*=`, `/=`, `<<=`, `>>=`), and a body that does
  /// not change the variable. A benchmark's sweep over sizes
  /// (`for (int x = 1; x <= 8; x *= 2) kernel<<<g, b>>>(..., x);`) makes one
  /// value per iteration, as a range-for over a list does.
  std::optional<std::vector<int64_t>>
  loopValues(const VarDecl *v, const ForStmt *f, int depth) const;

  /// The loop of `assignedLoops` whose body holds `use` of `v` (the
  /// innermost), or null.
  const ForStmt *assignedLoopAround(const VarDecl *v, const Expr *use) const;

  /// Leaves out of `values` (those of loop `f`'s variable `v`) the ones
  /// that the `if`s between the loop and `use` keep from it: a launch
  /// under `if (stride >= 512)` in a loop over strides runs only with those.
  /// Compared there with a value the host does not show, it keeps none.
  void keepGuarded(std::vector<int64_t> &values, const VarDecl *v,
                   const ForStmt *f, const Expr *use, int depth) const;

  static bool isVar(const Expr *e, const VarDecl *v);

  /// Adds the values of `e` to `out`; false when it has none, or too many.
  bool unite(std::vector<int64_t> &out, const Expr *e, int depth) const;

  /// The range of the range-for loop whose variable `v` is
  /// (`for (int bs : sizes)`), or null.
  const Expr *rangeOf(const VarDecl *v) const;

  /// The values a range-for loop takes: a braced list, or a local array
  /// initialised with constants and never written (`int sizes[] = {64,
  /// 128}; for (int bs : sizes) ...`): each launch in the loop is one shape.
  std::optional<std::vector<int64_t>> elements(const Expr *range,
                                               int depth) const;

  /// The elements of a local array with constant elements that nothing
  /// changes (in order), when `e` names one.
  std::optional<std::vector<int64_t>> constantArray(const Expr *e,
                                                    int depth) const;

  /// The arrays `base` may name: a constant local array, or the arrays a
  /// pointer parameter of the launching function is passed (one per call).
  std::optional<std::vector<std::vector<int64_t>>> arrayValues(const Expr *base,
                                                               int depth) const;

  std::optional<std::vector<int64_t>> parameter(const ParmVarDecl *p,
                                                int depth) const;

  static bool add(std::vector<int64_t> &out, int64_t v);

  /// One value, or none.
  std::optional<int64_t> one(const Expr *e, int depth) const;

  /// A dim3 expression's values: dim3(16, 16), a dim3 variable initialised
  /// from constants, or an integer (x only). A member that is not constant
  /// is 0.
  std::optional<std::vector<Shape>> dims(const Expr *e, int depth) const;

  /// A dim3 parameter of the launching function: the shapes its calls pass.
  std::optional<std::vector<Shape>> dimParameter(const ParmVarDecl *p,
                                                 int depth) const;
};

} // namespace host
} // namespace warplint

#endif
