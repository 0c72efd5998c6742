/**
 * A function's environment on the embedded default is the one its template gives it, as on Lambda: a variable the
 * template does not set is not there, so a function that reads one its stack forgot fails locally too (at cold
 * start, where every entry checks its configuration). Values bound to the deployment are replaced by the local
 * ones the runtime defines (tables, state machines, the chain's RPC URL and pay-to, the token issuer's URLs); a
 * secret the template names by id is a key file on this machine; a few variables Lambda gives every sandbox
 * (region, credentials) and the local endpoints that stand in for AWS's (DynamoDB, S3, Step Functions) are added.
 */

/** What every Lambda sandbox has, and the local endpoints that replace AWS's implicit ones. */
const SANDBOX = ['AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'LOG_LEVEL', 'PAYCALL_METRICS', 'DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'SFN_ENDPOINT', 'PATH', 'HOME', 'TMPDIR', 'TZ'];

/** A secret named in the template → the local file holding the same key. */
const SECRET_STAND_INS: Record<string, string> = {
  SETTLER_KEY_SECRET_ID: 'SETTLER_KEY_FILE',
  TOKEN_SELLER_KEY_SECRET_ID: 'TOKEN_SELLER_KEY_FILE',
};

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
    const standIn = SECRET_STAND_INS[name];
    if (standIn) {
      if (host[standIn] !== undefined) env[standIn] = host[standIn]!;
      continue;
    }
    // The runtime's local value wins (it is what this machine has instead); else the template's literal.
    const value = host[name] ?? literal;
    if (value !== null && value !== undefined) env[name] = value;
  }
  return env;
}
