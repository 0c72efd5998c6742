/**
 * The published response schemas (lambdas/products/responses.ts) against what the views actually build: parsing a
 * real body must succeed and return it unchanged. z.object strips unknown keys, so a member the views add without
 * publishing it makes the parsed value differ, and a changed type fails the parse.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { acceptedBody, mediaJob, musicBlockingBody, songRow, unknownMediaJob } from '../../../lambdas/jobs/views.js';
import {
  errorSchema,
  imageJobSchema,
  musicAcceptedSchema,
  musicBlockingSchema,
  notFoundSchema,
  paymentChallengeSchema,
  songRowSchema,
  validationErrorSchema,
  videoJobSchema,
} from '../../../lambdas/products/responses.js';
import { generationErrors as errorResponse } from '../../../lambdas/surfaces/error-presenters.js';
import { NotFoundError, RateLimitedError, UnsupportedApiVersionError, ValidationError } from '../../../lambdas/shared/errors.js';
import { paymentChallenge, REASON_MISSING } from '../../../lambdas/jobs/offers.js';
import { ACCEPTED_EXAMPLES } from '../../../lambdas/products/examples.js';
import type { JobStatus } from '../../../lambdas/store/jobs.js';
import { IDS, ctx } from './fixtures.js';

import { job, urls } from '../fixtures/jobs.js';
const STATUSES: JobStatus[] = ['reserved', 'queued', 'processing', 'completed', 'failed'];
const done = { assets: { audio: 'a.mp3', cover: 'c.png', video: 'v.mp4', image: 'i.png' }, metadata: { modelVersion: 'm1', durationSeconds: 30, title: 'T' } };

function servesExactly(schema: z.ZodType, body: unknown) {
  expect(schema.parse(body)).toEqual(body);
}

describe('Music accepted response (202)', () => {
  it('matches the published MusicAccepted schema, and so does the published example', () => {
    servesExactly(musicAcceptedSchema, acceptedBody(job({}), urls));
    servesExactly(musicAcceptedSchema, ACCEPTED_EXAMPLES.create_music);
  });
});

describe('Song row (poll response of music)', () => {
  it.each(STATUSES)('a %s job matches the published SongRow schema', (status) => {
    servesExactly(songRowSchema, songRow(job({ status, error: 'boom', ...done }), urls));
  });
});

describe('Music blocking response (?async=false)', () => {
  it.each(['completed', 'failed'] as const)('a %s job matches the published MusicBlockingResult schema', (status) => {
    servesExactly(musicBlockingSchema, musicBlockingBody(job({ status, error: 'boom', ...done }), urls));
  });
});

describe('Video and image jobs (accepted and poll responses)', () => {
  it('accepted bodies and examples match VideoJob / ImageJob', () => {
    servesExactly(videoJobSchema, acceptedBody(job({ product: 'agent_video' }), urls));
    servesExactly(imageJobSchema, acceptedBody(job({ product: 'agent_image' }), urls));
    servesExactly(videoJobSchema, ACCEPTED_EXAMPLES.agent_video);
    servesExactly(imageJobSchema, ACCEPTED_EXAMPLES.agent_image);
  });
  it.each(STATUSES)('a %s poll matches VideoJob / ImageJob', (status) => {
    servesExactly(videoJobSchema, mediaJob(job({ product: 'agent_video', status, error: 'boom', ...done }), urls));
    servesExactly(imageJobSchema, mediaJob(job({ product: 'agent_image', status, error: 'boom', ...done }), urls));
  });
  it('the failed unknown-job response matches too', () => {
    servesExactly(videoJobSchema, unknownMediaJob('agent_video', 'nope'));
    servesExactly(imageJobSchema, unknownMediaJob('agent_image', 'nope'));
  });
  it('a body of the wrong shape is refused (the checks above can fail)', () => {
    expect(videoJobSchema.safeParse({ jobId: 'j', status: 'done', videoUrl: null, pollUrl: null }).success).toBe(false);
    expect(musicAcceptedSchema.parse({ ...ACCEPTED_EXAMPLES.create_music, extra: 1 })).not.toEqual({ ...ACCEPTED_EXAMPLES.create_music, extra: 1 });
  });
});

describe('Error bodies', () => {
  const body = (error: unknown) => JSON.parse(errorResponse(error).body as string);
  it('400, 429 and 5XX match Error; 422 matches ValidationError; the music 404 matches NotFound', () => {
    servesExactly(errorSchema, body(new UnsupportedApiVersionError('2')));
    servesExactly(errorSchema, body(new RateLimitedError(5)));
    servesExactly(errorSchema, body(new Error('boom')));
    servesExactly(validationErrorSchema, body(new ValidationError([{ loc: ['body', 'prompt'], msg: 'Field required', type: 'missing' }])));
    servesExactly(notFoundSchema, body(new NotFoundError("Song 'x' not found")));
  });
  it.each(IDS)('the 402 challenge of %s matches PaymentChallenge', (id) => {
    servesExactly(paymentChallengeSchema, paymentChallenge(id, ctx.base, ctx.terms, REASON_MISSING));
  });
});
