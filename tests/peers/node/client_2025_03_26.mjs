// An older host's client: the official TypeScript SDK 1.12.3 (installed as
// sdk-2025-03-26), whose newest protocol version is 2025-03-26. It offers that in
// `initialize` and disconnects from a server that answers with a version it does
// not support (2025-11-25 among them). It has sampling and roots, no elicitation.
//
//   node client_2025_03_26.mjs -- <server command> [args...]
//
// Exits 0 when every check passes, 1 otherwise.
import { Client } from 'sdk-2025-03-26/client/index.js';
import { StdioClientTransport } from 'sdk-2025-03-26/client/stdio.js';
import { CreateMessageRequestSchema, LATEST_PROTOCOL_VERSION, ListRootsRequestSchema } from 'sdk-2025-03-26/types.js';
import { allPassed, cannedAnswers, check, checkDemoPromptsAndResources, checkDemoTools, run, textOf } from './checks.mjs';

const argv = process.argv.slice(2);
const cmd = argv[0] === '--' ? argv.slice(1) : argv;
if (cmd.length === 0) {
  console.error('usage: node client_2025_03_26.mjs -- <server command> [args...]');
  process.exit(2);
}


const client = new Client({ name: 'peers-ts-client-2025-03-26', version: '0.1.0' }, { capabilities: { sampling: {}, roots: {} } });
const seen = [];
const answers = cannedAnswers(seen);
client.setRequestHandler(CreateMessageRequestSchema, answers.sampling);
client.setRequestHandler(ListRootsRequestSchema, answers.roots);

const transport = new StdioClientTransport({ command: cmd[0], args: cmd.slice(1), env: { ...process.env }, stderr: 'inherit' });

async function main() {
  check(LATEST_PROTOCOL_VERSION === '2025-03-26', `the SDK offers ${LATEST_PROTOCOL_VERSION}`);
  // Throws when the answered version is not one this SDK supports.
  await client.connect(transport);
  console.log(`initialized; server=${JSON.stringify(client.getServerVersion())}`);
  check(client.getServerCapabilities()?.tools !== undefined, 'initialize: server has tools capability');

  await checkDemoTools(client, ['add', 'echo', 'haiku_with_roots'], { structured: false });

  // The modern server's input_required round, asked of this client as two requests.
  const r = await client.callTool({ name: 'haiku_with_roots', arguments: { topic: 'frogs' } });
  check(textOf(r).includes('an old silent pond') && textOf(r).includes('file:///tmp/peers-research'), `sampling+roots: ${textOf(r)}`);
  check(seen.includes('sample') && seen.includes('roots'), `both asked: ${JSON.stringify(seen)}`);

  await checkDemoPromptsAndResources(client);
  const rd = await client.readResource({ uri: 'demo://readme' });
  check(rd.contents[0].text.startsWith('Hello from '), 'resources/read static');

  const pong = await client.ping();
  check(pong !== null && typeof pong === 'object', `ping -> ${JSON.stringify(pong)}`);
  allPassed();
}

await run(client, main);
