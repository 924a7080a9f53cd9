// The user's browser for the suite's auth scenarios (`--oauth-browser`): the
// bridge runs `node browser.mjs URL` with its authorization URL; the suite's
// mock authorization server answers it at once with a redirect carrying the
// code, which this follows to the bridge's loopback callback, as a browser
// would after the user approved. Plain Node, no packages.
const url = process.argv.at(-1);
try {
  const response = await fetch(url);
  console.error(`browser: ${response.url.split('?')[0]} answered ${response.status}`);
} catch (e) {
  console.error(`browser: ${e.message}`);
  process.exit(1);
}
