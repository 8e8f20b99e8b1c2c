import ts from "typescript";
import { join } from "node:path";
const root = process.cwd();
// Gateway events against discord-api-types (TypeScript types only): each batch is one
// file of typed constants, checked by one TypeScript language service kept warm.
const FILE = join(root, "__events.ts");
let text = "";
let version = 0;
const options = { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
  skipLibCheck: true, types: [] };
const host = {
  getScriptFileNames: () => [FILE],
  getScriptVersion: (f) => (f === FILE ? String(version) : "0"),
  getScriptSnapshot: (f) => {
    if (f === FILE) return ts.ScriptSnapshot.fromString(text);
    if (!ts.sys.fileExists(f)) return undefined;
    return ts.ScriptSnapshot.fromString(ts.sys.readFile(f));
  },
  getCurrentDirectory: () => root,
  getCompilationSettings: () => options,
  getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
  fileExists: ts.sys.fileExists, readFile: ts.sys.readFile,
  readDirectory: ts.sys.readDirectory, directoryExists: ts.sys.directoryExists,
  getDirectories: ts.sys.getDirectories,
};
// JSON has no enums: an enum's value is checked as its number or string (so a flag set
// or a locale in JSON is one), every other field and shape as the type says.
const LOOSE = `import type * as D from "discord-api-types/v10";
type Loose<T> = T extends string ? string : T extends number ? number
  : T extends boolean ? T : T extends null | undefined ? T
  : T extends readonly (infer U)[] ? Loose<U>[]
  : T extends object ? { [K in keyof T]: Loose<T[K]> } : T;`;
const service = ts.createLanguageService(host, ts.createDocumentRegistry());
export function checkTypes(items) {
  const lines = [LOOSE];
  items.forEach((item, i) => lines.push(`export const e${i}: Loose<D.${item.type}> = ${JSON.stringify(item.body)};`));
  text = lines.join("\n");
  version += 1;
  const found = items.map(() => []);
  for (const d of service.getSemanticDiagnostics(FILE)) {
    const line = text.slice(0, d.start).split("\n").length - 1 - LOOSE.split("\n").length;
    const message = ts.flattenDiagnosticMessageText(d.messageText, " ");
    if (line >= 0 && line < items.length) found[line].push(message);
    else found.forEach((f) => f.push(message));
  }
  return found;
}
