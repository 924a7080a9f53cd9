// The official Tasks requester library (@modelcontextprotocol/ext-tasks 0.2.2) over the TypeScript
// SDK v2 client, pinned to 2026-07-28, against a server that runs `count` as a task (the example
// server): one call followed to completion, a second cancelled. A 2026-07-28 Tasks server needs the
// library's `rawDispatch` (the SDK's codecs refuse the Tasks wire shapes) and `v2RequestFraming`:
// the raw requests go out on the same stdio connection, their answers routed back here.
//
//   node tasks_client.mjs -- <server command> [args...]
//
// Exits 0 when every check passes, 1 otherwise.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createTaskSessionFromClient, resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { allPassed, check, run, textOf } from './checks.mjs';

const argv = process.argv.slice(2);
const cmd = argv[0] === '--' ? argv.slice(1) : argv;
if (cmd.length === 0) {
  console.error('usage: node tasks_client.mjs -- <server command> [args...]');
  process.exit(2);
}

const clientInfo = { name: 'peers-ext-tasks-client', version: '0.1.0' };
const clientCapabilities = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const client = new Client(clientInfo, { capabilities: clientCapabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
const transport = new StdioClientTransport({ command: cmd[0], args: cmd.slice(1), env: { ...process.env }, stderr: 'inherit' });

// The raw path: requests with ids of their own on the client's transport, their answers taken
// before the SDK sees them.
const pending = new Map();
let nextRaw = 1;
function routeRawAnswers() {
  const sdk = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const waiting = typeof message?.id === 'string' ? pending.get(message.id) : undefined;
    if (waiting && !('method' in message)) {
      pending.delete(message.id);
      waiting(message);
      return;
    }
    sdk?.(message, extra);
  };
}
async function rawDispatch(request, options = {}) {
  const id = `ext-tasks-raw-${nextRaw++}`;
  const answer = new Promise((resolve, reject) => {
    pending.set(id, resolve);
    options.signal?.addEventListener('abort', () => {
      pending.delete(id);
      reject(options.signal.reason ?? new Error('aborted'));
    });
  });
  await transport.send({ jsonrpc: '2.0', id, method: request.method, ...(request.params ? { params: request.params } : {}) });
  const message = await answer;
  return 'error' in message ? { kind: 'error', error: message.error } : { kind: 'result', result: message.result };
}

await run(client, async () => {
  await client.connect(transport);
  routeRawAnswers();
  check(client.getProtocolEra() === 'modern', `connected: ${client.getProtocolEra()}`);
  const session = createTaskSessionFromClient(client, {
    endpointId: 'example-server',
    rawDispatch,
    v2RequestFraming: { protocolVersion: '2026-07-28', clientInfo, clientCapabilities },
  });
  try {
    const execution = await session.callTool('count', { n: 3 });
    const { outcome } = await execution.settle();
    const result = resultFromTaskOutcome(outcome);
    check(textOf(result).includes('3'), `count ran as a task to completion: ${JSON.stringify(result).slice(0, 120)}`);

    const second = await session.callTool('count', { n: 5 });
    await second.cancel();
    let cancelled;
    try {
      const settled = await second.settle();
      cancelled = settled.outcome?.status ?? JSON.stringify(settled.outcome).slice(0, 80);
    } catch (e) {
      cancelled = `${e?.name}: ${e?.message}`;
    }
    check(/cancel/i.test(String(cancelled)), `a second call cancelled: ${cancelled}`);
  } finally {
    await session.close();
  }
  allPassed();
});
