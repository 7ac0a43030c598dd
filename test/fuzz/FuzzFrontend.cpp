//===- FuzzFrontend.cpp - the whole front end on one .cu file -------------===//
//
// The input is the text of a .cu file. It is parsed in memory for the device
// with the command warplint gives a file that has no compile database entry
// (deviceParseCommand of `clang++ -std=c++17`, bundled header, no toolkit:
// the run does not depend on /usr/local/cuda and stays fast), and every
// kernel is analyzed by the consumer warplint's own action installs
// (makeAnalysis), with remarks and one --explain line on so that those paths
// run too; the report is then written as JSON. As warplint does, the parse
// and analysis run on a thread with a 64 MiB stack, missing headers are
// errors rather than fatal, and there is no error limit.
//
// Compiler errors in the input are expected and ignored; a crash, a
// sanitizer report or a hang (libFuzzer's -timeout) is a bug.
//
//===----------------------------------------------------------------------===//
#include "frontend/analysis/Analysis.h"
#include "frontend/project/CommandLine.h"
#include "report/Report.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <cstdlib>
#include <string>
#include <vector>

using namespace clang;

namespace {

const char *const FileName = "/fuzz/input.cu";

class FuzzAction : public ASTFrontendAction {
public:
  FuzzAction(const warplint::ToolOptions &o, warplint::Report &r,
             warplint::RunState &run)
      : Opts(o), Rep(r), Run(run) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &ci,
                                                 StringRef) override {
    // As warplint's own action (frontend/analysis/Action.cpp) sets them.
    ci.getDiagnostics().setFatalsAsError(true);
    ci.getDiagnostics().setErrorLimit(0);
    return warplint::makeAnalysis(ci, Opts, Rep, Run);
  }

private:
  const warplint::ToolOptions &Opts;
  warplint::Report &Rep;
  warplint::RunState &Run;
};

std::vector<std::string> &parseArgs() {
  static std::vector<std::string> args = [] {
    warplint::CudaSetup setup;
    setup.resourceDir = WARPLINT_RESOURCE_DIR;
    setup.stubDir = WARPLINT_STUB_DIR;
    std::vector<std::string> cmd = warplint::deviceParseCommand(
        {"clang++", "-std=c++17"}, setup, "/fuzz");
    return cmd; // the file is appended per input

  }();
  return args;
}

void analyze(const std::string &code) {
  warplint::ToolOptions opts;
  opts.files = {FileName};
  opts.remarks = true;
  opts.textDiagnostics = true;
  // One line's accesses and branches drawn (--explain), picked from the
  // input so that different inputs draw different lines.
  size_t lines = 1 + std::count(code.begin(), code.end(), '\n');
  opts.explainFile = FileName;
  opts.explainLine = unsigned(1 + std::hash<std::string>()(code) % lines);

  warplint::Report report;
  warplint::RunState run;
  DiagnosticOptions diagOpts;
  TextDiagnosticPrinter printer(llvm::nulls(), diagOpts);
  // The findings' diagnostics go through the printer (formatted, with their
  // notes) like warplint's own; only warplint's diagnostic ids are its own.
  struct Consumer : DiagnosticConsumer {
    TextDiagnosticPrinter &P;
    explicit Consumer(TextDiagnosticPrinter &p) : P(p) {}
    void BeginSourceFile(const LangOptions &lo, const Preprocessor *pp) override {
      P.BeginSourceFile(lo, pp);
    }
    void EndSourceFile() override { P.EndSourceFile(); }
    void HandleDiagnostic(DiagnosticsEngine::Level level,
                          const Diagnostic &info) override {
      DiagnosticConsumer::HandleDiagnostic(level, info);
      P.HandleDiagnostic(level, info);
    }
  } consumer(printer);

  // The file in memory, over the real file system (the bundled headers).
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  overlay->pushOverlay(memory);
  memory->addFile(FileName, 0, llvm::MemoryBuffer::getMemBufferCopy(code));
  auto files =
      llvm::makeIntrusiveRefCnt<FileManager>(FileSystemOptions(), overlay);
  std::vector<std::string> argv = parseArgs();
  argv.push_back(FileName);
  tooling::ToolInvocation invocation(
      argv, std::make_unique<FuzzAction>(opts, report, run), files.get(),
      std::make_shared<PCHContainerOperations>());
  invocation.setDiagnosticConsumer(&consumer);
  invocation.run();
  warplint::FileRecord fr;
  fr.path = FileName;
  report.files.push_back(fr);
  if (getenv("WARPLINT_FUZZ_VERBOSE"))
    fprintf(stderr, "%zu kernels, %zu accesses, %zu branches, %zu findings\n",
            report.kernels.size(), report.accesses.size(),
            report.branches.size(), report.diagnostics.size());
  std::string json = warplint::toJson(report);
  if (json.empty() || json[0] != '{')
    abort(); // the writer always produces a JSON object
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // --explain draws on stdout: out of the way of libFuzzer's own output.
  int null = open("/dev/null", O_WRONLY);
  if (null >= 0)
    dup2(null, STDOUT_FILENO);
  parseArgs();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string code(reinterpret_cast<const char *>(data), size);
  // warplint refuses a file with a NUL in its first 64 KiB before parsing
  // (frontend/analysis/Action.cpp, precheck): such input never reaches the parser.
  if (code.find('\0') != std::string::npos)
    return -1;
  // warplint parses and analyzes each file on a thread with a 64 MiB stack.
  llvm::thread t(std::optional<unsigned>(64u << 20), [&] { analyze(code); });
  t.join();
  return 0;
}
