#include "config/Config.h"

#include <gtest/gtest.h>

using namespace torchtidy;

static std::optional<Config> parse(const char *Text, std::string &Error) {
  std::optional<Config> C = parseConfig("/p/.torchtidy.yaml", Text, Config(), Error);
  if (C)
    EXPECT_TRUE(finishConfig(*C, Error)) << Error;
  return C;
}

TEST(Config, KeysAndForms) {
  std::string Error;
  std::optional<Config> C = parse("Checks: [\"-*\", torch-hardcoded-device]\n"
                                  "WarningsAsErrors: 'torch-*'\n"
                                  "HeaderFilterRegex: '/include/'\n"
                                  "ExcludePaths: ['gen/**', '*.pb.cc', 'x/[!a]b.cpp']\n",
                                  Error);
  ASSERT_TRUE(C) << Error;
  EXPECT_EQ(C->Checks, "torch-*,-*,torch-hardcoded-device");
  EXPECT_EQ(C->Dir, "/p");
  ASSERT_EQ(C->enabledChecks().size(), 1u);
  EXPECT_EQ(C->enabledChecks()[0]->Id, "torch-hardcoded-device");
  EXPECT_TRUE(C->ErrorsGlob.enabled("torch-data-parallel"));
  EXPECT_TRUE(C->excluded("/p/gen/a/b.cpp"));
  EXPECT_TRUE(C->excluded("/p/m.pb.cc"));
  EXPECT_FALSE(C->excluded("/p/sub/m.pb.cc")) << "'*' stays within one folder";
  EXPECT_TRUE(C->excluded("/p/x/cb.cpp"));
  EXPECT_FALSE(C->excluded("/p/x/ab.cpp"));
  EXPECT_FALSE(C->excluded("/q/gen/a.cpp")) << "outside the configuration's folder";
}

TEST(Config, ErrorsNameLineColumnAndKey) {
  std::string Error;
  EXPECT_FALSE(parse("Checks: torch-*\n  \nFoo: 1\n", Error));
  EXPECT_EQ(Error, "/p/.torchtidy.yaml:3:1: unknown key 'Foo' (expected Checks, CheckOptions, "
                   "WarningsAsErrors, HeaderFilterRegex, ExcludePaths, RemoteCache, "
                   "CacheBaseDir, RemoteCacheTimeout)");
  Error.clear();
  EXPECT_FALSE(parse("CheckOptions: 3\n", Error));
  EXPECT_EQ(Error, "/p/.torchtidy.yaml:1:15: CheckOptions: expected a mapping or a list of "
                   "{key, value}");
}

TEST(Config, DumpListsTheSettings) {
  std::string Error;
  std::optional<Config> C = parse("Checks: '-*,torch-data-parallel'\nExcludePaths: [\"it's/*\"]\n",
                                  Error);
  ASSERT_TRUE(C) << Error;
  std::string Dump = dumpConfig(*C);
  EXPECT_NE(Dump.find("Checks: 'torch-*,-*,torch-data-parallel'\n"), std::string::npos) << Dump;
  EXPECT_NE(Dump.find("  - 'it''s/*'\n"), std::string::npos) << Dump;
}
