// torchtidy merge-sarif: the SARIF logs of the shards of one CI matrix as
// one run, since code scanning rejects two runs of one tool and category in
// one upload.
#pragma once

namespace torchtidy {

int mergeSarifCommand(int Argc, const char **Argv, const char *Self);

} // namespace torchtidy
