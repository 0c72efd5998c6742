/** Asset delivery: a private S3 bucket behind CloudFront (origin access control), plus the static assets it serves. */
import path from 'node:path';
import { RemovalPolicy } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';

export interface AssetDelivery {
  bucket: s3.Bucket;
  distribution: cloudfront.Distribution;
  /** https URL of the distribution: what buyers download from. */
  publicUrl: string;
}

export function createAssetDelivery(scope: Construct, projectRoot: string): AssetDelivery {
  const bucket = new s3.Bucket(scope, 'AssetsBucket', {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    encryption: s3.BucketEncryption.S3_MANAGED,
    enforceSSL: true,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
    // Delivered assets are what buyers paid for.
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
    },
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
  return { bucket, distribution, publicUrl: `https://${distribution.distributionDomainName}` };
}
