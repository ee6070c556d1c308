#include "config/Config.h"
#include "config/CheckNames.h"

#include "checks/Registry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

namespace torchtidy {
namespace {

const char *const ConfigName = ".torchtidy.yaml";
const char *const Keys = "Checks, CheckOptions, WarningsAsErrors, HeaderFilterRegex, ExcludePaths, "
                         "RemoteCache, CacheBaseDir, RemoteCacheTimeout";

// '*' and '?' stay within one path component, '**' crosses them, as in
// .gitignore; Error says why a glob is malformed.
std::string pathGlobToRegex(llvm::StringRef Glob, std::string &Error) {
  std::string Re = "^";
  for (size_t I = 0; I < Glob.size(); ++I) {
    char C = Glob[I];
    if (Glob.substr(I).starts_with("**/")) {
      Re += "(.*/)?";
      I += 2;
    } else if (Glob.substr(I).starts_with("**")) {
      Re += ".*";
      ++I;
    } else if (C == '*') {
      Re += "[^/]*";
    } else if (C == '?') {
      Re += "[^/]";
    } else if (C == '[') {
      size_t Close = Glob.find(']', I + 2); // "[]...]" holds a ']'
      if (Close == llvm::StringRef::npos) {
        Error = "unterminated '[' in path glob '" + Glob.str() + "'";
        return "";
      }
      llvm::StringRef Class = Glob.slice(I + 1, Close);
      Re += "[" + (Class.starts_with("!") ? "^" + Class.drop_front().str() : Class.str()) + "]";
      I = Close;
    } else {
      Re += llvm::Regex::escape(std::string(1, C));
    }
  }
  return Re + "$";
}

// Check lists are appended to what they override, as clang-tidy does; the
// last glob that matches a check decides.
void appendGlobs(std::string &To, llvm::StringRef More) {
  To = To.empty() ? More.str() : To + "," + More.str();
}

std::shared_ptr<llvm::Regex> compileRegex(const std::string &Re, std::string &Error) {
  auto R = std::make_shared<llvm::Regex>(Re);
  std::string Why;
  if (!R->isValid(Why)) {
    Error = Why;
    return nullptr;
  }
  return R;
}

class Parser {
public:
  Parser(llvm::StringRef File, llvm::StringRef Text, Config &C)
      : File(File), C(C), KeyStart(llvm::SMLoc::getFromPointer(Text.begin())) {
    SM.setDiagHandler(
        [](const llvm::SMDiagnostic &D, void *Self) {
          auto *P = static_cast<Parser *>(Self);
          if (P->Error.empty())
            P->Error = P->File.str() + ":" + std::to_string(D.getLineNo()) + ":" +
                       std::to_string(D.getColumnNo() + 1) + ": " + D.getMessage().str();
        },
        this);
    Stream = std::make_unique<llvm::yaml::Stream>(llvm::MemoryBufferRef(Text, File), SM);
  }

  bool run(std::string &Out) {
    for (llvm::yaml::Document &Doc : *Stream) {
      llvm::yaml::Node *Root = Doc.getRoot();
      if (llvm::isa_and_nonnull<llvm::yaml::NullNode>(Root))
        continue;
      auto *Map = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(Root);
      if (!Map) {
        fail(Root, "expected a mapping of keys (" + std::string(Keys) + ")");
        break;
      }
      for (llvm::yaml::KeyValueNode &KV : *Map)
        if (!Error.empty() || !entry(KV))
          break;
      if (!Error.empty())
        break;
    }
    Out = Error;
    return Error.empty();
  }

private:
  // Where N starts; for a node the YAML parser left out without an error
  // (the root of "%", the value of "Checks:\n%"), where the last key does.
  llvm::SMLoc start(llvm::yaml::Node *N) const {
    llvm::SMLoc Loc = N ? N->getSourceRange().Start : llvm::SMLoc();
    return SM.FindBufferContainingLoc(Loc) ? Loc : KeyStart;
  }

  // "<file>:<line>:<col>: " of N.
  std::string where(llvm::yaml::Node *N) const {
    auto LC = SM.getLineAndColumn(start(N));
    return File.str() + ":" + std::to_string(LC.first) + ":" + std::to_string(LC.second) + ": ";
  }

  bool fail(llvm::yaml::Node *N, const std::string &Message) {
    if (Error.empty())
      Error = where(N) + Message;
    return false;
  }

  bool scalar(llvm::yaml::Node *N, const std::string &Key, std::string &Out) {
    llvm::SmallString<64> Storage;
    if (auto *S = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(N))
      Out = S->getValue(Storage).str();
    else if (auto *B = llvm::dyn_cast_or_null<llvm::yaml::BlockScalarNode>(N))
      Out = B->getValue().str();
    else
      return fail(N, Key + ": expected a string");
    return Error.empty();
  }

  // A comma-separated string or a list of strings, as a comma list.
  bool list(llvm::yaml::Node *N, const std::string &Key, std::string &Out) {
    auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(N);
    if (!Seq)
      return scalar(N, Key, Out);
    std::vector<std::string> Items;
    for (llvm::yaml::Node &Item : *Seq) {
      Items.emplace_back();
      if (!scalar(&Item, Key, Items.back()))
        return false;
    }
    Out = llvm::join(Items, ",");
    return true;
  }

  bool checkGlob(llvm::yaml::Node *N, const std::string &Key, std::string &Out) {
    std::string Value, GlobError;
    if (!list(N, Key, Value))
      return false;
    CheckGlob::parse(Value, GlobError);
    if (!GlobError.empty())
      return fail(N, Key + ": " + GlobError);
    for (const std::string &W : globsMatchingNoCheck(Value))
      C.Warnings.push_back(where(N) + Key + ": " + W);
    appendGlobs(Out, Value);
    return true;
  }

  bool option(llvm::yaml::Node *KeyNode, llvm::yaml::Node *ValueNode) {
    std::string Key, Value;
    if (!scalar(KeyNode, "CheckOptions key", Key) || !scalar(ValueNode, "CheckOptions." + Key, Value))
      return false;
    std::string Why = checkOptionError(Key);
    if (!Why.empty())
      return fail(KeyNode, "CheckOptions: " + Why);
    C.Options[Key] = Value;
    return true;
  }

  // A map of "<check>.<Option>": value, or clang-tidy's older list of
  // {key: ..., value: ...}.
  bool checkOptions(llvm::yaml::Node *N) {
    if (auto *Map = llvm::dyn_cast_or_null<llvm::yaml::MappingNode>(N)) {
      for (llvm::yaml::KeyValueNode &KV : *Map)
        if (!option(KV.getKey(), KV.getValue()))
          return false;
      return true;
    }
    auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(N);
    if (!Seq)
      return fail(N, "CheckOptions: expected a mapping or a list of {key, value}");
    for (llvm::yaml::Node &Item : *Seq) {
      auto *Pair = llvm::dyn_cast<llvm::yaml::MappingNode>(&Item);
      if (!Pair)
        return fail(&Item, "CheckOptions: expected {key: <check>.<Option>, value: ...}");
      llvm::yaml::Node *K = nullptr, *V = nullptr;
      for (llvm::yaml::KeyValueNode &KV : *Pair) {
        std::string Name;
        if (!scalar(KV.getKey(), "CheckOptions", Name))
          return false;
        if (Name == "key")
          K = KV.getValue();
        else if (Name == "value")
          V = KV.getValue();
        else
          return fail(KV.getKey(), "CheckOptions: unknown key '" + Name + "' (expected key, value)");
      }
      if (!K || !V)
        return fail(&Item, "CheckOptions: an entry needs both 'key' and 'value'");
      if (!option(K, V))
        return false;
    }
    return true;
  }

  bool entry(llvm::yaml::KeyValueNode &KV) {
    KeyStart = start(KV.getKey());
    std::string Key;
    if (!scalar(KV.getKey(), "key", Key))
      return false;
    llvm::yaml::Node *V = KV.getValue();
    if (Key == "Checks")
      return checkGlob(V, Key, C.Checks);
    if (Key == "WarningsAsErrors")
      return checkGlob(V, Key, C.WarningsAsErrors);
    if (Key == "CheckOptions")
      return checkOptions(V);
    if (Key == "HeaderFilterRegex") {
      std::string Re, Why;
      if (!scalar(V, Key, Re))
        return false;
      if (!compileRegex(Re, Why))
        return fail(V, Key + ": invalid regex '" + Re + "': " + Why);
      C.HeaderFilterRegex = Re;
      return true;
    }
    if (Key == "ExcludePaths") {
      auto *Seq = llvm::dyn_cast_or_null<llvm::yaml::SequenceNode>(V);
      std::vector<llvm::yaml::Node *> Items;
      if (Seq)
        for (llvm::yaml::Node &Item : *Seq)
          Items.push_back(&Item);
      else
        Items.push_back(V);
      C.ExcludePaths.clear();
      for (llvm::yaml::Node *Item : Items) {
        std::string Glob, Why;
        if (!scalar(Item, Key, Glob))
          return false;
        std::string Re = pathGlobToRegex(Glob, Why);
        if (Why.empty() && !compileRegex(Re, Why)) // a class that is no regex's: "[z-a]"
          Why = "invalid path glob '" + Glob + "': " + Why;
        if (!Why.empty())
          return fail(Item, Key + ": " + Why);
        C.ExcludePaths.push_back(Glob);
      }
      return true;
    }
    if (isRemoteSettingKey(Key)) {
      std::string Value;
      if (!scalar(V, Key, Value))
        return false;
      std::string Why = setRemoteSetting(C.Remote, Key, Value, C.Dir);
      return Why.empty() || fail(V, Key + ": " + Why);
    }
    return fail(KV.getKey(), "unknown key '" + Key + "' (expected " + Keys + ")");
  }

  llvm::StringRef File;
  Config &C;
  llvm::SourceMgr SM;
  std::unique_ptr<llvm::yaml::Stream> Stream;
  std::string Error;
  llvm::SMLoc KeyStart; // of the entry being read; at first, of the text
};

} // namespace

std::optional<Config> parseConfig(llvm::StringRef File, llvm::StringRef Text, Config Base,
                                  std::string &Error) {
  Base.File = File.str();
  Base.Dir = llvm::sys::path::parent_path(File).str();
  Parser P(File, Text, Base);
  if (!P.run(Error))
    return std::nullopt;
  return Base;
}

bool finishConfig(Config &C, std::string &Error) {
  C.ChecksGlob = CheckGlob::parse(C.Checks, Error);
  if (Error.empty())
    C.ErrorsGlob = CheckGlob::parse(C.WarningsAsErrors, Error);
  if (!Error.empty())
    return false;
  if (C.HeaderFilterRegex) {
    C.HeaderFilter = compileRegex(*C.HeaderFilterRegex, Error);
    if (!C.HeaderFilter) {
      Error = "invalid header filter regex '" + *C.HeaderFilterRegex + "': " + Error;
      return false;
    }
  }
  C.Exclude.clear();
  for (const std::string &Glob : C.ExcludePaths) {
    std::string Re = pathGlobToRegex(Glob, Error);
    if (!Error.empty())
      return false;
    C.Exclude.push_back(compileRegex(Re, Error));
    if (!C.Exclude.back())
      return false;
  }
  return true;
}

std::vector<const RuleInfo *> Config::enabledChecks() const {
  std::vector<const RuleInfo *> Out;
  for (const CheckFactory &F : allChecks())
    if (ChecksGlob.enabled(F.Info->Id))
      Out.push_back(F.Info);
  return Out;
}

bool Config::excluded(llvm::StringRef Path) const {
  if (Exclude.empty())
    return false;
  llvm::SmallString<256> Rel(Path);
  if (!Dir.empty() && !llvm::sys::path::replace_path_prefix(Rel, Dir + "/", ""))
    return false; // outside the configuration's tree
  return llvm::any_of(Exclude, [&](const auto &Re) { return Re->match(Rel); });
}

const ConfigFinder::Entry &ConfigFinder::load(const std::string &File) {
  auto It = Files.find(File);
  if (It != Files.end())
    return It->second;
  Entry E;
  Config Defaults;
  std::optional<Config> C;
  if (File.empty())
    C = Defaults;
  else if (auto Buffer = llvm::MemoryBuffer::getFile(File, /*IsText=*/true))
    C = parseConfig(File, (*Buffer)->getBuffer(), Defaults, E.Error);
  else
    E.Error = File + ": cannot read it: " + Buffer.getError().message();
  if (C) {
    Warnings.insert(Warnings.end(), C->Warnings.begin(), C->Warnings.end());
    if (Overrides.Checks)
      appendGlobs(C->Checks, *Overrides.Checks);
    if (Overrides.WarningsAsErrors)
      appendGlobs(C->WarningsAsErrors, *Overrides.WarningsAsErrors);
    if (Overrides.HeaderFilterRegex)
      C->HeaderFilterRegex = Overrides.HeaderFilterRegex;
    if (finishConfig(*C, E.Error))
      E.C = std::make_shared<const Config>(std::move(*C));
    else
      E.Error = "command line: " + E.Error;
  }
  return Files.try_emplace(File, std::move(E)).first->second;
}

const ConfigFinder::Entry &ConfigFinder::forDirectory(llvm::StringRef Dir) {
  auto It = Dirs.find(Dir);
  if (It != Dirs.end())
    return It->second;
  llvm::SmallString<256> Candidate(Dir);
  llvm::sys::path::append(Candidate, ConfigName);
  llvm::StringRef Parent = llvm::sys::path::parent_path(Dir);
  Entry E;
  if (llvm::sys::fs::exists(Candidate))
    E = load(Candidate.str().str());
  else if (!Parent.empty() && Parent != Dir)
    E = forDirectory(Parent);
  else
    E = load(""); // the defaults: no file
  return Dirs.try_emplace(Dir, std::move(E)).first->second;
}

std::shared_ptr<const Config> ConfigFinder::forFile(llvm::StringRef Source, std::string &Error) {
  const Entry &E = !Overrides.ConfigFile.empty()
                       ? load(Overrides.ConfigFile)
                       : forDirectory(llvm::sys::path::parent_path(Source));
  Error = E.Error;
  return E.C;
}

void applyConfig(const Config &C, TUResult &R) {
  llvm::erase_if(R.Findings, [&](const Finding &F) {
    bool InHeader = F.Pos.File != R.File;
    return C.excluded(F.Pos.File) || (InHeader && C.HeaderFilter && !C.HeaderFilter->match(F.Pos.File));
  });
  for (Finding &F : R.Findings)
    if (C.ErrorsGlob.enabled(F.Rule->Id))
      F.Severity = Level::Error;
}

} // namespace torchtidy
