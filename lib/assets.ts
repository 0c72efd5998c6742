/**
 * Asset delivery: a private, versioned S3 bucket behind CloudFront (origin access control, security headers), plus
 * the static assets it serves. Both the bucket and the distribution write access logs to a log bucket.
 */
import path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { JOB_TTL_SECONDS } from '../lambdas/store/jobs.js';

export interface AssetDelivery {
  bucket: s3.Bucket;
  /** Server access logs of the bucket (prefix `s3/`) and standard logs of the distribution (prefix `cdn/`). */
  logBucket: s3.Bucket;
  distribution: cloudfront.Distribution;
  /** https URL of the distribution: what buyers download from. */
  publicUrl: string;
}

/**
 * Where a job's files live (renders/<jobId>/ from the local provider, assets/<jobId>/ from StoreAsset): kept one day
 * past the job's own 30 days (lambdas/store/jobs.ts JOB_TTL_SECONDS), since a file is written after its job row and
 * an expired job polls like an unknown one, so nobody can be sent its files any more. `static/` is never expired.
 */
export const JOB_FILE_PREFIXES = ['renders/', 'assets/'] as const;
export const JOB_FILE_DAYS = Math.ceil(JOB_TTL_SECONDS / 86_400) + 1;
/** How long an overwritten or deleted version stays recoverable. */
export const NONCURRENT_VERSION_DAYS = 7;
/** How long access logs are kept. */
export const ACCESS_LOG_DAYS = 90;

export function createAssetDelivery(scope: Construct, projectRoot: string): AssetDelivery {
  const logBucket = new s3.Bucket(scope, 'AccessLogsBucket', {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    // CloudFront standard logs are delivered with an ACL grant to the bucket owner: ACLs must stay enabled.
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
    lifecycleRules: [{ id: 'ExpireAccessLogs', expiration: Duration.days(ACCESS_LOG_DAYS) }],
    // The record of who downloaded what outlives the stack.
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const bucket = new s3.Bucket(scope, 'AssetsBucket', {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    // Delivered assets are what buyers paid for: an overwrite or a delete by mistake stays recoverable for a while.
    versioned: true,
    lifecycleRules: [
      ...JOB_FILE_PREFIXES.map((prefix) => ({ id: `Expire-${prefix.slice(0, -1)}`, prefix, expiration: Duration.days(JOB_FILE_DAYS) })),
      {
        id: 'CleanUpVersions',
        noncurrentVersionExpiration: Duration.days(NONCURRENT_VERSION_DAYS),
        expiredObjectDeleteMarker: true,
        abortIncompleteMultipartUploadAfter: Duration.days(1),
      },
    ],
    serverAccessLogsBucket: logBucket,
    serverAccessLogsPrefix: 's3/',
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const distribution = new cloudfront.Distribution(scope, 'AssetsDistribution', {
    comment: 'Generated assets',
    defaultBehavior: {
      origin: origins.S3BucketOrigin.withOriginAccessControl(bucket),
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
      compress: true,
      // HSTS, nosniff, frame options, referrer policy, XSS protection (the managed SecurityHeadersPolicy).
      responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.SECURITY_HEADERS,
    },
    enableLogging: true,
    logBucket,
    logFilePrefix: 'cdn/',
    httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
    priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
  });
  // Static assets the API points at before a render exists (the placeholder cover a pending song shows).
  new s3deploy.BucketDeployment(scope, 'StaticAssets', {
    sources: [s3deploy.Source.asset(path.join(projectRoot, 'assets', 'static'))],
    destinationBucket: bucket,
    destinationKeyPrefix: 'static/',
    prune: false,
    memoryLimit: 256,
  });
  return { bucket, logBucket, distribution, publicUrl: `https://${distribution.distributionDomainName}` };
}
