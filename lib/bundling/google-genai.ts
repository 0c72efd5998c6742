/**
 * The `@google/genai` the function bundles take (lib/bundling/aliases.ts): the SDK's own Node ES module
 * (dist/node/index.mjs, one file) with the clients our adapters never use taken out of `GoogleGenAI`.
 *
 * Why: the SDK's constructor builds every sub-client (live, batches, chats, caches, files, authTokens, tunings,
 * fileSearchStores) and the class has getters for the "next gen" clients (interactions, webhooks, agents, triggers,
 * environments, credentials, voices, getNextGenClient), so esbuild keeps all of them and everything they reach. The
 * Gemini adapters (lambdas/render/google-veo, lambdas/render/google-lyria) only construct the client with an API key
 * and call `models.generateVideos`, `operations.getVideosOperation` and `models.generateContent` (plus `ApiError`,
 * `GenerateVideosOperation`). Without those lines the rest tree-shakes: about 250 KiB of each Google render function.
 *
 * How: the trim removes exact text and nothing else: the eight constructor lines and the members before the
 * constructor, which it replaces with getters (and a getNextGenClient) that throw "not bundled", so a function that
 * reaches for a removed client fails loudly instead of finding `undefined`. If any expected text is not found exactly
 * (a new SDK version), it throws naming the version: the SDK must not silently bundle as something else. The file
 * is regenerated from the installed package whenever it differs (keyed by the package file's content, whose sha256
 * and version head it), inside the project's node_modules so its bare imports (p-retry, ws, ...) resolve as the
 * package's own do. Only the bundles see it: the embedded runtime and the tests import the real package.
 * test/unit/bundling/vendor-aliases.test.ts bundles the SDK with it and makes the adapters' calls through it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const PACKAGE = '@google/genai';
/** The module esbuild resolves `@google/genai` to for platform node (the package's exports, node → import). */
const ENTRY = './dist/node/index.mjs';

/** The constructor's sub-clients the adapters never use; each line exactly once in the module, in the constructor. */
export const REMOVED_CONSTRUCTOR_LINES = [
  '        this.live = new Live(this.apiClient, auth, new NodeWebSocketFactory());\n',
  '        this.batches = new Batches(this.apiClient);\n',
  '        this.chats = new Chats(this.models, this.apiClient);\n',
  '        this.caches = new Caches(this.apiClient);\n',
  '        this.files = new NodeFiles(this.apiClient);\n',
  '        this.authTokens = new Tokens(this.apiClient);\n',
  '        this.tunings = new Tunings(this.apiClient);\n',
  '        this.fileSearchStores = new FileSearchStores(this.apiClient);\n',
];

const CLASS_OPEN = 'class GoogleGenAI {\n';
const CONSTRUCTOR = '    constructor(options = {}) {\n';

/** The class's members before its constructor (the "next gen" clients), by their first lines, in order. */
export const REMOVED_MEMBERS = [
  '    getNextGenClient() {',
  '    get interactions() {',
  '    get webhooks() {',
  '    get agents() {',
  '    get triggers() {',
  '    get environments() {',
  '    get credentials() {',
  '    get voices() {',
];

/** What stands in for the removed clients: a getter (a method for getNextGenClient) that throws. */
const STUBBED = ['live', 'batches', 'chats', 'caches', 'files', 'authTokens', 'tunings', 'fileSearchStores', 'interactions', 'webhooks', 'agents', 'triggers', 'environments', 'credentials', 'voices'];
const NOT_BUNDLED = '__paycallNotBundled';

function stubs(): string {
  const getters = STUBBED.map((name) => `    get ${name}() { throw ${NOT_BUNDLED}('${name}'); }\n`).join('');
  return `${getters}    getNextGenClient() { throw ${NOT_BUNDLED}('getNextGenClient'); }\n`;
}

function occurrences(text: string, part: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(part); i !== -1; i = text.indexOf(part, i + 1)) at.push(i);
  return at;
}

/**
 * The trimmed module from the package's dist/node/index.mjs text; throws if anything it removes is not exactly where
 * and what it expects. Pure: the same source and version give the same text.
 */
export function trimGoogleGenAI(source: string, version: string): string {
  const fail = (what: string) =>
    new Error(
      `${PACKAGE} ${version}: lib/bundling/google-genai.ts cannot trim ${ENTRY.slice(2)}: ${what}. ` +
        `The SDK changed: update the trim for ${PACKAGE} ${version} (and check what it removes) before bundling the Google render functions.`,
    );
  const classes = occurrences(source, CLASS_OPEN);
  if (classes.length !== 1) throw fail(`expected ${JSON.stringify(CLASS_OPEN)} once, found it ${classes.length} times`);
  if (source.includes(NOT_BUNDLED)) throw fail(`the module already declares ${NOT_BUNDLED}`);
  const bodyStart = classes[0] + CLASS_OPEN.length;
  // The class's members are indented: its first line of a lone "}" closes it.
  const classEnd = source.indexOf('\n}\n', bodyStart);
  if (classEnd === -1) throw fail('expected the end of class GoogleGenAI ("}" alone on a line)');
  const constructors = occurrences(source.slice(bodyStart, classEnd), CONSTRUCTOR);
  if (constructors.length !== 1) throw fail(`expected ${JSON.stringify(CONSTRUCTOR)} once in class GoogleGenAI, found it ${constructors.length} times`);
  const constructorAt = bodyStart + constructors[0];

  const members = source.slice(bodyStart, constructorAt);
  const headers = members.split('\n').filter((line) => /^ {4}[^\s}]/.test(line));
  if (!members.endsWith('    }\n') || JSON.stringify(headers) !== JSON.stringify(REMOVED_MEMBERS)) {
    throw fail(`expected exactly these members before GoogleGenAI's constructor: ${REMOVED_MEMBERS.map((m) => m.trim()).join(' ')}; found ${headers.map((m) => m.trim()).join(' ') || 'none'}`);
  }

  let constructorBody = source.slice(constructorAt, classEnd);
  for (const line of REMOVED_CONSTRUCTOR_LINES) {
    const inModule = occurrences(source, line).length;
    const inConstructor = occurrences(constructorBody, line).length;
    if (inModule !== 1 || inConstructor !== 1) {
      throw fail(`expected ${JSON.stringify(line.trim())} once, in GoogleGenAI's constructor; found it ${inModule} times in the module, ${inConstructor} in the constructor`);
    }
    constructorBody = constructorBody.replace(line, '');
  }

  const helper =
    `function ${NOT_BUNDLED}(name) {\n` +
    `    return new Error('GoogleGenAI.' + name + ' is not bundled: the Gemini functions use only models and operations (lib/bundling/google-genai.ts)');\n` +
    `}\n`;
  const trimmed = source.slice(0, classes[0]) + helper + CLASS_OPEN + stubs() + constructorBody + source.slice(classEnd);
  // The package's source map describes the untrimmed file; the bundle's map points at this one instead.
  const body = trimmed.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '\n');
  const sha256 = createHash('sha256').update(source).digest('hex');
  return `// ${PACKAGE} ${version} ${ENTRY.slice(2)} (sha256 ${sha256}), trimmed by lib/bundling/google-genai.ts: generated, do not edit.\n${body}`;
}

const made = new Map<string, { stamp: string; file: string }>();

/**
 * Writes the trimmed module of the installed package under the project's node_modules (again when the package's
 * file changes) and returns its path; throws as trimGoogleGenAI does.
 */
export function trimmedGoogleGenAI(projectRoot: string): string {
  const packageDir = path.join(projectRoot, 'node_modules', ...PACKAGE.split('/'));
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { version: string; exports?: Record<string, { node?: { import?: string } }> };
  const entry = manifest.exports?.['.']?.node?.import;
  if (entry !== ENTRY) {
    throw new Error(`${PACKAGE} ${manifest.version}: its Node ES module is ${entry ?? 'not declared'}, not ${ENTRY}; update lib/bundling/google-genai.ts for this version`);
  }
  // The copy's bare imports resolve from the project's node_modules; the package's own would win if it had any.
  if (existsSync(path.join(packageDir, 'node_modules'))) {
    throw new Error(`${PACKAGE} ${manifest.version} has its own node_modules: its trimmed copy (lib/bundling/google-genai.ts) would import other versions of its dependencies`);
  }
  const sourceFile = path.join(packageDir, ENTRY);
  const file = path.join(projectRoot, 'node_modules', '.cache', 'paycall', 'google-genai.mjs');
  const { mtimeMs, size, ino } = statSync(sourceFile);
  const stamp = `${manifest.version}:${ino}:${mtimeMs}:${size}`;
  if (made.get(projectRoot)?.stamp === stamp && existsSync(file)) return file;

  const text = trimGoogleGenAI(readFileSync(sourceFile, 'utf8'), manifest.version);
  if (!existsSync(file) || readFileSync(file, 'utf8') !== text) {
    mkdirSync(path.dirname(file), { recursive: true });
    // Whole or not at all: builds in other processes may be reading it.
    const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(partial, text);
    renameSync(partial, file);
  }
  made.set(projectRoot, { stamp, file });
  return file;
}
