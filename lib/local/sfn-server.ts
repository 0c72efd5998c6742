/**
 * The wire side of the local Step Functions endpoint: an HTTP server speaking the AWS JSON 1.0 protocol
 * (POST, `X-Amz-Target: AWSStepFunctions.<Op>`, JSON body), dispatching to operations by name and answering
 * their ServiceErrors the way the SDK expects (`__type` + `x-amzn-errortype`).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LocalLogger } from './stepfunctions.js';

/** An error the SDK should see as the named AWS exception. */
export class ServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** An operation's answer, from the parsed request body; throws ServiceError for AWS errors. */
export type Operation = (body: any) => unknown;

export interface JsonProtocolServer {
  /** `http://<host>:<port>` */
  endpoint: string;
  port: number;
  /** Closes the server and its open connections. */
  close(): Promise<void>;
}

const TARGET_PREFIX = 'AWSStepFunctions.';

interface Reply {
  status: number;
  /** The JSON body. */
  text: string;
  errorType?: string;
}

export async function startJsonProtocolServer(
  operations: Record<string, Operation>,
  options: { port?: number; host?: string; log: LocalLogger },
): Promise<JsonProtocolServer> {
  const host = options.host ?? '127.0.0.1';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => send(res, answer(operations, req, Buffer.concat(chunks).toString('utf8'), options.log)));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answer(operations: Record<string, Operation>, req: http.IncomingMessage, text: string, log: LocalLogger): Reply {
  try {
    const target = String(req.headers['x-amz-target'] ?? '');
    const op = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : '';
    const handler = req.method === 'POST' ? operations[op] : undefined;
    if (!handler) throw new ServiceError('UnknownOperationException', `Unsupported operation: ${target || req.method}`);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      throw new ServiceError('SerializationException', 'Request body is not JSON');
    }
    return { status: 200, text: JSON.stringify(handler(body)) };
  } catch (err) {
    if (err instanceof ServiceError) return awsError(err.status, err.type, err.message);
    log.error?.('local step functions request failed', { err: String(err) });
    return awsError(500, 'InternalServerError', String(err));
  }
}

function awsError(status: number, type: string, message: string): Reply {
  return { status, text: JSON.stringify({ __type: type, message }), errorType: type };
}

function send(res: http.ServerResponse, { status, text, errorType }: Reply): void {
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.0',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': randomUUID(),
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  res.end(text);
}
