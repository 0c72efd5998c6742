/**
 * AP2 v0.2's delegated SD-JWT chains (dSD-JWT), as far as we verify them: tokens joined by `~~`; the first is an
 * SD-JWT signed by an issuer we trust (its `kid` in our key set); every later hop is a KB-SD-JWT signed with the
 * previous hop's `cnf.jwk`, bound to it by `sd_hash` (or `issuer_jwt_hash`), `typ` `kb+sd-jwt+kb` when it delegates
 * further (it carries `cnf`) and `kb+sd-jwt` when it is the last (no `cnf`; its `aud` and `nonce` are ours).
 * Disclosures resolve `_sd` digests of the payload and digest strings in `delegate_payload`; the hash is sha-256
 * (another `_sd_alg` is refused). ES256 only. Each hop's effective payload is `delegate_payload[0]` when present.
 *
 * A verdict on the mandate is a Ap2Refusal (answered with an error receipt); nothing here does I/O.
 */
import { createHash } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, importJWK, type JWK } from 'jose';

export const CLOCK_SKEW_SECONDS = 300;
const ROOT_TYPES = new Set(['dc+sd-jwt', 'vc+sd-jwt', 'sd-jwt', 'example+sd-jwt']);
const TERMINAL_TYPES = new Set(['kb+sd-jwt', 'kb-sd-jwt']);
const INTERMEDIATE_TYPES = new Set(['kb+sd-jwt+kb', 'kb-sd-jwt+kb']);

/** AP2's mandate receipt error codes (agent_authorization.md "Errors"). */
export type Ap2ErrorCode = 'invalid_credential' | 'invalid_mandate' | 'unresolved_constraint' | 'mandates_not_supported';

export class Ap2Refusal extends Error {
  override name = 'Ap2Refusal';
  constructor(
    readonly code: Ap2ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ChainHop {
  /** The token as it appears in the chain (issuer JWT, its disclosures, trailing `~`). */
  serialized: string;
  typ: string;
  /** The payload with disclosures resolved. */
  payload: Record<string, unknown>;
  /** What the hop says: `delegate_payload[0]` when present, else the payload. */
  effective: Record<string, unknown>;
}

export interface VerifiedChain {
  hops: ChainHop[];
  /** The last hop's effective payload: the closed mandate. */
  closed: Record<string, unknown>;
  /** The effective payloads before it: the open mandates whose constraints the closed one must meet. */
  open: Record<string, unknown>[];
  /** The last hop's key-binding nonce (its `aud` is checked here; the nonce by the caller, against our checkout). */
  nonce: unknown;
}

export interface ChainCheck {
  /** Public keys of the issuers we trust, by `kid`. */
  trusted: (kid: string) => JWK | undefined;
  audience: string;
  /** Unix seconds. */
  now: number;
}

export function b64urlSha256(text: string): string {
  return createHash('sha256').update(text, 'ascii').digest('base64url');
}

function refuse(code: Ap2ErrorCode, message: string): never {
  throw new Ap2Refusal(code, message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface RawToken {
  serialized: string;
  jws: string;
  disclosures: string[];
}

function split(chain: string): RawToken[] {
  const parts = chain.trim().split('~~');
  if (parts.length < 2) {
    refuse('invalid_mandate', 'a mandate must be a delegated SD-JWT chain of at least two tokens joined by "~~" (the last one bound to our nonce)');
  }
  return parts.map((part, index) => {
    const serialized = index < parts.length - 1 ? `${part}~` : part;
    const [jws, ...rest] = serialized.split('~');
    if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(jws ?? '')) refuse('invalid_mandate', `token ${index} is not an SD-JWT (compact JWS first)`);
    return { serialized, jws, disclosures: rest.filter((d) => d !== '') };
  });
}

function decodeDisclosure(disclosure: string): unknown[] {
  try {
    const value = JSON.parse(Buffer.from(disclosure, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && (value.length === 2 || value.length === 3)) return value;
  } catch {
    // refused below
  }
  return refuse('invalid_mandate', 'a disclosure is not a base64url JSON array of two or three elements');
}

/** `_sd` digests of objects (recursively) and digest strings in `delegate_payload`, replaced by what they disclose. */
function resolve(payload: Record<string, unknown>, disclosures: string[]): Record<string, unknown> {
  if (payload._sd_alg !== undefined && payload._sd_alg !== 'sha-256') refuse('invalid_mandate', `_sd_alg ${String(payload._sd_alg)} is not supported (sha-256 only)`);
  const byDigest = new Map(disclosures.map((d) => [b64urlSha256(d), decodeDisclosure(d)]));
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      return value.flatMap((item) => {
        if (isObject(item) && typeof item['...'] === 'string' && Object.keys(item).length === 1) {
          const found = byDigest.get(item['...']);
          return found && found.length === 2 ? [walk(found[1])] : [];
        }
        return [walk(item)];
      });
    }
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) if (key !== '_sd') out[key] = walk(member);
    for (const digest of Array.isArray(value._sd) ? value._sd : []) {
      const found = typeof digest === 'string' ? byDigest.get(digest) : undefined;
      if (found && found.length === 3 && typeof found[1] === 'string') out[found[1]] = walk(found[2]);
    }
    return out;
  };
  const resolved = walk(payload) as Record<string, unknown>;
  if (Array.isArray(resolved.delegate_payload)) {
    resolved.delegate_payload = resolved.delegate_payload.map((item) => {
      if (typeof item !== 'string') return item;
      const found = byDigest.get(item);
      return found ? walk(found[found.length - 1]) : item;
    });
  }
  return resolved;
}

async function verifySignature(token: RawToken, key: JWK, index: number): Promise<Record<string, unknown>> {
  try {
    const publicKey = await importJWK({ ...key, d: undefined } as JWK, 'ES256');
    const { payload } = await compactVerify(token.jws, publicKey, { algorithms: ['ES256'] });
    const parsed = JSON.parse(new TextDecoder().decode(payload)) as unknown;
    if (!isObject(parsed)) refuse('invalid_mandate', `token ${index}'s payload is not a JSON object`);
    return parsed;
  } catch (error) {
    if (error instanceof Ap2Refusal) throw error;
    return refuse('invalid_credential', `token ${index}'s signature does not verify (forged or altered, or signed with another key)`);
  }
}

function effectiveOf(payload: Record<string, unknown>, index: number): Record<string, unknown> {
  const delegated = payload.delegate_payload;
  if (delegated === undefined) return payload;
  if (!Array.isArray(delegated) || delegated.length !== 1 || !isObject(delegated[0])) {
    refuse('invalid_mandate', `token ${index}'s delegate_payload must disclose exactly one mandate object`);
  }
  return delegated[0];
}

function checkTimes(claims: Record<string, unknown>, index: number, now: number): void {
  const { exp, iat, nbf } = claims;
  if (exp !== undefined && (typeof exp !== 'number' || now - CLOCK_SKEW_SECONDS >= exp)) refuse('invalid_mandate', `token ${index} has expired`);
  if (iat !== undefined && (typeof iat !== 'number' || iat > now + CLOCK_SKEW_SECONDS)) refuse('invalid_mandate', `token ${index} is issued in the future`);
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now + CLOCK_SKEW_SECONDS)) refuse('invalid_mandate', `token ${index} is not yet valid`);
}

function cnfKey(hop: Record<string, unknown>, index: number): JWK {
  const cnf = hop.cnf;
  const jwk = isObject(cnf) ? cnf.jwk : undefined;
  if (!isObject(jwk) || jwk.kty !== 'EC' || jwk.crv !== 'P-256') refuse('invalid_mandate', `token ${index} delegates without a P-256 cnf.jwk`);
  return jwk as JWK;
}

/** Verifies a dSD-JWT chain from its trusted root to the hop bound to our audience and nonce. */
export async function verifyChain(chain: string, check: ChainCheck): Promise<VerifiedChain> {
  const tokens = split(chain);
  const hops: ChainHop[] = [];
  let key: JWK | undefined;
  for (const [index, token] of tokens.entries()) {
    let header: ReturnType<typeof decodeProtectedHeader>;
    try {
      header = decodeProtectedHeader(token.jws);
    } catch {
      return refuse('invalid_mandate', `token ${index}'s header is not base64url JSON`);
    }
    if (header.alg !== 'ES256') refuse('invalid_credential', `token ${index} must be signed with ES256`);
    const typ = String(header.typ ?? '');
    const last = index === tokens.length - 1;
    if (index === 0) {
      if (!ROOT_TYPES.has(typ)) refuse('invalid_mandate', `token 0 must be an SD-JWT (typ dc+sd-jwt), not '${typ}'`);
      const trusted = typeof header.kid === 'string' ? check.trusted(header.kid) : undefined;
      if (!trusted) refuse('invalid_credential', `token 0 is signed by an issuer we do not trust (kid ${JSON.stringify(header.kid ?? null)})`);
      key = trusted;
    } else if (!(last ? TERMINAL_TYPES : INTERMEDIATE_TYPES).has(typ)) {
      refuse('invalid_mandate', `token ${index} must have typ ${last ? 'kb+sd-jwt' : 'kb+sd-jwt+kb'}, not '${typ}'`);
    }
    const payload = resolve(await verifySignature(token, key!, index), token.disclosures);
    if (index > 0) {
      const previous = tokens[index - 1];
      const bound =
        typeof payload.sd_hash === 'string'
          ? payload.sd_hash === b64urlSha256(previous.serialized) && payload.issuer_jwt_hash === undefined
          : typeof payload.issuer_jwt_hash === 'string' && payload.issuer_jwt_hash === b64urlSha256(previous.jws);
      if (!bound) refuse('invalid_mandate', `token ${index} is not bound to token ${index - 1} (sd_hash / issuer_jwt_hash)`);
      if (typeof payload.iat !== 'number') refuse('invalid_mandate', `token ${index} has no iat`);
    }
    if (last) {
      if (payload.aud !== check.audience) refuse('invalid_mandate', `the key binding's aud is not this merchant ('${check.audience}')`);
      if (typeof payload.nonce !== 'string' || payload.nonce === '') refuse('invalid_mandate', 'the key binding has no nonce');
    }
    const effective = effectiveOf(payload, index);
    checkTimes(payload, index, check.now);
    checkTimes(effective, index, check.now);
    if (!last) key = cnfKey(isObject(effective.cnf) ? effective : payload, index);
    else if (effective.cnf !== undefined || payload.cnf !== undefined) refuse('invalid_mandate', 'the last token must not delegate further (cnf)');
    hops.push({ serialized: token.serialized, typ, payload, effective });
  }
  const terminal = hops[hops.length - 1];
  return { hops, closed: terminal.effective, open: hops.slice(0, -1).map((hop) => hop.effective), nonce: terminal.payload.nonce };
}
