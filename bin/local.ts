/**
 * `npm start`: the embedded default. Foreground; SIGINT/SIGTERM shut it down cleanly; state (jobs, assets,
 * accounts, the chain) lives in $LOCAL_STATE_DIR (default .local) and survives a restart, or a kill.
 * $LOCAL_BLOCK_MS mines the chain's blocks on that interval (2000: Base's); unset or 0, a block per transaction.
 */
import { startEmbedded } from '../lib/local/runtime.js';

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    console.error(`${name} must be a port number (0-65535), got '${raw}'`);
    process.exit(2);
  }
  return value;
}

/** Ms between blocks; unset, empty or 0: automine. */
function blockInterval(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || !Number.isSafeInteger(value)) {
    console.error(`${name} must be a whole number of ms between blocks (e.g. 2000, as Base; 0 or unset: a block per transaction), got '${raw}'`);
    process.exit(2);
  }
  return value === 0 ? undefined : value;
}

const blockIntervalMs = blockInterval('LOCAL_BLOCK_MS');
// LOCAL_PRECONF=1: a Flashblocks-aware endpoint in front of the chain (docs/decisions/0021); a job's 202 on its preconfirmation.
const preconfirmations = process.env.LOCAL_PRECONF === '1' || process.env.LOCAL_PRECONF === 'true';
const started = Date.now();
const runtime = await startEmbedded({
  generationPort: port('GENERATION_PORT', 3000),
  surfacePorts: { agents: port('AGENTS_PORT', 3001) },
  chainPort: port('CHAIN_PORT', 8545),
  tokenIssuerPort: port('TOKEN_ISSUER_PORT', 0),
  stateDir: process.env.LOCAL_STATE_DIR || '.local',
  blockingWaitMs: process.env.BLOCKING_WAIT_MS ? Number(process.env.BLOCKING_WAIT_MS) : undefined,
  blockIntervalMs,
  preconfirmations,
}).catch((error: Error) => {
  console.error(`Could not start the embedded service: ${error.message}`);
  process.exit(1);
});

const { info } = runtime;
console.log(`Generation surface  ${info.baseUrl}   (POST /create-music, /agent/video, /agent/image)`);
const blocks = `${runtime.chain.blockIntervalMs > 0 ? `a block every ${runtime.chain.blockIntervalMs} ms` : 'a block per transaction'}${preconfirmations ? ', 200 ms preconfirmations' : ''}`;
console.log(`Chain JSON-RPC      ${info.rpcUrl}   (chain id ${info.chainId}, USDC ${info.usdcAddress}, ${blocks})`);
console.log(`Token issuer        ${info.tokenIssuerUrl}   (agent-payment tokens; npm run mint-token -- --buyer <id> --usd <amount> --fund <usd>)`);
console.log(`Agent studio        ${String(info.agentsUrl)}   (GET /api/catalog; POST /api/agents/{agent}/run)`);
console.log(`Pay to              ${info.payTo}`);
console.log(`Dev buyers          ${info.buyers.map((b) => b.address).join(', ')} (keys in ${process.env.LOCAL_STATE_DIR || '.local'}/runtime.json)`);
console.log(`Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Ctrl-C stops.`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: shutting down…`);
    runtime.stop().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
