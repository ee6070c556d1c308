// torchtidy: the command line, in the manner of clang-tidy.
#include "Analysis.h"
#include "AtomicFile.h"
#include "CheckGlob.h"
#include "CompileDb.h"
#include "Registry.h"
#include "Report.h"
#include "SpeedOptions.h"
#include "Subcommands.h"
#include "Version.h"

#include "clang/Basic/Version.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <thread>

using namespace torchtidy;
namespace cl = llvm::cl;

// Exit statuses, documented in README.md.
enum ExitStatus { NoFindings = 0, HasFindings = 1, UsageError = 2, InputError = 3 };

static cl::OptionCategory Category("torchtidy options");
static cl::list<std::string> Files(cl::Positional, cl::desc("<source files>"), cl::cat(Category));
static cl::opt<std::string> BuildPath("p", cl::desc("Build directory holding compile_commands.json"),
                                      cl::value_desc("build dir"), cl::cat(Category));
static cl::opt<std::string> ChecksOpt("checks", cl::desc("Comma-separated globs of checks to run "
                                                         "('torch-*,-torch-data-parallel')"),
                                      cl::init("torch-*"), cl::cat(Category));
static cl::opt<bool> ListChecks("list-checks", cl::desc("List the enabled checks and exit"),
                                cl::cat(Category));
static cl::opt<std::string> Format("format", cl::desc("Report format: text, json or sarif"),
                                   cl::init("text"), cl::cat(Category));
static cl::opt<std::string> Output("output", cl::desc("Write the report to this file (atomically)"),
                                   cl::value_desc("file"), cl::cat(Category));
static cl::opt<unsigned> Jobs("j", cl::desc("Translation units analysed in parallel (default: cores)"),
                              cl::init(0), cl::cat(Category));
static cl::opt<bool> Quiet("quiet", cl::desc("Print findings and errors only"), cl::cat(Category));
static cl::opt<std::string> TorchPrefix("torch-prefix",
                                        cl::desc("LibTorch install to use when there is no "
                                                 "compile database and no '--'"),
                                        cl::value_desc("dir"), cl::cat(Category));

static int usageError(const std::string &Message) {
  llvm::errs() << "torchtidy: error: " << Message << "\n";
  return UsageError;
}

static void listChecks(const std::vector<const RuleInfo *> &Enabled) {
  llvm::outs() << "Enabled checks:\n";
  for (const RuleInfo *R : Enabled)
    llvm::outs() << "    " << R->Id << "  [" << levelName(R->DefaultLevel) << ", precision "
                 << precisionName(R->Confidence) << ", " << llvm::join(R->Tags, ", ") << "]  "
                 << R->Summary << "\n";
}

// Compile commands: flags after "--", -p, a compile_commands.json found
// near the sources, or LibTorch's include paths; Described says which.
static std::unique_ptr<clang::tooling::CompilationDatabase>
loadDatabase(const std::vector<std::string> &Sources,
             std::unique_ptr<clang::tooling::FixedCompilationDatabase> Fixed, std::string &Described,
             std::string &Error) {
  using namespace clang::tooling;
  if (Fixed) {
    Described = "compiler flags after '--'";
    return Fixed;
  }
  std::string Json;
  if (!BuildPath.empty()) {
    llvm::SmallString<256> P(BuildPath);
    if (!llvm::sys::fs::is_directory(P) && llvm::sys::path::filename(P) == "compile_commands.json")
      Json = P.str().str();
    else {
      llvm::sys::path::append(P, "compile_commands.json");
      Json = P.str().str();
    }
    if (!llvm::sys::fs::exists(Json)) {
      Error = "-p " + BuildPath + ": no compile_commands.json there (configure with "
              "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON)";
      return nullptr;
    }
  } else if (!Sources.empty()) {
    Json = findCompileCommands(llvm::sys::path::parent_path(makeAbsolute(Sources.front())));
  } else {
    Json = findCompileCommands(".");
  }
  if (!Json.empty()) {
    std::string LoadError;
    auto DB = JSONCompilationDatabase::loadFromFile(Json, LoadError, JSONCommandLineSyntax::AutoDetect);
    if (!DB) {
      Error = Json + ": " + LoadError;
      return nullptr;
    }
    Described = Json;
    // Headers and new files get the command of their nearest neighbour.
    return inferMissingCompileCommands(std::move(DB));
  }
  std::string TorchError;
  std::optional<TorchInstall> Torch = findTorch(TorchPrefix, TorchError);
  if (!Torch) {
    Error = TorchError;
    return nullptr;
  }
  std::vector<std::string> Flags = {"-std=c++17"};
  for (const std::string &Dir : Torch->IncludeDirs)
    Flags.insert(Flags.end(), {"-isystem", Dir});
  Described = "no compile database; LibTorch " +
              (Torch->ConfigFile.empty() ? "at " + Torch->Prefix
                                         : "from " + Torch->ConfigFile) +
              ": " + llvm::join(Flags, " ");
  return std::make_unique<FixedCompilationDatabase>(".", Flags);
}

static int lint(int Argc, const char **Argv) {
  std::string FixedError;
  auto Fixed = clang::tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv, FixedError);
  cl::HideUnrelatedOptions({&Category, &speedCategory()});
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "torchtidy " << TORCHTIDY_VERSION << " (Clang " << CLANG_VERSION_STRING << ")\n";
  });
  if (!cl::ParseCommandLineOptions(
          Argc, Argv,
          "torchtidy: finds slow and fragile LibTorch code.\n\n"
          "  torchtidy [options] <files...> [-- <compiler flags>]\n"
          "  torchtidy doctor [--json]     check the CUDA / LibTorch machine\n",
          &llvm::errs()))
    return UsageError;
  if (!FixedError.empty())
    return usageError(FixedError);

  std::string GlobError;
  CheckGlob Glob = CheckGlob::parse(ChecksOpt, GlobError);
  if (!GlobError.empty())
    return usageError("--checks: " + GlobError);
  std::vector<const RuleInfo *> Enabled;
  for (const CheckFactory &F : allChecks())
    if (Glob.enabled(F.Info->Id))
      Enabled.push_back(F.Info);
  if (ListChecks) {
    listChecks(Enabled);
    return NoFindings;
  }
  if (Enabled.empty())
    return usageError("--checks='" + ChecksOpt + "' enables no check (see --list-checks)");
  if (Format != "text" && Format != "json" && Format != "sarif")
    return usageError("--format=" + Format + ": expected text, json or sarif");

  std::vector<std::string> Sources(Files.begin(), Files.end());
  std::string Described, DBError;
  auto DB = loadDatabase(Sources, std::move(Fixed), Described, DBError);
  if (!DB)
    return usageError(DBError);
  if (Sources.empty()) {
    if (BuildPath.empty())
      return usageError("no input files (give files, or -p <build dir> to analyse all of its)");
    Sources = DB->getAllFiles();
  }
  for (std::string &S : Sources)
    S = makeAbsolute(S);
  if (!Quiet)
    llvm::errs() << "torchtidy: compile commands: " << Described << "\n";

  AnalysisOptions Opts;
  Opts.Checks = Enabled;
  Opts.Jobs = Jobs ? Jobs : std::max(1u, std::thread::hardware_concurrency());
  SpeedSetup Speed;
  Speed.apply(Opts, Quiet);
  std::vector<TUResult> Results = analyse(*DB, Sources, Opts);
  Speed.analysed(llvm::errs());

  std::vector<Finding> Findings;
  bool InputProblem = false;
  for (TUResult &R : Results) {
    for (const std::string &E : R.Errors)
      llvm::errs() << E << "\n";
    if (!R.Failure.empty())
      llvm::errs() << "torchtidy: error: " << R.File << ": " << R.Failure << "\n";
    else if (!R.Errors.empty())
      llvm::errs() << "torchtidy: error: " << R.File << ": " << R.Errors.size()
                   << " compile error(s); findings for this file are partial\n";
    InputProblem |= !R.analysedFully();
    std::move(R.Findings.begin(), R.Findings.end(), std::back_inserter(Findings));
  }
  sortAndDeduplicate(Findings);

  bool Color = llvm::sys::Process::StandardOutIsDisplayed();
  std::string Report = Format == "json"    ? toJson(Findings, Results)
                       : Format == "sarif" ? toSarif(Findings, Enabled)
                                           : std::string();
  if (Format == "text" && !Output.empty()) {
    llvm::raw_string_ostream OS(Report);
    printText(OS, Findings, false);
  }
  if (!Output.empty()) {
    std::string WriteError;
    if (!writeFileAtomically(Output, Report, WriteError))
      return usageError(WriteError);
  }
  if (Format == "text" || !Output.empty())
    printText(llvm::outs(), Findings, Color);
  else
    llvm::outs() << Report;
  if (!Quiet)
    llvm::errs() << Findings.size() << " warning(s) in " << Sources.size() << " file(s)\n";
  llvm::outs().flush();
  Speed.finish(llvm::errs());
  if (InputProblem)
    return InputError;
  return Findings.empty() ? NoFindings : HasFindings;
}

int main(int Argc, const char **Argv) {
  if (Argc > 1)
    if (const Subcommand *S = findSubcommand(Argv[1]))
      return S->Run(Argc - 1, Argv + 1, Argv[0]);
  return lint(Argc, Argv);
}
