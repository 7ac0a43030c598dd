// The Clang headers most front-end files include, compiled once per build
// directory as a precompiled header (analyzer/CMakeLists.txt): each of them
// costs about 9 s of parsing per translation unit, half of a file's compile
// time. Not included by name anywhere: every file still includes what it uses.
#pragma once
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/raw_ostream.h"
