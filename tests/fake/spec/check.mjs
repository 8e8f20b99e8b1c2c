// Checks JSON payloads against Discord's API description (npm discord-api-spec: the
// Zod schemas and the routes generated from github discord/discord-api-spec's OpenAPI
// document), for tests/fake/discord_spec.py. Run in the folder where that package is
// installed: `node check.mjs`. Reads one JSON request a line on stdin and writes one
// JSON answer a line on stdout:
//   {"method": "post", "path": "/channels/{}/messages", "part": "request"|"<status>",
//    "body": ...}  ->  {"schema": "MessageCreateRequest", "issues": [...]} (or
//   {"schema": null} when the description has no named schema for it).
// Answers are checked strictly (a field the description does not have is an issue: the
// Zod module is loaded a second time with its objects made strict); requests are not
// (Discord ignores fields it does not know, and discord.py sends a few such).
import { readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const build = join(process.cwd(), "node_modules", "discord-api-spec", "build");
const source = readFileSync(build + "/discord-api-spec.zod.js", "utf8");
const strict = source.replace("let zObject = z.object;", "let zObject = z.strictObject;");
if (strict === source) throw new Error("discord-api-spec: cannot make its objects strict");
const strictPath = join(process.cwd(), "discord-api-spec.strict.mjs");
writeFileSync(strictPath, strict);
const strictZod = await import(pathToFileURL(strictPath).href);
const laxZod = await import(pathToFileURL(build + "/discord-api-spec.zod.js").href);

// The routes: `export interface Paths { "/path": { get: { requestBody?: T;
// responses: { "200": T; ... } } } }` of the generated types.
function routes() {
  const text = readFileSync(build + "/discord-api-spec.ts", "utf8");
  const lines = text.slice(text.indexOf("export interface Paths {")).split("\n");
  const found = {};
  let path = null, method = null, key = null, type = null;
  const finish = () => {
    if (key !== null && path && method) {
      found[`${method} ${path}`] ??= {};
      found[`${method} ${path}`][key] = type.replace(/;\s*$/, "").trim();
    }
    key = null;
  };
  for (const line of lines.slice(1)) {
    if (/^}/.test(line)) break;
    let m;
    if (key !== null) {
      type += " " + line.trim();
      if (line.trim().endsWith(";") || line.trim() === "") finish();
      continue;
    }
    if ((m = /^  "([^"]+)": \{/.exec(line))) { path = m[1].replace(/\{[^}]+\}/g, "{}"); continue; }
    if ((m = /^    (get|put|post|patch|delete): \{/.exec(line))) { method = m[1]; continue; }
    if ((m = /^      requestBody\??:(.*)$/.exec(line))) {
      key = "request"; type = m[1];
      if (m[1].trim().startsWith("{")) { key = null; found[`${method} ${path}`] ??= {}; continue; }
      if (m[1].trim().endsWith(";")) finish();
      continue;
    }
    if ((m = /^        "(\d{3}|4XX)":\s*(.*)$/.exec(line))) {
      key = m[1]; type = m[2];
      if (m[2].trim().endsWith(";")) finish();
    }
  }
  return found;
}
const ROUTES = routes();

function alternatives(type) {
  return type.replace(/^\|/, "").split("|").map((t) => t.trim()).filter(Boolean);
}

function check(schemaName, body, strict) {
  const zod = strict ? strictZod : laxZod;
  let array = false;
  let name = schemaName;
  if (name.endsWith("[]")) { array = true; name = name.slice(0, -2); }
  if (name === "null") return body === null ? [] : [{ path: [], message: "expected null" }];
  const schema = zod[name + "Schema"];
  if (schema === undefined) return null;
  const bodies = array ? (Array.isArray(body) ? body : null) : [body];
  if (bodies === null) return [{ path: [], message: "expected an array" }];
  const issues = [];
  // A union's issue: those of the alternative that came nearest (fewest issues).
  const flat = (list, prefix) => list.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors?.length) {
      const nearest = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
      if (nearest.length) return flat(nearest, path);
    }
    return [{ ...issue, path }];
  });
  bodies.forEach((item, i) => {
    const result = schema.safeParse(item);
    if (!result.success) {
      for (const issue of flat(result.error.issues, [])) {
        issues.push({ path: array ? [i, ...issue.path] : issue.path, code: issue.code,
                      message: issue.message, keys: issue.keys, expected: issue.expected,
                      values: issue.values, maximum: issue.maximum, minimum: issue.minimum,
                      got: typeof issue.input === "object" ? JSON.stringify(issue.input)?.slice(0, 80) : issue.input });
      }
    }
  });
  return issues;
}

function answer(request) {
  const route = ROUTES[`${request.method} ${request.path}`];
  if (route === undefined) return { route: false };
  const type = route[request.part];
  if (type === undefined) {
    return { route: true, schema: null, described: Object.keys(route) };
  }
  if (type === "unknown" || type === "undefined") return { route: true, schema: type };
  let best = null;
  for (const name of alternatives(type)) {
    if (name === "null" && request.body !== null) continue;
    const issues = check(name, request.body, request.part !== "request");
    if (issues === null) continue;
    if (issues.length === 0) return { route: true, schema: name, issues: [] };
    if (best === null || issues.length < best.issues.length) best = { schema: name, issues };
  }
  if (best === null) return { route: true, schema: null, type };
  return { route: true, schema: best.schema, type, issues: best.issues };
}

const input = createInterface({ input: process.stdin });
for await (const line of input) {
  if (!line.trim()) continue;
  let reply;
  try {
    const request = JSON.parse(line);
    if (request.types !== undefined) {
      const { checkTypes } = await import("./types.mjs");  // typescript: when needed
      reply = { found: checkTypes(request.types) };
    } else if (request.schema !== undefined) {
      const issues = check(request.schema, request.body, true);
      reply = { schema: request.schema, issues: issues ?? [], known: issues !== null };
    } else {
      reply = answer(request);
    }
  } catch (error) {
    reply = { error: String(error && error.stack || error) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
}
