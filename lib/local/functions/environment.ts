/**
 * A function's environment on the embedded default is the one its template gives it, as on Lambda: a variable the
 * template does not set is not there, so a function that reads one its stack forgot fails locally too (at cold
 * start, where every entry checks its configuration). Values bound to the deployment are replaced by the local
 * ones the runtime defines (tables, state machines, the chain's RPC URL and pay-to, the token issuer's URLs); a
 * secret the template names by id keeps that id and is read as on AWS, through the SDK and the function's grant,
 * from the local Secrets Manager endpoint; a few variables Lambda gives every sandbox (region, credentials) and the
 * local endpoints that stand in for AWS's (DynamoDB, S3, Step Functions, Secrets Manager) are added. The key files
 * the runtime itself reads (SETTLER_KEY_FILE, TOKEN_SELLER_KEY_FILE) are no template's, so no function sees them.
 */
import { RENDER_PROVIDERS, type ProviderDefinition } from '../../../lambdas/render/providers.js';
import { WEBHOOK_LOOPBACK_ENV } from '../../../lambdas/webhooks/address.js';

/**
 * What every Lambda sandbox has, and the local endpoints that replace AWS's implicit ones — the vendors' too: the
 * render providers' endpoint overrides (lambdas/render/providers.ts `endpointEnv`, unset on AWS, where each SDK uses
 * its vendor's public host) point the adapters at the wire-level fakes.
 */
const SANDBOX = [
  'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'LOG_LEVEL', 'PAYCALL_METRICS', 'DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'SFN_ENDPOINT', 'SECRETS_MANAGER_ENDPOINT', 'PATH', 'HOME', 'TMPDIR', 'TZ',
  // The embedded default's allowance of loopback webhook receivers (lambdas/webhooks/address.ts); unset on AWS.
  WEBHOOK_LOOPBACK_ENV,
  ...new Set(Object.values(RENDER_PROVIDERS as Record<string, ProviderDefinition>).flatMap((p) => (p.endpointEnv ? [p.endpointEnv] : []))),
];

/** The template's value is meaningful only inside the deployed bundle (its ffmpeg path, the Lambda Node options). */
const DEPLOYMENT_ONLY = new Set(['FFMPEG_PATH', 'NODE_OPTIONS']);

export function functionEnvironment(template: Record<string, string | null>, host: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of SANDBOX) if (host[name] !== undefined) env[name] = host[name]!;
  for (const [name, literal] of Object.entries(template)) {
    if (DEPLOYMENT_ONLY.has(name)) {
      if (host[name] !== undefined) env[name] = host[name]!; // this machine's own (a test's broken ffmpeg, say)
      continue;
    }
    // The runtime's local value wins (it is what this machine has instead); else the template's literal.
    const value = host[name] ?? literal;
    if (value !== null && value !== undefined) env[name] = value;
  }
  return env;
}
