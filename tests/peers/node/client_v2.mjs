// The official TypeScript SDK v2's client (@modelcontextprotocol/client 2.4.0) as a test peer.
// Plain ESM JavaScript, no compile step. It speaks 2026-07-28: `--negotiation auto` probes with
// server/discover (falling back to initialize), `--negotiation pinned` sends 2026-07-28 from the
// first request. The server's questions arrive as input_required results, which the SDK answers
// with the handlers below and retries.
//
//   node client_v2.mjs --negotiation auto -- ./target/debug/mcp-spec-example-server
//   node client_v2.mjs --negotiation pinned --surface everything -- mcp-era-bridge -- node .../server-everything/dist/index.js
//
// `--surface demo` (the default) checks a server with the surface of tests/peers/python/server.py;
// `--surface everything` the reference server's tools that ask the client (sampling, elicitation,
// roots), its prompts and resources; `--surface everything-2025-03-26` the same without
// elicitation, which 2025-03-26 has not (server_2025_03_26.mjs).
//
// Exits 0 when every check passes, 1 otherwise.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { allPassed, cannedAnswers, check, checkDemoPromptsAndResources, checkDemoTools, run, skip, textOf } from './checks.mjs';

const argv = process.argv.slice(2);
let negotiation = 'auto';
let surface = 'demo';
// `--url URL`: the server over Streamable HTTP instead of a command.
let url;
while (argv[0] === '--negotiation' || argv[0] === '--surface' || argv[0] === '--url') {
  if (argv[0] === '--negotiation') negotiation = argv[1];
  else if (argv[0] === '--url') url = argv[1];
  else surface = argv[1];
  argv.splice(0, 2);
}
const cmd = url ? ['(http)'] : argv[0] === '--' ? argv.slice(1) : argv;
const surfaces = ['demo', 'everything', 'everything-2025-03-26'];
if (cmd.length === 0 || !['auto', 'pinned'].includes(negotiation) || !surfaces.includes(surface)) {
  console.error(`usage: node client_v2.mjs [--negotiation auto|pinned] [--surface ${surfaces.join('|')}] -- <server command> [args...]`);
  process.exit(2);
}

const seen = [];

const mode = negotiation === 'pinned' ? { pin: '2026-07-28' } : 'auto';
const client = new Client(
  { name: 'peers-ts-v2-client', version: '0.1.0' },
  {
    capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
    versionNegotiation: { mode },
  },
);

client.setRequestHandler('elicitation/create', async (req) => {
  seen.push(`elicit:${req.params.message}`);
  const canned = { string: 'Ada', integer: 4, number: 4, boolean: true };
  const props = req.params.requestedSchema?.properties ?? {};
  const content = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, canned[v.type] ?? 'x']));
  return { action: 'accept', content };
});
const answers = cannedAnswers(seen);
client.setRequestHandler('sampling/createMessage', answers.sampling);
client.setRequestHandler('roots/list', answers.roots);

const transport = url
  ? new StreamableHTTPClientTransport(new URL(url))
  : new StdioClientTransport({ command: cmd[0], args: cmd.slice(1), env: { ...process.env }, stderr: 'inherit' });

async function everything({ elicitation }) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  const wanted = ['echo', 'get-sum', 'trigger-sampling-request', 'get-roots-list'];
  if (elicitation) wanted.push('trigger-elicitation-request');
  check(wanted.every((n) => names.includes(n)), `tools/list -> ${names.length} tools, with ${wanted}`);
  let r = await client.callTool({ name: 'echo', arguments: { message: 'hello through the bridge' } });
  check(textOf(r) === 'Echo: hello through the bridge', `tools/call echo: ${textOf(r)}`);
  r = await client.callTool({ name: 'get-sum', arguments: { a: 2, b: 3 } });
  check(textOf(r).includes('5'), `tools/call get-sum: ${textOf(r)}`);
  // What the server asked, counted by kind over the session: the reference
  // server asks for the roots once, 350 ms after initialization or for
  // `get-roots-list`, whichever comes first, so on a slow machine its timer's
  // question rides on whichever call is in flight then.
  const asked = (kind) => seen.filter((s) => s.split(':')[0] === kind).length;
  r = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'a haiku', maxTokens: 20 } });
  check(textOf(r).includes('an old silent pond') && asked('sample') === 1, `sampling, asked through the bridge: ${seen}`);
  if (elicitation) {
    r = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    check(textOf(r).includes('Ada') && asked('elicit') === 1, `elicitation, asked through the bridge: ${textOf(r).slice(0, 50)}`);
  } else {
    skip('elicitation (this surface has no tool that asks)');
  }
  r = await client.callTool({ name: 'get-roots-list', arguments: {} });
  check(textOf(r).includes('file:///tmp/peers-research') && asked('roots') === 1, `roots, asked through the bridge once: ${seen}`);
  const { prompts } = await client.listPrompts();
  check(prompts.some((p) => p.name === 'simple-prompt'), `prompts/list -> ${prompts.map((p) => p.name)}`);
  const p = await client.getPrompt({ name: 'simple-prompt', arguments: {} });
  check(p.messages.length >= 1, 'prompts/get simple-prompt');
  const { resources } = await client.listResources();
  check(resources.length > 0, `resources/list -> ${resources.length}`);
  const rd = await client.readResource({ uri: resources[0].uri });
  check(rd.contents.length >= 1, `resources/read ${resources[0].uri}`);
}

async function main() {
  await client.connect(transport);
  const version = client.getNegotiatedProtocolVersion();
  console.log(`connected; protocol ${version}; server=${JSON.stringify(client.getServerVersion())}`);
  check(version === '2026-07-28', `negotiated ${version}`);
  if (surface !== 'demo') {
    await everything({ elicitation: surface === 'everything' });
    allPassed();
    return;
  }

  await checkDemoTools(client, ['add', 'book_table', 'echo'], { structured: true });
  let r;

  seen.length = 0;
  r = await client.callTool({ name: 'book_table', arguments: { date: '2026-08-01' } });
  check(textOf(r) === 'Booked 2026-08-01 for Ada, party of 4', `two input_required rounds: ${textOf(r)}`);
  check(seen.filter((s) => s.startsWith('elicit')).length === 2, `elicitation handler ran twice ${JSON.stringify(seen)}`);

  seen.length = 0;
  r = await client.callTool({ name: 'haiku_with_roots', arguments: { topic: 'frogs' } });
  check(textOf(r).includes('an old silent pond') && textOf(r).includes('file:///tmp/peers-research'), `sampling+roots: ${textOf(r)}`);

  await checkDemoPromptsAndResources(client);
  allPassed();
}

await run(client, main);
