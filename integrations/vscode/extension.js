// Starts `torchtidy lsp` for C++ and CUDA files; clangd, if installed, runs
// beside it and the Problems view shows both.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate() {
  const cfg = vscode.workspace.getConfiguration('torchtidy');
  const initializationOptions = { debounceMs: cfg.get('debounceMs') };
  if (cfg.get('checks')) initializationOptions.checks = cfg.get('checks');
  if (cfg.get('cacheDir')) initializationOptions.cacheDir = cfg.get('cacheDir');
  client = new LanguageClient(
    'torchtidy',
    'torchtidy',
    { command: cfg.get('path'), args: ['lsp'] },
    {
      documentSelector: [
        { scheme: 'file', language: 'cpp' },
        { scheme: 'file', language: 'cuda-cpp' },
      ],
      initializationOptions,
      synchronize: {
        fileEvents: vscode.workspace.createFileSystemWatcher(
          '**/{.torchtidy.yaml,compile_commands.json}'),
      },
    });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
