// `ds lsp` driven by vscode-languageserver-protocol, the protocol library under VS Code's own
// client: a second, independent client for the server (the Rust tests have their own). Needs a
// built ds: DS_BIN, or the repository's target/release-dev/ds (CI builds it before this runs).

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const cp = require('node:child_process');
const rpc = require('vscode-languageserver-protocol/node');

const root = path.join(__dirname, '..', '..', '..');
const ds = process.env.DS_BIN || path.join(root, 'target', 'release-dev', 'ds');

test('VS Code\'s protocol library and ds lsp understand each other on wolf.ds', { skip: !fs.existsSync(ds) && `no ${ds}` }, async () => {
  const server = cp.spawn(ds, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = rpc.createProtocolConnection(
    new rpc.StreamMessageReader(server.stdout),
    new rpc.StreamMessageWriter(server.stdin)
  );
  const published = new Promise((resolve) =>
    connection.onNotification(rpc.PublishDiagnosticsNotification.type, (params) => resolve(params))
  );
  connection.listen();
  const init = await connection.sendRequest(rpc.InitializeRequest.type, { processId: null, rootUri: null, capabilities: {} });
  assert.ok(init.capabilities.hoverProvider);
  await connection.sendNotification(rpc.InitializedNotification.type, {});

  const file = path.join(root, 'scripts', 'wolf.ds');
  const uri = 'file://' + file;
  const text = fs.readFileSync(file, 'utf8').replace('var P = place(G, H)', 'var P = palce(G, H)');
  await connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'ds', version: 1, text },
  });
  const diagnostics = (await published).diagnostics;
  assert.strictEqual(diagnostics.length, 1, JSON.stringify(diagnostics));
  assert.match(diagnostics[0].message, /did you mean `place`\?/);

  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('all_actions(G)') && !l.startsWith('def'));
  const at = { textDocument: { uri }, position: { line, character: lines[line].indexOf('all_actions') + 3 } };
  const items = await connection.sendRequest(rpc.CompletionRequest.type, at);
  assert.ok(items.some((i) => i.label === 'all_actions'));
  const definition = await connection.sendRequest(rpc.DefinitionRequest.type, at);
  assert.strictEqual(lines[definition[0].range.start.line].trim(), 'def all_actions(G)');
  const defLine = lines.findIndex((l) => l.startsWith('def place'));
  const hover = await connection.sendRequest(rpc.HoverRequest.type, {
    textDocument: { uri },
    position: { line: defLine, character: 5 },
  });
  assert.match(hover.contents.value, /place\(G, X\)/);

  await connection.sendRequest(rpc.ShutdownRequest.type);
  const exited = new Promise((resolve) => server.on('exit', resolve));
  await connection.sendNotification(rpc.ExitNotification.type);
  assert.strictEqual(await exited, 0);
  connection.dispose();
});
