#include "findings/Finding.h"

#include <gtest/gtest.h>

using namespace torchtidy;

static const RuleInfo A{"torch-a", "", Level::Warning, Precision::High, {}, {}};
static const RuleInfo B{"torch-b", "", Level::Warning, Precision::High, {}, {}};

static Finding make(const RuleInfo &R, const char *File, unsigned Line, unsigned Col) {
  Finding F;
  F.Rule = &R;
  F.Pos.File = File;
  F.Pos.Line = Line;
  F.Pos.Column = Col;
  F.Message = "m";
  return F;
}

TEST(Finding, SortedByFileLineColumnRule) {
  std::vector<Finding> V = {make(B, "b.cpp", 1, 1), make(B, "a.cpp", 2, 1),
                            make(A, "a.cpp", 2, 1), make(A, "a.cpp", 1, 9)};
  sortAndDeduplicate(V);
  ASSERT_EQ(V.size(), 4u);
  EXPECT_EQ(V[0].Pos.Line, 1u);
  EXPECT_EQ(V[1].Rule, &A);
  EXPECT_EQ(V[2].Rule, &B);
  EXPECT_EQ(V[3].Pos.File, "b.cpp");
}

TEST(Finding, RepeatsAreDropped) {
  std::vector<Finding> V = {make(A, "h.h", 3, 4), make(A, "h.h", 3, 4), make(A, "h.h", 3, 5)};
  sortAndDeduplicate(V);
  EXPECT_EQ(V.size(), 2u);
}
