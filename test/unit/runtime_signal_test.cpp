// docs/trace.md's table of the events that confirm each check, against the
// signals the checks declare in their RuleInfo and confirm's words for them.
#include "checks/Registry.h"
#include "confirm/Confirm.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

using namespace torchtidy;

static std::string expectedTable() {
  std::map<RuntimeSignal, std::string> Checks;
  for (const CheckFactory &C : allChecks())
    if (C.Info->Signal != RuntimeSignal::None)
      Checks[C.Info->Signal] += (Checks[C.Info->Signal].empty() ? "" : ", ") + C.Info->Id;
  std::string Table = "| check | event kinds that confirm it |\n| --- | --- |\n";
  for (const auto &[Signal, Ids] : Checks)
    Table += "| " + Ids + " | " + confirm::signalEvents(Signal) + " |\n";
  return Table + "| others | " + confirm::signalEvents(RuntimeSignal::None) + " |\n";
}

// The table's lines, from its header to the first line not in it.
static std::string documentedTable() {
  std::ifstream In(TORCHTIDY_SOURCE_DIR "/docs/trace.md");
  std::string Line, Table;
  bool Inside = false;
  while (std::getline(In, Line)) {
    Inside = Inside || Line == "| check | event kinds that confirm it |";
    if (Inside && (Line.empty() || Line[0] != '|'))
      break;
    if (Inside)
      Table += Line + "\n";
  }
  return Table;
}

TEST(RuntimeSignal, TraceDocTableMatchesTheChecks) { EXPECT_EQ(documentedTable(), expectedTable()); }

TEST(RuntimeSignal, UnknownCheckHasNone) {
  EXPECT_EQ(confirm::signalOf("torch-no-such-check"), RuntimeSignal::None);
  EXPECT_EQ(confirm::signalOf("torch-copy-in-loop"), RuntimeSignal::Transfer);
}
