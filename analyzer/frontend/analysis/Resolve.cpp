#include "frontend/analysis/Resolve.h"

#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <tuple>

using namespace clang;

namespace warplint {

SourceHandle handleOf(SourceLocation loc) { return loc.getRawEncoding(); }

SourceLocation locationOf(SourceHandle h) {
  return SourceLocation::getFromRawEncoding(SourceLocation::UIntTy(h));
}

RangeHandle handleOf(SourceRange r) {
  return {handleOf(r.getBegin()), handleOf(r.getEnd()), false};
}

CharSourceRange rangeOf(const RangeHandle &r) {
  SourceRange range(locationOf(r.begin), locationOf(r.end));
  return r.chars ? CharSourceRange::getCharRange(range)
                 : CharSourceRange::getTokenRange(range);
}

FixItHint fixItOf(const FixRecord &f) {
  return FixItHint::CreateReplacement(rangeOf(f.edit), f.replacement);
}

std::string kernelName(const FunctionDecl *k) { return k->getNameAsString(); }

std::string kernelSignature(const FunctionDecl *k) {
  std::string s;
  llvm::raw_string_ostream os(s);
  k->getNameForDiagnostic(os, k->getASTContext().getPrintingPolicy(), true);
  return os.str();
}

/// A file name of the parse as an absolute path without dots: a relative
/// one is relative to the parse's working directory (its compile command's).
static std::string absoluteName(const SourceManager &sm,
                                const std::string &name) {
  if (llvm::sys::path::is_absolute(name))
    return name;
  SmallString<256> p(name);
  sm.getFileManager().makeAbsolutePath(p);
  llvm::sys::path::remove_dots(p, true);
  return p.str().str();
}

SourcePos Resolver::pos(SourceLocation loc) const {
  const SourceManager &sm = AC.getSourceManager();
  SourcePos p;
  PresumedLoc pl = sm.getPresumedLoc(sm.getExpansionLoc(loc));
  if (pl.isValid()) {
    // The reports name files absolute; the parse names a file given on the
    // command line as given (ToolOptions::absolutePaths). A #line name
    // stays as written.
    p.file = pl.getFilename();
    auto fe = sm.getFileEntryRefForID(pl.getFileID());
    if (fe && fe->getName() == p.file &&
        !llvm::sys::path::is_absolute(p.file)) {
      std::string as = p.file;
      p.file = absoluteName(sm, as);
      Shown.emplace(p.file, std::move(as));
    }
    p.line = pl.getLine();
    p.column = pl.getColumn();
  }
  return p;
}

std::string Resolver::text(SourceRange r) const {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(r),
                              AC.getSourceManager(), AC.getLangOpts())
      .str();
}

void Resolver::place(DiagnosticRecord &d, SourceLocation loc) {
  const SourceManager &sm = AC.getSourceManager();
  d.at = handleOf(loc);
  d.pos = pos(loc);
  SourceLocation e = sm.getExpansionLoc(loc);
  FileID f = sm.getFileID(e);
  auto fe = sm.getFileEntryRefForID(f);
  d.physicalFile = fe ? absoluteName(sm, fe->getName().str()) : "";
  d.physicalLine = sm.getExpansionLineNumber(e);
  d.inMainFile = sm.isInMainFile(e);
  if (!Nolint.count(d.physicalFile)) {
    bool invalid = false;
    StringRef buf = sm.getBufferData(f, &invalid);
    if (!invalid)
      Nolint.emplace(d.physicalFile, SuppressionIndex(std::string_view(
                                         buf.data(), buf.size())));
  }
}

DiagnosticRecord Resolver::finding(const std::string &rule, const Finding &f,
                                   const FindingSite &site) {
  const SourceLocation loc = site.loc;
  const SourceRange siteRange = site.range;
  DiagnosticRecord dr;
  dr.rule = rule;
  if (f.remark)
    dr.severity = "remark";
  place(dr, loc);
  dr.kernel = kernelName(site.kernel);
  dr.signature = kernelSignature(site.kernel);
  dr.message = f.message;
  // Reported on a struct's line (AccessSite::reportAt): notes without a
  // source expression of their own stay there, and one says where the
  // copy is written.
  bool elsewhere = siteRange.isValid() && loc != siteRange.getBegin();
  dr.range = handleOf(elsewhere ? SourceRange() : siteRange);
  // (location, message, range): one per note, then the calls that led here.
  std::vector<std::tuple<SourceLocation, std::string, SourceRange>> notes;
  // (Both arms lvalues: with a temporary vector as the other arm, the
  // conditional is a prvalue that copies the kernel's every origin for
  // each finding, quadratic in a kernel's accesses.)
  static const std::vector<SourceRange> NoOrigins;
  const std::vector<SourceRange> &origins =
      site.origins ? *site.origins : NoOrigins;
  for (const RuleNote &n : f.notes) {
    SourceRange range = n.origin >= 0 && size_t(n.origin) < origins.size()
                            ? origins[n.origin]
                        : elsewhere ? SourceRange()
                                    : siteRange;
    std::string msg = n.message;
    if (n.origin >= 0)
      msg = "'" + text(range) + "' " + msg;
    notes.emplace_back(n.origin >= 0 ? range.getBegin() : loc, msg, range);
  }
  // An expression written over several lines is reported on a later line
  // of its own; a struct copy on the struct's line.
  const SourceManager &sm = AC.getSourceManager();
  bool within = elsewhere && loc.isValid() &&
                sm.isBeforeInTranslationUnit(siteRange.getBegin(), loc) &&
                !sm.isBeforeInTranslationUnit(siteRange.getEnd(), loc);
  if (within)
    notes.emplace_back(siteRange.getBegin(),
                       "the access begins here; nvcc puts it on the line "
                       "where its address ends, as the GPU's per-line "
                       "counters show it",
                       siteRange);
  else if (elsewhere)
    notes.emplace_back(siteRange.getBegin(),
                       "the struct is copied here; nvcc puts the copy's "
                       "accesses on the struct's line, as the GPU's "
                       "per-line counters show them",
                       siteRange);
  if (site.calls)
    for (auto c = site.calls->rbegin(); c != site.calls->rend(); ++c)
      notes.emplace_back((*c)->getBeginLoc(), "in the call from here",
                         (*c)->getSourceRange());
  const FunctionDecl *k = site.kernel;
  if (k->isTemplateInstantiation())
    notes.emplace_back(
        k->getPointOfInstantiation().isValid() ? k->getPointOfInstantiation()
                                               : k->getLocation(),
        "in kernel instantiation '" + dr.signature + "'", SourceRange());
  for (const auto &[at, msg, range] : notes)
    dr.notes.push_back({pos(at), msg, handleOf(at), handleOf(range)});
  for (const FixEdit &fe : f.fixes)
    if (std::optional<FixItHint> h = fixIt(fe, site.array)) {
      RangeHandle edit{handleOf(h->RemoveRange.getBegin()),
                       handleOf(h->RemoveRange.getEnd()),
                       h->RemoveRange.isCharRange()};
      dr.fixes.push_back({fe.description, pos(h->RemoveRange.getBegin()),
                          pos(h->RemoveRange.getEnd()), h->CodeToInsert, edit});
    }
  return dr;
}

Message Resolver::plain(SourceLocation loc, bool remark,
                        const std::string &message, bool always) {
  Message m;
  m.plain = true;
  m.always = always;
  m.record.severity = remark ? "remark" : "warning";
  m.record.message = message;
  m.record.at = handleOf(loc);
  m.record.pos = pos(loc);
  return m;
}

/// A rule's verified fix as a change of the source text, where the text can
/// be changed (not inside a macro's definition).
std::optional<FixItHint> Resolver::fixIt(const FixEdit &fe,
                                         const VarDecl *array) const {
  if (fe.kind != FixEdit::Kind::InnerExtent || !array)
    return std::nullopt;
  const TypeSourceInfo *tsi = array->getTypeSourceInfo();
  if (!tsi || array->getLocation().isMacroID())
    return std::nullopt;
  ConstantArrayTypeLoc inner;
  for (TypeLoc tl = tsi->getTypeLoc().getUnqualifiedLoc();;) {
    auto a = tl.getAs<ConstantArrayTypeLoc>();
    if (!a)
      break;
    inner = a;
    tl = a.getElementLoc().getUnqualifiedLoc();
  }
  if (!inner || !inner.getSizeExpr())
    return std::nullopt;
  const auto *type = AC.getAsConstantArrayType(inner.getType());
  if (!type)
    return std::nullopt;
  int64_t extent = int64_t(type->getSize().getZExtValue());
  if (fe.value <= extent)
    return std::nullopt;
  const SourceManager &sm = AC.getSourceManager();
  const Expr *size = inner.getSizeExpr();
  CharSourceRange range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(size->getSourceRange()), sm,
      AC.getLangOpts());
  if (range.isInvalid())
    return std::nullopt;
  std::string now =
      Lexer::getSourceText(range, sm, AC.getLangOpts()).trim().str();
  std::string text;
  if (isa<IntegerLiteral>(size->IgnoreParenImpCasts()) &&
      !size->getBeginLoc().isMacroID())
    text = std::to_string(fe.value);
  else if (!now.empty() && llvm::all_of(now, [](char c) {
             return llvm::isAlnum(c) || c == '_';
           }))
    text = now + " + " + std::to_string(fe.value - extent);
  else
    text = "(" + now + ") + " + std::to_string(fe.value - extent);
  return FixItHint::CreateReplacement(range, text);
}

} // namespace warplint
