// "torchtidy lsp": the Language Server Protocol over stdio (docs/editors.md).
#pragma once

namespace torchtidy::lsp {

int lspCommand(int Argc, const char **Argv, const char *Self);

} // namespace torchtidy::lsp
