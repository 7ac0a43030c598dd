#include "frontend/analysis/Leniency.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/DiagnosticAST.h"
#include "clang/Basic/DiagnosticSema.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Sema/Sema.h"

#include <optional>

using namespace clang;

namespace warplint {
namespace {

/// The __shared__ variable a diagnostic points at is followed by `;`,
/// `,` or `[`: no initializer written, only its class's constructor.
bool noInitializerWritten(const Diagnostic &info, const LangOptions &lo) {
  if (!info.hasSourceManager() || info.getLocation().isMacroID())
    return false;
  std::optional<Token> next =
      Lexer::findNextToken(info.getLocation(), info.getSourceManager(), lo);
  return next && next->isOneOf(tok::semi, tok::comma, tok::l_square);
}

/// The tokens from a diagnostic's place to the end of its statement hold
/// a call `:: name <...>(` with no `template` between `::` and `name`.
bool templateNamedWithoutKeyword(const Diagnostic &info,
                                 const LangOptions &lo) {
  if (!info.hasSourceManager() || info.getLocation().isMacroID())
    return false;
  const SourceManager &sm = info.getSourceManager();
  SourceLocation at = info.getLocation();
  tok::TokenKind before = tok::unknown, last = tok::unknown;
  int depth = -1; // inside the template arguments once >= 1
  for (int i = 0; i < 128; ++i) {
    std::optional<Token> next = Lexer::findNextToken(at, sm, lo);
    if (!next || next->isOneOf(tok::semi, tok::l_brace, tok::r_brace, tok::eof))
      return false;
    tok::TokenKind k = next->getKind();
    if (depth == 0)
      return k == tok::l_paren;
    if (depth > 0) {
      depth += k == tok::less             ? 1
               : k == tok::greater        ? -1
               : k == tok::greatergreater ? -2
                                          : 0;
      if (depth < 0) // `>>` closed more than was open
        return false;
    } else if (k == tok::less && last == tok::raw_identifier &&
               before == tok::coloncolon) {
      depth = 1;
    }
    before = last;
    last = k;
    at = next->getLocation();
  }
  return false;
}

/// The diagnostic's `=` is followed by `{ }`.
bool assignsEmptyBraces(const Diagnostic &info, const LangOptions &lo) {
  if (!info.hasSourceManager() || info.getLocation().isMacroID())
    return false;
  const SourceManager &sm = info.getSourceManager();
  bool invalid = false;
  const char *at = sm.getCharacterData(info.getLocation(), &invalid);
  if (invalid || at[0] != '=' || at[1] == '=')
    return false;
  std::optional<Token> open = Lexer::findNextToken(info.getLocation(), sm, lo);
  if (!open || !open->is(tok::l_brace))
    return false;
  std::optional<Token> close =
      Lexer::findNextToken(open->getLocation(), sm, lo);
  return close && close->is(tok::r_brace);
}

} // namespace

Leniency lenient(DiagnosticsEngine::Level level, const Diagnostic &info,
                 const CompilerInstance &ci) {
  if (level != DiagnosticsEngine::Error)
    return Leniency::None;
  const LangOptions &lo = ci.getLangOpts();
  unsigned id = info.getID();
  if (id == diag::err_asm_invalid_escape)
    return Leniency::NvccAccepts;
  if (id == diag::err_shared_var_init)
    return noInitializerWritten(info, lo) ? Leniency::NvccAccepts
                                          : Leniency::None;
  if (id == diag::err_template_kw_missing)
    return Leniency::NvccAccepts;
  if (id == diag::err_ovl_unresolvable)
    return templateNamedWithoutKeyword(info, lo) ? Leniency::NvccAccepts
                                                 : Leniency::None;
  if (id == diag::err_ovl_ambiguous_oper_binary)
    return assignsEmptyBraces(info, lo) ? Leniency::NvccAccepts
                                        : Leniency::None;
  if (id < diag::DIAG_START_SEMA || id >= diag::DIAG_START_ANALYSIS ||
      !ci.hasSema())
    return Leniency::None;
  Sema &S = ci.getSema();
  const FunctionDecl *outer = S.getCurFunctionDecl(/*AllowLambda=*/false);
  if (!outer || outer->hasAttr<CUDADeviceAttr>() ||
      outer->hasAttr<CUDAGlobalAttr>())
    return Leniency::None;
  // A lambda in host code marked __device__ (an extended lambda) is
  // device code; one Clang makes __host__ __device__ by itself is not.
  if (const FunctionDecl *inner = S.getCurFunctionDecl(/*AllowLambda=*/true))
    if (const auto *d = inner->getAttr<CUDADeviceAttr>(); d && !d->isImplicit())
      return Leniency::None;
  return Leniency::HostCode;
}

const char *leniencyLabel(Leniency l) {
  switch (l) {
  case Leniency::HostCode:
    return "host code not checked";
  case Leniency::NvccAccepts:
    return "not checked (nvcc accepts it)";
  case Leniency::None:
    break;
  }
  return "";
}

} // namespace warplint
