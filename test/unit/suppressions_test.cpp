#include "config/Suppressions.h"

#include <gtest/gtest.h>

using torchtidy::FileSuppressions;

static FileSuppressions parse(const char *Text, std::vector<std::string> &Errors) {
  return FileSuppressions::parse("f.cpp", Text, Errors);
}

TEST(Suppressions, LineNextLineAndLists) {
  std::vector<std::string> Errors;
  FileSuppressions S = parse("a(); // NOLINT\n"
                             "b(); // NOLINT(torch-a, torch-b*)\n"
                             "// NOLINTNEXTLINE(torch-c)\n"
                             "c();\n"
                             "d(); /* NOLINT() */\n",
                             Errors);
  EXPECT_TRUE(Errors.empty());
  EXPECT_TRUE(S.suppresses(1, "torch-anything"));
  EXPECT_TRUE(S.suppresses(2, "torch-a"));
  EXPECT_TRUE(S.suppresses(2, "torch-bb"));
  EXPECT_FALSE(S.suppresses(2, "torch-c"));
  EXPECT_FALSE(S.suppresses(3, "torch-c"));
  EXPECT_TRUE(S.suppresses(4, "torch-c"));
  EXPECT_FALSE(S.suppresses(5, "torch-a")) << "an empty list names no check";
}

TEST(Suppressions, OnlyComments) {
  std::vector<std::string> Errors;
  FileSuppressions S = parse("s(\"// NOLINT\");\n"
                             "R\"(NOLINT)\";\n"
                             "char c = 'N'; // NOLINT(x)\n",
                             Errors);
  EXPECT_FALSE(S.suppresses(1, "x"));
  EXPECT_FALSE(S.suppresses(2, "x"));
  EXPECT_TRUE(S.suppresses(3, "x"));
}

TEST(Suppressions, BeginEndNestAndMatchByList) {
  std::vector<std::string> Errors;
  FileSuppressions S = parse("// NOLINTBEGIN(a)\n"   // 1
                             "// NOLINTBEGIN(b)\n"   // 2
                             "x;\n"                  // 3
                             "// NOLINTEND(a)\n"     // 4
                             "y;\n"                  // 5
                             "// NOLINTEND(b)\n",    // 6
                             Errors);
  EXPECT_TRUE(Errors.empty());
  EXPECT_TRUE(S.suppresses(3, "a"));
  EXPECT_TRUE(S.suppresses(3, "b"));
  EXPECT_FALSE(S.suppresses(5, "a"));
  EXPECT_TRUE(S.suppresses(5, "b"));
  EXPECT_FALSE(S.suppresses(7, "b"));
}

TEST(Suppressions, UnmatchedAreErrorsInLineOrder) {
  std::vector<std::string> Errors;
  FileSuppressions S = parse("/* NOLINTEND */\n  // NOLINTBEGIN(a)\nx;\n", Errors);
  ASSERT_EQ(Errors.size(), 2u);
  EXPECT_EQ(Errors[0], "f.cpp:1:4: error: unmatched 'NOLINTEND' comment without a previous "
                       "'NOLINTBEGIN' comment");
  EXPECT_EQ(Errors[1], "f.cpp:2:6: error: unmatched 'NOLINTBEGIN' comment without a subsequent "
                       "'NOLINTEND' comment");
  EXPECT_FALSE(S.suppresses(3, "a"));
}
