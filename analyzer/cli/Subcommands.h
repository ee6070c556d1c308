// "torchtidy <name> ..." commands beside linting (doctor, run, confirm).
#pragma once

#include <string>

namespace torchtidy {

struct Subcommand {
  const char *Name;
  const char *Summary;
  // Argv[0] is the subcommand's name; Self is torchtidy's own argv[0].
  int (*Run)(int Argc, const char **Argv, const char *Self);
};

const Subcommand *findSubcommand(const char *Name);

// "  torchtidy <name> ...  <summary>" for each, for --help.
std::string subcommandsHelp();

} // namespace torchtidy
