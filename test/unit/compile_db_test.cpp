#include "frontend/CompileDb.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace torchtidy;

TEST(CompileDb, FindsBuildFolderOfAParent) {
  llvm::SmallString<128> Root;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("torchtidy-cdb", Root));
  llvm::SmallString<128> Build(Root), Src(Root);
  llvm::sys::path::append(Build, "build");
  llvm::sys::path::append(Src, "src", "deep");
  ASSERT_FALSE(llvm::sys::fs::create_directories(Build));
  ASSERT_FALSE(llvm::sys::fs::create_directories(Src));
  llvm::SmallString<128> Json(Build);
  llvm::sys::path::append(Json, "compile_commands.json");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Json, EC);
    OS << "[]";
  }
  EXPECT_EQ(findCompileCommands(Src), std::string(Json));
  llvm::sys::fs::remove_directories(Root);
}

TEST(CompileDb, TorchPrefixMustHoldTheHeaders) {
  std::string Error;
  EXPECT_FALSE(findTorch("/nonexistent", Error));
  EXPECT_NE(Error.find("--torch-prefix=/nonexistent"), std::string::npos);
}

TEST(CompileDb, DebianLibTorchIsFound) {
  std::string Error;
  auto T = findTorch("", Error);
  ASSERT_TRUE(T) << Error;
  EXPECT_EQ(T->IncludeDirs.front(), "/usr/include/torch/csrc/api/include");
}
