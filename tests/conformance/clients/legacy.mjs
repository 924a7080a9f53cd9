// A 2025-11-25 client for the conformance suite's client scenarios, on the
// TypeScript SDK 1.x (its `Client` over `StdioClientTransport`, the SDK the
// runner installs, named by `--sdk DIR`), on stdio through the era bridge: the
// suite runs `node legacy.mjs --sdk DIR --bridge BRIDGE URL` with its mock
// server's URL last; the SDK starts `BRIDGE --connect URL` and speaks the
// initialize handshake to it, so the mock server scores what the bridge does
// for a legacy client: passed through to a 2025-11-25 server; to a 2026-07-28
// one, its `_meta` and headers on every request, its tool headers, its
// input_required rounds asked as requests (answered here as a user would: a
// form's defaults, a sampled text, no roots); OAuth either way. Every scenario
// gets the same run: the tools listed and each called (with the arguments the
// scenario's context names, else ones made from its input schema), the
// resources listed and each read, the prompts listed and each got.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { bridgeCommand, example, removeStore } from './bridge.mjs';

const usage = 'node legacy.mjs --sdk DIR --bridge BRIDGE URL';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
const argv = process.argv.slice(2);
const sdk = argv[argv.indexOf('--sdk') + 1];
if (!argv.includes('--sdk') || !sdk) {
  console.error(`usage: ${usage}`);
  process.exit(2);
}
const load = (file) => import(pathToFileURL(join(sdk, 'dist/esm', file)).href);
const { Client } = await load('client/index.js');
const { StdioClientTransport } = await load('client/stdio.js');
const { ElicitRequestSchema, CreateMessageRequestSchema, ListRootsRequestSchema } = await load('types.js');


function argumentsFor(tool) {
  const given = (context.toolCalls ?? []).find((c) => c.name === tool.name);
  if (given) return given.arguments;
  const properties = tool.inputSchema?.properties ?? {};
  return Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, example(p)]));
}

const { bridge, args, store } = bridgeCommand(usage);
const client = new Client(
  { name: 'mcp-spec-conformance-legacy-client', version: '0.1.0' },
  { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } },
);
// What a user would answer each of the server's questions with.
client.setRequestHandler(ElicitRequestSchema, (request) => {
  const properties = request.params?.requestedSchema?.properties ?? {};
  const content = Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, p.default ?? example(p)]));
  return { action: 'accept', content };
});
client.setRequestHandler(CreateMessageRequestSchema, () => ({
  role: 'assistant',
  content: { type: 'text', text: 'ok' },
  model: 'conformance',
}));
client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));

let status = 0;
try {
  await client.connect(new StdioClientTransport({ command: bridge, args, stderr: 'inherit' }));
  const offered = client.getServerCapabilities() ?? {};
  const failures = [];
  const attempt = async (what, f) => {
    try {
      await f();
    } catch (e) {
      failures.push(`${what}: ${e.message}`);
    }
  };
  if (offered.tools) {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      await attempt(`tools/call ${tool.name}`, () => client.callTool({ name: tool.name, arguments: argumentsFor(tool) }));
    }
  }
  if (offered.resources) {
    await attempt('resources', async () => {
      const { resources } = await client.listResources();
      for (const r of resources) await client.readResource({ uri: r.uri });
    });
  }
  if (offered.prompts) {
    await attempt('prompts', async () => {
      const { prompts } = await client.listPrompts();
      for (const p of prompts) {
        const promptArgs = Object.fromEntries((p.arguments ?? []).map((a) => [a.name, 'x']));
        await client.getPrompt({ name: p.name, arguments: promptArgs });
      }
    });
  }
  // A scenario's mock may refuse what it does not serve; what it scores is on its side.
  for (const f of failures) console.error(`legacy client (${scenario}): ${f}`);
} catch (e) {
  console.error(`legacy client (${scenario}): ${e.message}`);
  status = 1;
}
// Ends the bridge as a stdio client does (its input closed), then exits.
await client.close();
removeStore(store);
process.exit(status);
