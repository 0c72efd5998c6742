// The root package's postinstall: makes sure the chain engine's native binding for this machine is installed.
//
// Hardhat EDR ships its binding as one package per platform (@nomicfoundation/edr-<platform>), each with
// `engines.node >= 22`. npm skips an optional package whose engines do not match the Node that runs npm itself,
// so `npm install` run by Node 20 (this machine's npm) leaves the binding out even though the project runs on
// Node 22 (the `node` dev dependency); a required platform package would instead fail the install elsewhere
// (EBADPLATFORM). So the bindings are optional dependencies, and when npm skipped this platform's one, this fetches
// exactly the version and tarball the lockfile records (its integrity checked) into node_modules. It never writes
// package.json or package-lock.json. Plain JavaScript: it may run before anything else is usable.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

function platformPackage() {
  const { platform, arch } = process;
  if (platform === 'darwin') return `@nomicfoundation/edr-darwin-${arch}`;
  if (platform === 'win32') return `@nomicfoundation/edr-win32-${arch}-msvc`;
  if (platform === 'linux') {
    const glibc = Boolean(process.report?.getReport().header.glibcVersionRuntime);
    return `@nomicfoundation/edr-linux-${arch}-${glibc ? 'gnu' : 'musl'}`;
  }
  return undefined;
}

const name = platformPackage();
const entry = name && JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages[`node_modules/${name}`];
if (!entry) {
  console.warn(`[chain-binding] no EDR binding for ${process.platform}-${process.arch} in the lockfile: the embedded chain cannot start here`);
  process.exit(0);
}
try {
  const installed = createRequire(join(root, 'package.json'))(`${name}/package.json`).version;
  if (installed === entry.version) process.exit(0);
} catch {
  // not installed: fetched below
}

const scratch = mkdtempSync(join(tmpdir(), 'edr-binding-'));
try {
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', `${name}@${entry.version}`, '--json', '--pack-destination', scratch], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const tarball = join(scratch, packed.filename);
  const [algorithm, expected] = entry.integrity.split('-');
  const actual = createHash(algorithm).update(readFileSync(tarball)).digest('base64');
  if (actual !== expected) throw new Error(`${name}@${entry.version}: integrity ${algorithm}-${actual}, lockfile says ${entry.integrity}`);
  const target = join(root, 'node_modules', name);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
  console.log(`[chain-binding] installed ${name}@${entry.version}, which npm skipped (it needs Node >= 22 to run npm)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
