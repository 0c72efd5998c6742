/**
 * The deploy runbook's curl checks (docs/deploy.md, found by test/support/runbook.ts), run verbatim by bash against the
 * embedded service with `$ApiUrl` its base URL, as the operator runs them against the deployed API's. Each must
 * answer as the runbook says; test/infra/runbook.test.ts classifies every curl command as run here.
 */
import { describe, expect, it } from 'vitest';
import { runbookCommands, runRecorded } from '../support/runbook.js';
import { runtime } from '../support/buyer.js';

// Its own source address, so its probes count against no other file's quota.
const IP = '127.0.0.191';

/** What the runbook says each curl check answers. */
const EXPECTED: Record<string, { status: number; headers: string[] }> = {
  "curl -i -X POST $ApiUrl/agent/image -H 'Content-Type: application/json' -d '{}'": { status: 402, headers: ['payment-required'] },
};

describe("Deploy runbook: the curl checks answer as it says (step 12's 402 with the payment requirements)", () => {
  const curls = runbookCommands().filter((c) => c.text.startsWith('curl '));

  it('every curl command of the runbook has its expected answer here', () => {
    expect(curls.length).toBeGreaterThan(0);
    expect(curls.map((c) => c.text).filter((t) => !(t in EXPECTED))).toEqual([]);
  });

  for (const command of curls) {
    it(`step ${command.step}: ${command.text}`, async () => {
      const expected = EXPECTED[command.text];
      // --silent: curl's progress meter, drawn when its output is not a terminal, goes to stderr.
      const script = `curl() { command curl --silent --show-error --interface ${IP} "$@"; }\n${command.text}`;
      const { code, stdout, stderr } = await runRecorded(script, { ApiUrl: runtime().baseUrl });
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const [head] = stdout.split(/\r?\n\r?\n/, 1);
      expect(head.split(/\r?\n/)[0]).toMatch(new RegExp(`^HTTP/[\\d.]+ ${expected.status}\\b`));
      const names = head.split(/\r?\n/).slice(1).map((l) => l.slice(0, l.indexOf(':')).toLowerCase());
      for (const header of expected.headers) expect(names).toContain(header);
      // The payment requirements: the x402 challenge, decoded from its header, offers a way to pay.
      const encoded = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith('payment-required:'))!.slice('payment-required:'.length).trim();
      const challenge = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as { accepts: unknown[] };
      expect(challenge.accepts.length).toBeGreaterThan(0);
    });
  }
});
