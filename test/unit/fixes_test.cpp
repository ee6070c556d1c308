#include "findings/Fixes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace torchtidy;

namespace {

const RuleInfo Rule{"torch-test", "a rule"};

std::string tempFile(llvm::StringRef Content) {
  llvm::SmallString<128> Path;
  int FD;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("fixes", "cpp", FD, Path));
  llvm::raw_fd_ostream(FD, true) << Content;
  return Path.str().str();
}

std::string read(const std::string &Path) {
  return (*llvm::MemoryBuffer::getFile(Path))->getBuffer().str();
}

Finding withFix(const std::string &File, unsigned Column, unsigned Length, std::string Text) {
  Finding F;
  F.Rule = &Rule;
  F.Pos = {File, 1, Column, ""};
  F.Fixes.push_back({F.Pos, Column - 1, Length, std::move(Text)});
  return F;
}

} // namespace

TEST(Fixes, AppliesAllOfAFile) {
  std::string File = tempFile("a.cuda(); b.cuda();\n");
  std::vector<std::string> Errors;
  std::vector<Finding> Findings = {withFix(File, 3, 6, "to(d)"), withFix(File, 13, 6, "to(d)"),
                                   withFix(File, 13, 6, "to(d)")}; // the same fix twice
  EXPECT_EQ(applyFixes(Findings, Errors, nullptr), 2u);
  EXPECT_TRUE(Errors.empty());
  EXPECT_EQ(read(File), "a.to(d); b.to(d);\n");
  llvm::sys::fs::remove(File);
}

TEST(Fixes, OverlapLeavesTheFileAlone) {
  std::string File = tempFile("a.cuda(); b.cuda();\n");
  std::vector<std::string> Errors;
  std::vector<Finding> Findings = {withFix(File, 13, 6, "to(d)"), withFix(File, 2, 7, ""),
                                   withFix(File, 3, 6, "to(d)")};
  EXPECT_EQ(applyFixes(Findings, Errors, nullptr), 0u);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_EQ(Errors[0], "torchtidy: error: " + File +
                           ": the fixes of the findings at 1:2 [torch-test] and 1:3 [torch-test] "
                           "overlap; no fix applied to this file");
  EXPECT_EQ(read(File), "a.cuda(); b.cuda();\n");
  llvm::sys::fs::remove(File);
}
