/**
 * A2A's version rule on every A2A operation (not on card GETs): `A2A-Version` from the header, else the query
 * parameter of that name; none means 0.3; only major.minor counts. Anything but 1.0 is VersionNotSupported (400),
 * presented by the A2A frame.
 */
import { header } from '../shared/http.js';
import { checkVersion, VERSION_HEADER } from '../shared/a2a.js';
import type { HttpMiddleware } from './types.js';

export function a2aVersion(): HttpMiddleware {
  return {
    name: 'a2aVersion',
    before: (request) => {
      const query = request.event.queryStringParameters ?? {};
      const fromQuery = Object.entries(query).find(([name]) => name.toLowerCase() === VERSION_HEADER.toLowerCase())?.[1];
      checkVersion(header(request.event, VERSION_HEADER), fromQuery);
    },
  };
}
