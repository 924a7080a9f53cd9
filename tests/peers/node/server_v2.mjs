// A server on the official TypeScript SDK v2 (@modelcontextprotocol/server 2.4.0) as a test peer,
// with the surface of tests/peers/python/server.py. It speaks 2026-07-28; `--legacy serve` also
// serves the 2025-11-25 handshake (the SDK runs the same handlers, asking a legacy client with
// requests), `--legacy reject` (the default) refuses it: a modern-only server. Tools ask for the
// user's input as input_required results.
//
//   node server_v2.mjs [--legacy reject|serve] [--http PORT]
//
// `--http PORT`: Streamable HTTP on loopback (the SDK's createMcpHandler, a web-standard
// handler, adapted to Node's http server here), modern only with `--legacy reject`.
import http from 'node:http';
import { McpServer, createMcpHandler, ResourceTemplate, acceptedContent, completable, inputRequired, inputResponse } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const argv = process.argv.slice(2);
const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const legacy = option('--legacy') ?? 'reject';
const httpPort = option('--http');

function makeServer() {
// The SDK's default list is the 2025 era's: 2026-07-28 is served (through server/discover) only
// when listed.
const server = new McpServer(
  { name: 'peers-ts-v2-server', version: '0.1.0' },
  { supportedProtocolVersions: ['2026-07-28', '2025-11-25'] },
);

server.registerTool('echo', { description: 'Echo the text back.', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
  content: [{ type: 'text', text }],
}));

server.registerTool(
  'add',
  {
    description: 'Add two numbers (structured output).',
    inputSchema: z.object({ a: z.number(), b: z.number() }),
    outputSchema: z.object({ result: z.number() }),
  },
  async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { result: a + b } }),
);

server.registerTool(
  'count',
  { description: 'Report progress n times, then return n.', inputSchema: z.object({ n: z.number() }) },
  async ({ n }, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (let i = 1; i <= n && token !== undefined; i++) {
      await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n, message: `step ${i}` } });
    }
    return { content: [{ type: 'text', text: String(n) }], structuredContent: { result: n } };
  },
);

// Two rounds: the name, then the party's size; what the first round found rides in requestState.
const Name = z.object({ name: z.string() });
const Party = z.object({ size: z.number().int() });
server.registerTool(
  'book_table',
  { description: 'Book a table; asks the user twice.', inputSchema: z.object({ date: z.string() }) },
  async ({ date }, ctx) => {
    const earlier = ctx.mcpReq.requestState();
    const named = acceptedContent(ctx.mcpReq.inputResponses, 'ask_name', Name);
    const name = named?.name ?? (earlier ? JSON.parse(earlier).name : undefined);
    if (!name) {
      return inputRequired({ inputRequests: { ask_name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: Name }) } });
    }
    const party = acceptedContent(ctx.mcpReq.inputResponses, 'ask_party', Party);
    if (!party) {
      return inputRequired({
        inputRequests: { ask_party: inputRequired.elicit({ message: `How many people are coming, ${name}?`, requestedSchema: Party }) },
        requestState: JSON.stringify({ name }),
      });
    }
    return { content: [{ type: 'text', text: `Booked ${date} for ${name}, party of ${party.size}` }] };
  },
);

// One round with two requests: sampling and roots.
server.registerTool(
  'haiku_with_roots',
  { description: 'Uses sampling and roots.', inputSchema: z.object({ topic: z.string() }) },
  async ({ topic }, ctx) => {
    const sampled = inputResponse(ctx.mcpReq.inputResponses, 'haiku');
    const roots = inputResponse(ctx.mcpReq.inputResponses, 'roots');
    if (sampled.kind !== 'sampling' || roots.kind !== 'roots') {
      return inputRequired({
        inputRequests: {
          haiku: inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: `A haiku about ${topic}` } }],
            maxTokens: 50,
          }),
          roots: inputRequired.listRoots(),
        },
      });
    }
    const text = sampled.result.content.text;
    const uris = roots.roots.map((r) => r.uri);
    return { content: [{ type: 'text', text: `${text} | roots=${JSON.stringify(uris)}` }] };
  },
);

server.registerPrompt(
  'greet',
  {
    description: 'Greet someone.',
    argsSchema: z.object({
      name: z.string(),
      style: completable(z.string(), (value) => ['friendly', 'formal', 'pirate'].filter((s) => s.startsWith(value ?? ''))),
    }),
  },
  async ({ name, style }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Please write a ${style ?? 'friendly'} greeting for ${name}.` } }],
  }),
);

server.registerResource('readme', 'demo://readme', { mimeType: 'text/plain', description: 'Static text resource' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Hello from peers-ts-v2-server.' }],
}));

server.registerResource(
  'user',
  new ResourceTemplate('demo://users/{user_id}', { list: undefined, complete: { user_id: (value) => ['42'].filter((id) => id.startsWith(value)) } }),
  { mimeType: 'application/json', description: 'User by id' },
  async (uri, { user_id }) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ id: user_id, name: 'Ada' }, null, 1) }],
  }),
);

return server;
}

if (httpPort) {
  const handler = createMcpHandler(makeServer, { legacy: legacy === 'serve' ? 'stateless' : 'reject' });
  http
    .createServer(async (req, res) => {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const body = ['GET', 'HEAD'].includes(req.method) ? undefined : Buffer.concat(chunks);
      const request = new Request(`http://127.0.0.1:${httpPort}${req.url}`, { method: req.method, headers: req.headers, body });
      const response = await handler.fetch(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) for await (const chunk of response.body) res.write(chunk);
      res.end();
    })
    .listen(Number(httpPort), '127.0.0.1');
} else {
  serveStdio(makeServer, { legacy });
}
