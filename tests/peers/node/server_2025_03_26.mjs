// An older legacy server: the official TypeScript SDK 1.12.3's low-level Server
// (installed as sdk-2025-03-26), whose newest protocol version is 2025-03-26: it
// answers an `initialize` offering 2025-11-25 with 2025-03-26. Its surface is the
// part of server-everything's that 2025-03-26 has (no elicitation): echo,
// get-sum, a tool that asks the client for sampling and one that asks for its
// roots, a prompt and a resource.
//
//   node server_2025_03_26.mjs
import { Server } from 'sdk-2025-03-26/server/index.js';
import { StdioServerTransport } from 'sdk-2025-03-26/server/stdio.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from 'sdk-2025-03-26/types.js';

const server = new Server(
  { name: 'peers-server-2025-03-26', version: '0.1.0' },
  { capabilities: { tools: {}, prompts: {}, resources: {} } },
);

const object = (properties, required = Object.keys(properties)) => ({ type: 'object', properties, required });
const tools = [
  { name: 'echo', description: 'Echoes the message.', inputSchema: object({ message: { type: 'string' } }) },
  { name: 'get-sum', description: 'Adds two numbers.', inputSchema: object({ a: { type: 'number' }, b: { type: 'number' } }) },
  {
    name: 'trigger-sampling-request',
    description: 'Asks the client to sample.',
    inputSchema: object({ prompt: { type: 'string' }, maxTokens: { type: 'number' } }, ['prompt']),
  },
  { name: 'get-roots-list', description: "Asks the client for its roots.", inputSchema: object({}) },
];
const text = (t) => ({ content: [{ type: 'text', text: t }] });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  const args = req.params.arguments ?? {};
  switch (req.params.name) {
    case 'echo':
      return text(`Echo: ${args.message}`);
    case 'get-sum':
      return text(`The sum of ${args.a} and ${args.b} is ${args.a + args.b}.`);
    case 'trigger-sampling-request': {
      const sampled = await server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }],
        maxTokens: args.maxTokens ?? 100,
      });
      return text(`LLM sampling result: ${sampled.content.text}`);
    }
    case 'get-roots-list': {
      const { roots } = await server.listRoots();
      return text(`Roots: ${roots.map((r) => r.uri).join(', ')}`);
    }
    default:
      return { ...text(`unknown tool ${req.params.name}`), isError: true };
  }
});
server.setRequestHandler(ListPromptsRequestSchema, async () => ({
  prompts: [{ name: 'simple-prompt', description: 'A prompt without arguments.' }],
}));
server.setRequestHandler(GetPromptRequestSchema, async () => ({
  messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt without arguments.' } }],
}));
server.setRequestHandler(ListResourcesRequestSchema, async () => ({
  resources: [{ uri: 'demo://old/readme', name: 'readme', mimeType: 'text/plain' }],
}));
server.setRequestHandler(ReadResourceRequestSchema, async (req) => ({
  contents: [{ uri: req.params.uri, mimeType: 'text/plain', text: 'Hello from a 2025-03-26 server.' }],
}));

await server.connect(new StdioServerTransport());
