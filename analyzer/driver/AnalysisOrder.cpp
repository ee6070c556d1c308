#include "driver/AnalysisOrder.h"

#include "frontend/CompileDb.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <functional>

namespace torchtidy {
namespace {

struct Scanned {
  std::vector<std::string> IncludedStems; // through the project's headers too
  std::vector<std::string> DirectStems;   // in the file itself
  bool DefinesMain = false;
};

// Only a look at the text: the order is a guess that saves parses, and a
// wrong guess costs a second parse, never a finding. The project's headers
// it includes are read too (nerf.cpp includes "nerf.h", which includes
// "radiance_field.h"); LibTorch's and the system's are not found there.
Scanned scan(const std::string &File, const std::vector<std::string> &Dirs) {
  static const llvm::Regex Include("^[ \t]*#[ \t]*include[ \t]*([\"<])([^\">]+)[\">]");
  static const llvm::Regex Main("(^|[^A-Za-z0-9_])int[ \t]+main[ \t]*\\(");
  const size_t MaxFiles = 64;
  Scanned S;
  std::vector<std::string> Work{File};
  llvm::StringSet<> Seen{File};
  auto Find = [&](llvm::StringRef Dir, llvm::StringRef Name) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Name);
    if (Seen.size() < MaxFiles && llvm::sys::fs::is_regular_file(Path) && Seen.insert(Path).second)
      Work.push_back(std::string(Path));
  };
  for (size_t Next = 0; Next < Work.size(); ++Next) {
    auto Buf = llvm::MemoryBuffer::getFile(Work[Next], /*IsText=*/true);
    if (!Buf)
      continue;
    llvm::SmallVector<llvm::StringRef> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    for (llvm::StringRef Line : Lines) {
      llvm::SmallVector<llvm::StringRef, 3> M;
      if (Include.match(Line, &M) && !isTorchHeader(M[2])) {
        S.IncludedStems.push_back(llvm::sys::path::stem(M[2]).str());
        if (Next == 0)
          S.DirectStems.push_back(S.IncludedStems.back());
        if (M[1] == "\"")
          Find(llvm::sys::path::parent_path(Work[Next]), M[2]);
        for (const std::string &Dir : Dirs)
          Find(Dir, M[2]);
      } else if (Next == 0 && !S.DefinesMain && Main.match(Line)) {
        S.DefinesMain = true;
      }
    }
  }
  return S;
}

} // namespace

AnalysisOrder
calleesFirst(const std::vector<std::string> &Files,
             llvm::function_ref<std::vector<std::string>(const std::string &)> IncludeDirs) {
  std::vector<Scanned> Scans;
  llvm::StringMap<std::vector<size_t>> ByStem;
  for (size_t I = 0; I < Files.size(); ++I) {
    Scans.push_back(scan(Files[I], IncludeDirs(Files[I])));
    ByStem[llvm::sys::path::stem(Files[I])].push_back(I);
  }
  enum Mark { Unvisited, InProgress, Done };
  std::vector<Mark> Marks(Files.size(), Unvisited);
  std::vector<size_t> Position(Files.size());
  AnalysisOrder Order;
  std::function<void(size_t)> Visit = [&](size_t I) {
    if (Marks[I] != Unvisited)
      return;
    Marks[I] = InProgress;
    // Every header found orders the files; only the file's own includes
    // make it wait, or one umbrella header ("stdafx.h" including them all)
    // would run a -j N analysis one file at a time.
    std::vector<size_t> After;
    for (const std::string &Stem : Scans[I].IncludedStems) {
      auto It = ByStem.find(Stem);
      if (It == ByStem.end())
        continue;
      bool Direct = llvm::is_contained(Scans[I].DirectStems, Stem);
      for (size_t J : It->second)
        if (J != I) {
          Visit(J);
          if (Direct && Marks[J] == Done && !llvm::is_contained(After, Position[J]))
            After.push_back(Position[J]);
        }
    }
    Marks[I] = Done;
    Position[I] = Order.Files.size();
    Order.Files.push_back(I);
    Order.After.push_back(std::move(After));
  };
  for (bool Mains : {false, true})
    for (size_t I = 0; I < Files.size(); ++I)
      if (Scans[I].DefinesMain == Mains)
        Visit(I);
  return Order;
}

} // namespace torchtidy
