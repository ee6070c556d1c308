// The preamble's leading block, its store's size option, and the memory
// bound on workers.
#include "speed/SharedPch.h"
#include "frontend/WorkerMemory.h"

#include <gtest/gtest.h>

using namespace torchtidy;

TEST(LeadingIncludes, TakesTheIncludesTheFileBeginsWith) {
  EXPECT_EQ(leadingIncludes("// model\n/* x */\n#include <torch/torch.h>\n"
                            "#  include \"model.h\"\n#include <vector> // why\n"
                            "int x;\n#include <ATen/ATen.h>\n"),
            "#include <torch/torch.h>\n#include \"model.h\"\n#include <vector>\n");
  EXPECT_EQ(leadingIncludes("#include <iostream>\n#include <torch/torch.h>\nint x;"),
            "#include <iostream>\n#include <torch/torch.h>\n");
  EXPECT_EQ(leadingIncludes("#include \"model.h\"\n"), "#include \"model.h\"\n");
}

TEST(LeadingIncludes, StopsAtTheFirstOtherLine) {
  EXPECT_EQ(leadingIncludes("#define X 1\n#include <torch/torch.h>\n"), "");
  EXPECT_EQ(leadingIncludes("#include <a.h>\n#if X\n#include <b.h>\n#endif\n"), "#include <a.h>\n");
  // A macro, an empty name, a comment that is not one to the line's end.
  EXPECT_EQ(leadingIncludes("#include HEADER\n"), "");
  EXPECT_EQ(leadingIncludes("#include <>\n"), "");
  EXPECT_EQ(leadingIncludes("#include <a.h> /* x */ int y;\n"), "");
  EXPECT_EQ(leadingIncludes("#include <a.h\n"), "");
  EXPECT_EQ(leadingIncludes("/* unterminated"), "");
  EXPECT_EQ(leadingIncludes(""), "");
}

TEST(ParseByteSize, ReadsTheUnit) {
  EXPECT_EQ(parseByteSize("4G"), uint64_t(4) << 30);
  EXPECT_EQ(parseByteSize("512m"), uint64_t(512) << 20);
  EXPECT_EQ(parseByteSize("1K"), 1024u);
  EXPECT_EQ(parseByteSize("123"), 123u);
  EXPECT_EQ(parseByteSize("lots"), std::nullopt);
  EXPECT_EQ(parseByteSize("G"), std::nullopt);
  EXPECT_EQ(parseByteSize(""), std::nullopt);
  EXPECT_EQ(parseByteSize("99999999999999999999G"), std::nullopt);
}

TEST(JobsForMemory, LowersJobsToWhatFits) {
  EXPECT_EQ(jobsForMemory(8, 2000, 700), 2u);
  EXPECT_EQ(jobsForMemory(8, 100, 700), 1u); // never none
  EXPECT_EQ(jobsForMemory(2, 100000, 700), 2u);
}
