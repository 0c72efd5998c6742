/**
 * A settlement begun before its purchase is ready (ChargeOptions.proceed, docs/decisions/0011): it leases a key free
 * at once and estimates beside the ledger lock, the chain reads and an engine's run, and sends nothing until the
 * purchase says to. Here is what happens to that key while the purchase decides.
 */
import type { KeySender } from './key-sender.js';

type Taken = Awaited<ReturnType<KeySender['take']>>;

/**
 * A key is held for a purchase still deciding no longer than this: one slow to decide (a long engine run, a lock slow
 * under load) gives its key back meanwhile and takes one when it proceeds, so the pool never waits on undecided work.
 * Longer than a lock and a quick engine take; far shorter than a lease.
 */
export const EARLY_HOLD_MS = 250;

/**
 * Waits for the purchase's decision. Told no: the early key (if any) is given back and the answer is undefined. Told
 * to proceed: the key to send with — the early one if still held, else one taken now (`retake`, waiting for a key as
 * a settlement begun when ready does), or the early failure when it was not a busy pool (no key with gas).
 */
export async function whenDecided(keys: Pick<KeySender, 'release'>, key: Promise<Taken>, proceed: Promise<boolean>, retake: () => Promise<Taken>): Promise<Taken | undefined> {
  const decided = proceed.catch(() => false);
  const early = await key;
  let held = early.ok;
  let go = early.ok ? await undecidedAfter(decided, EARLY_HOLD_MS) : await decided;
  if (go === undefined && early.ok) {
    await keys.release(early);
    held = false;
    go = await decided;
  }
  if (!go) {
    if (held && early.ok) await keys.release(early);
    return undefined;
  }
  if (held || (!early.ok && !early.retryAfterSeconds)) return early;
  return retake();
}

/** The decision, or undefined when it has not come within `ms`. */
async function undecidedAfter(decided: Promise<boolean>, ms: number): Promise<boolean | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const lapse = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([decided, lapse]);
  } finally {
    clearTimeout(timer);
  }
}
