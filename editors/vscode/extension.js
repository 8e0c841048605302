// The DemonScript extension's client: starts `ds lsp` (the program named by the setting
// `ds.server.path`, `ds` on the PATH by default) for .ds files, and restarts it when the setting
// changes or on the command "DemonScript: Restart the language server".

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

/** How to start the server: the configured program, with the `lsp` subcommand. */
function serverOptions(configuration) {
  const command = (configuration.get('server.path') || 'ds').trim() || 'ds';
  return { command, args: ['lsp'] };
}

function clientOptions() {
  return {
    documentSelector: [
      { scheme: 'file', language: 'ds' },
      { scheme: 'untitled', language: 'ds' },
    ],
    outputChannelName: 'DemonScript language server',
  };
}

async function start() {
  const options = serverOptions(vscode.workspace.getConfiguration('ds'));
  client = new LanguageClient('ds', 'DemonScript language server', options, clientOptions());
  try {
    await client.start();
  } catch (error) {
    vscode.window.showErrorMessage(
      `DemonScript: cannot start \`${options.command} lsp\` (${error.message}). ` +
        'Install ds (`cargo install --path .`) or set `ds.server.path`.'
    );
  }
}

async function restart() {
  if (client) {
    const old = client;
    client = undefined;
    await old.stop().catch(() => {});
  }
  await start();
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('ds.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('ds.server.path')) {
        restart();
      }
    })
  );
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, serverOptions, clientOptions };
