/**
 * Debian's Chromium driven by playwright-core, for the browser tests. Without Chromium they are skipped, and the run
 * says so and how to enable them.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** Warns once per file that its browser tests are skipped (no Chromium). */
export function warnIfNoChromium(label: string): void {
  if (HAS_CHROMIUM) return;
  console.warn(
    `[${label}] SKIPPED the browser tests: no Chromium at ${CHROMIUM}. Enable them with Debian's browser ` +
      '(`sudo apt-get install -y chromium`; .ci/run installs it when absent) or point CHROMIUM_PATH at a Chromium binary.',
  );
}

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // As root in a sandbox-less container, and with no network beyond loopback (see the machine notes).
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}
