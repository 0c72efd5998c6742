/**
 * One block setting of the side-by-side bench (bench/block-time.ts) in a process of its own: argv[2] is
 * `{ mode, levels }` as JSON; the result goes back over IPC (prices as strings).
 */
import { runModeInProcess, type BlockMode } from './block-time.js';

const { mode, levels } = JSON.parse(process.argv[2]) as { mode: BlockMode; levels: number[] };
let message: { result?: unknown; error?: string };
try {
  const result = await runModeInProcess(mode, levels);
  message = { result: JSON.parse(JSON.stringify(result, (_key, value) => (typeof value === 'bigint' ? value.toString() : value))) };
} catch (error) {
  message = { error: (error as Error).stack ?? String(error) };
}
process.send!(message, () => process.exit(0));
