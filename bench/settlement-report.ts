/**
 * The settlement bench's arithmetic and tables (bench/settlement.ts): each paid answer lined up with its request's
 * timing lines (joined by `function_request_id`, matched to the answer by its transaction) and the chain's view of its
 * transfer; then per side the pre-send time, the slip rate and the post-block latency, and our phases.
 *
 * Slip: the transfer is in a later block than the first one mined after the paid request left the buyer plus the
 * verification's own time (ours: the off-chain checks and the chain reads; the reference: its facilitator's verify).
 * The local chain mines at each wall-clock multiple of the interval (lib/local/chain.ts), so that first block is the
 * first multiple at or after that moment, and a block's own multiple is the one its mining was asked at.
 */
import type { LoadResult } from './load.js';
import type { ReferenceTiming } from './reference-server.js';
import type { MinedBlock, TimingLine } from './settlement-capture.js';

export type SideKey = 'reference' | 'generation' | 'run';

/** One paid answer's durations (ms) by name; undefined where its marks are missing. */
export type Row = Record<string, number | undefined>;

/** What the bench measured of one side at one level. */
export interface Measured {
  load: LoadResult;
  lines: TimingLine[];
  reference: ReferenceTiming[];
  arrivals: Map<string, number>;
  blockOf: Map<string, number>;
  blocks: Map<number, MinedBlock>;
}

const n = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
const diff = (a: unknown, b: unknown) => (n(a) !== undefined && n(b) !== undefined ? (a as number) - (b as number) : undefined);

/** Our timing lines, by request, keyed by the transaction their settle line names. */
function ourRequests(lines: TimingLine[]): Map<string, Partial<Record<TimingLine['layer'], TimingLine>>> {
  const byRequest = new Map<string, Partial<Record<TimingLine['layer'], TimingLine>>>();
  for (const line of lines) {
    const id = String(line.function_request_id ?? '');
    const entry = byRequest.get(id) ?? {};
    entry[line.layer] = line;
    byRequest.set(id, entry);
  }
  const byTransaction = new Map<string, Partial<Record<TimingLine['layer'], TimingLine>>>();
  for (const entry of byRequest.values()) {
    const tx = entry.settle?.transaction;
    if (typeof tx === 'string') byTransaction.set(tx.toLowerCase(), entry);
  }
  return byTransaction;
}

/** Every paid answer of a side as durations (ms), ours with each phase, the reference with what it shows. */
export function rowsOf(side: SideKey, m: Measured, intervalMs: number): Row[] {
  const ours = side === 'reference' ? undefined : ourRequests(m.lines);
  const reference = new Map(m.reference.map((t) => [t.transaction.toLowerCase(), t]));
  const rows: Row[] = [];
  for (const answer of m.load.answers ?? []) {
    const tx = answer.transaction?.toLowerCase();
    if (!tx || answer.paidSentAt === undefined) continue;
    const sent = answer.paidSentAt;
    const atNode = m.arrivals.get(tx);
    const number = m.blockOf.get(tx);
    const block = number === undefined ? undefined : m.blocks.get(number);
    const row: Row = { exchange: answer.ms, preSend: diff(atNode, sent), postBlock: diff(answer.answeredAt, block?.minedAt) };
    if (ours) {
      const none: Record<string, unknown> = {};
      const { verify: v = none, purchase: p = none, settle: s = none } = ours.get(tx) ?? {};
      const checked = Math.max(n(p.locked) ?? -Infinity, n(p.checked) ?? -Infinity);
      const leasedAndEstimated = Math.max(n(s.leased) ?? -Infinity, n(s.estimated) ?? -Infinity);
      Object.assign(row, {
        verifyOwn: diff(v.chainRead, v.start),
        toVerify: diff(v.start, sent),
        toGateway: diff(v.arrived, sent),
        beforeVerify: diff(v.start, v.arrived),
        offChain: diff(v.offChain, v.start),
        chainReads: diff(v.chainRead, v.offChain),
        toPurchase: diff(p.start, v.offChain),
        lock: diff(p.locked, p.start),
        lockAndReads: diff(checked, p.start),
        work: diff(p.worked, checked),
        keyWait: diff(s.leased, s.start),
        estimate: diff(s.estimated, s.start),
        nonceRead: diff(s.nonceRead, leasedAndEstimated),
        sign: diff(s.signed, s.nonceRead),
        commit: diff(s.committed, s.signed),
        broadcast: diff(s.sent, s.committed),
        held: diff(s.committed, s.leased),
        receiptSeen: diff(s.receipt, block?.minedAt),
        receiptToAnswer: diff(answer.answeredAt, s.receipt),
        recordWrite: diff(p.recorded, p.settled),
        recordedToAnswer: diff(answer.answeredAt, p.recorded),
      });
    } else {
      const t = reference.get(tx);
      Object.assign(row, { verifyOwn: t?.verifyMs, settleToNode: diff(atNode, t?.settleCalledAt) });
    }
    if (block && row.verifyOwn !== undefined && intervalMs > 0) {
      const first = Math.ceil((sent + row.verifyOwn) / intervalMs) * intervalMs;
      const own = Math.floor(block.calledAt / intervalMs) * intervalMs;
      row.slipBlocks = Math.max(0, Math.round((own - first) / intervalMs));
      row.minerLate = block.calledAt - own;
    }
    row.block = number;
    row.answeredAt = answer.answeredAt;
    rows.push(row);
  }
  // The answers a block wakes at once: on two shared cores they queue for the CPU after it, where on Lambda each
  // instance has its own. The first answer out of each block shows the path without that queue.
  const byBlock = new Map<number, Row[]>();
  for (const row of rows) if (row.block !== undefined) byBlock.set(row.block, [...(byBlock.get(row.block) ?? []), row]);
  for (const group of byBlock.values()) {
    group.sort((a, b) => (a.answeredAt ?? 0) - (b.answeredAt ?? 0));
    group.forEach((row, i) => {
      row.sharing = group.length;
      if (i === 0) row.firstReceiptToAnswer = row.receiptToAnswer;
    });
  }
  return rows;
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const valuesOf = (rows: Row[], key: string) => rows.map((r) => r[key]).filter((x): x is number => x !== undefined);
const f = (x: number, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const p50 = (rows: Row[], key: string) => f(percentile(valuesOf(rows, key), 50));
const p5090 = (rows: Row[], key: string) => `${p50(rows, key)} / ${f(percentile(valuesOf(rows, key), 90))}`;

/** One measured cell of the matrix, ready to print. */
export interface Cell {
  blockMs: number;
  keys: number;
  buyers: number;
  side: SideKey;
  attempted: number;
  ok: number;
  /** Paid answers per second over the load phase (the buyers pause a random time up to a block between requests). */
  throughput: number;
  errors: string[];
  rows: Row[];
}

export function printSides(cells: Cell[]): void {
  console.log('\nPer paid answer (ms; p50 / p90). Pre-send: the paid request leaving the buyer → its transfer at the node. ' +
    'Slip: the transfer in a later block than the first one after the paid request left plus the verification\'s own time. ' +
    'Post-block: our transfer\'s block mined → the buyer has the answer.');
  console.log('| block ms | keys | buyers | side | paid / attempted | paid/s (× the reference\'s) | exchange p50 | pre-send | verification\'s own | slipped | blocks slipped (mean) | post-block | miner late p90 |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const c of cells) {
    const reference = cells.find((r) => r.side === 'reference' && r.blockMs === c.blockMs && r.keys === c.keys && r.buyers === c.buyers);
    const paid = `${f(c.throughput, 2)}${c.side !== 'reference' && reference?.throughput ? ` (${f(c.throughput / reference.throughput, 2)}×)` : ''}`;
    const slips = valuesOf(c.rows, 'slipBlocks');
    const slipped = slips.filter((x) => x > 0).length;
    const rate = slips.length ? `${f((100 * slipped) / slips.length)} % (${slipped}/${slips.length})` : 'n/a';
    const mean = slips.length ? f(slips.reduce((a, b) => a + b, 0) / slips.length, 2) : 'n/a';
    const failed = c.errors.length ? ` (${c.errors.join('; ')})` : '';
    console.log(
      `| ${c.blockMs} | ${c.side === 'reference' ? '1 (its own)' : c.keys} | ${c.buyers} | ${c.side} | ${c.ok} / ${c.attempted}${failed} | ${paid} | ${p50(c.rows, 'exchange')} | ${p5090(c.rows, 'preSend')} | ` +
        `${p5090(c.rows, 'verifyOwn')} | ${rate} | ${mean} | ${p5090(c.rows, 'postBlock')} | ${f(percentile(valuesOf(c.rows, 'minerLate'), 90))} |`,
    );
  }
}

const PHASES: [string, string][] = [
  ['toVerify', 'buyer → verification (gateway, rate limit, idempotency)'],
  ['toGateway', 'of which buyer → gateway'],
  ['beforeVerify', 'of which gateway → verification (invoke, rate limit, idempotency)'],
  ['offChain', 'verify off-chain'],
  ['chainReads', 'verify chain reads'],
  ['toPurchase', 'verified → purchase'],
  ['lock', 'ledger lock (DynamoDB)'],
  ['lockAndReads', 'lock beside the reads'],
  ['work', 'work before the send'],
  ['keyWait', 'key wait (DynamoDB)'],
  ['estimate', 'estimate + fees (chain, beside the key wait)'],
  ['nonceRead', 'nonce read (chain)'],
  ['sign', 'sign'],
  ['commit', 'nonce committed: fence + key back (DynamoDB)'],
  ['broadcast', 'broadcast (chain)'],
  ['held', 'key held (leased → committed)'],
  ['receiptSeen', 'block → receipt seen'],
  ['receiptToAnswer', 'receipt → buyer has the answer'],
  ['recordWrite', 'of which the receipt recorded (DynamoDB)'],
  ['recordedToAnswer', 'of which recorded → buyer has the answer (a job: its workflow started)'],
  ['sharing', 'answers its block woke'],
  ['firstReceiptToAnswer', 'receipt → answer, first answer out of its block'],
];

export function printPhases(cells: Cell[]): void {
  console.log('\nOur phases per paid answer (ms, p50 / p90), from the functions\' settlement timing lines; the reference\'s verify and settle → its transfer at the node beside them:');
  console.log(`| block ms | keys | buyers | side | ${PHASES.map(([, label]) => label).join(' | ')} |`);
  console.log(`|---|---|---|---|${PHASES.map(() => '---|').join('')}`);
  for (const c of cells) {
    const cols = c.side === 'reference'
      ? PHASES.map(([key]) => (key === 'offChain' ? `verify ${p5090(c.rows, 'verifyOwn')}` : key === 'broadcast' ? `settle → node ${p5090(c.rows, 'settleToNode')}` : ''))
      : PHASES.map(([key]) => p5090(c.rows, key));
    console.log(`| ${c.blockMs} | ${c.side === 'reference' ? '1' : c.keys} | ${c.buyers} | ${c.side} | ${cols.join(' | ')} |`);
  }
}
