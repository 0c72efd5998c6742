/**
 * Hostile paths against the embedded service (DynamoDB Local behind the real functions): ids no job can have and
 * paths no route or asset matches answer as unknown resources — never 5xx.
 */
import { describe, expect, it } from 'vitest';
import { fetchFrom, runtime } from '../support/buyer.js';

const f = fetchFrom('127.0.0.61');
const get = (path: string) => f(`${runtime().baseUrl}${path}`);
// Over DynamoDB's 2048-byte key limit, and well under the gateway's URL limit.
const OVERSIZED = 'a'.repeat(3000);
const MULTIBYTE = encodeURIComponent('é'.repeat(1100)); // 2200 bytes once decoded

describe('Poll of an unknown id: video and image answer 200 failed with pollUrl null', () => {
  for (const [kind, field] of [['video', 'videoUrl'], ['image', 'imageUrl']] as const) {
    it(`/agent/${kind}/{jobId}: an oversized id is unknown`, async () => {
      for (const id of [OVERSIZED, MULTIBYTE]) {
        const response = await get(`/agent/${kind}/${id}`);
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ status: 'failed', [field]: null, pollUrl: null, error: expect.any(String) });
      }
    });
  }
});

describe('Song row and share page of an unknown id: 404', () => {
  it('GET /api/songs/{songId} with an oversized id answers 404 { error }', async () => {
    const response = await get(`/api/songs/${OVERSIZED}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.any(String) });
  });
  it('GET /song/{songId} with an oversized id answers the 404 page', async () => {
    const response = await get(`/song/${MULTIBYTE}`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('A path no route matches: 404 as API Gateway answers it', () => {
  it('malformed %-encoding in a path is 404, not 500', async () => {
    for (const path of ['/agent/image/%E0%A4%A', '/api/songs/%', '/song/%ZZ', '/assets/%E0%A4%A', '/%E0%A4%A']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual({ message: 'Not Found' });
    }
  });
  it('an asset path that is a directory, or names nothing, is 404', async () => {
    for (const path of ['/assets/renders/', '/assets/renders', '/assets/', '/assets/static', '/assets/..%2F..%2Fpackage.json']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual({ message: 'Not Found' });
    }
  });
});
