/**
 * How API Gateway decides to call the sign-in authorizer, defined once: CDK attaches it with this identity source
 * (lib/surface-api.ts) and the embedded gateway checks it the same way before calling it (lib/local/gateway.ts).
 *
 * API Gateway calls a REQUEST authorizer only when every identity source it names is present, not null and not
 * empty; otherwise it answers 401 `{"message":"Unauthorized"}` itself, without the authorizer and without the route.
 * With caching off (the authorizer is never cached: docs/decisions/0020) that check is all an identity source does, so
 * it must be one that every request to a sign-in route carries:
 * - `$context.routeKey`: API Gateway sets it to the route a request matched, and the authorizer runs only on matched
 *   routes. AWS's HTTP API authorizer guide names this very variable as an identity source.
 * - not the sign-in header: a request without a sign-in must reach the route, whose 402 carries the declaration the
 *   client hook signs (and a cancel route takes its bearer token instead); API Gateway's 401 carries neither.
 * - not the `surface` stage variable: it depends on the stage's configuration, and whether API Gateway resolves stage
 *   variables for an HTTP API authorizer's identity source has not been tried on AWS. The authorizer still reads it
 *   from the event (lambdas/http/sign-in-authorizer.ts), where payload 2.0 puts the stage's variables.
 *
 * It stays free of aws-cdk-lib, so the embedded runtime loads it without the CDK.
 */
export const SIGN_IN_IDENTITY_SOURCES: readonly string[] = ['$context.routeKey'];
