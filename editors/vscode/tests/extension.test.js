// The client without VS Code: `vscode` and the language client library are stubbed, so these
// tests check what the extension asks for (the command it starts, when it restarts).

const test = require('node:test');
const assert = require('node:assert');
const Module = require('node:module');
const path = require('node:path');

const events = [];
let settings = {};
let failStart = false;
let onConfigurationChange;
const vscode = {
  workspace: {
    getConfiguration: (section) => ({ get: (key) => settings[`${section}.${key}`] }),
    onDidChangeConfiguration: (listener) => {
      onConfigurationChange = listener;
      return { dispose() {} };
    },
  },
  commands: { registerCommand: (name) => (events.push(['command', name]), { dispose() {} }) },
  window: { showErrorMessage: (message) => events.push(['error', message]) },
};
class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(this, { id, serverOptions, clientOptions });
    events.push(['client', serverOptions.command, serverOptions.args.join(' ')]);
  }
  async start() {
    if (failStart) throw new Error('spawn ds ENOENT');
    events.push(['start', this.serverOptions.command]);
  }
  async stop() {
    events.push(['stop', this.serverOptions.command]);
  }
}

const stubs = { vscode, 'vscode-languageclient/node': { LanguageClient } };
const load = Module._load;
Module._load = function (request, ...rest) {
  return request in stubs ? stubs[request] : load.call(this, request, ...rest);
};
const extension = require(path.join(__dirname, '..', 'extension.js'));

test('the server is `ds lsp`, or the configured program with `lsp`', () => {
  const config = (value) => ({ get: () => value });
  assert.deepStrictEqual(extension.serverOptions(config(undefined)), { command: 'ds', args: ['lsp'] });
  assert.deepStrictEqual(extension.serverOptions(config('  ')), { command: 'ds', args: ['lsp'] });
  assert.deepStrictEqual(extension.serverOptions(config('/opt/bin/ds')), { command: '/opt/bin/ds', args: ['lsp'] });
  const selector = extension.clientOptions().documentSelector;
  assert.ok(selector.some((s) => s.language === 'ds' && s.scheme === 'file'));
});

test('activation starts the server, and a new path restarts it', async () => {
  events.length = 0;
  settings = { 'ds.server.path': '/a/ds' };
  await extension.activate({ subscriptions: [] });
  assert.deepStrictEqual(events, [
    ['command', 'ds.restartServer'],
    ['client', '/a/ds', 'lsp'],
    ['start', '/a/ds'],
  ]);
  events.length = 0;
  settings = { 'ds.server.path': '/b/ds' };
  onConfigurationChange({ affectsConfiguration: (key) => key === 'ds.server.path' });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepStrictEqual(events, [
    ['stop', '/a/ds'],
    ['client', '/b/ds', 'lsp'],
    ['start', '/b/ds'],
  ]);
  await extension.deactivate();
});

test('a server that cannot start is reported', async () => {
  events.length = 0;
  failStart = true;
  settings = {};
  await extension.activate({ subscriptions: [] });
  const error = events.find((e) => e[0] === 'error');
  assert.ok(error && error[1].includes('`ds lsp`') && error[1].includes('ds.server.path'), JSON.stringify(events));
  failStart = false;
});
