// The shared PCH's prefix detection and the memory bound on workers.
#include "speed/SharedPch.h"
#include "frontend/WorkerMemory.h"

#include <gtest/gtest.h>

using namespace torchtidy;

TEST(LeadingTorchIncludes, TakesTheLibTorchIncludesTheFileBeginsWith) {
  EXPECT_EQ(leadingTorchIncludes("// model\n/* x */\n#include <torch/torch.h>\n"
                                 "#  include \"torch/script.h\"\n#include <vector>\n"
                                 "#include <ATen/ATen.h>\n"),
            "#include <torch/torch.h>\n#include \"torch/script.h\"\n");
  EXPECT_EQ(leadingTorchIncludes("#include <c10/util/Optional.h>\nint x;"),
            "#include <c10/util/Optional.h>\n");
  EXPECT_EQ(leadingTorchIncludes("#include <caffe2/serialize/inline_container.h>\n"),
            "#include <caffe2/serialize/inline_container.h>\n");
}

TEST(LeadingTorchIncludes, NothingWhenTheFileBeginsOtherwise) {
  EXPECT_EQ(leadingTorchIncludes("#define X 1\n#include <torch/torch.h>\n"), "");
  EXPECT_EQ(leadingTorchIncludes("#include \"model.h\"\n#include <torch/torch.h>\n"), "");
  EXPECT_EQ(leadingTorchIncludes("#include <torch/torch.h> // why\n"), "");
  // A folder named like LibTorch's is not LibTorch's.
  EXPECT_EQ(leadingTorchIncludes("#include <torchx/metrics.h>\n"), "");
  EXPECT_EQ(leadingTorchIncludes("#include <torch.h>\n"), "");
  EXPECT_EQ(leadingTorchIncludes("/* unterminated"), "");
  EXPECT_EQ(leadingTorchIncludes(""), "");
}

TEST(JobsForMemory, LowersJobsToWhatFits) {
  EXPECT_EQ(jobsForMemory(8, 2000, 700), 2u);
  EXPECT_EQ(jobsForMemory(8, 100, 700), 1u); // never none
  EXPECT_EQ(jobsForMemory(2, 100000, 700), 2u);
}
