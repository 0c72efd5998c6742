/**
 * Which settlement keys have gas, as this instance last read it: a key below the floor is never leased (its
 * transaction would be refused for want of gas, and an operator is told by the metric to fund it).
 */
import type { ChainReader } from './chain-client.js';
import { gasMetric } from './gas-metric.js';
import type { Signer } from './key-sender.js';

/** Gas balances are read at most this often per key and instance. */
export const GAS_CHECK_MS = 15_000;

export class GasBalances {
  private readonly known = new Map<string, { wei: bigint; at: number }>();
  /** Balances being read now, so a key is read once at a time. */
  private readonly reading = new Map<string, Promise<void>>();

  constructor(
    private readonly reader: Pick<ChainReader, 'getBalance'>,
    private readonly floorWei: bigint,
  ) {}

  /**
   * The keys with gas above the floor. Balances older than GAS_CHECK_MS are read again, all at once; each read is
   * published as a metric. A key never read waits for its first reading; a key read before is judged on that
   * reading while it is read again, off the lease's path. A key whose balance cannot be read keeps its last known one
   * (the node answers the send).
   */
  async fuelled(pool: Signer[]): Promise<Signer[]> {
    const now = Date.now();
    const stale = pool.filter(({ account: { address } }) => now - (this.known.get(address)?.at ?? 0) > GAS_CHECK_MS);
    const reads = stale.map(({ account: { address } }) => this.read(address));
    if (stale.some(({ account: { address } }) => !this.known.has(address))) await Promise.all(reads);
    return pool.filter((signer) => (this.known.get(signer.account.address)?.wei ?? -1n) >= this.floorWei);
  }

  /** The node refused a key's transaction for want of gas: its balance is read again before it is leased. */
  forget(address: string): void {
    this.known.delete(address);
  }

  private read(address: `0x${string}`): Promise<void> {
    let reading = this.reading.get(address);
    if (!reading) {
      reading = (async () => {
        try {
          const wei = await this.reader.getBalance({ address });
          this.known.set(address, { wei, at: Date.now() });
          gasMetric(address, wei, this.floorWei);
        } catch {
          // keep the last known balance, if any
        } finally {
          this.reading.delete(address);
        }
      })();
      this.reading.set(address, reading);
    }
    return reading;
  }
}
