// The official TypeScript SDK's client (@modelcontextprotocol/sdk 1.32.2) as a test peer.
// Plain ESM JavaScript, no compile step. The SDK speaks the initialize handshake only
// (it proposes protocolVersion 2025-11-25; no server/discover, no input_required).
//
//   node client.mjs -- ../venv/bin/python ../python/server.py
//   node client.mjs -- cargo run -q -p some-server
//
// Exits 0 when every check passes, 1 otherwise.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { allPassed, cannedAnswers, check, checkDemoPromptsAndResources, checkDemoTools, run, skip, textOf } from './checks.mjs';

const argv = process.argv.slice(2);
// `--url URL`: the server over Streamable HTTP (the SDK's StreamableHTTPClientTransport) instead of a command.
const url = argv[0] === '--url' ? argv[1] : undefined;
const cmd = url ? [] : argv[0] === '--' ? argv.slice(1) : argv;
if (cmd.length === 0 && !url) {
  console.error('usage: node client.mjs (--url URL | -- <server command> [args...])');
  process.exit(2);
}

const seen = [];

const client = new Client(
  { name: 'peers-ts-client', version: '0.1.0' },
  { capabilities: { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } } },
);

// Server -> client requests (2025-11-25 back-channel).
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  seen.push(`elicit:${req.params.message}`);
  const canned = { string: 'Ada', integer: 4, number: 4, boolean: true };
  const props = req.params.requestedSchema?.properties ?? {};
  const content = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, canned[v.type] ?? 'x']));
  return { action: 'accept', content };
});
const answers = cannedAnswers(seen);
client.setRequestHandler(CreateMessageRequestSchema, answers.sampling);
client.setRequestHandler(ListRootsRequestSchema, answers.roots);

// Pass the full environment: by default the SDK forwards only HOME, LOGNAME, PATH, SHELL, TERM, USER.
const transport = url
  ? new StreamableHTTPClientTransport(new URL(url))
  : new StdioClientTransport({ command: cmd[0], args: cmd.slice(1), env: { ...process.env }, stderr: 'inherit' });

async function main() {
  await client.connect(transport);
  console.log(`initialized; server=${JSON.stringify(client.getServerVersion())}`);
  check(client.getServerCapabilities()?.tools !== undefined, 'initialize: server has tools capability');

  const names = await checkDemoTools(client, ['add', 'book_table', 'echo'], { structured: true });
  let r;

  const progress = [];
  r = await client.callTool({ name: 'count', arguments: { n: 2 } }, undefined, { onprogress: (p) => progress.push(p) });
  // Not counted here: the SDK dispatches notifications in a microtask but responses synchronously,
  // so progress notifications that arrive with the response are dropped ("unknown token"), as many
  // as all of them. The test counts them on the wire instead.
  check(r.structuredContent?.result === 2 && progress.length <= 2, `progress ${JSON.stringify(progress)}`);

  seen.length = 0;
  r = await client.callTool({ name: 'book_table', arguments: { date: '2026-08-01' } });
  check(textOf(r) === 'Booked 2026-08-01 for Ada, party of 4', `two elicitations: ${textOf(r)}`);
  check(seen.filter((s) => s.startsWith('elicit')).length === 2, `elicitation handler ran twice ${JSON.stringify(seen)}`);

  r = await client.callTool({ name: 'haiku_with_roots', arguments: { topic: 'frogs' } });
  check(textOf(r).includes('an old silent pond') && textOf(r).includes('file:///tmp/peers-research'), `sampling+roots: ${textOf(r)}`);

  // Change events, from a server that offers them and has a tool that makes some:
  // subscribed, touched, and both a tool list change and the resource's update arrive.
  const caps = client.getServerCapabilities();
  if (names.includes('touch') && caps?.resources?.subscribe && caps?.tools?.listChanged) {
    const arrived = { toolsListChanged: false, readmeUpdated: false };
    let allArrived;
    const both = new Promise((resolve) => (allArrived = resolve));
    const settle = () => arrived.toolsListChanged && arrived.readmeUpdated && allArrived();
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      arrived.toolsListChanged = true;
      settle();
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      arrived.readmeUpdated ||= n.params.uri === 'demo://readme';
      settle();
    });
    await client.subscribeResource({ uri: 'demo://readme' });
    r = await client.callTool({ name: 'touch', arguments: {} });
    check(textOf(r) === 'published', 'tools/call touch');
    await Promise.race([both, new Promise((resolve) => setTimeout(resolve, 5000))]);
    check(arrived.toolsListChanged && arrived.readmeUpdated, `change events after touch: ${JSON.stringify(arrived)}`);
    await client.unsubscribeResource({ uri: 'demo://readme' });
  } else {
    skip('change events (the server offers no subscriptions, no tool list changes or no touch tool)');
  }

  // An unknown tool: a result with isError, or the -32602 error; the spec allows either.
  try {
    r = await client.callTool({ name: 'nope', arguments: {} });
    check(r.isError === true, 'unknown tool -> isError result');
  } catch (e) {
    check(e.code === -32602, `unknown tool -> error ${e.code}`);
  }

  await checkDemoPromptsAndResources(client);
  const { resourceTemplates } = await client.listResourceTemplates();
  check(resourceTemplates.map((t) => t.uriTemplate).join() === 'demo://users/{user_id}', 'resources/templates/list');
  const rd = await client.readResource({ uri: 'demo://readme' });
  check(rd.contents[0].text.startsWith('Hello from '), 'resources/read static');
  const c = await client.complete({
    ref: { type: 'ref/resource', uri: 'demo://users/{user_id}' },
    argument: { name: 'user_id', value: '4' },
  });
  check(c.completion.values.join() === '42', 'completion/complete template');

  const pong = await client.ping();
  // An empty result: nothing but, at most, its `_meta`.
  check(pong !== null && typeof pong === 'object' && Object.keys(pong).every((k) => k === '_meta'), `ping -> ${JSON.stringify(pong)}`);
  allPassed();
}

await run(client, main);
