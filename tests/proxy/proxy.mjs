// @discordjs/proxy in front of UPSTREAM (Discord, or the tests' meter): the Discord REST
// proxy several garnet processes share through DISCORD_API_BASE, so that one token's rate
// limits (the global one and each route's) are kept for them all in one place.
//
//   node proxy.mjs PORT [UPSTREAM [GLOBAL]]   UPSTREAM: default https://discord.com;
//   GLOBAL: the global limit a second (Discord's 50; less models a bigger bot)
//
// Prints {"listening": PORT} once it listens, and at SIGTERM or SIGINT what it did:
// {"requests": n, "waited": n, "why": {limit: n}} (the times it held a request back
// for a limit: "global", or a route's).
import { createServer } from 'node:http';
import { proxyRequests } from '@discordjs/proxy';
import { REST } from '@discordjs/rest';

const port = Number(process.argv[2] ?? 8080);
const upstream = (process.argv[3] ?? 'https://discord.com').replace(/\/+$/, '');
const perSecond = Number(process.argv[4] ?? 50);
// offset: a second of the global limit is counted where the requests arrive, a little
// after they left; 150 ms of room (the default is 50) kept a loaded machine's requests
// out of Discord's next second.
const rest = new REST({ api: `${upstream}/api`, version: '10', globalRequestsPerSecond: perSecond, offset: 150 });
let requests = 0;
let waited = 0;
const why = {};
rest.on('rateLimited', (info) => {
  waited += 1;
  const key = info.global ? 'global' : info.route;
  why[key] = (why[key] ?? 0) + 1;
});
const handle = proxyRequests(rest);
const server = createServer((req, res) => {
  requests += 1;
  Promise.resolve(handle(req, res)).catch((error) => {
    console.error(error);
    if (!res.headersSent) res.statusCode = 502;
    res.end();
  });
});
server.listen(port, '127.0.0.1', () => console.log(JSON.stringify({ listening: port })));
const stop = () => {
  console.log(JSON.stringify({ requests, waited, why }));
  server.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
