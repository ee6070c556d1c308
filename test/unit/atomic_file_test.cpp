#include "support/AtomicFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

using namespace torchtidy;

TEST(AtomicFile, ReplacesTheWholeFileAndLeavesNoTemporary) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("torchtidy-atomic", Dir));
  llvm::SmallString<128> Path(Dir);
  llvm::sys::path::append(Path, "out.json");
  std::string Error;
  ASSERT_TRUE(writeFileAtomically(Path, "old", Error)) << Error;
  ASSERT_TRUE(writeFileAtomically(Path, "new content", Error)) << Error;
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  ASSERT_TRUE(bool(Buf));
  EXPECT_EQ((*Buf)->getBuffer(), "new content");
  std::error_code EC;
  int Entries = 0;
  for (llvm::sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC; It.increment(EC))
    ++Entries;
  EXPECT_EQ(Entries, 1);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(AtomicFile, UnwritableDirectoryIsNamedInTheError) {
  std::string Error;
  EXPECT_FALSE(writeFileAtomically("/nonexistent-dir/out.sarif", "x", Error));
  EXPECT_NE(Error.find("/nonexistent-dir/out.sarif"), std::string::npos) << Error;
}
