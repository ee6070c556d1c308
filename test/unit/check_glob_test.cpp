#include "config/CheckGlob.h"

#include <gtest/gtest.h>

using torchtidy::CheckGlob;

static CheckGlob parse(const char *Text) {
  std::string Error;
  CheckGlob G = CheckGlob::parse(Text, Error);
  EXPECT_EQ(Error, "") << Text;
  return G;
}

TEST(CheckGlob, LastMatchingGlobDecides) {
  CheckGlob G = parse("torch-*,-torch-data-parallel");
  EXPECT_TRUE(G.enabled("torch-hardcoded-device"));
  EXPECT_FALSE(G.enabled("torch-data-parallel"));
  EXPECT_TRUE(parse("-*,torch-data-parallel").enabled("torch-data-parallel"));
  EXPECT_FALSE(parse("-*,torch-data-parallel").enabled("torch-copy-in-loop"));
}

TEST(CheckGlob, NothingMatchesMeansDisabled) {
  EXPECT_FALSE(parse("").enabled("torch-copy-in-loop"));
  EXPECT_FALSE(parse("performance-*").enabled("torch-copy-in-loop"));
}

TEST(CheckGlob, SpacesAndEmptyItemsAreIgnored) {
  CheckGlob G = parse(" -* , ,torch-*-in-loop ");
  EXPECT_TRUE(G.enabled("torch-copy-in-loop"));
  EXPECT_FALSE(G.enabled("torch-hardcoded-device"));
}

TEST(CheckGlob, DotsAreLiteral) {
  EXPECT_FALSE(parse("torch.x").enabled("torchax"));
}

TEST(CheckGlob, BadCharacterIsNamed) {
  std::string Error;
  CheckGlob::parse("torch-(x)", Error);
  EXPECT_EQ(Error, "invalid character '(' in check glob 'torch-(x)'");
}
