/**
 * Asset store on a local directory (the embedded runtime's default). Writes are atomic (temp file + rename),
 * so a reader never sees half a file. The content type lives in a sidecar `<key>.meta.json`, written before
 * the body is renamed into place; a file without a sidecar falls back to its extension's type.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { AssetStore } from '../render/provider.js';

const META_SUFFIX = '.meta.json';

const TYPES_BY_EXTENSION: Record<string, string> = {
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
};

export function contentTypeFromKey(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return TYPES_BY_EXTENSION[ext] ?? 'application/octet-stream';
}

export class InvalidAssetKeyError extends Error {
  override name = 'InvalidAssetKeyError';
}

/**
 * Keys are relative slash-separated paths of [A-Za-z0-9._-] segments: no absolute paths, no `.`/`..`
 * segments, no backslashes, and no names that would collide with a sidecar.
 */
export function isValidAssetKey(key: string): boolean {
  if (key.length === 0 || key.length > 512 || key.endsWith(META_SUFFIX)) return false;
  return key.split('/').every((segment) => /^[A-Za-z0-9._-]+$/.test(segment) && segment !== '.' && segment !== '..');
}

export function assertValidAssetKey(key: string): void {
  if (!isValidAssetKey(key)) throw new InvalidAssetKeyError(`invalid asset key: ${JSON.stringify(key.slice(0, 100))}`);
}

/** Resolves a key under dir; the containment check is belt and braces on top of the key grammar. */
function pathOf(dir: string, key: string): string {
  assertValidAssetKey(key);
  const root = resolve(dir);
  const path = resolve(root, ...key.split('/'));
  if (!path.startsWith(root + sep)) throw new InvalidAssetKeyError('asset key escapes the store');
  return path;
}

async function writeAtomic(path: string, body: Uint8Array | string): Promise<void> {
  const temp = `${path}.${randomUUID()}.tmp`;
  try {
    await writeFile(temp, body);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

async function readIfExists(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function readAsset(dir: string, key: string): Promise<{ body: Uint8Array; contentType: string } | null> {
  const path = pathOf(dir, key);
  const body = await readIfExists(path);
  if (!body) return null;
  const meta = await readIfExists(path + META_SUFFIX);
  let contentType = contentTypeFromKey(key);
  if (meta) {
    try {
      contentType = (JSON.parse(meta.toString('utf8')) as { contentType?: string }).contentType ?? contentType;
    } catch {
      // A damaged sidecar only costs the stored type; the extension's type is a fine answer.
    }
  }
  return { body, contentType };
}

export class FileAssetStore implements AssetStore {
  private readonly publicUrl: string;

  constructor(
    private readonly dir: string,
    publicUrl: string,
  ) {
    this.publicUrl = publicUrl.replace(/\/+$/, '');
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    const path = pathOf(this.dir, key);
    await mkdir(dirname(path), { recursive: true });
    // Sidecar first: once the body is visible under its name, its type is already known.
    await writeAtomic(path + META_SUFFIX, JSON.stringify({ contentType }));
    await writeAtomic(path, body);
  }

  get(key: string): Promise<{ body: Uint8Array; contentType: string } | null> {
    return readAsset(this.dir, key);
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(pathOf(this.dir, key))).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }

  url(key: string): string {
    assertValidAssetKey(key);
    return `${this.publicUrl}/${key}`;
  }
}

/**
 * For the local gateway's asset route: the stored file and its type, or null for a missing file or a key
 * that is not a valid asset key (including sidecars and traversal attempts), which the gateway answers 404.
 */
export async function readAssetForServing(
  dir: string,
  key: string,
): Promise<{ body: Uint8Array; contentType: string } | null> {
  if (!isValidAssetKey(key)) return null;
  return readAsset(dir, key);
}

