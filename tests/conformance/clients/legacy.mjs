// A 2025-11-25 client for the conformance suite's client scenarios, on stdio
// through the era bridge: the suite runs `node legacy.mjs --bridge BRIDGE URL`
// with its mock server's URL last; this starts `BRIDGE --connect URL` and
// speaks the initialize handshake to it, so the mock server, which speaks
// 2026-07-28, scores what the bridge does for a legacy client: its `_meta` and
// headers on every request, its tool headers, its input_required rounds asked
// as requests (answered here as a user would: a form's defaults, a sampled
// text, no roots). Every scenario gets the same run: the tools listed and each
// called (with the arguments the scenario's context names, else ones made from
// its input schema), the resources listed and each read, the prompts listed and
// each got. Plain Node, no packages.
import { bridged } from './bridge.mjs';

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
const bridge = bridged('node legacy.mjs --bridge BRIDGE URL');

// What a user would answer each of the server's questions with.
function answer(method, params) {
  switch (method) {
    case 'elicitation/create': {
      const properties = params?.requestedSchema?.properties ?? {};
      const content = Object.fromEntries(
        Object.entries(properties).map(([k, p]) => [k, p.default ?? example(p)]),
      );
      return { action: 'accept', content };
    }
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'conformance' };
    case 'roots/list':
      return { roots: [] };
    case 'ping':
      return {};
    default:
      return null;
  }
}

bridge.answering(answer);

async function request(method, params = {}) {
  const response = await bridge.send(method, params);
  if (response.error) throw new Error(`${method}: ${JSON.stringify(response.error)}`);
  return response.result;
}

// A value of a JSON schema's type, for arguments the context does not give.
function example(schema = {}) {
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

function argumentsFor(tool) {
  const given = (context.toolCalls ?? []).find((c) => c.name === tool.name);
  if (given) return given.arguments;
  const properties = tool.inputSchema?.properties ?? {};
  return Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, example(p)]));
}

async function run() {
  const init = await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
    clientInfo: { name: 'mcp-spec-conformance-legacy-client', version: '0.1.0' },
  });
  bridge.notify('notifications/initialized');
  const offered = init.capabilities ?? {};
  const failures = [];
  const attempt = async (what, f) => {
    try {
      await f();
    } catch (e) {
      failures.push(`${what}: ${e.message}`);
    }
  };
  if (offered.tools) {
    const { tools } = await request('tools/list');
    for (const tool of tools) {
      await attempt(`tools/call ${tool.name}`, () => request('tools/call', { name: tool.name, arguments: argumentsFor(tool) }));
    }
  }
  if (offered.resources) {
    await attempt('resources', async () => {
      const { resources } = await request('resources/list');
      for (const r of resources) await request('resources/read', { uri: r.uri });
    });
  }
  if (offered.prompts) {
    await attempt('prompts', async () => {
      const { prompts } = await request('prompts/list');
      for (const p of prompts) {
        const args = Object.fromEntries((p.arguments ?? []).map((a) => [a.name, 'x']));
        await request('prompts/get', { name: p.name, arguments: args });
      }
    });
  }
  // A scenario's mock may refuse what it does not serve; what it scores is on its side.
  for (const f of failures) console.error(`legacy client (${scenario}): ${f}`);
}

await bridge.finish(`legacy client (${scenario})`, run);
