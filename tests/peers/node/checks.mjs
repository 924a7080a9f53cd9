// What the TypeScript client scripts share: a check that prints and throws, a
// result's text, the checks of the demo server's prompts, resources and
// completions (tests/peers/python/server.py and its twins), and the run that
// closes the client and exits 0 or 1. Each SDK's client has the same methods
// for these.

// With CHECKS_KEEP_GOING=1 a failed check is counted, not thrown, so that one
// run shows every check a proxy passes (the run still exits 1).
const keepGoing = process.env.CHECKS_KEEP_GOING === '1';
let failed = 0;
let passed = 0;
const skipped = [];

export function check(cond, what) {
  console.log(`${cond ? 'ok  ' : 'FAIL'} ${what}`);
  if (cond) {
    passed += 1;
  } else {
    failed += 1;
    if (!keepGoing) throw new Error(`check failed: ${what}`);
  }
}

// A check not run, and why: counted and named in the last lines, so a test
// that expects it to run fails when it did not (a capability lost on the way).
export function skip(what) {
  console.log(`skip ${what}`);
  skipped.push(what);
}

export const textOf = (r) => r.content.filter((c) => c.type === 'text').map((c) => c.text).join('');

// The demo server's tools listed (with `wanted` among them), echo, and add (its
// structured output, or, for an SDK older than structured output, its text).
// Returns the tool names.
export async function checkDemoTools(client, wanted, { structured }) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name).sort();
  check(wanted.every((n) => names.includes(n)), `tools/list -> ${names}`);
  let r = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
  check(textOf(r) === 'hi' && !r.isError, 'tools/call echo');
  r = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  if (structured) {
    check(r.structuredContent?.result === 5, `tools/call add structured=${JSON.stringify(r.structuredContent)}`);
  } else {
    check(textOf(r) === '5' && !r.isError, `tools/call add -> ${textOf(r)}`);
  }
  return names;
}

// The demo server's prompt, its resource and resource template, and a prompt completion.
export async function checkDemoPromptsAndResources(client) {
  const { prompts } = await client.listPrompts();
  check(prompts.map((p) => p.name).join() === 'greet', 'prompts/list');
  const p = await client.getPrompt({ name: 'greet', arguments: { name: 'Bob', style: 'formal' } });
  check(p.messages[0].content.text.includes('formal greeting for Bob'), 'prompts/get');

  const { resources } = await client.listResources();
  check(resources.map((x) => x.uri).join() === 'demo://readme', 'resources/list');
  const rd = await client.readResource({ uri: 'demo://users/42' });
  check(rd.contents[0].text.includes('"id": "42"'), 'resources/read template');

  const c = await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'style', value: 'f' } });
  check(c.completion.values.join() === 'friendly,formal', `completion/complete prompt -> ${c.completion.values}`);
}

// The last lines of a run: how many checks passed and which were skipped,
// then every check passed, or how many did not.
export function allPassed() {
  console.log(`checks: ${passed} passed, ${skipped.length} skipped${skipped.length ? `: ${skipped.join('; ')}` : ''}`);
  console.log(failed === 0 ? 'all checks passed' : `${failed} checks failed`);
}

// Runs `main`, closes the client, and exits 0 when every check passed, 1 otherwise.
export async function run(client, main) {
  let code = 0;
  try {
    await main();
    if (failed > 0) code = 1;
  } catch (e) {
    console.error(e);
    code = 1;
  } finally {
    await client.close();
  }
  process.exit(code);
}

// The canned answers to a server's questions, each noting in `seen` that it was asked:
// { sampling, roots }, handlers to register under each SDK's own key for the method.
export function cannedAnswers(seen) {
  return {
    sampling: async () => {
      seen.push('sample');
      return { role: 'assistant', content: { type: 'text', text: 'an old silent pond' }, model: 'fake-llm', stopReason: 'endTurn' };
    },
    roots: async () => {
      seen.push('roots');
      return { roots: [{ uri: 'file:///tmp/peers-research', name: 'work' }] };
    },
  };
}
