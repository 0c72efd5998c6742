/** The shared tail of the project's commands (`npm run fund`, `npm run mint-token`). */
import { realpath } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * Runs `main` with the command-line arguments when the module at `moduleUrl` is the process's entry (so tests can
 * import the module without running it). A `usageError` prints its message alone and exits 2; anything else exits 1.
 */
export async function runIfEntry(
  moduleUrl: string,
  name: string,
  main: (argv: string[]) => Promise<void>,
  usageError: abstract new (...args: never[]) => Error,
): Promise<void> {
  if (!process.argv[1]) return;
  let entry = false;
  try {
    entry = (await realpath(process.argv[1])) === (await realpath(fileURLToPath(moduleUrl)));
  } catch {
    return;
  }
  if (!entry) return;
  await main(process.argv.slice(2)).catch((error: unknown) => {
    const usage = error instanceof usageError;
    const message = error instanceof Error ? error.message : String(error);
    console.error(usage ? message : `${name} failed: ${message}`);
    process.exit(usage ? 2 : 1);
  });
}
