// torchtidy: the command line, in the manner of clang-tidy.
#include "driver/Analysis.h"
#include "support/AtomicFile.h"
#include "formats/Baseline.h"
#include "findings/ChangedLines.h"
#include "config/CheckGlob.h"
#include "config/CheckNames.h"
#include "frontend/CompileDb.h"
#include "config/Config.h"
#include "driver/ConfiguredAnalysis.h"
#include "findings/Fingerprint.h"
#include "findings/Fixes.h"
#include "frontend/Isolation.h"
#include "checks/Registry.h"
#include "formats/Report.h"
#include "driver/Shard.h"
#include "cli/SpeedOptions.h"
#include "cli/Subcommands.h"
#include "config/Suppressions.h"
#include "support/Version.h"

#include "clang/Basic/Version.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
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
                                                         "('torch-*,-torch-data-parallel'), "
                                                         "appended to the configuration's"),
                                      cl::cat(Category));
static cl::opt<std::string> ConfigFile("config-file",
                                       cl::desc("Use this configuration file instead of the "
                                                ".torchtidy.yaml of each source's directory"),
                                       cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool> DumpConfig("dump-config",
                                cl::desc("Print the configuration of the first source and exit"),
                                cl::cat(Category));
static cl::opt<std::string> WarningsAsErrors("warnings-as-errors",
                                             cl::desc("Globs of checks whose findings are errors, "
                                                      "appended to the configuration's"),
                                             cl::cat(Category));
static cl::opt<std::string> HeaderFilter("header-filter",
                                         cl::desc("Report findings in headers matching this regex "
                                                  "(overrides HeaderFilterRegex)"),
                                         cl::cat(Category));
static cl::opt<bool> Fix("fix", cl::desc("Apply the fix-its to the files in place"), cl::cat(Category));
static cl::opt<std::string> ExportFixes("export-fixes",
                                        cl::desc("Write the fix-its as YAML for "
                                                 "clang-apply-replacements"),
                                        cl::value_desc("file"), cl::cat(Category));
static cl::opt<std::string> BaselineFile("baseline",
                                         cl::desc("Report only findings not in this SARIF baseline"),
                                         cl::value_desc("sarif file"), cl::cat(Category));
static cl::opt<std::string> WriteBaseline("write-baseline",
                                          cl::desc("Write every finding as a SARIF baseline"),
                                          cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool> VerifyConfig("verify-config",
                                  cl::desc("Check the configuration of the sources (or of the working "
                                           "directory) and the command line, report every problem, "
                                           "and exit: 0 if none, 2 otherwise"),
                                  cl::cat(Category));
static cl::opt<bool> ListChecks("list-checks", cl::desc("List the enabled checks and exit"),
                                cl::cat(Category));
static cl::opt<std::string> Format("format", cl::desc("Report format: text, json, sarif or codeclimate "
                                                     "(GitLab Code Quality)"),
                                   cl::init("text"), cl::cat(Category));
static cl::opt<std::string> SarifCategory("sarif-category",
                                          cl::desc("SARIF automationDetails.id is '<category>/' "
                                                   "(default torchtidy); code scanning keeps one "
                                                   "analysis per category"),
                                          cl::init("torchtidy"), cl::cat(Category));
static cl::opt<std::string> Output("output", cl::desc("Write the report to this file (atomically)"),
                                   cl::value_desc("file"), cl::cat(Category));
static cl::opt<unsigned> Jobs("j", cl::desc("Translation units analysed in parallel (default: cores)"),
                              cl::init(0), cl::Prefix, cl::cat(Category));
static cl::opt<unsigned> Timeout("timeout",
                                 cl::desc("Give up a translation unit after this many seconds "
                                          "(an error for that file; default: no limit)"),
                                 cl::init(0), cl::value_desc("seconds"), cl::cat(Category));
static cl::opt<bool> Quiet("quiet", cl::desc("Print findings and errors only"), cl::cat(Category));
static cl::opt<std::string> ShardOpt("shard",
                                     cl::desc("Analyse only share I of N of the sources, balanced by "
                                              "size, for a CI matrix (merge the reports with "
                                              "'torchtidy merge-sarif')"),
                                     cl::value_desc("I/N"), cl::cat(Category));
static cl::opt<std::string> DiffRev("diff",
                                    cl::desc("Report only findings on lines changed since this git "
                                             "revision (as clang-tidy-diff); with -p and no files, "
                                             "analyse only the changed files"),
                                    cl::value_desc("git rev"), cl::cat(Category));
static cl::opt<std::string> TorchPrefix("torch-prefix",
                                        cl::desc("LibTorch install to use when there is no "
                                                 "compile database and no '--'"),
                                        cl::value_desc("dir"), cl::cat(Category));

static int usageError(const std::string &Message) {
  llvm::errs() << "torchtidy: error: " << Message << "\n";
  return UsageError;
}

// --color=auto|always|never, in place of LLVM's own boolean --color (which
// libLLVM registers): created on first use, after that one is removed.
static cl::opt<std::string> &colorOption() {
  static cl::opt<std::string> &Opt = *[] {
    if (cl::Option *Llvm = cl::getRegisteredOptions().lookup("color"))
      Llvm->removeArgument();
    return new cl::opt<std::string>("color",
                                    cl::desc("Colour the text report: auto (when stdout is a terminal "
                                             "and NO_COLOR is unset), always or never"),
                                    cl::init("auto"), cl::value_desc("when"), cl::cat(Category));
  }();
  return Opt;
}

// As no-color.org asks: NO_COLOR set and not empty turns colour off unless
// the user asks for it explicitly.
static bool useColor() {
  const std::string &ColorOpt = colorOption();
  if (ColorOpt != "auto")
    return ColorOpt == "always";
  const char *NoColor = std::getenv("NO_COLOR");
  return llvm::sys::Process::StandardOutIsDisplayed() && !(NoColor && *NoColor);
}

static void warning(const std::string &Message) {
  llvm::errs() << "torchtidy: warning: " << Message << "\n";
}

// --verify-config, as clang-tidy's: each problem of the command line and of
// the configuration of each source (or of the working directory) is an
// error.
static int verifyConfig(ConfigFinder &Finder, std::vector<std::string> Problems) {
  std::vector<std::string> Sources(Files.begin(), Files.end());
  if (Sources.empty())
    Sources.push_back("-");
  for (const std::string &S : Sources) {
    std::string ConfigError;
    if (!Finder.forFile(makeAbsolute(S), ConfigError))
      Problems.push_back(ConfigError);
  }
  Problems.insert(Problems.end(), Finder.warnings().begin(), Finder.warnings().end());
  std::sort(Problems.begin(), Problems.end());
  Problems.erase(std::unique(Problems.begin(), Problems.end()), Problems.end());
  for (const std::string &P : Problems)
    llvm::errs() << "torchtidy: error: " << P << "\n";
  if (Problems.empty())
    llvm::outs() << "No config errors detected.\n";
  return Problems.empty() ? NoFindings : UsageError;
}

static void listChecks(const std::vector<const RuleInfo *> &Enabled) {
  llvm::outs() << "Enabled checks:\n";
  for (const RuleInfo *R : Enabled)
    llvm::outs() << "    " << R->Id << "  [" << levelName(R->DefaultLevel) << ", precision "
                 << precisionName(R->Confidence) << ", " << llvm::join(R->Tags, ", ") << "]  "
                 << R->Summary << "\n";
}

static int lint(int Argc, const char **Argv) {
  std::string FixedError;
  auto Fixed = clang::tooling::FixedCompilationDatabase::loadFromCommandLine(Argc, Argv, FixedError);
  colorOption();
  cl::HideUnrelatedOptions({&Category, &speedCategory()});
  cl::SetVersionPrinter([](llvm::raw_ostream &OS) {
    OS << "torchtidy " << TORCHTIDY_VERSION << " (Clang " << CLANG_VERSION_STRING << ")\n";
  });
  std::string Overview = "torchtidy: finds slow and fragile LibTorch code.\n\n"
                         "  torchtidy [options] <files...> [-- <compiler flags>]\n" +
                         subcommandsHelp();
  if (!cl::ParseCommandLineOptions(Argc, Argv, Overview, &llvm::errs()))
    return UsageError;
  if (!FixedError.empty())
    return usageError(FixedError);

  ConfigOverrides Overrides;
  Overrides.ConfigFile = ConfigFile;
  if (ChecksOpt.getNumOccurrences())
    Overrides.Checks = ChecksOpt;
  if (WarningsAsErrors.getNumOccurrences())
    Overrides.WarningsAsErrors = WarningsAsErrors;
  if (HeaderFilter.getNumOccurrences())
    Overrides.HeaderFilterRegex = HeaderFilter;
  std::vector<std::string> CheckNameProblems;
  for (const auto &[Flag, Globs] : {std::pair<const char *, std::string>("--checks", ChecksOpt),
                                    {"--warnings-as-errors", WarningsAsErrors}}) {
    std::string GlobError;
    CheckGlob::parse(Globs, GlobError);
    if (!GlobError.empty())
      return usageError(std::string(Flag) + ": " + GlobError);
    for (const std::string &W : globsMatchingNoCheck(Globs))
      CheckNameProblems.push_back(std::string(Flag) + ": " + W);
  }
  std::string RegexError;
  if (Overrides.HeaderFilterRegex && !llvm::Regex(HeaderFilter).isValid(RegexError))
    return usageError("--header-filter='" + HeaderFilter + "': invalid regex: " + RegexError);
  ConfigFinder Finder(Overrides);
  if (VerifyConfig)
    return verifyConfig(Finder, CheckNameProblems);
  for (const std::string &P : CheckNameProblems)
    warning(P);
  if (ListChecks || DumpConfig) {
    // As clang-tidy: the configuration of the first source (or of the
    // working directory).
    std::string ConfigError;
    auto C = Finder.forFile(makeAbsolute(Files.empty() ? "-" : Files.front()), ConfigError);
    for (const std::string &W : Finder.warnings())
      warning(W);
    if (!C)
      return usageError(ConfigError);
    if (DumpConfig)
      llvm::outs() << dumpConfig(*C);
    else
      listChecks(C->enabledChecks());
    return NoFindings;
  }
  const std::string &ColorOpt = colorOption();
  if (ColorOpt != "auto" && ColorOpt != "always" && ColorOpt != "never")
    return usageError("--color=" + ColorOpt + ": expected auto, always or never");
  if (Format != "text" && Format != "json" && Format != "sarif" && Format != "codeclimate")
    return usageError("--format=" + Format + ": expected text, json, sarif or codeclimate");
  std::optional<ShardSpec> Shard;
  if (!ShardOpt.empty()) {
    std::string ShardError;
    if (!(Shard = parseShard(ShardOpt, ShardError)))
      return usageError(ShardError);
  }
  std::optional<ChangedLines> Changed;
  if (!DiffRev.empty()) {
    std::string DiffError;
    if (!(Changed = ChangedLines::since(DiffRev, DiffError)))
      return usageError(DiffError);
  }
  std::optional<Baseline> Known;
  if (!BaselineFile.empty()) {
    std::string BaselineError;
    if (!(Known = Baseline::load(BaselineFile, BaselineError)))
      return usageError(BaselineError);
  }

  std::vector<std::string> Sources(Files.begin(), Files.end());
  std::string Described, DBError;
  auto DB = loadDatabase(Sources, std::move(Fixed), BuildPath, TorchPrefix, Described, DBError);
  if (!DB)
    return usageError(DBError);
  if (Sources.empty()) {
    if (BuildPath.empty())
      return usageError("no input files (give files, or -p <build dir> to analyse all of its)");
    Sources = DB->getAllFiles();
    if (Sources.empty())
      return usageError("-p " + BuildPath + ": compile_commands.json lists no files");
    if (Changed)
      llvm::erase_if(Sources, [&](const std::string &S) { return !Changed->fileChanged(makeAbsolute(S)); });
  }
  for (std::string &S : Sources)
    S = makeAbsolute(S);
  if (Shard)
    Sources = shardOf(Sources, *Shard);
  if (!Quiet)
    llvm::errs() << "torchtidy: compile commands: " << Described << "\n";

  AnalysisOptions Opts;
  Opts.Jobs = Jobs ? Jobs : std::max(1u, std::thread::hardware_concurrency());
  Opts.TimeoutSeconds = Timeout;
  SpeedSetup Speed;
  if (std::string SpeedError = Speed.apply(Opts, Quiet); !SpeedError.empty())
    return usageError(SpeedError);
  if (std::string RemoteError = Speed.useRemote(Finder, *DB, Sources); !RemoteError.empty())
    return usageError(RemoteError);
  ConfiguredRun Run = analyseConfigured(*DB, Sources, Finder, Opts, !Quiet);
  Speed.analysed(llvm::errs());
  std::vector<TUResult> &Results = Run.Results;
  const std::vector<const RuleInfo *> &Enabled = Run.Rules;
  for (const std::string &W : Finder.warnings())
    warning(W);
  for (const std::string &E : Run.ConfigErrors)
    llvm::errs() << "torchtidy: error: " << E << "\n";

  std::vector<Finding> Findings;
  std::vector<std::string> Analysed;
  bool InputProblem = false;
  for (TUResult &R : Results) {
    for (const std::string &E : R.Errors)
      llvm::errs() << printable(E) << "\n";
    if (!R.Failure.empty())
      llvm::errs() << "torchtidy: error: " << printable(R.File) << ": " << R.Failure << "\n";
    else if (!R.Errors.empty())
      llvm::errs() << "torchtidy: error: " << printable(R.File) << ": " << R.Errors.size()
                   << " compile error(s); findings for this file are partial\n";
    InputProblem |= !R.analysedFully();
    if (R.Failure.empty()) // never reopen a file that could not be read or parsed
      Analysed.push_back(R.File);
    std::move(R.Findings.begin(), R.Findings.end(), std::back_inserter(Findings));
  }
  sortAndDeduplicate(Findings);
  assignFingerprints(Findings);
  if (Changed)
    llvm::erase_if(Findings, [&](const Finding &F) { return !Changed->lineChanged(F.Pos.File, F.Pos.Line); });

  std::vector<std::string> LaterErrors; // NOLINT comments and fixes
  applySuppressions(Findings, Analysed, LaterErrors);
  bool OutputProblem = false;
  auto writeOut = [&](const std::string &Path, const std::string &Text) {
    std::string WriteError;
    if (!writeFileAtomically(Path, Text, WriteError)) {
      llvm::errs() << "torchtidy: error: " << WriteError << "\n";
      OutputProblem = true;
    }
  };
  if (!WriteBaseline.empty())
    writeOut(WriteBaseline, toSarif(Findings, Enabled));
  size_t InBaseline = Known ? Known->filter(Findings) : 0;
  // What is reported; SARIF also keeps the suppressed, marked as such.
  std::vector<Finding> Reported;
  std::copy_if(Findings.begin(), Findings.end(), std::back_inserter(Reported),
               [](const Finding &F) { return !F.Suppressed; });
  if (!ExportFixes.empty()) {
    std::string ExportError;
    if (!exportFixes(Reported, Sources.empty() ? "" : Sources.front(), ExportFixes, ExportError)) {
      llvm::errs() << "torchtidy: error: " << ExportError << "\n";
      OutputProblem = true;
    }
  }
  if (Fix)
    applyFixes(Reported, LaterErrors, Quiet ? nullptr : &llvm::errs());
  for (const std::string &E : LaterErrors)
    llvm::errs() << E << "\n";
  InputProblem |= !LaterErrors.empty();

  bool Color = useColor();
  std::string Report = Format == "json"    ? toJson(Reported, Results)
                       : Format == "sarif" ? toSarif(Findings, Enabled, {SarifCategory, &Results})
                       : Format == "codeclimate" ? toCodeClimate(Reported)
                                                 : std::string();
  if (Format == "text" && !Output.empty()) {
    llvm::raw_string_ostream OS(Report);
    printText(OS, Reported, false);
  }
  if (!Output.empty())
    writeOut(Output, Report);
  if (Format == "text" || !Output.empty())
    printText(llvm::outs(), Reported, Color);
  else
    llvm::outs() << Report;
  if (!Quiet) {
    llvm::errs() << Reported.size() << " warning(s) in " << Analysed.size() << " file(s)";
    size_t Suppressed = Findings.size() - Reported.size();
    if (Suppressed || InBaseline || Run.Excluded)
      llvm::errs() << " (" << Suppressed << " suppressed by NOLINT, " << InBaseline
                   << " in the baseline, " << Run.Excluded << " file(s) excluded)";
    llvm::errs() << "\n";
  }
  llvm::outs().flush();
  Speed.finish(llvm::errs());
  if (!Run.ConfigErrors.empty() || OutputProblem)
    return UsageError;
  if (InputProblem)
    return InputError;
  return Reported.empty() ? NoFindings : HasFindings;
}

int main(int Argc, const char **Argv) {
  if (Argc > 1)
    if (const Subcommand *S = findSubcommand(Argv[1]))
      return S->Run(Argc - 1, Argv + 1, Argv[0]);
  enableCrashRecovery();
  int Status = lint(Argc, Argv);
  if (workWasAbandoned())
    exitWithoutTeardown(Status);
  return Status;
}
