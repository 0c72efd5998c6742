/*
 * What the functions bundle in place of `aws-xray-sdk-core` (lib/bundling/aliases.ts): the SDK's own namespace
 * object, built from the SDK's own files as its dist/lib/aws-xray.js builds it, without what no function of ours
 * reaches. Powertools Tracer (lambdas/shared/tracing.ts) is its only user: segments, subsegments, annotations,
 * metadata, errors, the Lambda facade segment, the UDP emitter and AWS SDK v3 client capture are the SDK's code,
 * unchanged. Left out, each throwing if called: the AWS SDK v2 patchers (and semver, which only they need; we have
 * no SDK v2), HTTP capture (tracing.ts turns it off: an RPC URL carries its API key), the EC2/ECS/Elastic Beanstalk
 * plugins, SQL data and the promise patcher. As the SDK does, loading it on Lambda sets up the Lambda environment.
 * test/unit/shared/xray-bundle.test.ts bundles a traced handler with this alias and reads what it sends the daemon.
 */
import contextUtils from '../../node_modules/aws-xray-sdk-core/dist/lib/context_utils.js';
import logging from '../../node_modules/aws-xray-sdk-core/dist/lib/logger.js';
import segmentUtils from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/segment_utils.js';
import utils from '../../node_modules/aws-xray-sdk-core/dist/lib/utils.js';
import LambdaEnv from '../../node_modules/aws-xray-sdk-core/dist/lib/env/aws_lambda.js';
import capture from '../../node_modules/aws-xray-sdk-core/dist/lib/capture.js';
import awsAttributes from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/attributes/aws.js';
import daemonConfig from '../../node_modules/aws-xray-sdk-core/dist/lib/daemon_config.js';
import aws3 from '../../node_modules/aws-xray-sdk-core/dist/lib/patchers/aws3_p.js';
import Segment from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/segment.js';
import Subsegment from '../../node_modules/aws-xray-sdk-core/dist/lib/segments/attributes/subsegment.js';
import { name as sdkName, version as sdkVersion } from '../../node_modules/aws-xray-sdk-core/package.json';

function notBundled(what) {
  return () => {
    throw new Error(`aws-xray-sdk-core: ${what} is not bundled (lib/bundling/aws-xray-sdk-core.mjs)`);
  };
}

const AWSXRay = {
  plugins: {},
  config: notBundled('config (EC2/ECS/Elastic Beanstalk plugins)'),
  setAWSWhitelist: awsAttributes.setAWSWhitelist,
  appendAWSWhitelist: awsAttributes.appendAWSWhitelist,
  setStreamingThreshold: segmentUtils.setStreamingThreshold,
  setLogger: logging.setLogger,
  getLogger: logging.getLogger,
  setDaemonAddress: daemonConfig.setDaemonAddress,
  captureFunc: capture.captureFunc,
  captureAsyncFunc: capture.captureAsyncFunc,
  captureCallbackFunc: capture.captureCallbackFunc,
  captureAWS: notBundled('captureAWS (AWS SDK v2)'),
  captureAWSClient: notBundled('captureAWSClient (AWS SDK v2)'),
  captureAWSv3Client: aws3.captureAWSClient,
  captureHTTPs: notBundled('captureHTTPs'),
  captureHTTPsGlobal: notBundled('captureHTTPsGlobal'),
  capturePromise: notBundled('capturePromise'),
  utils,
  getNamespace: contextUtils.getNamespace,
  resolveSegment: contextUtils.resolveSegment,
  resolveManualSegmentParams: contextUtils.resolveManualSegmentParams,
  getSegment: contextUtils.getSegment,
  setSegment: contextUtils.setSegment,
  isAutomaticMode: contextUtils.isAutomaticMode,
  enableAutomaticMode: contextUtils.enableAutomaticMode,
  enableManualMode: contextUtils.enableManualMode,
  setContextMissingStrategy: contextUtils.setContextMissingStrategy,
  Segment,
  Subsegment,
  SegmentUtils: segmentUtils,
};

segmentUtils.setSDKData({ sdk: 'X-Ray for Node.js', sdk_version: sdkVersion ?? 'unknown', package: sdkName ?? 'unknown' });
segmentUtils.setServiceData({
  runtime: process.release && process.release.name ? process.release.name : 'unknown',
  runtime_version: process.version,
  version: process.env.npm_package_version || 'unknown',
  name: process.env.npm_package_name || 'unknown',
});
if (process.env.LAMBDA_TASK_ROOT) LambdaEnv.init();

export default AWSXRay;
