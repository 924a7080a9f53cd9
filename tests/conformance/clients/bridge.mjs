// What both scenario clients share: the suite runs `node CLIENT --bridge BRIDGE URL`
// with its mock server's URL last; the client starts `BRIDGE --connect URL` and
// speaks JSON lines to it on its stdio. Plain Node, no packages.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

// The bridge started, and the client's side of it: `send` a request (its
// response, whole), `notify`, `answering` the bridge's requests with a
// function (its result, or null for "method not found"), and `finish`.
// The bridge's command line for the scenario whose mock server is at the URL
// (the last argument; `--bridge BRIDGE` before it), and the folder to remove
// when done: `{ bridge, args, store }`.
export function bridgeCommand(usage) {
  const argv = process.argv.slice(2);
  const url = argv.at(-1);
  const at = argv.indexOf('--bridge');
  const bridge = at < 0 ? undefined : argv[at + 1];
  if (!bridge || !url) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  // OAuth as a user of the bridge has it: the authorization URL "opened" by
  // browser.mjs, tokens kept in a folder of this run's own (the suite runs
  // every scenario at once), the client id metadata document URL the suite
  // expects, and a pre-registered client where the scenario names one.
  const store = mkdtempSync(join(tmpdir(), 'mcp-era-bridge-oauth-'));
  const browser = `${process.execPath} ${new URL('./browser.mjs', import.meta.url).pathname}`;
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
  const oauth = ['--oauth-browser', browser, '--oauth-store', store, '--oauth-timeout', '20'];
  oauth.push('--client-metadata-url', 'https://conformance-test.local/client-metadata.json');
  if (context.client_id && context.client_secret) {
    oauth.push('--client-id', context.client_id, '--client-secret', context.client_secret);
  }
  // The one extension the bridge does: a client signing in as itself, as its user would configure it.
  if (process.env.MCP_CONFORMANCE_SCENARIO === 'auth/client-credentials-basic') oauth.push('--client-credentials');
  return { bridge, args: ['--connect', url, ...oauth], store };
}

// A value of a JSON schema's type, for a tool's arguments the scenario does not give.
export function example(schema = {}) {
  if (schema.enum) return schema.enum[0];
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'number':
      return 1.5;
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'x';
  }
}

export function removeStore(store) {
  rmSync(store, { recursive: true, force: true });
}

export function bridged(usage) {
  const { bridge, args, store } = bridgeCommand(usage);
  const child = spawn(bridge, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let next = 1;
  let answer = () => null;
  const write = (message) => child.stdin.write(JSON.stringify(message) + '\n');
  createInterface({ input: child.stdout }).on('line', (line) => {
    const msg = JSON.parse(line);
    if (msg.method !== undefined && msg.id !== undefined) {
      const result = answer(msg.method, msg.params);
      write(
        result === null
          ? { jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: `Method not found: ${msg.method}` } }
          : { jsonrpc: '2.0', id: msg.id, result },
      );
    } else if (msg.method === undefined && waiting.has(msg.id)) {
      const { resolve } = waiting.get(msg.id);
      waiting.delete(msg.id);
      resolve(msg);
    }
  });
  child.on('exit', (code) => {
    for (const { reject } of waiting.values()) reject(new Error(`the bridge exited (${code})`));
  });
  return {
    send(method, params) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        write({ jsonrpc: '2.0', id, method, params });
      });
    },
    notify(method, params) {
      write(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
    },
    answering(f) {
      answer = f;
    },
    // Runs `run`, ends the bridge as a stdio client does (its input closed), and exits 0 or 1.
    async finish(label, run) {
      let status = 0;
      try {
        await run();
      } catch (e) {
        console.error(`${label}: ${e.message}`);
        status = 1;
      }
      child.stdin.end();
      await new Promise((resolve) => {
        if (child.exitCode !== null) resolve();
        else child.on('exit', resolve);
      });
      removeStore(store);
      process.exit(status);
    },
  };
}
