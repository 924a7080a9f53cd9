// A 2026-07-28 client for the conformance suite's client scenarios, on stdio
// through the era bridge: the suite runs `node modern.mjs --bridge BRIDGE URL`
// with its mock server's URL last and the scenario in MCP_CONFORMANCE_SCENARIO;
// this starts `BRIDGE --connect URL` and speaks 2026-07-28 to it (every request
// with its `_meta`, each `input_required` round answered and retried), so the
// mock server, which speaks 2025-11-25, scores what the bridge does for a
// modern client. Plain Node, no packages.
import { bridged, example } from './bridge.mjs';

const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
const bridge = bridged('node modern.mjs --bridge BRIDGE URL');

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {}, roots: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-spec-conformance-modern-client', version: '0.1.0' },
};

const send = (method, params) => bridge.send(method, { ...params, _meta: meta });

// What a user would answer each question with: a form's defaults, a sampled
// text, no roots.
function answer(request) {
  switch (request.method) {
    case 'elicitation/create': {
      const properties = request.params?.requestedSchema?.properties ?? {};
      const content = Object.fromEntries(
        Object.entries(properties).filter(([, p]) => p.default !== undefined).map(([k, p]) => [k, p.default]),
      );
      return { action: 'accept', content };
    }
    case 'sampling/createMessage':
      return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'conformance' };
    case 'roots/list':
      return { roots: [] };
    default:
      throw new Error(`asked ${request.method}, which this client does not answer`);
  }
}

// A request, its input_required rounds answered and retried until it completes.
async function request(method, params = {}) {
  let response = await send(method, params);
  for (let round = 0; round < 8; round++) {
    if (response.error) throw new Error(`${method}: ${JSON.stringify(response.error)}`);
    const result = response.result;
    if (result.resultType !== 'input_required') return result;
    const inputResponses = Object.fromEntries(
      Object.entries(result.inputRequests ?? {}).map(([key, asked]) => [key, answer(asked)]),
    );
    response = await send(method, { ...params, inputResponses, requestState: result.requestState });
  }
  throw new Error(`${method}: more than 8 input_required rounds`);
}

async function run() {
  const { tools } = await request('tools/list');
  const named = (name) => tools.find((t) => t.name === name) ?? tools[0];
  switch (scenario) {
    case 'sse-retry':
      await request('tools/call', { name: named('test_reconnection').name, arguments: {} });
      break;
    case 'elicitation-sep1034-client-defaults':
      await request('tools/call', { name: named('test_client_elicitation_defaults').name, arguments: {} });
      break;
    default: {
      // Every tool, with the arguments the scenario's context names, else (initialize,
      // tools_call) the suite's own client's { a: 2, b: 3 } where the tool takes them, else
      // ones made from its input schema.
      for (const tool of tools) {
        const given = (context.toolCalls ?? []).find((c) => c.name === tool.name);
        await request('tools/call', { name: tool.name, arguments: given?.arguments ?? argumentsFor(tool) });
      }
    }
  }
}

// Arguments from a tool's input schema.
function argumentsFor(tool) {
  const properties = tool.inputSchema?.properties ?? {};
  if (properties.a && properties.b) return { a: 2, b: 3 };
  return Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, example(p)]));
}

await bridge.finish(`modern client (${scenario})`, run);
